package dev.seckill.pages;

import java.util.HashMap;
import java.util.Map;

import dev.seckill.support.Api;
import dev.seckill.support.Instances;
import dev.seckill.support.Nginx;
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
        return new ShopBehindNginx(app, nginx, new Api(Instances.port(app)), "http://127.0.0.1:" + nginx.port());
    }

    @Override
    public void close() {
        nginx.close();
        app.close();
    }
}
