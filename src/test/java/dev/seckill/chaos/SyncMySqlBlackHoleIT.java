package dev.seckill.chaos;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Api.Response;
import dev.seckill.support.TcpProxy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MySQL stops answering without closing anything (a hung server, a firewall dropping packets): both sync
 * instances reach it through a proxy that keeps every connection open and forwards nothing, and the
 * shopper asks through Nginx, as a client would. With the shipped timeouts (application.yml, nothing
 * overridden here) the sync path answers 503 backend-unavailable within seconds instead of holding the
 * request, and a Tomcat thread, for as long as the outage lasts; when MySQL answers again, so does the
 * next order.
 */
class SyncMySqlBlackHoleIT {

    /** Well above the configured socket timeout (5 s) plus rollback and Redis work; far below "hung". */
    static final long MAX_ANSWER_MILLIS = 10_000;

    /** The bound covers starting two packaged instances on a fresh database too: 156 s of it on a loaded 2-core run. */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void theSyncPathAnswers503WithinSecondsWhileMySqlIsABlackHoleAndRecoversAfter() throws Exception {
        try (ChaosCluster cluster = ChaosCluster.named("black-hole", "seckill_chaos_black_hole").mode("sync")
                .mySqlProxy().start()) {
            Api api = cluster.api();
            TcpProxy mysql = cluster.mySql();
            long voucherId = api.createVoucher(10);
            List<String> shoppers = api.mintShoppers(6);
            api.seckill(voucherId, shoppers.get(0)).expectStatus(201);

            mysql.blackHole();
            // At once (the pool hands out a connection it just used, unchecked: only the socket timeout
            // can end the wait), then after a pause (the pool validates an idle connection first, and
            // opens new ones into the black hole). Nginx takes turns, so both instances meet it.
            expectBackendUnavailableInTime(api, voucherId, shoppers.get(1));
            Thread.sleep(1_000); // the pause above, on purpose: the pool's connections sit idle for a while
            expectBackendUnavailableInTime(api, voucherId, shoppers.get(2));
            expectBackendUnavailableInTime(api, voucherId, shoppers.get(3));

            mysql.forward();
            Response recovered = api.seckill(voucherId, shoppers.get(4));
            assertThat(recovered.status()).as(recovered.body()).isEqualTo(201);
            // The refused shoppers lost nothing: their unit went back and they may order again.
            api.seckill(voucherId, shoppers.get(1)).expectStatus(201);
            assertThat(api.audit(voucherId).path("consistent").asBoolean()).isTrue();
        }
    }

    private static void expectBackendUnavailableInTime(Api api, long voucherId, String shopper) {
        long start = System.nanoTime();
        Response response = api.seckill(voucherId, shopper);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.printf("MySQL black hole, through Nginx: %d %s in %d ms (%s)%n", response.status(), response.code(),
                millis, response.instanceId());
        response.expectProblem(503, "backend-unavailable");
        assertThat(millis).as("answer time with MySQL a black hole").isLessThan(MAX_ANSWER_MILLIS);
    }
}
