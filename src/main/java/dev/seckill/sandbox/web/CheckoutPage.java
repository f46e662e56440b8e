package dev.seckill.sandbox.web;

import java.time.Clock;
import java.util.Map;

import dev.seckill.sandbox.SandboxCheckout;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.ModelAndView;

/**
 * The provider's checkout page, where the shopper pays or abandons a payment: one form with two buttons, which a
 * script drives with a plain form POST ({@code action=pay} or {@code action=abandon}). HTML, or
 * {@code {"ref":..,"status":..}} when the request prefers JSON (the handlers that produce JSON win only then).
 */
@Controller
@RequestMapping("/sandbox/checkout/{ref}")
class CheckoutPage {

    private final SandboxCheckout checkout;
    private final Clock clock;

    CheckoutPage(SandboxCheckout checkout, Clock clock) {
        this.checkout = checkout;
        this.clock = clock;
    }

    @GetMapping
    ModelAndView page(@PathVariable String ref) {
        return html(CheckoutAnswer.show(checkout, ref, clock.instant()));
    }

    @GetMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, Object>> status(@PathVariable String ref) {
        return json(CheckoutAnswer.show(checkout, ref, clock.instant()));
    }

    @PostMapping
    ModelAndView act(@PathVariable String ref, @RequestParam(required = false) String action) {
        return html(CheckoutAnswer.act(checkout, ref, action, clock.instant()));
    }

    @PostMapping(produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<Map<String, Object>> actForScripts(@PathVariable String ref,
            @RequestParam(required = false) String action) {
        return json(CheckoutAnswer.act(checkout, ref, action, clock.instant()));
    }

    private static ModelAndView html(CheckoutAnswer answer) {
        return new ModelAndView("sandbox/checkout", answer.model(), answer.status());
    }

    private static ResponseEntity<Map<String, Object>> json(CheckoutAnswer answer) {
        return ResponseEntity.status(answer.status()).contentType(MediaType.APPLICATION_JSON).body(answer.json());
    }
}
