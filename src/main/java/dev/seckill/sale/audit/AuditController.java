package dev.seckill.sale.audit;

import jakarta.validation.constraints.Positive;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

@RestController
class AuditController {

    private final AuditService audits;

    AuditController(AuditService audits) {
        this.audits = audits;
    }

    @GetMapping("/admin/vouchers/{voucherId}/audit")
    VoucherAudit audit(@PathVariable @Positive long voucherId) {
        return audits.audit(voucherId);
    }
}
