package dev.seckill.sale.buying;

import java.net.ConnectException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import dev.seckill.platform.Outages;
import org.redisson.client.RedisBusyException;
import org.redisson.client.RedisClusterDownException;
import org.redisson.client.RedisConnectionException;
import org.redisson.client.RedisException;
import org.redisson.client.RedisLoadingException;
import org.redisson.client.RedisMasterDownException;
import org.redisson.client.RedisNoReplicasException;
import org.redisson.client.RedisNodeNotFoundException;
import org.redisson.client.RedisOutOfMemoryException;
import org.redisson.client.RedisReadonlyException;
import org.redisson.client.RedisResponseTimeoutException;
import org.redisson.client.RedisRetryException;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.WriteRedisConnectionException;
import org.redisson.config.DelayStrategy;
import org.redisson.config.EqualJitterDelay;

/**
 * Sends the purchase call again after an outage, as Redisson would, but knowing of every attempt whether it may have
 * run the script. Redisson's own retries cannot say: after a timeout it sends the command again, and when a later
 * attempt fails (a redirect to a node it does not know yet, a connection refused) that last failure is all the caller
 * hears, although the first attempt may have taken the order (a Redis Cluster failover did exactly that). So the call
 * is sent once by Redisson ({@code LuaScript.sentOnce}) and retried here; a call that finally fails is
 * {@link OutcomeUnknown} when any attempt may have run, and fails with its own error (an outage: nothing was taken)
 * only when none can have. Sending again is safe: the script answers an order it decided before as accepted, and
 * takes nothing again.
 */
final class PurchaseAttempts {

    /**
     * The call failed after an attempt that may have run the script: whether the orders were taken is unknown. The
     * cause is the last attempt's failure.
     */
    static final class OutcomeUnknown extends RuntimeException {

        OutcomeUnknown(Throwable lastFailure) {
            super("The purchase call may have run before it failed: " + lastFailure, lastFailure, false, false);
        }
    }

    private final int retryAttempts;
    private final DelayStrategy delay;

    PurchaseAttempts(EnqueueSettings settings) {
        this.retryAttempts = settings.retryAttempts();
        this.delay = new EqualJitterDelay(settings.retryDelay(), settings.retryDelayMax());
    }

    /** Runs {@code attempt} until it succeeds, fails for a reason that is no outage, or has been tried enough. */
    <T> CompletableFuture<T> run(Supplier<? extends CompletableFuture<T>> attempt) {
        CompletableFuture<T> result = new CompletableFuture<>();
        attempt(attempt, 0, false, result);
        return result;
    }

    private <T> void attempt(Supplier<? extends CompletableFuture<T>> attempt, int retry, boolean mayHaveRun,
            CompletableFuture<T> result) {
        CompletableFuture<T> sent;
        try {
            sent = attempt.get();
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((value, error) -> {
            if (error == null) {
                result.complete(value);
                return;
            }
            Throwable failure = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            boolean ran = mayHaveRun || mayHaveRun(failure);
            if (retry < retryAttempts && Outages.isOutage(failure)) {
                Executor later = CompletableFuture.delayedExecutor(delay.calcDelay(retry).toMillis(), TimeUnit.MILLISECONDS);
                later.execute(() -> attempt(attempt, retry + 1, ran, result));
            } else {
                result.completeExceptionally(ran ? new OutcomeUnknown(failure) : failure);
            }
        });
    }

    /**
     * Whether an attempt that failed so may have run the script. Only the failures Redisson reports before it wrote
     * the command, and Redis's refusals to run it, say no: no connection could be made (or none handed out in time),
     * the command was never written, no node serves the slot yet, or Redis answered an error instead of running it
     * (TRYAGAIN, CLUSTERDOWN, MASTERDOWN, LOADING, READONLY, NOREPLICAS, OOM, BUSY). Everything else may have: no
     * answer in time (written, perhaps run), a connection lost or failing while the command was written, any other
     * error.
     */
    static boolean mayHaveRun(Throwable failure) {
        if (failure instanceof RedisResponseTimeoutException || failure instanceof WriteRedisConnectionException) {
            return true;
        }
        if (failure instanceof RedisTimeoutException || failure instanceof RedisConnectionException
                || failure instanceof RedisNodeNotFoundException || failure instanceof RedisRetryException
                || failure instanceof RedisClusterDownException || failure instanceof RedisMasterDownException
                || failure instanceof RedisLoadingException || failure instanceof RedisReadonlyException
                || failure instanceof RedisNoReplicasException || failure instanceof RedisOutOfMemoryException
                || failure instanceof RedisBusyException) {
            return false;
        }
        // Redisson wraps a connection that could not be made in a plain RedisException ("Unexpected exception while
        // processing command"), its cause the refused connect.
        return !(failure.getClass() == RedisException.class && failure.getCause() != null
                && neverConnected(failure.getCause()));
    }

    private static boolean neverConnected(Throwable cause) {
        return cause instanceof ConnectException
                || (cause instanceof RedisConnectionException && !(cause instanceof WriteRedisConnectionException));
    }
}
