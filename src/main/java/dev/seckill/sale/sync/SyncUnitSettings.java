package dev.seckill.sale.sync;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Units the sync path took for requests that died before they committed or gave them back: every instance looks
 * every {@code sweepEvery} for units held longer than {@code unitTimeout}, settles those whose order is in MySQL
 * and returns the others.
 *
 * @param unitTimeout  a unit held longer than this belongs to a request that died: settled or returned by the
 *                     sweeper. Must be well beyond any request's life: the voucher lock's wait (10 s), the
 *                     order's transaction (a pooled connection in 3 s, each statement within the 5 s socket
 *                     timeout) and Redis calls that Redisson retries (up to ~20 s each), plus the clock skew
 *                     between instances. Too short costs nothing but work: a request that outlives it still
 *                     ends right (see {@code keepReturned}).
 * @param sweepEvery   how often each instance looks for units held too long (one Redis round trip when there
 *                     are none)
 * @param keepReturned how long a returned unit is remembered, so that its request, should it still commit or
 *                     give the unit back after all, takes the unit again or gives nothing back
 */
@Validated
@ConfigurationProperties("seckill.sync-units")
record SyncUnitSettings(@NotNull @DefaultValue("2m") Duration unitTimeout,
        @NotNull @DefaultValue("5s") Duration sweepEvery, @NotNull @DefaultValue("1h") Duration keepReturned) {
}
