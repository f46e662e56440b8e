package dev.seckill.sale.failover;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Opt-in confirmation of accepted orders by Redis replicas (async path). A replicated Redis copies writes
 * to its replicas after answering, so an order answered 202 can be lost by a failover to a replica that had
 * not received it yet.
 *
 * @param waitReplicas 0: 202 once the master ran the purchase script, one round trip as always.
 *                     N: the script and a {@code WAIT N} go to Redis in one pipelined batch, and an accepted
 *                     order is answered 202 only once N replicas have it. Unset: 1 when Redis can fail over
 *                     (Sentinel, Cluster: {@code RedisDeployment}), since a failover drops what no replica had; 0 on
 *                     one server
 * @param waitTimeout  the longest the {@code WAIT} blocks; when fewer than N replicas confirmed by then, the
 *                     order is in the master all the same (it goes on to MySQL as any other): the shopper
 *                     is told 503 {@code order-unconfirmed} with its id, neither accepted nor refused
 */
@Validated
@ConfigurationProperties("seckill.redis")
public record ReplicaSettings(@Min(0) @Max(16) Integer waitReplicas,
        @NotNull @DefaultValue("500ms") Duration waitTimeout) {

    /** What is waited for on this deployment: {@code waitReplicas}, or the default for it when unset. */
    public int replicasToWaitFor(boolean failsOver) {
        if (waitReplicas != null) {
            return waitReplicas;
        }
        return failsOver ? 1 : 0;
    }
}
