package dev.seckill.salestate;

import java.time.Duration;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Locks carry no lease: Redisson's watchdog keeps a held lock alive (renewing it every third of
 * {@code watchdogTimeout}) for as long as its holder's process runs, and a lock whose holder died
 * expires {@code watchdogTimeout} later. A fixed lease had to guess the longest piece of work and
 * guessed wrong: a shopper's 10 s lease ran out while its request still waited up to 15 s for the
 * voucher's lock (10 of them in a 2,000-order burst in sync mode), so another request of the same
 * shopper could have run beside it.
 *
 * @param prefix          key prefix of every lock (lock keys carry a {voucherId} hash tag after it)
 * @param voucherWait     how long an order waits for its voucher's lock before answering voucher-busy; at most
 *                        half of {@code watchdogTimeout}
 * @param watchdogTimeout how long a lock outlives a holder that died (Redisson's lockWatchdogTimeout)
 */
@Validated
@ConfigurationProperties("seckill.lock")
record LockSettings(@NotBlank @DefaultValue("seckill:lock:") String prefix,
        @NotNull @DefaultValue("10s") Duration voucherWait, @NotNull @DefaultValue("30s") Duration watchdogTimeout) {

    /**
     * A wait as long as the watchdog's timeout would let a request queue behind a holder that died
     * for the whole time its lock takes to expire, and a queue that long is an overload to refuse.
     */
    @AssertTrue(message = "voucher-wait must be at most half of watchdog-timeout")
    boolean isWaitWellBelowWatchdog() {
        return voucherWait == null || watchdogTimeout == null || voucherWait.multipliedBy(2).compareTo(watchdogTimeout) <= 0;
    }
}
