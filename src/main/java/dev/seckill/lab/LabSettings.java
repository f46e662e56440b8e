package dev.seckill.lab;

import java.time.Duration;
import java.util.List;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The lock lab (docs/lock-lab.md): the articles' locks, wrong ones included, on Redis nodes of its own. Off, no bean
 * of it exists (this record neither) and {@code /admin/lab/**} answers 404. Turning it on also needs {@code nodes};
 * never in a real sale.
 *
 * @param enabled         the lab's beans and endpoints exist only when true (never in the default profile)
 * @param nodes           the lab's own Redis servers ({@code redis://host:port}): the first holds the stock and the
 *                        single-node locks, all of them the MultiLock (which needs three)
 * @param lease           the expiry of {@code SET NX PX}, {@code EXPIRE}, and the fixed lease of
 *                        {@code redisson-lease} and {@code redisson-fenced}
 * @param watchdogTimeout the lab's Redisson lockWatchdogTimeout: a watchdog lock is renewed every third of it and
 *                        outlives a dead holder by it
 * @param lockWait        how long a deduction waits for the lock before it gives up (answered {@code busy})
 * @param spin            how long a SETNX strategy sleeps between two attempts at the lock
 * @param work            how long the holder works between reading and writing the stock (the articles' "other
 *                        business"), so that a broken lock shows within a short run
 * @param pause           the pause fault: a holder stalls this long (a GC pause, a slow call); longer than the
 *                        lease and the watchdog timeout
 * @param pauseEvery      the pause fault hits every n-th holder (counted over both instances) if it found stock left:
 *                        a pause after the sell-out would show nothing, so keep it well below the run's stock
 * @param crashAt         the crash faults hit the n-th holder to take the lock (a Redisson holder: the n-th attempt,
 *                        whose process of its own must exist before it asks for the lock)
 * @param nodeTimeout     connect and command timeout towards the lab's nodes; a stopped node costs this, once
 */
@LabEnabled
@Validated
@ConfigurationProperties("seckill.lab")
public record LabSettings(@DefaultValue("false") boolean enabled, @NotEmpty List<String> nodes,
        @NotNull @DefaultValue("500ms") Duration lease, @NotNull @DefaultValue("1s") Duration watchdogTimeout,
        @NotNull @DefaultValue("3s") Duration lockWait, @NotNull @DefaultValue("10ms") Duration spin,
        @NotNull @DefaultValue("1ms") Duration work, @NotNull @DefaultValue("1500ms") Duration pause,
        @Positive @DefaultValue("10") int pauseEvery, @Positive @DefaultValue("20") int crashAt,
        @NotNull @DefaultValue("500ms") Duration nodeTimeout) {

    /** A pause within the lease would show nothing: the lock must be able to run out under the holder. */
    @AssertTrue(message = "pause must be longer than lease and watchdog-timeout")
    boolean isPauseLongerThanTheLocks() {
        return pause == null || lease == null || watchdogTimeout == null
                || pause.compareTo(lease) > 0 && pause.compareTo(watchdogTimeout) > 0;
    }
}
