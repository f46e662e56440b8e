package dev.seckill.web;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * @param maxBodySize     bodies above this are refused with 413 before anything parses them (the instance's
 *                        name, {@code seckill.web.instance-id}, is {@link dev.seckill.InstanceIdentity})
 * @param trustedProxies  the addresses (or ranges, {@code 10.0.0.0/8}) of the proxies whose
 *                        {@code X-Forwarded-For} and {@code X-Forwarded-Proto} the instance believes, comma-separated:
 *                        Nginx's. A request from any other address is taken to come from that address, whatever
 *                        it claims, so the per-address limits count what it cannot choose. Empty trusts nobody
 */
@Validated
@ConfigurationProperties("seckill.web")
record WebSettings(@NotNull @DefaultValue("16KB") DataSize maxBodySize,
        @NotNull @DefaultValue("127.0.0.1") String trustedProxies) {

    private static final String OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
    private static final Pattern IPV4 = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");

    /**
     * {@link #trustedProxies} as Tomcat's RemoteIpValve takes a list of networks ({@code 127.0.0.1/32,10.0.0.0/8}),
     * a single address given its full prefix length; empty when nobody is trusted.
     */
    String trustedProxyNetworks() {
        List<String> networks = new ArrayList<>();
        for (String entry : trustedProxies.split(",")) {
            String network = entry.strip();
            if (network.isEmpty()) {
                continue;
            }
            int slash = network.indexOf('/');
            String address = slash < 0 ? network : network.substring(0, slash);
            int maxBits = literal(address).getAddress().length * 8;
            int bits = maxBits;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(network.substring(slash + 1));
                } catch (NumberFormatException e) {
                    bits = -1;
                }
                if (bits < 0 || bits > maxBits) {
                    throw new IllegalArgumentException("'" + network + "' has no prefix length between 0 and " + maxBits);
                }
            }
            networks.add(address + "/" + bits);
        }
        return String.join(",", networks);
    }

    @AssertTrue(message = "trusted-proxies must be IP addresses or networks (127.0.0.1, 10.0.0.0/8, ::1), comma-separated")
    boolean isTrustedProxiesValid() {
        try {
            if (trustedProxies != null) {
                trustedProxyNetworks();
            }
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * An IP literal, never a host name: nothing here may ask DNS. (InetAddress looks up what is neither a valid IPv4
     * nor an IPv6 literal, such as 300.1.1.1; anything with a colon it parses as IPv6 or refuses.)
     */
    private static InetAddress literal(String address) {
        if (!IPV4.matcher(address).matches() && !address.contains(":")) {
            throw new IllegalArgumentException("'" + address + "' is no IP address");
        }
        try {
            return InetAddress.getByName(address);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + address + "' is no IP address", e);
        }
    }
}
