package dev.seckill.sale.internal;

import dev.seckill.salestate.VoucherKeys;
import dev.seckill.support.Instances;
import dev.seckill.support.IntegrationTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An instance started in sync mode while async orders of a voucher wait for MySQL says so, naming the
 * voucher: no stream consumer runs in sync mode, so they wait until an async instance runs. The order stays
 * where it was: nothing is dropped by the switch.
 */
@ExtendWith(OutputCaptureExtension.class)
class ModeSwitchCheckIT extends IntegrationTest {

    @Autowired
    RedissonClient redisson;

    @Test
    void aSyncInstanceNamesTheAsyncOrdersItLeavesWaiting(CapturedOutput output) {
        long voucherId = api.createVoucher(5);
        // An accepted order whose consumer has not written it yet (as if the consumers were stopped).
        String pending = VoucherKeys.pending(voucherId);
        redisson.getMap(pending, StringCodec.INSTANCE).put("4242", "42");
        try (ConfigurableApplicationContext sync = Instances.start("sync", "mode-switch-it")) {
            assertThat(output.getAll()).contains("Started with seckill.mode=sync, but: Async orders are still on their "
                    + "way to MySQL").containsPattern("voucher -> orders: \\{[^}]*\\b" + voucherId + "=1\\b");
            assertThat(redisson.getMap(pending, StringCodec.INSTANCE).get("4242")).as("left as it was").isEqualTo("42");
        } finally {
            redisson.getMap(pending, StringCodec.INSTANCE).remove("4242");
        }
    }

    @Test
    void nothingIsSaidWhenNothingWaits(CapturedOutput output) {
        long voucherId = api.createVoucher(5);
        try (ConfigurableApplicationContext sync = Instances.start("sync", "mode-switch-quiet-it")) {
            assertThat(output.getAll()).doesNotContainPattern("voucher -> orders: \\{[^}]*\\b" + voucherId + "=");
        }
    }
}
