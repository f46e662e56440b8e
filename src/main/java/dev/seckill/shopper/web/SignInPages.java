package dev.seckill.shopper.web;

import dev.seckill.shopper.ShopperService;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import dev.seckill.web.security.ShopperCookie;
import dev.seckill.web.Pages;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * Signing in to the shop's pages: with a shopper token an admin minted ({@code POST /admin/shoppers}), or on
 * the local cluster as a new test shopper ({@link TestShoppers}). Either way the token goes into {@link ShopperCookie}; the forms
 * carry a CSRF token (the page chain checks it).
 */
@Controller
@Pages
class SignInPages {

    private final JwtDecoder tokens;
    private final ShopperService shoppers;
    private final TestShoppers testShoppers;
    private final Clock clock;

    SignInPages(JwtDecoder tokens, ShopperService shoppers, TestShoppers testShoppers, Clock clock) {
        this.tokens = tokens;
        this.shoppers = shoppers;
        this.testShoppers = testShoppers;
        this.clock = clock;
    }

    @GetMapping("/sign-in")
    String form(@RequestParam(required = false) String next, @RequestParam(required = false) String expired,
            HttpServletRequest request, Model model) {
        model.addAttribute("next", safeNext(next));
        model.addAttribute("expired", expired != null);
        model.addAttribute("testShoppers", testShoppers.offeredTo(request));
        return "shop/sign-in";
    }

    @PostMapping("/sign-in")
    String signIn(@RequestParam(defaultValue = "") String token, @RequestParam(required = false) String next,
            HttpServletRequest request, HttpServletResponse response, Model model) {
        Jwt verified;
        try {
            verified = tokens.decode(token.strip());
        } catch (JwtException | IllegalArgumentException e) {
            response.setStatus(400);
            model.addAttribute("next", safeNext(next));
            model.addAttribute("testShoppers", testShoppers.offeredTo(request));
            model.addAttribute("error", token.isBlank() ? "Paste a shopper token." : "That token is not valid here (mistyped, expired or from another sale).");
            return "shop/sign-in";
        }
        ShopperCookie.set(request, response, verified.getTokenValue(), lifetime(verified.getExpiresAt()));
        return "redirect:" + safeNext(next);
    }

    @PostMapping("/sign-in/test-shopper")
    String signInAsTestShopper(@RequestParam(required = false) String next, HttpServletRequest request,
            HttpServletResponse response) {
        if (!testShoppers.offeredTo(request)) {
            throw new SeckillProblem(ProblemCode.NOT_FOUND);
        }
        String token = shoppers.createTestShoppers(1).get(0).token();
        ShopperCookie.set(request, response, token, lifetime(tokens.decode(token).getExpiresAt()));
        return "redirect:" + safeNext(next);
    }

    @PostMapping("/sign-out")
    String signOut(HttpServletRequest request, HttpServletResponse response) {
        ShopperCookie.clear(request, response);
        return "redirect:/";
    }

    private Duration lifetime(Instant expiresAt) {
        return expiresAt == null ? Duration.ofHours(1) : Duration.between(clock.instant(), expiresAt);
    }

    /** Only a path of this site: never {@code //elsewhere} or {@code https://elsewhere} (an open redirect). */
    static String safeNext(String next) {
        if (next == null || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")
                || !next.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return "/";
        }
        return next;
    }
}
