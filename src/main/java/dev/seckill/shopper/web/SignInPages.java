package dev.seckill.shopper.web;

import dev.seckill.shopper.ShopperService;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.regex.Pattern;

import dev.seckill.web.security.ShopperCookie;
import dev.seckill.web.Pages;
import dev.seckill.web.ProblemCode;
import dev.seckill.web.SeckillProblem;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.view.RedirectView;

/**
 * Signing in to the shop's pages: with a shopper token an admin minted ({@code POST /admin/shoppers}), or on
 * the local cluster as a new test shopper ({@link TestShoppers}). Either way the token goes into
 * {@link ShopperCookie}; the forms carry a CSRF token (the page chain checks it).
 */
@Controller
@Pages
class SignInPages {

    /**
     * Where sign-in may send the shopper back to: a path of this site and nothing else, in the characters our own
     * paths use (a {@code %XX} escape included). No scheme, no host, no {@code //} or backslash that a browser
     * would read as another host, no query, no {@code {}} that a URI template would try to expand.
     */
    private static final Pattern NEXT = Pattern.compile("/(?![/\\\\])(?:[A-Za-z0-9._~/-]|%[0-9A-Fa-f]{2}){0,200}");

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
    ModelAndView signIn(@RequestParam(defaultValue = "") String token, @RequestParam(required = false) String next,
            HttpServletRequest request, HttpServletResponse response, Model model) {
        Jwt verified;
        try {
            verified = tokens.decode(token.strip());
        } catch (JwtException | IllegalArgumentException e) {
            model.addAttribute("next", safeNext(next));
            model.addAttribute("testShoppers", testShoppers.offeredTo(request));
            model.addAttribute("error", token.isBlank() ? "Paste a shopper token." : "That token is not valid here (mistyped, expired or from another sale).");
            return new ModelAndView("shop/sign-in", HttpStatus.BAD_REQUEST);
        }
        ShopperCookie.set(request, response, verified.getTokenValue(), lifetime(verified.getExpiresAt()));
        return backTo(next);
    }

    @PostMapping("/sign-in/test-shopper")
    ModelAndView signInAsTestShopper(@RequestParam(required = false) String next, HttpServletRequest request,
            HttpServletResponse response) {
        if (!testShoppers.offeredTo(request)) {
            throw new SeckillProblem(ProblemCode.NOT_FOUND);
        }
        String token = shoppers.createTestShoppers(1).get(0).token();
        ShopperCookie.set(request, response, token, lifetime(tokens.decode(token).getExpiresAt()));
        return backTo(next);
    }

    @PostMapping("/sign-out")
    ModelAndView signOut(HttpServletRequest request, HttpServletResponse response) {
        ShopperCookie.clear(request, response);
        return backTo("/");
    }

    private Duration lifetime(Instant expiresAt) {
        return expiresAt == null ? Duration.ofHours(1) : Duration.between(clock.instant(), expiresAt);
    }

    /**
     * A redirect to {@link #safeNext}, taken as the URL it is: not a URI template to expand ({@code "redirect:/{x}"}
     * asked the model for an {@code x} and answered 500), and with no model attribute appended to it.
     */
    private static ModelAndView backTo(String next) {
        RedirectView redirect = new RedirectView(safeNext(next), true);
        redirect.setExpandUriTemplateVariables(false);
        redirect.setExposeModelAttributes(false);
        return new ModelAndView(redirect);
    }

    /** A path of this site ({@link #NEXT}), or the sale list: never {@code //elsewhere}, {@code https://elsewhere}. */
    static String safeNext(String next) {
        return next != null && NEXT.matcher(next).matches() ? next : "/";
    }
}
