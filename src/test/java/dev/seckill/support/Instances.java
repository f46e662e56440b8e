package dev.seckill.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.seckill.SeckillApplication;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Extra application instances in the test JVM, each its own Spring context, Tomcat and Redisson client. */
public final class Instances {

    private Instances() {
    }

    /** Start one after the other: Spring Boot's logging set-up is not safe for two starts at once in one JVM. */
    public static ConfigurableApplicationContext start(String mode, String instanceId) {
        return start(mode, instanceId, Map.of());
    }

    /** {@code overrides} replace what {@link TestServers} found or add settings (e.g. a proxied database URL). */
    public static ConfigurableApplicationContext start(String mode, String instanceId, Map<String, String> overrides) {
        // As command-line arguments: builder "properties" are defaults that application.yml would override.
        Map<String, String> properties = new LinkedHashMap<>(TestServers.properties());
        properties.putAll(overrides);
        List<String> args = new ArrayList<>();
        properties.forEach((name, value) -> args.add("--" + name + "=" + value));
        args.add("--server.port=0");
        args.add("--seckill.web.instance-id=" + instanceId);
        args.add("--seckill.mode=" + mode);
        // no balancer in front: nothing to drain on close
        args.add("--seckill.shutdown.drain=0s");
        return new SpringApplicationBuilder(SeckillApplication.class).run(args.toArray(String[]::new));
    }

    /** Closes each instance that was started (null: it never was), in order. */
    public static void closeAll(ConfigurableApplicationContext... instances) {
        for (ConfigurableApplicationContext instance : instances) {
            if (instance != null) {
                instance.close();
            }
        }
    }

    /**
     * Every shopper's token {@code times} times, in an order shuffled with {@code seed}: the requests of a burst in
     * which each shopper tries more than once, the tries spread over the burst.
     */
    public static List<String> eachShopperTimes(List<String> tokens, int times, long seed) {
        List<String> requests = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            requests.addAll(tokens);
        }
        Collections.shuffle(requests, new Random(seed));
        return requests;
    }

    public static int port(ConfigurableApplicationContext context) {
        return Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port"));
    }
}
