package dev.seckill.shopper.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param testShoppers the sign-in page offers "sign in as a new test shopper", which mints one without the
 *                     admin side: for a cluster on one's own machine only, where clicking through the shop
 *                     should need no admin (scripts/cluster turns it on). Off by default, so a deployment signs in only with a token an admin minted; when on,
 *                     the instance refuses to start unless {@code server.address} is a loopback address, and
 *                     offers the button only to clients on the same machine
 */
@ConfigurationProperties("seckill.sign-in")
record SignInSettings(@DefaultValue("false") boolean testShoppers) {
}
