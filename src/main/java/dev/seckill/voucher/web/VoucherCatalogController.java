package dev.seckill.voucher.web;

import dev.seckill.voucher.VoucherService;
import dev.seckill.voucher.VoucherView;

import java.util.List;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Positive;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Public browsing: the newest vouchers a page at a time, and one voucher. */
@RestController
class VoucherCatalogController {

    static final int MAX_PAGE_SIZE = 100;

    private final VoucherService vouchers;

    VoucherCatalogController(VoucherService vouchers) {
        this.vouchers = vouchers;
    }

    /** {@code ?page=0&size=50}: newest first; an empty list past the last page. */
    @GetMapping("/vouchers")
    List<VoucherView> list(@RequestParam(defaultValue = "0") @Min(0) @Max(100_000) int page,
            @RequestParam(defaultValue = "50") @Min(1) @Max(MAX_PAGE_SIZE) int size) {
        return vouchers.newest(page, size);
    }

    @GetMapping("/vouchers/{voucherId}")
    VoucherView get(@PathVariable @Positive long voucherId) {
        return vouchers.find(voucherId);
    }
}
