package dev.seckill.shopper.web;

import java.net.InetAddress;
import java.net.UnknownHostException;

import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Whether the sign-in page may mint a new test shopper for this request. The button makes a shopper for whoever
 * clicks it, as many as they like: right on a developer's own machine, an open door anywhere else. So the setting
 * ({@code seckill.sign-in.test-shoppers}) is not enough on its own:
 * <ul>
 *   <li>an instance with it on refuses to start unless it listens on a loopback address only ({@code server.address},
 *       which scripts/cluster sets to 127.0.0.1): an instance in a container or on a server listens on every
 *       address, so a copied setting cannot open the door there;</li>
 *   <li>even then only a client on this machine is offered one (behind Nginx, the address Nginx saw): the local
 *       cluster's Nginx opened to the network by hand still mints nothing for the network;</li>
 *   <li>and an instance with it on says so, loudly, when it starts.</li>
 * </ul>
 */
@Component
class TestShoppers {

    private static final Logger log = LoggerFactory.getLogger(TestShoppers.class);

    private final boolean enabled;

    TestShoppers(SignInSettings settings, @Value("${server.address:}") String serverAddress) {
        this.enabled = settings.testShoppers();
        String refusal = refusal(enabled, serverAddress);
        if (refusal != null) {
            throw new IllegalStateException(refusal);
        }
        if (enabled) {
            log.warn("seckill.sign-in.test-shoppers is ON: the sign-in page mints a new shopper for anyone on this "
                    + "machine who asks. For a local cluster only; never in a deployment.");
        }
    }

    /** On, and the client is on this machine. */
    boolean offeredTo(HttpServletRequest request) {
        return enabled && isLoopbackClient(request.getRemoteAddr());
    }

    /** Why an instance with these settings must not start, or null when it may. */
    static String refusal(boolean testShoppers, String serverAddress) {
        if (!testShoppers || isLoopback(serverAddress)) {
            return null;
        }
        return "seckill.sign-in.test-shoppers (SECKILL_SIGN_IN_TEST_SHOPPERS) mints shoppers for anyone who can reach "
                + "the sign-in page, so it is allowed only on an instance that listens on a loopback address, and this "
                + "one listens on " + (serverAddress == null || serverAddress.isBlank() ? "every address" : serverAddress)
                + ". Turn it off, or set server.address (SERVER_ADDRESS) to 127.0.0.1 as scripts/cluster does.";
    }

    /**
     * A loopback address (127.0.0.0/8, ::1, or a name such as localhost that resolves only to one). Null or blank
     * is not: a server without an address listens on all of them.
     */
    static boolean isLoopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        String trimmed = address.strip();
        if (trimmed.startsWith("[") && trimmed.endsWith("]")) {
            trimmed = trimmed.substring(1, trimmed.length() - 1);
        }
        try {
            InetAddress[] resolved = InetAddress.getAllByName(trimmed);
            for (InetAddress one : resolved) {
                if (!one.isLoopbackAddress()) {
                    return false;
                }
            }
            return resolved.length > 0;
        } catch (UnknownHostException | SecurityException unknown) {
            return false;
        }
    }

    /** A client address as Tomcat reports it: only IP literals count, so a forwarded header never causes a lookup. */
    static boolean isLoopbackClient(String address) {
        return address != null && !address.isEmpty() && address.chars().allMatch(c -> c == '.' || c == ':'
                || Character.digit(c, 16) >= 0) && isLoopback(address);
    }
}
