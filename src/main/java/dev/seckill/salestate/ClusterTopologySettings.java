package dev.seckill.salestate;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How often the Redisson client reads a Redis Cluster's topology ({@code CLUSTER NODES}).
 *
 * @param scanInterval the time between two reads. A master that a replica replaced is unknown to the client until
 *                     its next read: a command sent to the old master is redirected (MOVED) to the new one, which
 *                     Redisson refuses to follow to a node it does not know as a master yet, so every order of that
 *                     master's vouchers fails until then. Redisson's own 5 s outlasts the purchase call's retries
 *                     (4, 1-2 s apart: {@code seckill.enqueue.retry-*}); one read a second per instance costs
 *                     nothing next to the orders
 */
@Validated
@ConfigurationProperties("seckill.redis.cluster")
record ClusterTopologySettings(
        @NotNull @DurationMin(millis = 100) @DurationMax(minutes = 10) @DefaultValue("1s") Duration scanInterval) {
}
