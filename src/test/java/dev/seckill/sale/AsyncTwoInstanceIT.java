package dev.seckill.sale;

import org.junit.jupiter.api.BeforeAll;

class AsyncTwoInstanceIT extends TwoInstanceInvariants {

    @BeforeAll
    static void start() {
        startTwoInstances("async");
    }

    @Override
    int acceptedStatus() {
        return 202;
    }
}
