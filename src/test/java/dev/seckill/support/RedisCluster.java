package dev.seckill.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.awaitility.Awaitility;

/**
 * A six-node Redis Cluster of a test's own (three masters, a replica each), six containers of {@link Docker#REDIS}
 * ({@link HostContainer}) with the settings the {@code cluster} profile of docker-compose.yml gives its nodes (an AOF
 * fsynced before every answer, {@code cluster-node-timeout} 5 s), created as its {@code redis-cluster-create} creates
 * one ({@code redis-cli --cluster create --cluster-replicas 1}), on ports and in a state folder of its own: a new, empty cluster every time, next to
 * whatever else runs on this machine.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int NODES = 6;

    private final int firstPort;
    private final Path dir;
    private final Map<Integer, HostContainer> containers = new TreeMap<>();

    private RedisCluster(int firstPort, Path dir) {
        this.firstPort = firstPort;
        this.dir = dir;
    }

    /** Returns once every node says cluster_state:ok and every replica is in sync. */
    public static RedisCluster start() throws IOException, InterruptedException {
        RedisCluster cluster = new RedisCluster(freeFirstPort(), Files.createTempDirectory("seckill-redis-cluster"));
        try {
            cluster.create();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void create() throws IOException, InterruptedException {
        for (int port : ports()) {
            Path home = Files.createDirectories(dir.resolve(Integer.toString(port)));
            // --save "": no RDB snapshots, the AOF alone keeps the data
            HostContainer node = new HostContainer(Docker.REDIS, "cluster node :" + port).listeningOn(port)
                    .withFolder(home).running("redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(port),
                            "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                            "--cluster-node-timeout", "5000", "--dir", home.toString(),
                            "--logfile", home.resolve("redis.log").toString(),
                            "--save", "", "--appendonly", "yes", "--appendfsync", "always",
                            "--repl-diskless-sync-delay", "0");
            containers.put(port, node);
        }
        org.testcontainers.lifecycle.Startables.deepStart(containers.values()).join();
        awaitAnswers();
        List<String> create = new ArrayList<>(List.of("redis-cli", "--cluster", "create"));
        ports().forEach(port -> create.add("127.0.0.1:" + port));
        create.addAll(List.of("--cluster-replicas", "1", "--cluster-yes"));
        String created = containers.get(firstPort).cli(create);
        Files.writeString(dir.resolve("create.log"), created);
        if (!created.contains("[OK] All 16384 slots covered")) {
            throw new IllegalStateException("redis-cli --cluster create failed:\n" + created);
        }
        awaitOkAndInSync();
    }

    private void awaitAnswers() {
        Awaitility.await("every cluster node answers").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    for (int port : ports()) {
                        if (!"PONG".equals(cli(port, "PING"))) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    private void awaitOkAndInSync() {
        Awaitility.await("cluster_state:ok on every node, every replica in sync").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(200)).until(() -> {
                    for (int port : ports()) {
                        if (!cli(port, "CLUSTER", "INFO").contains("cluster_state:ok")) {
                            return false;
                        }
                        String replication = cli(port, "INFO", "replication");
                        if (replication.contains("role:slave") && !replication.contains("master_link_status:up")) {
                            return false;
                        }
                    }
                    return settledAsSeenFromTheFirstNode();
                });
    }

    /**
     * The first node, whose CLUSTER NODES the tests read ({@link #masters}, {@link #replicaOf}), has heard of every
     * node's role: half of them masters that serve slots, each with a replica. Gossip brings it a replica's new role
     * a moment after the replica itself knows it, and until then it counts the replica as a master.
     */
    private boolean settledAsSeenFromTheFirstNode() throws IOException, InterruptedException {
        List<String[]> nodes = cli(firstPort, "CLUSTER", "NODES").lines().map(line -> line.trim().split(" ")).toList();
        long masters = nodes.stream().filter(node -> node.length > 8 && node[2].contains("master")
                && !node[2].contains("fail")).count();
        long replicas = nodes.stream().filter(node -> node.length > 3 && node[2].contains("slave")
                && !node[2].contains("fail") && !node[3].equals("-")).count();
        return masters == NODES / 2 && replicas == NODES / 2;
    }

    /** The nodes as {@code spring.data.redis.cluster.nodes} takes them. */
    public String nodes() {
        return ports().stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    public List<Integer> ports() {
        return IntStream.range(firstPort, firstPort + NODES).boxed().toList();
    }

    /** {@code CLUSTER KEYSLOT key}, as the cluster computes it. */
    public int slot(String key) throws IOException, InterruptedException {
        return Integer.parseInt(cli(firstPort, "CLUSTER", "KEYSLOT", key));
    }

    /** Each master's port with the slot ranges it serves ({@code {from, to}}), from {@code CLUSTER NODES}. */
    public Map<Integer, List<int[]>> masters() throws IOException, InterruptedException {
        Map<Integer, List<int[]>> masters = new TreeMap<>();
        for (String line : cli(firstPort, "CLUSTER", "NODES").lines().toList()) {
            String[] fields = line.trim().split(" ");
            if (fields.length < 8 || !List.of(fields[2].split(",")).contains("master") || fields[2].contains("fail")) {
                continue;
            }
            int port = port(fields);
            List<int[]> ranges = new ArrayList<>();
            for (int i = 8; i < fields.length; i++) {
                if (!fields[i].startsWith("[")) { // "[slot->-node]": a slot being migrated, not served
                    String[] bounds = fields[i].split("-");
                    ranges.add(new int[] {Integer.parseInt(bounds[0]), Integer.parseInt(bounds[bounds.length - 1])});
                }
            }
            masters.put(port, ranges);
        }
        return masters;
    }

    /** The port of the master that serves the key's slot. */
    public int masterOf(String key) throws IOException, InterruptedException {
        int slot = slot(key);
        for (Map.Entry<Integer, List<int[]>> master : masters().entrySet()) {
            for (int[] range : master.getValue()) {
                if (slot >= range[0] && slot <= range[1]) {
                    return master.getKey();
                }
            }
        }
        throw new IllegalStateException("no master serves slot " + slot + " of " + key);
    }

    /** The port of a replica of the master on {@code masterPort}, from {@code CLUSTER NODES}. */
    public int replicaOf(int masterPort) throws IOException, InterruptedException {
        List<String[]> nodes = cli(firstPort, "CLUSTER", "NODES").lines().map(line -> line.trim().split(" ")).toList();
        String masterId = nodes.stream().filter(node -> port(node) == masterPort).findFirst().orElseThrow()[0];
        return nodes.stream().filter(node -> node[2].contains("slave") && node[3].equals(masterId))
                .mapToInt(RedisCluster::port).findFirst()
                .orElseThrow(() -> new IllegalStateException("no replica of :" + masterPort));
    }

    private static int port(String[] node) {
        return Integer.parseInt(node[1].substring(node[1].lastIndexOf(':') + 1).split("@")[0]);
    }

    /** {@code docker pause} a node: it keeps its connections open and answers nothing, as a stuck node does. */
    public void pause(int port) {
        containers.get(port).pause();
    }

    /** {@code docker unpause} after {@link #pause}. */
    public void resume(int port) {
        containers.get(port).unpause();
    }

    /**
     * {@code docker kill -s KILL} a node: nothing flushed on the way out but what its AOF already has. Returns once
     * it has stopped; its replica takes over after {@code cluster-node-timeout} (5 s), see {@link #awaitMasterOf}.
     */
    public void kill(int port) {
        containers.get(port).kill();
    }

    /**
     * Waits until a node other than {@code formerMaster} serves the key's slot and says it is a master; returns
     * its port.
     */
    public int awaitMasterOf(String key, int formerMaster, Duration atMost) {
        return Awaitility.await("a master of " + key + " other than :" + formerMaster).atMost(atMost)
                .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> {
                    int port = masterOf(key);
                    return port != formerMaster && cli(port, "ROLE").startsWith("master") ? port : -1;
                }, port -> port > 0);
    }

    /**
     * Starts the nodes that do not run again, each the same container (a killed one comes back from its nodes.conf
     * and AOF, as a replica of the node that took over), and waits until every node is ok and in sync.
     */
    public void startStopped() {
        for (HostContainer node : containers.values()) {
            if (!node.running()) {
                node.startAgain();
            }
        }
        awaitAnswers();
        awaitOkAndInSync();
    }

    /**
     * A command to one node, without following redirections: the answer is that node's own, as redis-cli prints it
     * ({@link RedisCli}).
     */
    public String cli(int port, String... args) throws IOException, InterruptedException {
        return RedisCli.run(port, List.of(args));
    }

    /** Removes the nodes, then the state folder: the next test gets a new cluster anyway. */
    @Override
    public void close() throws IOException {
        for (HostContainer node : containers.values()) {
            node.stop();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    /** Six consecutive free ports whose cluster bus ports (+10000) are free too, away from the script's 7101. */
    /**
     * Six free ports below the system's ephemeral range, their bus ports (+10,000) free too. Each test JVM looks in
     * ranges of its own ({@link TestServers#fork()}): two that started a cluster at the same moment would otherwise
     * both find the same ports free, and one's nodes would fail to bind, or join the other's cluster.
     */
    private static int freeFirstPort() throws IOException {
        int fork = TestServers.fork();
        for (int first = 7201 + 100 * (fork - 1); first + NODES + 10_000 < 32_768; first += 1_600) {
            int candidate = first;
            if (IntStream.range(candidate, candidate + NODES).allMatch(p -> free(p) && free(p + 10_000))) {
                return candidate;
            }
        }
        throw new IOException("no six free ports (and their bus ports) for test JVM " + fork + " from 7201 on");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
