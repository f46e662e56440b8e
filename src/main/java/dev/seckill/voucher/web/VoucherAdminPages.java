package dev.seckill.voucher.web;

import dev.seckill.voucher.DefaultPaymentWindow;
import dev.seckill.voucher.RoomDefaults;
import dev.seckill.voucher.VoucherService;
import dev.seckill.voucher.VoucherView;

import java.time.Clock;
import java.time.Duration;

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
    private final DefaultPaymentWindow defaultPaymentWindow;
    private final RoomDefaults roomDefaults;
    private final Clock clock;

    VoucherAdminPages(VoucherService vouchers, DefaultPaymentWindow defaultPaymentWindow, RoomDefaults roomDefaults,
            Clock clock) {
        this.vouchers = vouchers;
        this.defaultPaymentWindow = defaultPaymentWindow;
        this.roomDefaults = roomDefaults;
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
        model.addAttribute("defaultPaymentWindow", words(defaultPaymentWindow.window()));
        model.addAttribute("defaultArrivalWindow", roomDefaults.arrivalWindow().isZero() ? "no waiting room"
                : "a room with a " + words(roomDefaults.arrivalWindow()) + " arrival window");
        model.addAttribute("defaultAdmissionsPerSecond", roomDefaults.admissionsPerSecond());
        model.addAttribute("serverNow", clock.millis());
        return "admin/new-voucher";
    }

    @GetMapping("/admin/ui/vouchers/{voucherId}")
    String voucher(@PathVariable @Positive long voucherId, Model model) {
        VoucherView voucher = vouchers.find(voucherId);
        model.addAttribute("voucher", voucher);
        model.addAttribute("paymentWindow", words(voucher.paymentWindow() != null ? voucher.paymentWindow()
                : defaultPaymentWindow.window()));
        model.addAttribute("arrivalWindow", voucher.arrivalWindow() == null ? null : words(voucher.arrivalWindow()));
        model.addAttribute("serverNow", clock.millis());
        return "admin/voucher";
    }

    /** A payment window or an arrival window as the admin pages say it: "15 minutes", "90 seconds", "2 hours". */
    static String words(Duration window) {
        long seconds = window.toSeconds();
        if (seconds % 3600 == 0 && seconds > 0) {
            return count(seconds / 3600, "hour");
        }
        return seconds % 60 == 0 && seconds > 0 ? count(seconds / 60, "minute") : count(seconds, "second");
    }

    private static String count(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }
}
