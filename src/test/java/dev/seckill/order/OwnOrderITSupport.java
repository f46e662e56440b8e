package dev.seckill.order;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Api.Response;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.RawHttp;
import org.awaitility.Awaitility;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the tests of {@code GET /orders?voucherId}, already-ordered's {@code orderId} and
 * {@code Idempotency-Key} share in both modes: the calls, and a snapshot of everything a request could
 * change in MySQL and Redis.
 */
abstract class OwnOrderITSupport extends IntegrationTest {

    static final String KEY = "Idempotency-Key";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @Autowired
    RedissonClient redisson;

    @Autowired
    JdbcTemplate db;

    Response byVoucher(long voucherId, String token) {
        return api.get("/orders?voucherId=" + voucherId, "Authorization", "Bearer " + token);
    }

    JsonNode ownOrder(long voucherId, String token) {
        return byVoucher(voucherId, token).expectStatus(200).json();
    }

    /** A purchase with an Idempotency-Key, with its headers (the Api client keeps only a few). */
    HttpResponse<String> seckillWithKey(long voucherId, String token, String key) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/seckill/" + voucherId))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).header(KEY, key)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The first answer again, as the order is now: the same status code and order, marked as a replay, its
     * {@code status} the order's state at the time of the replay (one of {@code statusNow}).
     */
    static void expectReplayOf(Response first, HttpResponse<String> replay, String... statusNow) {
        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(first.status());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        JsonNode body = JSON.readTree(replay.body());
        assertThat(body.path("orderId").asString()).as(replay.body()).isEqualTo(orderIdOf(first));
        assertThat(body.path("voucherId").asLong()).as(replay.body()).isEqualTo(first.json().path("voucherId").asLong());
        assertThat(body.path("status").asString()).as(replay.body()).isIn((Object[]) statusNow);
    }

    /**
     * A shopper buys with a key, cancels the order, then sends the purchase again with the same key (a retry whose
     * first answer was lost meanwhile): the replay names the order and says it is cancelled, not what the first
     * answer said then.
     */
    void aReplayAfterTheOrderWasCancelledSaysItIsCancelled() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        HttpResponse<String> first = seckillWithKey(voucherId, token, "buy-then-cancel");
        assertThat(first.statusCode()).as(first.body()).isIn(201, 202);
        String orderId = JSON.readTree(first.body()).path("orderId").asString();
        awaitOwnStatus(voucherId, token, orderId, "AWAITING_PAYMENT");
        api.post("/orders/" + orderId + "/cancel", null, "Authorization", "Bearer " + token).expectStatus(200);

        HttpResponse<String> replay = seckillWithKey(voucherId, token, "buy-then-cancel");

        assertThat(replay.statusCode()).as(replay.body()).isEqualTo(first.statusCode());
        assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
        JsonNode body = JSON.readTree(replay.body());
        assertThat(body.path("orderId").asString()).isEqualTo(orderId);
        assertThat(body.path("voucherId").asLong()).isEqualTo(voucherId);
        assertThat(body.path("status").asString()).as(replay.body()).isEqualTo("CANCELLED");
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("orders").asLong()).as("no second order").isEqualTo(1);
        assertThat(audit.path("redisStock").asLong()).as("the cancelled unit is back, and not taken again").isEqualTo(5);
    }

    static String orderIdOf(Response answer) {
        return answer.json().path("orderId").asString();
    }

    /** 409 already-ordered naming this order, as a string (a 64-bit id does not survive a JS number). */
    static void expectAlreadyOrdered(Response answer, String orderId) {
        answer.expectProblem(409, "already-ordered");
        JsonNode body = answer.json();
        assertThat(body.path("orderId").isString()).as(answer.body()).isTrue();
        assertThat(body.path("orderId").asString()).isEqualTo(orderId);
    }

    void awaitOwnStatus(long voucherId, String token, String orderId, String status) {
        Awaitility.await("own order becomes " + status).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> {
                    JsonNode own = ownOrder(voucherId, token);
                    assertThat(own.path("orderId").asString()).isEqualTo(orderId);
                    assertThat(own.path("status").asString()).isEqualTo(status);
                });
    }

    /**
     * Every bad input of the two new inputs (the voucherId parameter, the Idempotency-Key header) is a
     * 4xx problem with its code, and changes nothing: the shopper has no order before, so a request let
     * through by mistake would leave one.
     */
    void badInputsAreRefusedAndChangeNothing() {
        long voucherId = api.createVoucher(5);
        String token = api.mintShoppers(1).get(0);
        String auth = "Bearer " + token;
        Snapshot before = snapshot(voucherId);

        for (String id : List.of("abc", "1.5", "99999999999999999999999", "1e3", "")) {
            api.get("/orders?voucherId=" + id, "Authorization", auth).expectProblem(400, "invalid-parameter");
        }
        for (String id : List.of("0", "-1")) {
            api.get("/orders?voucherId=" + id, "Authorization", auth).expectProblem(400, "validation-failed");
        }
        api.get("/orders", "Authorization", auth).expectProblem(400, "missing-parameter");
        api.get("/orders?voucherid=" + voucherId, "Authorization", auth).expectProblem(400, "missing-parameter");
        api.get("/orders?voucherId=" + voucherId).expectProblem(401, "token-missing");
        api.get("/orders?voucherId=" + voucherId, "Authorization", "Bearer not-a-token").expectProblem(401, "token-invalid");

        // Byte for byte on the wire (ISO-8859-1): an HTTP client would encode or refuse some of these.
        for (String key : List.of("k".repeat(65), "", "caf\u00e9", "tab\tinside")) {
            RawHttp.send(port, "POST /seckill/" + voucherId, "Authorization", auth, KEY, key)
                    .expectProblem(400, "validation-failed");
        }
        // Control characters other than a tab never reach the application: Tomcat refuses the request.
        for (String key : List.of("del\u007f", "nul\u0000")) {
            RawHttp.Answer refused = RawHttp.send(port, "POST /seckill/" + voucherId, "Authorization", auth, KEY, key);
            assertThat(refused.status()).as(key).isEqualTo(400);
            assertThat(refused.asResponse().code()).as(key).isEqualTo("bad-request");
        }

        assertThat(snapshot(voucherId)).isEqualTo(before);
        byVoucher(voucherId, token).expectProblem(404, "order-not-found");
        // The longest key allowed, every printable character class in it, is taken.
        HttpResponse<String> taken = seckillWithKey(voucherId, token, "a b~!\"#{}" + "k".repeat(55));
        assertThat(taken.statusCode()).as(taken.body()).isIn(201, 202);
        assertThat(taken.headers().firstValue("Idempotent-Replayed")).isEmpty();
    }

    Map<String, String> shopperOrders(long voucherId) {
        return new TreeMap<>(redisson.<String, String>getMap(VoucherKeys.shopperOrders(voucherId), StringCodec.INSTANCE)
                .readAllMap());
    }

    /** Everything of the voucher a purchase or a lookup could change, in MySQL and in Redis. */
    Snapshot snapshot(long voucherId) {
        JsonNode audit = api.audit(voucherId);
        Set<String> buyers = new TreeSet<>(redisson.<String>getSet(VoucherKeys.buyers(voucherId), StringCodec.INSTANCE)
                .readAll());
        return new Snapshot(db.queryForObject("SELECT COUNT(*) FROM voucher_order WHERE voucher_id = ?", Long.class, voucherId),
                db.queryForObject("SELECT stock FROM seckill_voucher WHERE voucher_id = ?", Integer.class, voucherId),
                audit.path("redisStock").asLong(), audit.path("pendingOrders").asLong(), buyers, shopperOrders(voucherId),
                redisson.getStream(VoucherKeys.orders(voucherId), StringCodec.INSTANCE).size());
    }

    record Snapshot(long orders, int dbStock, long redisStock, long pending, Set<String> buyers,
            Map<String, String> shopperOrders, long streamLength) {
    }
}
