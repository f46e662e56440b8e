package dev.seckill.web;

import org.apache.catalina.valves.RemoteIpValve;
import org.junit.jupiter.api.Test;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code seckill.web.trusted-proxies} becomes the RemoteIpValve's list of networks (addresses matched as addresses,
 * never as a regular expression), nothing else is trusted, no host name is taken from a header, and anything but IP
 * literals is refused at start-up without a DNS lookup.
 */
class ForwardedHeadersTest {

    static WebSettings trusting(String proxies) {
        return new WebSettings(DataSize.ofKilobytes(16), proxies);
    }

    @Test
    void addressesAndNetworksBecomeTheValvesNetworks() {
        assertThat(trusting("127.0.0.1").trustedProxyNetworks()).isEqualTo("127.0.0.1/32");
        assertThat(trusting(" 10.1.2.3 , 172.30.0.0/16,::1, fd00::/8 ").trustedProxyNetworks())
                .isEqualTo("10.1.2.3/32,172.30.0.0/16,::1/128,fd00::/8");
        assertThat(trusting("").trustedProxyNetworks()).isEmpty();
        assertThat(trusting(" , ").trustedProxyNetworks()).isEmpty();
    }

    @Test
    void anythingButIpLiteralsIsRefused() {
        for (String wrong : new String[] {"localhost", "nginx", "cafe", "300.1.1.1", "127.0.0", "127.0.0.1/33", "::1/129",
                "10.0.0.0/x", "10.0.0.0/-1", "127.0.0.*", "127\\.0\\.0\\.1", "::g"}) {
            assertThat(trusting(wrong).isTrustedProxiesValid()).as(wrong).isFalse();
            assertThatThrownBy(() -> trusting(wrong).trustedProxyNetworks()).as(wrong)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(trusting("127.0.0.1,10.0.0.0/8").isTrustedProxiesValid()).isTrue();
    }

    @Test
    void theValveBelievesOnlyTheTrustedProxiesAndTakesNoHostFromAHeader() {
        TomcatServletWebServerFactory factory = new TomcatServletWebServerFactory();
        new ForwardedHeaders(trusting("127.0.0.1")).customize(factory);

        assertThat(factory.getEngineValves()).hasSize(1);
        RemoteIpValve valve = (RemoteIpValve) factory.getEngineValves().iterator().next();
        assertThat(valve.getInternalProxies()).isEqualTo("127.0.0.1/32");
        assertThat(valve.getTrustedProxies()).isNull();
        assertThat(valve.getRemoteIpHeader()).isEqualTo("X-Forwarded-For");
        assertThat(valve.getProtocolHeader()).isEqualTo("X-Forwarded-Proto");
        assertThat(valve.getHostHeader()).isNull();
    }
}
