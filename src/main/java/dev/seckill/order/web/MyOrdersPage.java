package dev.seckill.order.web;

import dev.seckill.order.OwnOrders;

import dev.seckill.web.security.CurrentShopper;
import dev.seckill.web.Pages;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;

/**
 * "My orders": the signed-in shopper's latest orders, each state in words, and Pay or Cancel for those awaiting
 * payment (the page chain sends anyone else to sign in).
 */
@Controller
@Pages
class MyOrdersPage {

    private final OwnOrders ownOrders;

    MyOrdersPage(OwnOrders ownOrders) {
        this.ownOrders = ownOrders;
    }

    @GetMapping("/my/orders")
    String myOrders(@AuthenticationPrincipal CurrentShopper shopper, Model model) {
        model.addAttribute("orders", ownOrders.latestOwn(shopper.id()).stream().map(OrderOnPage::new).toList());
        model.addAttribute("shopper", shopper);
        return "shop/orders";
    }
}
