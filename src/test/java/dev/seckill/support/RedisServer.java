package dev.seckill.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.awaitility.Awaitility;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A redis-server of a test's own, on a free port, with its data in a folder of its own, so a test can
 * kill it (-9), flush it or restart it without touching the Redis the other tests share. {@code fsync}
 * is the AOF's {@code appendfsync} ({@code always}, {@code everysec}), or null for no persistence at all.
 * It may be a replica of another ({@link #startReplicaOf}), which a test can pause ({@link #pause}).
 */
public final class RedisServer implements AutoCloseable {

    private final Path dir;
    private final int port;
    private final String fsync;
    /** The master's port, or 0 for a master. */
    private final int masterPort;
    private Process process;

    private RedisServer(Path dir, int port, String fsync, int masterPort) {
        this.dir = dir;
        this.port = port;
        this.fsync = fsync;
        this.masterPort = masterPort;
    }

    public static RedisServer start(String fsync) throws IOException {
        RedisServer redis = new RedisServer(Files.createTempDirectory("seckill-redis"), Nginx.freePort(), fsync, 0);
        redis.launch();
        return redis;
    }

    /** A replica of {@code master} ({@code --replicaof}), without persistence; returns once it is in sync. */
    public static RedisServer startReplicaOf(RedisServer master) throws IOException {
        RedisServer replica = new RedisServer(Files.createTempDirectory("seckill-redis-replica"), Nginx.freePort(), null,
                master.port());
        replica.launch();
        Awaitility.await("replica on " + replica.port + " in sync with " + master.port).atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> replica.cli("info", "replication").contains("master_link_status:up"));
        return replica;
    }

    /** SIGSTOP: the process stays, its connections stay open, it answers nothing and acknowledges nothing. */
    public void pause() throws IOException, InterruptedException {
        signal("-STOP");
    }

    /** SIGCONT after {@link #pause}: it reads what piled up on its connections. */
    public void resume() throws IOException, InterruptedException {
        signal("-CONT");
    }

    private void signal(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill " + signal + " " + process.pid() + " failed");
        }
    }

    public int port() {
        return port;
    }

    /** A Redisson client of this server alone, with Redisson's defaults; the caller shuts it down. */
    public RedissonClient client() {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://127.0.0.1:" + port);
        return Redisson.create(config);
    }

    /** How many times this server has run {@code command} (INFO commandstats), to count a script's commands. */
    public long commandCalls(String command) throws IOException, InterruptedException {
        return cli("info", "commandstats").lines().filter(line -> line.startsWith("cmdstat_" + command + ":"))
                .map(line -> Long.parseLong(line.replaceAll("^[^:]*:calls=(\\d+),.*", "$1"))).findFirst().orElse(0L);
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
        if (masterPort > 0) {
            command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(masterPort)));
        }
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
            try {
                resume(); // a paused server would not act on the SIGTERM
            } catch (IOException | IllegalStateException e) {
                process.destroyForcibly();
            }
            process.waitFor();
        }
    }
}
