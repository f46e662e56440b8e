package dev.seckill.sale.web;

import dev.seckill.sale.reconcile.StreamReconciler;

import java.time.Instant;

import dev.seckill.sale.durability.RedisDataLosses;
import jakarta.validation.constraints.Positive;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ReconcileController {

    private final StreamReconciler reconciler;
    private final RedisDataLosses losses;

    ReconcileController(StreamReconciler reconciler, RedisDataLosses losses) {
        this.reconciler = reconciler;
        this.losses = losses;
    }

    /**
     * What a rebuild restored, and what it cannot know: after a Redis data loss, orders that were accepted
     * and still only in Redis are gone, and nothing left anywhere says how many there were.
     */
    record Answer(long voucherId, int dbStock, long dbOrders, long pendingOrders, long redisStock, long buyers,
            boolean redisDataLost, Instant redisDataLostAt, String unknowable) {
    }

    /** After Redis lost its data: rebuild the voucher's stock counter and buyer set. */
    @PostMapping("/admin/vouchers/{voucherId}/reconcile")
    Answer reconcile(@PathVariable @Positive long voucherId) {
        StreamReconciler.Report report = reconciler.reconcile(voucherId);
        Instant lostAt = losses.latestAffecting(voucherId).orElse(null);
        return new Answer(report.voucherId(), report.dbStock(), report.dbOrders(), report.pendingOrders(),
                report.redisStock(), report.buyers(), lostAt != null, lostAt,
                lostAt == null ? null : "Redis lost its data at " + lostAt + ": orders accepted (202) and not yet in "
                        + "MySQL then are gone and cannot be counted; their units were returned to sale by this "
                        + "rebuild. Shoppers who were told 202 and find no order must be contacted.");
    }
}
