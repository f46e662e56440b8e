package dev.seckill.voucher.web;

import dev.seckill.voucher.VoucherService;

import java.time.Clock;

import dev.seckill.web.Pages;
import jakarta.validation.constraints.Positive;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The admin pages (behind the admin chain's Basic login): the vouchers, a form to create one, and a page
 * per voucher with its audit in words, stock reset, reconcile and the live sale dashboard. The pages'
 * scripts call the admin JSON API with the page's CSRF token, so a form checks exactly the API's rules
 * and shows its answers.
 */
@Controller
@Pages
class VoucherAdminPages {

    static final int LISTED = 100;

    private final VoucherService vouchers;
    private final Clock clock;

    VoucherAdminPages(VoucherService vouchers, Clock clock) {
        this.vouchers = vouchers;
        this.clock = clock;
    }

    @GetMapping("/admin/ui")
    String vouchers(Model model) {
        model.addAttribute("vouchers", vouchers.newest(0, LISTED));
        model.addAttribute("serverNow", clock.millis());
        return "admin/vouchers";
    }

    @GetMapping("/admin/ui/vouchers/new")
    String newVoucher(Model model) {
        model.addAttribute("serverNow", clock.millis());
        return "admin/new-voucher";
    }

    @GetMapping("/admin/ui/vouchers/{voucherId}")
    String voucher(@PathVariable @Positive long voucherId, Model model) {
        model.addAttribute("voucher", vouchers.find(voucherId));
        model.addAttribute("serverNow", clock.millis());
        return "admin/voucher";
    }
}
