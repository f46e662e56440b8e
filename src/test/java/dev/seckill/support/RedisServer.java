package dev.seckill.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;

/**
 * A redis-server of a test's own, on a free port, with its data in a folder of its own, so a test can
 * kill it (-9), flush it or restart it without touching the Redis the other tests share. {@code fsync}
 * is the AOF's {@code appendfsync} ({@code always}, {@code everysec}), or null for no persistence at all.
 */
public final class RedisServer implements AutoCloseable {

    private final Path dir;
    private final int port;
    private final String fsync;
    private Process process;

    private RedisServer(Path dir, int port, String fsync) {
        this.dir = dir;
        this.port = port;
        this.fsync = fsync;
    }

    public static RedisServer start(String fsync) throws IOException {
        RedisServer redis = new RedisServer(Files.createTempDirectory("seckill-redis"), Nginx.freePort(), fsync);
        redis.launch();
        return redis;
    }

    public int port() {
        return port;
    }

    /** SIGKILL: nothing flushed on the way out but what the AOF policy already wrote. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts again with the same settings and folder: it loads whatever its AOF kept. */
    public void restart() throws IOException {
        launch();
    }

    /** Redis's id of the running process: a restart changes it. */
    public String runId() throws IOException, InterruptedException {
        return cli("info", "server").lines().filter(line -> line.startsWith("run_id:")).findFirst().orElseThrow().trim();
    }

    public String cli(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        Process cli = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        cli.waitFor();
        return out;
    }

    private void launch() throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1",
                "--port", Integer.toString(port), "--dir", dir.toString(), "--save", ""));
        if (fsync == null) {
            command.addAll(List.of("--appendonly", "no"));
        } else {
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", fsync));
        }
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile()).start();
        Awaitility.await("redis on " + port + " loads its data and answers").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).until(() -> "PONG".equals(cli("ping")));
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            process.waitFor();
        }
    }
}
