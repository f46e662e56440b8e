package dev.seckill.sale.buying;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.seckill.sale.buying.PurchaseDecision.Decision;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;
import org.junit.jupiter.api.Test;
import org.redisson.client.RedisTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sharing of enqueue calls, against a Redis stand-in whose calls the test answers by hand: who waits,
 * what goes together, and that every order gets its own answer or its call's failure.
 */
class EnqueueCoalescerTest {

    /** The calls sent, each answered when the test says so. */
    static final class Calls implements EnqueueCoalescer.BatchCall {

        record Sent(long voucherId, List<PurchaseDecision.Order> orders, CompletableFuture<List<OrderEnqueue.Enqueue>> answer) {
        }

        final List<Sent> sent = new ArrayList<>();

        @Override
        public CompletionStage<List<OrderEnqueue.Enqueue>> enqueue(long voucherId, List<PurchaseDecision.Order> orders) {
            Sent call = new Sent(voucherId, List.copyOf(orders), new CompletableFuture<>());
            sent.add(call);
            return call.answer();
        }

        /** Answers the call: shopper n's order is accepted when n is even, sold out when odd. */
        void answer(int call) {
            List<OrderEnqueue.Enqueue> outcomes = new ArrayList<>();
            for (PurchaseDecision.Order order : sent.get(call).orders()) {
                outcomes.add(new OrderEnqueue.Enqueue(Decision.of(order.shopperId() % 2 == 0 ? Outcome.ACCEPTED
                        : Outcome.SOLD_OUT), false));
            }
            sent.get(call).answer().complete(outcomes);
        }

        List<Long> shoppersOf(int call) {
            return sent.get(call).orders().stream().map(PurchaseDecision.Order::shopperId).toList();
        }
    }

    final Calls calls = new Calls();
    final EnqueueCoalescer coalescer = new EnqueueCoalescer(calls, 3);

    @Test
    void anOrderForAnIdleVoucherIsSentAtOnceAndAlone() {
        CompletableFuture<OrderEnqueue.Enqueue> answer = order(7, 2);

        assertThat(calls.sent).hasSize(1);
        assertThat(calls.shoppersOf(0)).containsExactly(2L);
        assertThat(answer).isNotDone();
        calls.answer(0);
        assertThat(answer.join().outcome()).isEqualTo(Outcome.ACCEPTED);
    }

    @Test
    void ordersArrivingWhileACallIsInFlightGoTogetherInTheNextEachWithItsOwnAnswer() {
        CompletableFuture<OrderEnqueue.Enqueue> first = order(7, 2);
        CompletableFuture<OrderEnqueue.Enqueue> second = order(7, 3);
        CompletableFuture<OrderEnqueue.Enqueue> third = order(7, 4);

        assertThat(calls.sent).as("one call in flight per voucher").hasSize(1);
        calls.answer(0);
        assertThat(calls.sent).as("the waiting orders go the moment the call answers").hasSize(2);
        assertThat(calls.shoppersOf(1)).containsExactly(3L, 4L);
        assertThat(second).isNotDone();

        calls.answer(1);
        assertThat(first.join().outcome()).isEqualTo(Outcome.ACCEPTED);
        assertThat(second.join().outcome()).isEqualTo(Outcome.SOLD_OUT);
        assertThat(third.join().outcome()).isEqualTo(Outcome.ACCEPTED);
        assertThat(coalescer.calls()).isEqualTo(2);
        assertThat(coalescer.orders()).isEqualTo(3);
    }

    @Test
    void noCallCarriesMoreThanTheBatchLimitAndTheRestFollowInArrivalOrder() {
        order(7, 0);
        List<CompletableFuture<OrderEnqueue.Enqueue>> waiting = new ArrayList<>();
        for (long shopper = 1; shopper <= 5; shopper++) {
            waiting.add(order(7, shopper));
        }

        calls.answer(0);
        assertThat(calls.shoppersOf(1)).containsExactly(1L, 2L, 3L);
        calls.answer(1);
        assertThat(calls.shoppersOf(2)).containsExactly(4L, 5L);
        calls.answer(2);
        assertThat(calls.sent).hasSize(3);
        assertThat(waiting).allMatch(CompletableFuture::isDone);
        assertThat(waiting.get(4).join().outcome()).isEqualTo(Outcome.SOLD_OUT);
    }

    @Test
    void aFailedCallFailsEveryOrderItCarriedWithItsErrorAndTheLaneGoesOn() {
        order(7, 0);
        CompletableFuture<OrderEnqueue.Enqueue> second = order(7, 2);
        CompletableFuture<OrderEnqueue.Enqueue> third = order(7, 4);
        calls.answer(0);
        RedisTimeoutException timeout = new RedisTimeoutException("no answer");
        calls.sent.get(1).answer().completeExceptionally(timeout);

        assertThatThrownBy(second::join).hasCause(timeout);
        assertThatThrownBy(third::join).hasCause(timeout);

        CompletableFuture<OrderEnqueue.Enqueue> later = order(7, 6);
        assertThat(calls.sent).as("the lane is idle again: the next order goes at once").hasSize(3);
        calls.answer(2);
        assertThat(later.join().outcome()).isEqualTo(Outcome.ACCEPTED);
    }

    @Test
    void aCallThatThrowsBeforeSendingFailsItsOrdersAndLeavesTheLaneIdle() {
        IllegalStateException refused = new IllegalStateException("client shut down");
        EnqueueCoalescer throwing = new EnqueueCoalescer((voucher, orders) -> {
            throw refused;
        }, 3);

        assertThatThrownBy(throwing.enqueue(7, new PurchaseDecision.Order(1, 1, 0))::join).hasCause(refused);
        assertThatThrownBy(throwing.enqueue(7, new PurchaseDecision.Order(2, 2, 0))::join)
                .as("not stuck behind a call that never went").hasCause(refused);
    }

    @Test
    void anAnswerWithTheWrongNumberOfOutcomesFailsItsOrdersRatherThanMisroutingThem() {
        order(7, 0);
        CompletableFuture<OrderEnqueue.Enqueue> second = order(7, 2);
        CompletableFuture<OrderEnqueue.Enqueue> third = order(7, 4);
        calls.answer(0);
        calls.sent.get(1).answer().complete(List.of(new OrderEnqueue.Enqueue(Decision.of(Outcome.ACCEPTED), false)));

        assertThatThrownBy(second::join).hasCauseInstanceOf(IllegalStateException.class);
        assertThatThrownBy(third::join).hasCauseInstanceOf(IllegalStateException.class);
    }

    @Test
    void vouchersDoNotWaitForEachOther() {
        order(7, 0);
        CompletableFuture<OrderEnqueue.Enqueue> other = order(8, 2);

        assertThat(calls.sent).hasSize(2);
        assertThat(calls.sent.get(1).voucherId()).isEqualTo(8);
        calls.answer(1);
        assertThat(other.join().outcome()).isEqualTo(Outcome.ACCEPTED);
    }

    @Test
    void anOrderNotAnsweredByItsDeadlineIsUnknownIfItsCallWasSentAndAnOutageIfItNeverLeftTheLane() {
        EnqueueCoalescer withDeadline = new EnqueueCoalescer(calls, 1, Duration.ofMillis(200), nanos -> { });
        CompletableFuture<OrderEnqueue.Enqueue> sent = withDeadline.enqueue(7, new PurchaseDecision.Order(1, 1001, 0));
        CompletableFuture<OrderEnqueue.Enqueue> waiting = withDeadline.enqueue(7, new PurchaseDecision.Order(2, 1002, 0));
        assertThat(calls.sent).as("the second waits behind the first").hasSize(1);

        assertThatThrownBy(sent::join).hasCauseInstanceOf(PurchaseAttempts.OutcomeUnknown.class);
        assertThatThrownBy(waiting::join).hasCauseInstanceOf(RedisTimeoutException.class);

        // The first call answers late: the withdrawn order is not sent after it.
        calls.answer(0);
        assertThat(calls.sent).hasSize(1);
    }

    private CompletableFuture<OrderEnqueue.Enqueue> order(long voucherId, long shopperId) {
        return coalescer.enqueue(voucherId, new PurchaseDecision.Order(shopperId, 1000 + shopperId, 0));
    }
}
