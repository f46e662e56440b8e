package dev.seckill.sale.buying;

import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisNodeNotFoundException;
import org.redisson.client.RedisReconnectedException;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.RedisTryAgainException;
import org.redisson.client.WriteRedisConnectionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The purchase call's retries, against attempts the test scripts: a call whose every attempt failed before it could
 * run the script fails with its own error (an outage, nothing taken); one with an attempt that may have run is
 * unknown, whatever came after it (the Redis Cluster failover: a timeout, then a redirect to a node not known yet).
 */
class PurchaseAttemptsTest {

    final PurchaseAttempts attempts = new PurchaseAttempts(new EnqueueSettings(100, 4, Duration.ofMillis(1),
            Duration.ofMillis(2)));

    @Test
    void aTimeoutThenARedirectToAnUnknownNodeIsUnknownNotNothingTaken() {
        Throwable failure = failure(attempts(new RedisResponseTimeoutException("no answer"),
                new RedisNodeNotFoundException("MOVED to a node not known yet"), new RedisNodeNotFoundException("again"),
                new RedisNodeNotFoundException("again"), new RedisNodeNotFoundException("and again")));

        assertThat(failure).isInstanceOf(PurchaseAttempts.OutcomeUnknown.class)
                .hasCauseInstanceOf(RedisNodeNotFoundException.class);
    }

    @Test
    void attemptsThatNeverReachedRedisFailWithTheirOwnError() {
        Throwable failure = failure(attempts(new RedisConnectionException("refused"),
                new RedisException("Unexpected exception while processing command", new ConnectException("refused")),
                new RedisTimeoutException("Unable to acquire connection!"), new RedisTryAgainException("TRYAGAIN"),
                new RedisNodeNotFoundException("no node for the slot")));

        assertThat(failure).isInstanceOf(RedisNodeNotFoundException.class);
    }

    @Test
    void aRetryThatSucceedsAnswersWhatItDecided() {
        Deque<Object> script = attempts(new RedisResponseTimeoutException("no answer"));
        script.add("accepted");
        assertThat(attempts.run(() -> next(script)).join()).isEqualTo("accepted");
    }

    @Test
    void whatMayHaveRunAndWhatCannotHave() {
        assertThat(PurchaseAttempts.mayHaveRun(new RedisResponseTimeoutException("written, no answer"))).isTrue();
        assertThat(PurchaseAttempts.mayHaveRun(new WriteRedisConnectionException("failed while written"))).isTrue();
        assertThat(PurchaseAttempts.mayHaveRun(new RedisReconnectedException("in flight when the channel dropped")))
                .isTrue();
        assertThat(PurchaseAttempts.mayHaveRun(new RedisException("ERR in the script"))).isTrue();
        assertThat(PurchaseAttempts.mayHaveRun(new RedisConnectionException("could not connect"))).isFalse();
        assertThat(PurchaseAttempts.mayHaveRun(new RedisTimeoutException("Command still hasn't been written")))
                .isFalse();
    }

    @Test
    void noRetryAfterAFailureThatIsNoOutageWhichMayHaveRunAllTheSame() {
        // Say the script's answer could not be read: it ran.
        Deque<Object> script = attempts(new IllegalStateException("purchase.lua answered 3 elements for 1 order"));
        script.add("never sent");
        assertThatThrownBy(() -> attempts.run(() -> next(script)).join())
                .hasCauseInstanceOf(PurchaseAttempts.OutcomeUnknown.class).hasRootCauseInstanceOf(IllegalStateException.class);
        assertThat(script).containsExactly("never sent");
    }

    private static Deque<Object> attempts(Throwable... failures) {
        return new ArrayDeque<>(List.of(failures));
    }

    private Throwable failure(Deque<Object> script) {
        try {
            attempts.run(() -> next(script)).join();
        } catch (CompletionException e) {
            assertThat(script).as("every attempt was used").isEmpty();
            return e.getCause();
        }
        throw new AssertionError("the call succeeded");
    }

    private static CompletableFuture<Object> next(Deque<Object> script) {
        Object next = script.poll();
        return next instanceof Throwable failure ? CompletableFuture.failedFuture(failure)
                : CompletableFuture.completedFuture(next);
    }
}
