package dev.seckill.payment;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/** {@code seckill.payments.*}: payments opened, notifications by type and outcome, refunds asked for. */
@Component
class PaymentMeters {

    private final MeterRegistry registry;
    private final Counter opened;
    private final Counter refunds;

    PaymentMeters(MeterRegistry registry) {
        this.registry = registry;
        this.opened = Counter.builder("seckill.payments.opened").description("Payments opened with the provider")
                .register(registry);
        this.refunds = Counter.builder("seckill.payments.refunds")
                .description("Refunds asked for: payments that succeeded after their order ended unpaid, or paid it twice")
                .register(registry);
    }

    void opened() {
        opened.increment();
    }

    void refundRequested() {
        refunds.increment();
    }

    void notification(String type, String outcome) {
        Counter.builder("seckill.payments.notifications").description("Provider notifications handled, by type and outcome")
                .tag("type", type).tag("outcome", outcome).register(registry).increment();
    }
}
