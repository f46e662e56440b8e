package dev.seckill.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.awaitility.Awaitility;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * A Redis of a test's own ({@link Docker#REDIS}, in a {@link HostContainer}) on a free port, with its data in a
 * folder of its own, so a test can kill it (-9), flush it or restart it without touching the Redis the other tests
 * share. {@code fsync} is the AOF's {@code appendfsync} ({@code always}, {@code everysec}), or null for no
 * persistence at all. It may be a replica of another ({@link #startReplicaOf}), which a test can pause
 * ({@link #pause}).
 */
public final class RedisServer implements AutoCloseable {

    private final int port;
    private final HostContainer container;

    private RedisServer(Path dir, int port, String fsync, int masterPort) {
        this.port = port;
        List<String> command = new ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1",
                "--port", Integer.toString(port), "--dir", dir.toString(), "--save", "",
                "--logfile", dir.resolve("redis.log").toString(),
                // a replica is sent the data at once, not 5 s later in case another one asks too
                "--repl-diskless-sync-delay", "0"));
        if (masterPort > 0) {
            command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(masterPort)));
        }
        if (fsync == null) {
            command.addAll(List.of("--appendonly", "no"));
        } else {
            command.addAll(List.of("--appendonly", "yes", "--appendfsync", fsync));
        }
        this.container = new HostContainer(Docker.REDIS, "redis :" + port).listeningOn(port).withFolder(dir)
                .running(command.toArray(String[]::new));
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

    /**
     * Returns once this replica has everything {@code master} wrote so far (its replication offset reached the
     * master's). Not WAIT from another connection: WAIT waits for that connection's own writes, and a new one has
     * none, so it answers at once, before the replica may have received anything.
     */
    public void awaitCaughtUpWith(RedisServer master) {
        Awaitility.await("replica on " + port + " caught up with " + master.port).atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(20)).until(() -> {
                    long written = replicationOffset(master.cli("info", "replication"), "master_repl_offset");
                    return replicationOffset(cli("info", "replication"), "slave_repl_offset") >= written;
                });
    }

    private static long replicationOffset(String info, String field) {
        return info.lines().filter(line -> line.startsWith(field + ":")).findFirst()
                .map(line -> Long.parseLong(line.substring(field.length() + 1).trim())).orElse(-1L);
    }

    /** {@code docker pause}: it keeps its connections open, answers nothing and acknowledges nothing. */
    public void pause() {
        container.pause();
    }

    /** {@code docker unpause} after {@link #pause}: it reads what piled up on its connections. */
    public void resume() {
        container.unpause();
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

    /** {@code docker kill -s KILL}: nothing flushed on the way out but what the AOF policy already wrote. */
    public void kill() {
        container.kill();
    }

    /** The same container started again: same settings and folder, so it loads whatever its AOF kept. */
    public void restart() {
        container.startAgain();
        awaitAnswers();
    }

    /** Redis's id of the running process: a restart changes it. */
    public String runId() throws IOException, InterruptedException {
        return cli("info", "server").lines().filter(line -> line.startsWith("run_id:")).findFirst().orElseThrow().trim();
    }

    /** A command and its answer as redis-cli prints it ({@link RedisCli}); "Could not connect" while it is stopped. */
    public String cli(String... args) throws IOException, InterruptedException {
        return RedisCli.run(port, List.of(args));
    }

    private void launch() {
        container.start();
        awaitAnswers();
    }

    private void awaitAnswers() {
        Awaitility.await("redis on " + port + " loads its data and answers").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50)).until(() -> "PONG".equals(cli("ping")));
    }

    /** Removes the container (paused or not); the folder stays in the temporary folder, as before a restart. */
    @Override
    public void close() {
        container.stop();
    }
}
