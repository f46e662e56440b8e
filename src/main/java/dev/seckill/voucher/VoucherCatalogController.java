package dev.seckill.voucher;

import java.util.List;

import jakarta.validation.constraints.Positive;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/** Public browsing: the newest vouchers, and one voucher. */
@RestController
class VoucherCatalogController {

    static final int PAGE_SIZE = 50;

    private final VoucherService vouchers;

    VoucherCatalogController(VoucherService vouchers) {
        this.vouchers = vouchers;
    }

    @GetMapping("/vouchers")
    List<VoucherView> list() {
        return vouchers.newest(PAGE_SIZE);
    }

    @GetMapping("/vouchers/{voucherId}")
    VoucherView get(@PathVariable @Positive long voucherId) {
        return vouchers.find(voucherId);
    }
}
