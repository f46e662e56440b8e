package dev.seckill.sale.stream;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Api.Response;
import dev.seckill.support.TcpProxy;
import dev.seckill.support.Instances;
import dev.seckill.support.TestServers;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MySQL goes away for a while under load (the instance reaches it through a proxy the test cuts).
 * The async path keeps accepting orders from Redis alone; when MySQL is back, every accepted order is
 * in MySQL, once, and none was given up.
 */
class MySqlOutageIT {

    static final int PER_PHASE = 400;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void everyOrderAcceptedDuringAnOutageIsInMySqlAfterItReturns() throws Exception {
        URI db = URI.create(TestServers.properties().get("spring.datasource.url").substring("jdbc:".length()));
        try (TcpProxy mysql = new TcpProxy(db.getHost(), db.getPort());
                ConfigurableApplicationContext app = start(TestServers.properties().get("spring.datasource.url")
                        .replace(db.getHost() + ":" + db.getPort(), "127.0.0.1:" + mysql.port()))) {
            Api api = new Api(Integer.parseInt(app.getEnvironment().getRequiredProperty("local.server.port")));
            long voucherId = api.createVoucher(3 * PER_PHASE);
            List<String> tokens = api.mintShoppers(3 * PER_PHASE);
            Set<String> accepted = ConcurrentHashMap.newKeySet();

            order(api, voucherId, tokens.subList(0, PER_PHASE), accepted);
            mysql.cut();
            order(api, voucherId, tokens.subList(PER_PHASE, 2 * PER_PHASE), accepted);
            assertThat(accepted).as("accepted with MySQL gone").hasSize(2 * PER_PHASE);
            Thread.sleep(3_000); // on purpose: the consumers meet the outage and back off before it ends
            mysql.restore();
            order(api, voucherId, tokens.subList(2 * PER_PHASE, 3 * PER_PHASE), accepted);

            JsonNode audit = Awaitility.await("no order pending a minute after MySQL returned")
                    .atMost(Duration.ofSeconds(60)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                    .until(() -> auditOnceAnswered(api, voucherId), answered -> answered.path("pendingOrders").asLong() == 0);
            List<String> inMySql = app.getBean(JdbcTemplate.class).queryForList(
                    "SELECT CAST(id AS CHAR) FROM voucher_order WHERE voucher_id = ?", String.class, voucherId);
            System.out.printf("MySQL outage: %d accepted, %d in MySQL afterwards, audit %s%n", accepted.size(),
                    inMySql.size(), audit);
            assertThat(inMySql).hasSize(3 * PER_PHASE).containsExactlyInAnyOrderElementsOf(accepted);
            assertThat(audit.path("failedOrders").asLong()).isZero();
            assertThat(audit.path("dbStock").asLong()).isZero();
            assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        }
    }

    /**
     * Right after MySQL returns, the pool may still hand out a dead connection: that answers 503 for a few
     * seconds at most (10 s allowed); any answer but 200 or that 503 fails at once.
     */
    private static JsonNode auditOnceAnswered(Api api, long voucherId) {
        return Awaitility.await("MySQL answers the audit again").atMost(Duration.ofSeconds(10))
                .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                .until(() -> api.asAdmin("GET", "/admin/vouchers/" + voucherId + "/audit", null), audit -> {
                    if (audit.status() == 200) {
                        return true;
                    }
                    audit.expectProblem(503, "backend-unavailable");
                    return false;
                }).json();
    }

    private static void order(Api api, long voucherId, List<String> tokens, Set<String> accepted) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(32);
        List<Future<?>> sent = new ArrayList<>();
        for (String token : tokens) {
            sent.add(clients.submit(() -> {
                Response response = api.seckill(voucherId, token).expectStatus(202);
                accepted.add(response.json().path("orderId").asString());
            }));
        }
        for (Future<?> request : sent) {
            request.get();
        }
        clients.shutdown();
    }

    private static ConfigurableApplicationContext start(String proxiedDbUrl) {
        return Instances.start("async", "outage-it", Map.of("spring.datasource.url", proxiedDbUrl, "spring.datasource.hikari.connection-timeout", "1000"));
    }
}
