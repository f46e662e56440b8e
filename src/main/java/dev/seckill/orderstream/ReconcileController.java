package dev.seckill.orderstream;

import jakarta.validation.constraints.Positive;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class ReconcileController {

    private final StreamReconciler reconciler;

    ReconcileController(StreamReconciler reconciler) {
        this.reconciler = reconciler;
    }

    /** After Redis lost its data: rebuild the voucher's stock counter and buyer set. */
    @PostMapping("/admin/vouchers/{voucherId}/reconcile")
    StreamReconciler.Report reconcile(@PathVariable @Positive long voucherId) {
        return reconciler.reconcile(voucherId);
    }
}
