package dev.seckill.voucher.web;

import java.time.Clock;

import dev.seckill.voucher.RoomDefaults;
import dev.seckill.web.security.CurrentShopper;
import dev.seckill.web.Pages;
import jakarta.validation.constraints.Positive;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;

/**
 * The shop window: the sale list at {@code /} and a page per voucher with its buy button. Server-rendered;
 * the pages' scripts count down from the server's clock and place the order through {@code /shop/seckill/...}.
 */
@Controller
@Pages
class SalePages {

    /** The sale list shows the newest vouchers; the JSON API pages through the rest. */
    static final int LISTED = 50;

    private final SaleShelf sales;
    private final RoomDefaults rooms;
    private final Clock clock;

    SalePages(SaleShelf sales, RoomDefaults rooms, Clock clock) {
        this.sales = sales;
        this.rooms = rooms;
        this.clock = clock;
    }

    @GetMapping("/")
    String saleList(@AuthenticationPrincipal CurrentShopper shopper, Model model) {
        model.addAttribute("sales", sales.newest(LISTED));
        model.addAttribute("serverNow", clock.millis());
        model.addAttribute("shopper", shopper);
        return "shop/sales";
    }

    @GetMapping("/sales/{voucherId}")
    String voucher(@PathVariable @Positive long voucherId, @AuthenticationPrincipal CurrentShopper shopper, Model model) {
        model.addAttribute("sale", sales.one(voucherId));
        // a waiting room takes joins this long before the opening (its page joins by itself then)
        model.addAttribute("roomPreQueueMillis", rooms.preQueue().toMillis());
        model.addAttribute("serverNow", clock.millis());
        model.addAttribute("shopper", shopper);
        return "shop/voucher";
    }
}
