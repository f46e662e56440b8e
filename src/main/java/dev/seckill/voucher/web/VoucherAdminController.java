package dev.seckill.voucher.web;

import dev.seckill.voucher.CreateVoucherRequest;
import dev.seckill.voucher.StockResetRequest;
import dev.seckill.voucher.VoucherService;
import dev.seckill.voucher.VoucherView;

import java.net.URI;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Positive;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/admin/vouchers")
class VoucherAdminController {

    private final VoucherService admin;

    VoucherAdminController(VoucherService admin) {
        this.admin = admin;
    }

    @PostMapping
    ResponseEntity<VoucherView> create(@Valid @RequestBody CreateVoucherRequest request) {
        VoucherView created = admin.create(request);
        return ResponseEntity.created(URI.create("/admin/vouchers/" + created.id())).body(created);
    }

    @GetMapping("/{voucherId}")
    VoucherView get(@PathVariable @Positive long voucherId) {
        return admin.find(voucherId);
    }

    @PutMapping("/{voucherId}/stock")
    VoucherView resetStock(@PathVariable @Positive long voucherId, @Valid @RequestBody StockResetRequest request) {
        return admin.resetStock(voucherId, request);
    }
}
