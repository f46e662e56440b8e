package dev.seckill.pages;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import dev.seckill.support.Api;
import dev.seckill.support.Browser;
import dev.seckill.support.Instances;
import dev.seckill.support.Nginx;
import dev.seckill.support.SandboxProvider;
import org.openqa.selenium.TimeoutException;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What the browser tests shop at: one async instance that lets the sign-in page mint test shoppers, behind the
 * repository's Nginx rules, as a shopper reaches it. {@code base} is Nginx's address; {@code api} talks to the
 * instance itself (set-up calls the browser does not make).
 */
record ShopBehindNginx(ConfigurableApplicationContext app, Nginx nginx, Api api, String base) implements AutoCloseable {

    static ShopBehindNginx start(String instanceId) {
        return start(instanceId, Map.of());
    }

    /** With these settings too (e.g. purchase tickets on). */
    static ShopBehindNginx start(String instanceId, Map<String, String> settings) {
        Map<String, String> all = new HashMap<>(settings);
        // test shoppers only on an instance that listens on loopback (it refuses to start otherwise), as scripts/cluster runs it
        all.put("seckill.sign-in.test-shoppers", "true");
        all.put("server.address", "127.0.0.1");
        ConfigurableApplicationContext app = Instances.start("async", instanceId, all);
        Nginx nginx = Nginx.start(Instances.port(app), "");
        // the provider notifies through Nginx, as in the cluster
        SandboxProvider.deliverTo(nginx.port());
        return new ShopBehindNginx(app, nginx, new Api(Instances.port(app)), "http://127.0.0.1:" + nginx.port());
    }

    /** Through the sign-in page's own form (and its CSRF token), as a person would; lands on {@code next}. */
    void signInAsTestShopper(Browser browser, String next) {
        browser.open(base + "/sign-in?next=" + next);
        browser.find("#test-shopper").click();
        browser.await(Duration.ofSeconds(10)).until(driver -> driver.getCurrentUrl().equals(base + next));
    }

    /** Waits for the buy page's order status to say {@code kind}; a timeout says what it said instead. */
    static void awaitStatus(Browser browser, String kind, Duration timeout) {
        try {
            browser.await(timeout).until(driver -> kind.equals(status(browser)));
        } catch (TimeoutException e) {
            throw new AssertionError("status never became " + kind + "; it says [" + status(browser) + "] "
                    + browser.find("#order-status").getText() + " (page's server time "
                    + browser.script("return window.seckillClock ? window.seckillClock.now() : null;") + ", sale from "
                    + browser.find("#countdown").getDomAttribute("data-begin") + ")", e);
        }
    }

    private static String status(Browser browser) {
        return browser.find("#order-status").getDomAttribute("data-kind");
    }

    @Override
    public void close() {
        nginx.close();
        app.close();
    }
}
