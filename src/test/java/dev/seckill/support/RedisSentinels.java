package dev.seckill.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.awaitility.Awaitility;

/**
 * A Sentinel-managed Redis of a test's own: a master, two replicas and three Sentinels (quorum 2), each a container
 * of {@link Docker#REDIS} ({@link HostContainer}) on a free port with a folder and a config file of its own, so
 * Sentinel can rewrite them as it reconfigures the nodes. Every
 * data node keeps an AOF fsynced before every answer ({@code appendfsync always}) and, as a master, refuses writes
 * unless a replica acknowledged within {@link #MAX_LAG_SECONDS} ({@code min-replicas-to-write 1}): a master cut off
 * from its replicas stops taking orders instead of taking orders the failover will discard. The Sentinels call the
 * master {@value #MASTER_NAME}, hold it down after {@link #DOWN_AFTER} without an answer, and fail it over.
 * <pre>{@code
 * try (RedisSentinels redis = RedisSentinels.start()) {
 *     int old = redis.masterPort();
 *     redis.kill(old);
 *     int promoted = redis.awaitFailover(old, Duration.ofSeconds(30));
 * }
 * }</pre>
 */
public final class RedisSentinels implements AutoCloseable {

    public static final String MASTER_NAME = "seckill";
    public static final Duration DOWN_AFTER = Duration.ofMillis(1_500);
    public static final int MAX_LAG_SECONDS = 3;
    private static final Duration FAILOVER_TIMEOUT = Duration.ofSeconds(10);

    private final Path dir;
    /** Data nodes by port, in start order (the first was the master), and the Sentinels by port. */
    private final Map<Integer, HostContainer> nodes = new LinkedHashMap<>();
    private final Map<Integer, HostContainer> sentinels = new LinkedHashMap<>();

    private RedisSentinels(Path dir) {
        this.dir = dir;
    }

    /** Returns once both replicas are in sync and every Sentinel knows both replicas and the two other Sentinels. */
    public static RedisSentinels start() throws IOException {
        RedisSentinels redis = new RedisSentinels(Files.createTempDirectory("seckill-sentinels"));
        try {
            redis.launch();
            return redis;
        } catch (IOException | RuntimeException | Error e) {
            try {
                redis.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private void launch() throws IOException {
        int master = Nginx.freePort();
        startNode(master, null);
        for (int i = 0; i < 2; i++) {
            startNode(freePortOtherThanOurs(), master);
        }
        for (int port : nodes.keySet()) {
            if (port != master) {
                awaitInSync(port);
            }
        }
        for (int i = 0; i < 3; i++) {
            startSentinel(freePortOtherThanOurs(), master);
        }
        Awaitility.await("every Sentinel knows 2 replicas and 2 other Sentinels").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100)).until(this::everySentinelSeesTheWholeSet);
    }

    private boolean everySentinelSeesTheWholeSet() throws IOException, InterruptedException {
        for (int sentinel : sentinels.keySet()) {
            String state = cli(sentinel, "SENTINEL", "MASTER", MASTER_NAME);
            if (!field(state, "num-slaves").equals("2") || !field(state, "num-other-sentinels").equals("2")) {
                return false;
            }
        }
        return true;
    }

    /** The Sentinels as {@code spring.data.redis.sentinel.nodes} takes them: {@code 127.0.0.1:port,...}. */
    public String sentinelNodes() {
        return sentinels.keySet().stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    /** The data nodes' ports, master and replicas, in start order. */
    public List<Integer> nodePorts() {
        return List.copyOf(nodes.keySet());
    }

    /** The master's port as the first Sentinel that answers names it ({@code SENTINEL get-master-addr-by-name}). */
    public int masterPort() throws IOException, InterruptedException {
        for (int sentinel : sentinels.keySet()) {
            List<String> address = cli(sentinel, "SENTINEL", "get-master-addr-by-name", MASTER_NAME).lines().toList();
            if (address.size() == 2 && address.get(1).matches("\\d+")) {
                return Integer.parseInt(address.get(1));
            }
        }
        throw new IllegalStateException("no Sentinel names a master of " + MASTER_NAME);
    }

    /** {@code docker kill -s KILL} a data node: nothing flushed on the way out but what its AOF already has. */
    public void kill(int port) {
        node(port).kill();
    }

    /**
     * Starts a killed node again from its own (Sentinel-rewritten) config and AOF. A former master comes back as a
     * master until a Sentinel tells it to replicate the new one; {@link #awaitReplicaInSync} waits for that.
     */
    public void restart(int port) {
        node(port).startAgain();
        awaitAnswers(port);
    }

    /** {@code docker pause} a data node: it keeps its connections open and answers nothing, acknowledges nothing. */
    public void pause(int port) {
        node(port).pause();
    }

    /** {@code docker unpause} after {@link #pause}: it reads what piled up on its connections and runs it. */
    public void resume(int port) {
        node(port).unpause();
    }

    /**
     * Waits until every Sentinel names a master other than {@code oldMaster} and that node says it is a master;
     * returns its port.
     */
    public int awaitFailover(int oldMaster, Duration atMost) {
        return Awaitility.await("a Sentinel failover away from :" + oldMaster).atMost(atMost)
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    int agreed = -1;
                    for (int sentinel : sentinels.keySet()) {
                        List<String> address = cli(sentinel, "SENTINEL", "get-master-addr-by-name", MASTER_NAME)
                                .lines().toList();
                        if (address.size() != 2 || !address.get(1).matches("\\d+")) {
                            return -1;
                        }
                        int named = Integer.parseInt(address.get(1));
                        if (named == oldMaster || (agreed != -1 && named != agreed)) {
                            return -1;
                        }
                        agreed = named;
                    }
                    return agreed != -1 && "master".equals(field(cli(agreed, "INFO", "replication"), "role")) ? agreed : -1;
                }, port -> port > 0);
    }

    /** Waits until the node on {@code port} replicates the current master, link up (e.g. a stale master rejoined). */
    public void awaitReplicaInSync(int port, Duration atMost) {
        Awaitility.await("node :" + port + " a replica in sync with the current master").atMost(atMost)
                .pollInterval(Duration.ofMillis(100)).until(() -> {
                    String replication = cli(port, "INFO", "replication");
                    return "slave".equals(field(replication, "role"))
                            && field(replication, "master_port").equals(Integer.toString(masterPort()))
                            && "up".equals(field(replication, "master_link_status"));
                });
    }

    /** A command to one node or Sentinel, answered as redis-cli prints it ({@link RedisCli}). */
    public String cli(int port, String... args) throws IOException, InterruptedException {
        return RedisCli.run(port, List.of(args));
    }

    /** Where the nodes' and Sentinels' folders (config, AOF, log) are. */
    public Path dir() {
        return dir;
    }

    /** {@code name:value} of an INFO answer, or {@code name\nvalue} of a SENTINEL MASTER answer; "" when missing. */
    private static String field(String answer, String name) {
        List<String> lines = answer.lines().map(String::trim).toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(name + ":")) {
                return lines.get(i).substring(name.length() + 1);
            }
            if (lines.get(i).equals(name) && i + 1 < lines.size()) {
                return lines.get(i + 1);
            }
        }
        return "";
    }

    private void startNode(int port, Integer masterPort) throws IOException {
        Path home = Files.createDirectories(dir.resolve("node-" + port));
        String conf = """
                bind 127.0.0.1
                port %d
                dir %s
                save ""
                appendonly yes
                appendfsync always
                min-replicas-to-write 1
                min-replicas-max-lag %d
                repl-diskless-sync-delay 0
                """.formatted(port, home, MAX_LAG_SECONDS);
        if (masterPort != null) {
            conf += "replicaof 127.0.0.1 " + masterPort + "\n";
        }
        Files.writeString(home.resolve("redis.conf"), conf);
        HostContainer node = new HostContainer(Docker.REDIS, "redis node :" + port).listeningOn(port).withFolder(home)
                .running("redis-server", home.resolve("redis.conf").toString(), "--logfile",
                        home.resolve("redis.log").toString());
        nodes.put(port, node);
        node.start();
        awaitAnswers(port);
    }

    private void startSentinel(int port, int masterPort) throws IOException {
        Path home = Files.createDirectories(dir.resolve("sentinel-" + port));
        Files.writeString(home.resolve("sentinel.conf"), """
                bind 127.0.0.1
                port %d
                dir %s
                sentinel monitor %s 127.0.0.1 %d 2
                sentinel down-after-milliseconds %s %d
                sentinel failover-timeout %s %d
                sentinel parallel-syncs %s 1
                """.formatted(port, home, MASTER_NAME, masterPort, MASTER_NAME, DOWN_AFTER.toMillis(), MASTER_NAME,
                FAILOVER_TIMEOUT.toMillis(), MASTER_NAME));
        HostContainer sentinel = new HostContainer(Docker.REDIS, "sentinel :" + port).listeningOn(port).withFolder(home)
                .running("redis-server", home.resolve("sentinel.conf").toString(), "--sentinel", "--logfile",
                        home.resolve("sentinel.log").toString());
        sentinels.put(port, sentinel);
        sentinel.start();
        awaitAnswers(port);
    }

    private void awaitAnswers(int port) {
        Awaitility.await(":" + port + " answers").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> "PONG".equals(cli(port, "PING")));
    }

    private void awaitInSync(int port) {
        Awaitility.await("replica :" + port + " in sync").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> "up".equals(field(cli(port, "INFO", "replication"), "master_link_status")));
    }

    /** A free port not yet handed to one of ours that has not bound it yet. */
    private int freePortOtherThanOurs() throws IOException {
        for (int tries = 0; tries < 20; tries++) {
            int port = Nginx.freePort();
            if (!nodes.containsKey(port) && !sentinels.containsKey(port)) {
                return port;
            }
        }
        throw new IOException("no free port");
    }

    private HostContainer node(int port) {
        HostContainer node = nodes.get(port);
        if (node == null) {
            throw new IllegalArgumentException("no data node on :" + port + " (nodes: " + nodes.keySet() + ")");
        }
        return node;
    }

    /** Removes the Sentinels first (no failover of a master being removed), then the nodes; the folders go. */
    @Override
    public void close() throws IOException {
        List<HostContainer> all = new ArrayList<>(sentinels.values());
        all.addAll(nodes.values());
        for (HostContainer container : all) {
            container.stop();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }
}
