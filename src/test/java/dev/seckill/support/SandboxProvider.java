package dev.seckill.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.seckill.sandbox.SandboxApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * The sandbox payment provider in a test JVM: {@link SandboxApplication} started in this JVM, as the cluster runs it
 * beside the instances. The JVM's shared one ({@link #start()}) runs on a port chosen up front (so that
 * {@link TestServers#properties()} can name it before it runs), against the test database, and delivers its
 * notifications to whichever instance (or Nginx) a test last pointed it at ({@link #deliverTo}). A test whose
 * instances use another database starts one of its own ({@link #separate}).
 */
public final class SandboxProvider implements AutoCloseable {

    public static final String API_SECRET = "test-payment-provider-secret-0123";
    public static final int PORT = freePort();

    private static SandboxProvider shared;

    private final int port;
    private final Map<String, Object> webhook = new ConcurrentHashMap<>(
            Map.of("seckill.sandbox.webhook-url", "http://127.0.0.1:9/payments/webhook"));
    private final ConfigurableApplicationContext context;

    private SandboxProvider(int port, Map<String, String> settings) {
        this.port = port;
        // one value a name: an argument given twice would be read as both, comma-joined
        Map<String, String> all = new LinkedHashMap<>();
        TestServers.properties().forEach((name, value) -> {
            if (name.startsWith("spring.datasource.")) {
                all.put(name, value);
            }
        });
        all.put("server.port", Integer.toString(port));
        all.put("seckill.sandbox.webhook-url", webhook.get("seckill.sandbox.webhook-url").toString());
        all.put("seckill.sandbox.webhook-secret", TestServers.WEBHOOK_SECRET);
        all.put("seckill.sandbox.api-secret", API_SECRET);
        all.put("spring.datasource.hikari.minimum-idle", "1");
        all.putAll(settings);
        List<String> args = new ArrayList<>();
        all.forEach((name, value) -> args.add("--" + name + "=" + value));
        // the webhook's URL first of all its settings, and changeable while it runs
        context = SandboxApplication.builder()
                .initializers(started -> started.getEnvironment().getPropertySources()
                        .addFirst(new MapPropertySource("test-webhook", webhook)))
                .run(args.toArray(String[]::new));
    }

    /** The JVM's shared sandbox, started at the first call, on {@link #PORT} and the test database. */
    public static synchronized SandboxProvider start() {
        if (shared == null) {
            shared = new SandboxProvider(PORT, Map.of());
        }
        return shared;
    }

    /** A sandbox of its own, on another port, with these settings over the test database's (e.g. another database). */
    public static SandboxProvider separate(Map<String, String> settings) {
        return new SandboxProvider(freePort(), settings);
    }

    /** The shared sandbox's address, which {@link TestServers#properties()} gives every instance. */
    public static String url() {
        return "http://127.0.0.1:" + PORT;
    }

    /** From now on the shared sandbox's notifications go to the webhook of the instance (or Nginx) on this port. */
    public static void deliverTo(int port) {
        start().notify(port);
    }

    public static <T> T bean(Class<T> type) {
        return start().context.getBean(type);
    }

    public int port() {
        return port;
    }

    public String address() {
        return "http://127.0.0.1:" + port;
    }

    /** From now on its notifications go to the webhook of the instance (or Nginx) on this port. */
    public void notify(int webhookPort) {
        webhook.put("seckill.sandbox.webhook-url", "http://127.0.0.1:" + webhookPort + "/payments/webhook");
    }

    @Override
    public void close() {
        context.close();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
