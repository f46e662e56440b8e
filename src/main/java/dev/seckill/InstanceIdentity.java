package dev.seckill;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * @param instanceId this instance's name: sent as {@code X-Instance-Id} on every response (so that a client behind
 *                   Nginx can tell which instance answered), its stream consumer's name, its id worker
 *                   lease's holder and its live snapshot's key. Unique per instance.
 */
@Validated
@ConfigurationProperties("seckill.web")
public record InstanceIdentity(@NotBlank String instanceId) {
}
