package dev.seckill.sandbox;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import dev.seckill.payment.PaymentGateway;
import dev.seckill.payment.PaymentGateway.Checkout;
import dev.seckill.payment.PaymentGateway.CheckoutRequest;
import dev.seckill.payment.PaymentGateway.CloseOutcome;
import dev.seckill.payment.PaymentGateway.PaymentState;
import dev.seckill.payment.PaymentGateway.RefundOutcome;
import dev.seckill.sandbox.SandboxCheckout.Outcome;
import dev.seckill.support.IntegrationTest;
import dev.seckill.support.SandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sandbox as the payment module sees it (the {@link PaymentGateway} port, over HTTP to the sandbox's own
 * application) and as the shopper moves it (pay, abandon), against the real database: each move is decided by one guarded UPDATE, so a close racing a payment
 * ends with exactly one of them having happened, and what each call answered agrees with what is stored.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SandboxGatewayIT extends IntegrationTest {

    static final AtomicLong ORDER_IDS = new AtomicLong(System.nanoTime() & 0xFFFF_FFFFL);

    @Autowired
    PaymentGateway gateway;

    SandboxCheckout checkout = SandboxProvider.bean(SandboxCheckout.class);

    @Autowired
    JdbcTemplate jdbc;

    Checkout open(long amountCents) {
        return gateway.open(new CheckoutRequest(ORDER_IDS.incrementAndGet(), amountCents, Instant.now().plusSeconds(600), null));
    }

    @Test
    void aPaymentOpensWithARelativeCheckoutUrlOfItsOwn() {
        Checkout first = open(1999);
        Checkout second = open(1999);
        assertThat(first.paymentRef()).matches("pay_[A-Za-z0-9_-]{24}").isNotEqualTo(second.paymentRef());
        assertThat(first.checkoutUrl()).hasToString("/sandbox/checkout/" + first.paymentRef());
        assertThat(first.checkoutUrl().isAbsolute()).isFalse();
        assertThat(status(first)).isEqualTo("OPEN");
    }

    @Test
    void anIdempotencyKeyOpensOnePaymentHoweverOftenItIsSentAndOnlyForItsOwnRequest() throws Exception {
        long orderId = ORDER_IDS.incrementAndGet();
        Instant payBy = Instant.now().plusSeconds(600);
        String key = "order-" + orderId + "-payment-1";
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<CompletableFuture<Checkout>> tries;
        try {
            tries = IntStream.range(0, 8).mapToObj(i -> CompletableFuture.supplyAsync(
                    () -> gateway.open(new CheckoutRequest(orderId, 1999, payBy, key)), threads)).toList();
            CompletableFuture.allOf(tries.toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
        assertThat(tries.stream().map(CompletableFuture::join).map(Checkout::paymentRef).distinct())
                .as("eight tries at once, one key").hasSize(1);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sandbox_payment WHERE order_id = ?", Long.class, orderId))
                .isEqualTo(1);
        Checkout next = gateway.open(new CheckoutRequest(orderId, 1999, payBy, "order-" + orderId + "-payment-2"));
        assertThat(next.paymentRef()).as("another key, another payment").isNotEqualTo(tries.get(0).join().paymentRef());

        assertThatThrownBy(() -> gateway.open(new CheckoutRequest(orderId, 2999, payBy, key)))
                .as("the key with another amount").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> gateway.open(new CheckoutRequest(orderId + 1, 1999, payBy, key)))
                .as("the key for another order").isInstanceOf(IllegalArgumentException.class);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM sandbox_payment WHERE order_id IN (?, ?)", Long.class,
                orderId, orderId + 1)).isEqualTo(2);
    }

    @Test
    void aClosedPaymentCanNoLongerBePaid() {
        Checkout payment = open(500);
        assertThat(gateway.close(payment.paymentRef())).isEqualTo(CloseOutcome.CLOSED);
        assertThat(gateway.close(payment.paymentRef())).as("closing again").isEqualTo(CloseOutcome.CLOSED);

        SandboxCheckout.Result paid = checkout.pay(payment.paymentRef()).orElseThrow();
        assertThat(paid.outcome()).isEqualTo(Outcome.NOT_OPEN);
        assertThat(paid.payment().status()).isEqualTo(SandboxStatus.CLOSED);
        assertThat(status(payment)).isEqualTo("CLOSED");
        assertThat(gateway.status(payment.paymentRef())).isEqualTo(PaymentState.CLOSED);
        assertThat(types(payment)).isEmpty();
    }

    @Test
    void aPaidPaymentCannotBeClosedAndIsRefundedOnce() {
        Checkout payment = open(1999);
        assertThat(checkout.pay(payment.paymentRef()).orElseThrow().outcome()).isEqualTo(Outcome.DONE);
        assertThat(types(payment)).containsExactlyInAnyOrder("payment.processing", "payment.succeeded");
        assertThat(gateway.close(payment.paymentRef())).isEqualTo(CloseOutcome.ALREADY_PAID);
        assertThat(status(payment)).isEqualTo("PAID");
        assertThat(gateway.status(payment.paymentRef())).isEqualTo(PaymentState.PAID);

        assertThatThrownBy(() -> gateway.refund(payment.paymentRef(), 1000)).as("answered 422")
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(status(payment)).as("a refused refund changes nothing").isEqualTo("PAID");

        assertThat(gateway.refund(payment.paymentRef(), 1999)).isEqualTo(RefundOutcome.REFUNDED);
        assertThat(gateway.refund(payment.paymentRef(), 1999)).isEqualTo(RefundOutcome.REFUNDED);
        assertThat(status(payment)).isEqualTo("REFUNDED");
        assertThat(gateway.status(payment.paymentRef())).isEqualTo(PaymentState.REFUNDED);
        assertThat(types(payment)).filteredOn("refund.succeeded"::equals).hasSize(1);
        assertThat(gateway.close(payment.paymentRef())).isEqualTo(CloseOutcome.ALREADY_PAID);
    }

    @Test
    void whatWasNeverPaidIsNotRefundedAndUnknownPaymentsAreSaidSo() {
        Checkout open = open(700);
        assertThat(gateway.status(open.paymentRef())).isEqualTo(PaymentState.OPEN);
        assertThat(gateway.refund(open.paymentRef(), 700)).isEqualTo(RefundOutcome.NOT_PAID);
        Checkout abandoned = open(700);
        assertThat(checkout.abandon(abandoned.paymentRef()).orElseThrow().outcome()).isEqualTo(Outcome.DONE);
        assertThat(types(abandoned)).containsExactly("payment.canceled");
        assertThat(gateway.refund(abandoned.paymentRef(), 700)).isEqualTo(RefundOutcome.NOT_PAID);
        assertThat(gateway.close(abandoned.paymentRef())).as("abandoned is as good as closed").isEqualTo(CloseOutcome.CLOSED);
        assertThat(status(abandoned)).isEqualTo("CANCELED");
        assertThat(gateway.status(abandoned.paymentRef())).isEqualTo(PaymentState.CANCELED);

        assertThat(gateway.close("pay_nosuchpayment")).isEqualTo(CloseOutcome.UNKNOWN);
        assertThat(gateway.refund("pay_nosuchpayment", 700)).isEqualTo(RefundOutcome.UNKNOWN);
        assertThat(gateway.status("pay_nosuchpayment")).isEqualTo(PaymentState.UNKNOWN);
        assertThat(checkout.pay("pay_nosuchpayment")).isEmpty();
        assertThat(checkout.abandon("pay_nosuchpayment")).isEmpty();
    }

    @Test
    void aPaymentPastItsPayByTimeIsRefusedAndStaysOpenForTheMerchantToClose() {
        Checkout late = gateway.open(new CheckoutRequest(ORDER_IDS.incrementAndGet(), 300, Instant.now().minusSeconds(1), null));
        SandboxCheckout.Result paid = checkout.pay(late.paymentRef()).orElseThrow();
        assertThat(paid.outcome()).isEqualTo(Outcome.TOO_LATE);
        assertThat(status(late)).isEqualTo("OPEN");
        assertThat(gateway.close(late.paymentRef())).isEqualTo(CloseOutcome.CLOSED);
        assertThat(types(late)).isEmpty();
    }

    @Test
    void aCloseRacingAPaymentLetsExactlyOneOfThemHappen() throws Exception {
        int payments = 50;
        ExecutorService threads = Executors.newFixedThreadPool(2);
        int paidCount = 0;
        try {
            for (int i = 0; i < payments; i++) {
                Checkout payment = open(1000 + i);
                CyclicBarrier start = new CyclicBarrier(2);
                CompletableFuture<CloseOutcome> close = CompletableFuture.supplyAsync(() -> {
                    await(start);
                    return gateway.close(payment.paymentRef());
                }, threads);
                CompletableFuture<Outcome> pay = CompletableFuture.supplyAsync(() -> {
                    await(start);
                    return checkout.pay(payment.paymentRef()).orElseThrow().outcome();
                }, threads);
                CloseOutcome closed = close.get(20, TimeUnit.SECONDS);
                Outcome paid = pay.get(20, TimeUnit.SECONDS);
                String stored = status(payment);
                if (paid == Outcome.DONE) {
                    paidCount++;
                    assertThat(closed).as("payment %d: paid, so the close was refused", i).isEqualTo(CloseOutcome.ALREADY_PAID);
                    assertThat(stored).isEqualTo("PAID");
                    assertThat(types(payment)).containsExactlyInAnyOrder("payment.processing", "payment.succeeded");
                } else {
                    assertThat(paid).as("payment %d: not paid, so closed first", i).isEqualTo(Outcome.NOT_OPEN);
                    assertThat(closed).isEqualTo(CloseOutcome.CLOSED);
                    assertThat(stored).isEqualTo("CLOSED");
                    assertThat(types(payment)).isEmpty();
                }
            }
        } finally {
            threads.shutdownNow();
        }
        // not asserted: which side wins is up to the scheduler; both should win sometimes over 50 races
        System.out.printf("close vs pay: %d of %d paid first%n", paidCount, payments);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    String status(Checkout payment) {
        return jdbc.queryForObject("SELECT status FROM sandbox_payment WHERE ref = ?", String.class, payment.paymentRef());
    }

    List<String> types(Checkout payment) {
        return jdbc.queryForList("SELECT type FROM sandbox_delivery WHERE payment_ref = ?", String.class,
                payment.paymentRef());
    }
}
