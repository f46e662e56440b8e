package dev.seckill.web;

import org.apache.catalina.valves.RemoteIpValve;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.stereotype.Component;

/**
 * The client address, scheme and port Nginx forwards, believed only from the proxies of
 * {@code seckill.web.trusted-proxies}: the per-address limits (failed admin logins) count by the address this
 * gives, so a client that reaches an instance directly must not choose it with a header of its own. Tomcat's
 * RemoteIpValve, set up here rather than by {@code server.forward-headers-strategy} (which is {@code none}): that one
 * trusted every loopback and private address, and took the host name from {@code X-Forwarded-Host}. No host name is
 * taken from any header; redirects are relative ({@code server.tomcat.use-relative-redirects}), so none is needed.
 */
@Component
class ForwardedHeaders implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private final String trustedProxies;

    ForwardedHeaders(WebSettings settings) {
        this.trustedProxies = settings.trustedProxyNetworks();
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        RemoteIpValve valve = new RemoteIpValve();
        // networks (a list with "/"): Tomcat then matches addresses, not a regular expression; empty trusts nobody
        valve.setInternalProxies(trustedProxies);
        valve.setTrustedProxies(null);
        valve.setRemoteIpHeader("X-Forwarded-For");
        valve.setProtocolHeader("X-Forwarded-Proto");
        valve.setPortHeader("X-Forwarded-Port");
        valve.setHostHeader(null);
        factory.addEngineValves(valve);
    }
}
