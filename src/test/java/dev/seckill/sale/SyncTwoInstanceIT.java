package dev.seckill.sale;

import java.util.Map;

import org.junit.jupiter.api.BeforeAll;

class SyncTwoInstanceIT extends TwoInstanceInvariants {

    @BeforeAll
    static void start() {
        // A voucher's orders take its lock one at a time. With another test JVM beside this one on two cores, the
        // hundred orders of the burst can take longer in a row than the default wait (10 s), and the last ones would
        // be refused voucher-busy, units back on sale: a refusal this test does not count (SyncSentinelFailoverChaosIT
        // does). It counts what two instances sell, so it gives the queue time.
        startTwoInstances("sync", "it-sync", Map.of("seckill.lock.voucher-wait", "25s",
                "seckill.lock.watchdog-timeout", "60s"));
    }

    @Override
    int acceptedStatus() {
        return 201;
    }
}
