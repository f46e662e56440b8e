package dev.seckill.shopper.web;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param testShoppers the sign-in page offers "sign in as a new test shopper", which mints one without the
 *                     admin side: for the local cluster and the browser tests only (scripts/cluster turns it
 *                     on); off by default, so a deployment signs in only with a token an admin minted
 */
@ConfigurationProperties("seckill.sign-in")
record SignInSettings(@DefaultValue("false") boolean testShoppers) {
}
