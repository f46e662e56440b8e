package dev.seckill.sale;

import org.junit.jupiter.api.BeforeAll;

class SyncTwoInstanceIT extends TwoInstanceInvariants {

    @BeforeAll
    static void start() {
        startTwoInstances("sync");
    }

    @Override
    int acceptedStatus() {
        return 201;
    }
}
