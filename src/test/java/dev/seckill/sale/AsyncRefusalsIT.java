package dev.seckill.sale;

import org.springframework.test.context.TestPropertySource;

/** The purchase refusals on the async path (the product's default): the same answers as on the sync path. */
@TestPropertySource(properties = "seckill.mode=async")
class AsyncRefusalsIT extends PurchaseRefusals {

    @Override
    int accepted() {
        return 202;
    }
}
