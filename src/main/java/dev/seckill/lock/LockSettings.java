package dev.seckill.lock;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * @param prefix        key prefix of every lock (lock keys carry a {voucherId} hash tag after it)
 * @param shopperLease  how long a shopper's lock lives if its holder dies; never waited for
 * @param voucherWait   how long an order waits for its voucher's lock before answering voucher-busy
 * @param voucherLease  how long a voucher's lock lives if its holder dies
 */
@Validated
@ConfigurationProperties("seckill.lock")
record LockSettings(@NotBlank String prefix, @NotNull Duration shopperLease, @NotNull Duration voucherWait,
        @NotNull Duration voucherLease) {
}
