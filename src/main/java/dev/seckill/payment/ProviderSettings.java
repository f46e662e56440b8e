package dev.seckill.payment;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The payment provider's API, as {@link HttpPaymentGateway} calls it.
 *
 * @param providerUrl            where its API is: {@code <url>/sandbox/api/payments}
 * @param providerSecret         what every call carries ({@code Authorization: Bearer <secret>}); at least 16
 *                               characters. No default: the instance refuses to start without it (scripts/cluster
 *                               generates one)
 * @param providerConnectTimeout the longest wait for a connection to it
 * @param providerTimeout        the longest wait for its answer to a call; a call without one counts as the provider
 *                               unavailable
 */
@Validated
@ConfigurationProperties("seckill.payment")
public record ProviderSettings(@NotBlank @DefaultValue("http://127.0.0.1:8090") String providerUrl,
        @NotNull @Size(min = 16) String providerSecret,
        @NotNull @DefaultValue("1s") Duration providerConnectTimeout,
        @NotNull @DefaultValue("3s") Duration providerTimeout) {
}
