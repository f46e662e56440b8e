package dev.seckill.platform;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * @param drain how long a stopping instance keeps serving after its readiness went to
 *              {@code REFUSING_TRAFFIC}, before its port closes: time for a balancer that polls readiness to
 *              stop routing here, and for the requests already on their way to arrive. Every answer in that
 *              time says {@code Connection: close}, so Nginx keeps no pooled connection to this instance
 *              that it would reuse once the port is closed. Raise it to the readiness polling interval of a
 *              balancer that reads readiness (Kubernetes: period x failure threshold); 0 skips it (no balancer
 *              in front)
 */
@Validated
@ConfigurationProperties("seckill.shutdown")
record ShutdownSettings(@NotNull @DefaultValue("2s") Duration drain) {

    ShutdownSettings {
        if (drain.isNegative()) {
            throw new IllegalArgumentException("seckill.shutdown.drain must not be negative: " + drain);
        }
    }
}
