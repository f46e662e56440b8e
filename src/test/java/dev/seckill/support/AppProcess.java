package dev.seckill.support;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The packaged application (target/seckill-platform.jar) in a JVM of its own, pointed at the test
 * servers: the one kind of instance a test can kill -9 for real. Integration tests run after
 * {@code package}, so the jar is the build under test.
 */
public final class AppProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path log;

    private AppProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    public static AppProcess start(String instanceId, String... extraArgs) throws IOException, InterruptedException {
        return start(instanceId, java.util.Map.of(), extraArgs);
    }

    /** {@code servers} replaces what {@link TestServers} found (e.g. a Redis of the test's own). */
    public static AppProcess start(String instanceId, java.util.Map<String, String> servers, String... extraArgs)
            throws IOException, InterruptedException {
        File jar = new File("target/seckill-platform.jar");
        if (!jar.isFile()) {
            throw new IllegalStateException("target/seckill-platform.jar is missing: run the tests with ./mvnw verify");
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m", "-jar", jar.getPath(),
                "--server.port=" + port, "--seckill.web.instance-id=" + instanceId));
        java.util.Map<String, String> properties = new java.util.LinkedHashMap<>(TestServers.properties());
        properties.putAll(servers);
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        command.addAll(List.of(extraArgs));
        Path log = Path.of("target", instanceId + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        AppProcess app = new AppProcess(process, port, log);
        app.awaitHealthy(Duration.ofSeconds(90));
        return app;
    }

    public int port() {
        return port;
    }

    /** SIGKILL: no shutdown hook, no graceful stop, nothing acknowledged on the way out. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    private void awaitHealthy(Duration timeout) throws InterruptedException {
        Api api = new Api(port);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the instance exited; see " + log);
            }
            try {
                if (api.get("/actuator/health").status() == 200) {
                    return;
                }
            } catch (IllegalStateException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        process.destroyForcibly();
        throw new IllegalStateException("the instance did not become healthy; see " + log);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            process.waitFor();
        }
    }
}
