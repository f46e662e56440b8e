package dev.seckill.sale.audit;

import dev.seckill.web.security.SecurityConfiguration;

import jakarta.validation.constraints.Positive;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Admin only, as everything under /admin (SecurityConfiguration); 404 voucher-not-found like the audit. */
@RestController
class LiveController {

    private final LiveNumbers live;

    LiveController(LiveNumbers live) {
        this.live = live;
    }

    @GetMapping("/admin/vouchers/{voucherId}/live")
    VoucherLive live(@PathVariable @Positive long voucherId) {
        return live.of(voucherId);
    }
}
