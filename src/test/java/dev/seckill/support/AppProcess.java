package dev.seckill.support;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The packaged application (target/seckill-platform.jar) in a JVM of its own, pointed at the test
 * servers: the one kind of instance a test can kill -9 for real. Integration tests run after
 * {@code package}, so the jar is the build under test.
 */
public final class AppProcess implements AutoCloseable {

    private final Process process;
    private final String instanceId;
    private final int port;
    private final Map<String, String> servers;
    private final List<String> extraArgs;
    private final Jvm jvm;
    private final Path log;

    private AppProcess(Process process, String instanceId, int port, Map<String, String> servers,
            List<String> extraArgs, Jvm jvm, Path log) {
        this.process = process;
        this.instanceId = instanceId;
        this.port = port;
        this.servers = servers;
        this.extraArgs = extraArgs;
        this.jvm = jvm;
        this.log = log;
    }

    /**
     * How the JVM itself runs, besides the packaged jar: environment variables (say, LD_PRELOAD of a fault
     * library), JVM options (system properties are Spring properties too), and a folder of test-only classes
     * put on the application's own class path ({@code loaderPath}, Spring Boot's PropertiesLauncher and its
     * {@code loader.path}). Nothing of it is in the jar: a fault point built this way exists only in tests.
     * {@code startTimeout}: how long it may take to become healthy.
     */
    public record Jvm(Map<String, String> environment, List<String> options, Path loaderPath, Duration startTimeout) {

        /** Well above a normal start (20-40 s): on a loaded 2-core machine starts have taken over 90 s. */
        static final Duration START_TIMEOUT = Duration.ofSeconds(180);

        /** {@code java -jar}, as scripts/cluster runs it. */
        public static final Jvm PLAIN = new Jvm(Map.of(), List.of(), null, START_TIMEOUT);

        public Jvm {
            environment = Map.copyOf(environment);
            options = List.copyOf(options);
        }

        public Jvm(Map<String, String> environment, List<String> options, Path loaderPath) {
            this(environment, options, loaderPath, START_TIMEOUT);
        }
    }

    public static AppProcess start(String instanceId, String... extraArgs) throws IOException, InterruptedException {
        return start(instanceId, Map.of(), extraArgs);
    }

    /** {@code servers} replaces what {@link TestServers} found (e.g. a Redis of the test's own). */
    public static AppProcess start(String instanceId, Map<String, String> servers, String... extraArgs)
            throws IOException, InterruptedException {
        return start(instanceId, servers, Jvm.PLAIN, extraArgs);
    }

    /** As {@link #start(String, Map, String...)}, in a JVM set up as {@code jvm} says. */
    public static AppProcess start(String instanceId, Map<String, String> servers, Jvm jvm, String... extraArgs)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        return launch(instanceId, port, Map.copyOf(servers), List.of(extraArgs), jvm);
    }

    private static AppProcess launch(String instanceId, int port, Map<String, String> servers, List<String> extraArgs,
            Jvm jvm) throws IOException, InterruptedException {
        File jar = new File("target/seckill-platform.jar");
        if (!jar.isFile()) {
            throw new IllegalStateException("target/seckill-platform.jar is missing: run the tests with ./mvnw verify");
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx384m"));
        command.addAll(jvm.options());
        if (jvm.loaderPath() == null) {
            command.addAll(List.of("-jar", jar.getPath()));
        } else {
            // The jar's own launcher, told to add a folder to the application's class loader
            command.addAll(List.of("-Dloader.path=" + jvm.loaderPath().toAbsolutePath(), "-cp", jar.getPath(),
                    "org.springframework.boot.loader.launch.PropertiesLauncher"));
        }
        command.addAll(List.of("--server.port=" + port, "--seckill.web.instance-id=" + instanceId));
        Map<String, String> properties = new LinkedHashMap<>(TestServers.properties());
        properties.putAll(servers);
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        command.addAll(extraArgs);
        Path log = Path.of("target", instanceId + ".log");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(jvm.environment());
        Process process = builder.start();
        AppProcess app = new AppProcess(process, instanceId, port, servers, extraArgs, jvm, log);
        app.awaitHealthy(jvm.startTimeout());
        return app;
    }

    public int port() {
        return port;
    }

    /**
     * The same instance again, after it stopped: same instance id (so the same stream consumer name), same
     * port (so the same place in Nginx's upstream), same settings. Its log starts afresh.
     */
    public AppProcess restart() throws IOException, InterruptedException {
        return restart(jvm);
    }

    /** {@link #restart()} in a JVM set up otherwise (e.g. without the fault that stopped it). */
    public AppProcess restart(Jvm otherJvm) throws IOException, InterruptedException {
        if (process.isAlive()) {
            throw new IllegalStateException(instanceId + " still runs: terminate() or kill() it first");
        }
        return launch(instanceId, port, servers, extraArgs, otherJvm);
    }

    /** Waits for the instance to exit by itself (a fault that halts it); returns its exit code. */
    public int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(instanceId + " still runs after " + timeout + "; see " + log);
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hook, no graceful stop, nothing acknowledged on the way out. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /**
     * SIGTERM ({@link Process#destroy()} on Unix), as {@code scripts/cluster down} and {@code docker stop}
     * send it, then waits for the graceful shutdown to end. Returns the exit code (143 = after SIGTERM).
     */
    public int terminate() throws InterruptedException {
        return terminate(Duration.ofSeconds(60));
    }

    /** {@link #terminate()}, failing if the instance has not exited within {@code timeout}. */
    public int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor();
            throw new AssertionError(instanceId + " did not exit within " + timeout + " of SIGTERM; see " + log);
        }
        return process.exitValue();
    }

    /** What the instance has logged so far (its stdout and stderr). */
    public String logText() throws IOException {
        return Files.readString(log);
    }

    /** Fails at once if the instance exits; killed if it is not healthy within {@code timeout}. */
    private void awaitHealthy(Duration timeout) {
        Api api = new Api(port);
        try {
            Awaitility.await(instanceId + " becomes healthy").atMost(timeout)
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(250))
                    .until(() -> {
                        if (!process.isAlive()) {
                            throw new IllegalStateException("the instance exited; see " + log);
                        }
                        try {
                            return api.get("/actuator/health").status() == 200;
                        } catch (IllegalStateException notYet) {
                            return false; // not listening yet
                        }
                    });
        } catch (ConditionTimeoutException notHealthy) {
            process.destroyForcibly();
            throw new IllegalStateException("the instance did not become healthy; see " + log, notHealthy);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            process.waitFor();
        }
    }
}
