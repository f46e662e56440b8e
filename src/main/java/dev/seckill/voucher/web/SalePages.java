package dev.seckill.voucher.web;

import dev.seckill.voucher.OrderCount;
import dev.seckill.voucher.VoucherService;
import dev.seckill.voucher.VoucherView;

import java.time.Clock;
import java.util.List;
import java.util.Map;

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

    private final VoucherService vouchers;
    private final OrderCount orders;
    private final Clock clock;

    SalePages(VoucherService vouchers, OrderCount orders, Clock clock) {
        this.vouchers = vouchers;
        this.orders = orders;
        this.clock = clock;
    }

    @GetMapping("/")
    String saleList(@AuthenticationPrincipal CurrentShopper shopper, Model model) {
        model.addAttribute("sales", onPage(vouchers.newest(0, LISTED)));
        model.addAttribute("serverNow", clock.millis());
        model.addAttribute("shopper", shopper);
        return "shop/sales";
    }

    @GetMapping("/sales/{voucherId}")
    String voucher(@PathVariable @Positive long voucherId, @AuthenticationPrincipal CurrentShopper shopper, Model model) {
        model.addAttribute("sale", onPage(List.of(vouchers.find(voucherId))).get(0));
        model.addAttribute("serverNow", clock.millis());
        model.addAttribute("shopper", shopper);
        return "shop/voucher";
    }

    /** Asks the order module once for the page, and only about the sold-out vouchers: the others need no answer. */
    private List<SaleOnPage> onPage(List<VoucherView> listed) {
        List<Long> soldOut = listed.stream().filter(v -> v.stock() <= 0).map(VoucherView::id).toList();
        Map<Long, Long> awaiting = orders.awaitingPayment(soldOut);
        return listed.stream().map(v -> new SaleOnPage(v, awaiting.getOrDefault(v.id(), 0L))).toList();
    }
}
