package dev.seckill.id;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Each instance leases a snowflake worker number (0..1023) from MySQL's {@code id_worker_lease} table. Without a
 * renewal for {@code leaseDuration} (MySQL unreachable, a long pause) the instance stops issuing ids (503
 * {@code backend-unavailable}) and another may take the number; the new holder's ids start after the old holder's
 * high-water mark, which may put their timestamps up to {@code leaseDuration} ahead.
 *
 * @param leaseDuration how long a worker number stays this instance's without a renewal; after that
 *                      (database clock) another instance may take it. Also the margin added to the
 *                      high-water mark written at each renewal, so a new holder of the number starts
 *                      issuing after anything this instance can still issue
 * @param renewEvery    how often the lease is renewed: at most half of {@code leaseDuration}. The default is a third
 *                      of the default lease, so two renewals in a row can fail (MySQL briefly away) before this
 *                      instance has to stop issuing ids; change it with the lease. Left out when the record
 *                      is built in code ({@code null}), it is a third of {@code leaseDuration}
 */
@Validated
@ConfigurationProperties("seckill.ids")
record IdSettings(@NotNull @DefaultValue("60s") Duration leaseDuration, @DefaultValue("20s") Duration renewEvery) {

    IdSettings {
        if (leaseDuration.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("seckill.ids.lease-duration must be at least 1s: " + leaseDuration);
        }
        if (renewEvery == null) {
            renewEvery = leaseDuration.dividedBy(3);
        }
        // Renewing less often than twice per lease leaves no room for a single failed renewal.
        if (renewEvery.isNegative() || renewEvery.isZero() || renewEvery.compareTo(leaseDuration.dividedBy(2)) > 0) {
            throw new IllegalArgumentException("seckill.ids.renew-every must be above 0 and at most half of "
                    + "lease-duration (" + leaseDuration + "): " + renewEvery);
        }
    }
}
