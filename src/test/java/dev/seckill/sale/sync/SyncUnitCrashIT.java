package dev.seckill.sale.sync;

import java.net.http.HttpClient;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.seckill.salestate.StockCache;
import dev.seckill.salestate.SyncUnits;
import dev.seckill.salestate.SyncUnits.Unit;
import dev.seckill.support.Api;
import dev.seckill.support.AppProcess;
import dev.seckill.support.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Instance A (the packaged jar in its own JVM, sync mode) is killed -9 while its requests hold units: the
 * voucher's MySQL row is locked by the test, so A's requests have taken their units and wait for the
 * voucher lock or the row. Instance B (this test's context, a 3 s unit timeout) must return every one of
 * them after the timeout, not before: then Redis's stock equals MySQL's, the audit adds up, and the whole
 * stock can still be sold, once.
 */
@TestPropertySource(properties = {"seckill.mode=sync", "seckill.web.instance-id=sync-crash-b", "seckill.sync-units.unit-timeout=3s",
        "seckill.sync-units.sweep-every=200ms"})
class SyncUnitCrashIT extends IntegrationTest {

    static final int STOCK = 30;
    static final int SOLD_BEFORE = 5;
    static final int REQUESTS_TO_A = 12;
    static final long TIMEOUT_MILLIS = 3_000;

    @Autowired
    SyncUnits units;

    @Autowired
    StockCache stock;

    @Autowired
    DataSource dataSource;

    @Autowired
    JdbcTemplate db;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void unitsHeldByAKilledInstanceGoBackToStockAfterTheTimeout() throws Exception {
        long voucherId = api.createVoucher(STOCK);
        List<String> tokens = api.mintShoppers(SOLD_BEFORE + REQUESTS_TO_A + STOCK);
        for (String token : tokens.subList(0, SOLD_BEFORE)) {
            api.seckill(voucherId, token).expectStatus(201);
        }

        List<Unit> heldAtKill;
        long redisStockAtKill;
        try (AppProcess a = AppProcess.start("sync-crash-a", "--seckill.mode=sync");
                Connection rowLock = dataSource.getConnection()) {
            rowLock.setAutoCommit(false);
            try (PreparedStatement lock = rowLock.prepareStatement(
                    "SELECT stock FROM seckill_voucher WHERE voucher_id = ? FOR UPDATE")) {
                lock.setLong(1, voucherId);
                lock.executeQuery().close();
            }
            Api toA = new Api(a.port(), HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(2)).build());
            ExecutorService clients = Executors.newFixedThreadPool(REQUESTS_TO_A);
            for (String token : tokens.subList(SOLD_BEFORE, SOLD_BEFORE + REQUESTS_TO_A)) {
                clients.submit(() -> {
                    try {
                        toA.seckill(voucherId, token);
                    } catch (IllegalStateException connectionLost) {
                        // A was killed under this request: its answer is lost with it.
                    }
                });
            }
            // The first request to get the voucher lock waits 3 s for the row, then gives its unit back:
            // kill while most of them hold theirs.
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10))
                    .until(() -> units.read(voucherId).inFlight().size() >= REQUESTS_TO_A / 2);
            a.kill();
            // Read at once: B's sweeper leaves them alone for the timeout (3 s) after they were taken.
            heldAtKill = units.read(voucherId).inFlight();
            redisStockAtKill = stock.read(voucherId).orElseThrow();
            rowLock.rollback();
            clients.shutdown();
            assertThat(clients.awaitTermination(1, TimeUnit.MINUTES)).isTrue();
        }
        System.out.printf("Sync crash: A killed holding %d units%n", heldAtKill.size());
        assertThat(heldAtKill).isNotEmpty();
        assertThat(redisStockAtKill).as("the units A took are gone from Redis's stock")
                .isEqualTo(STOCK - SOLD_BEFORE - heldAtKill.size());

        // B's sweeper waits out the timeout (and the voucher lock A died holding).
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                .until(() -> units.read(voucherId).inFlight().isEmpty());

        long mySqlStock = db.queryForObject("SELECT stock FROM seckill_voucher WHERE voucher_id = ?", Long.class, voucherId);
        assertThat(stock.read(voucherId).orElseThrow()).as("Redis stock equals MySQL stock").isEqualTo(mySqlStock)
                .isEqualTo(STOCK - SOLD_BEFORE);
        for (Unit returned : units.read(voucherId).returned()) {
            Unit taken = heldAtKill.stream().filter(unit -> unit.orderId() == returned.orderId()).findFirst().orElseThrow();
            assertThat(returned.atMillis() - taken.atMillis()).as("returned only after the timeout")
                    .isGreaterThanOrEqualTo(TIMEOUT_MILLIS);
        }
        JsonNode audit = api.audit(voucherId);
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        assertThat(audit.path("syncUnitsInFlight").asLong()).isZero();

        // Every unit is for sale again, and sold once: the remaining shoppers buy the rest.
        int created = 0;
        for (String token : tokens.subList(SOLD_BEFORE + REQUESTS_TO_A, tokens.size())) {
            Api.Response answer = api.seckill(voucherId, token);
            if (answer.status() == 201) {
                created++;
            } else {
                answer.expectProblem(409, "sold-out");
            }
        }
        assertThat(created).isEqualTo(STOCK - SOLD_BEFORE);
        JsonNode soldOut = api.audit(voucherId);
        assertThat(soldOut.path("orders").asLong()).isEqualTo(STOCK);
        assertThat(soldOut.path("oversold").asLong()).isZero();
        assertThat(soldOut.path("dbStock").asLong()).isZero();
        assertThat(soldOut.path("redisStock").asLong()).isZero();
        assertThat(soldOut.path("consistent").asBoolean()).as(soldOut.toString()).isTrue();
    }
}
