package dev.seckill.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
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
 * A six-node Redis Cluster of a test's own (three masters, a replica each), started and stopped by
 * {@code scripts/redis-cluster} itself, so the test runs the script people use, on ports and in a state folder
 * of its own: a new, empty cluster every time, next to whatever else runs on this machine.
 */
public final class RedisCluster implements AutoCloseable {

    private static final int NODES = 6;

    private final int firstPort;
    private final Path dir;

    private RedisCluster(int firstPort, Path dir) {
        this.firstPort = firstPort;
        this.dir = dir;
    }

    /** {@code scripts/redis-cluster up}: returns once every node says cluster_state:ok and every replica is in sync. */
    public static RedisCluster start() throws IOException, InterruptedException {
        RedisCluster cluster = new RedisCluster(freeFirstPort(), Files.createTempDirectory("seckill-redis-cluster"));
        cluster.script("up");
        return cluster;
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

    /** SIGSTOP a node: it keeps its connections open and answers nothing, as a stuck node does to a client. */
    public void pause(int port) throws IOException, InterruptedException {
        signal(port, "-STOP");
    }

    /** SIGCONT after {@link #pause}. */
    public void resume(int port) throws IOException, InterruptedException {
        signal(port, "-CONT");
    }

    /**
     * SIGKILL a node: nothing flushed on the way out but what its AOF already has. Returns once the process is
     * gone; its replica takes over after {@code cluster-node-timeout} (5 s), see {@link #awaitMasterOf}.
     */
    public void kill(int port) throws IOException, InterruptedException {
        String pid = Files.readString(dir.resolve(port + "/redis.pid")).trim();
        signal(port, "-KILL");
        Path proc = Path.of("/proc", pid);
        Awaitility.await("node :" + port + " (pid " + pid + ") gone")
                .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
                .until(() -> !Files.exists(proc) || Files.readString(proc.resolve("stat")).contains(") Z "));
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
     * {@code scripts/redis-cluster up} again: starts the nodes that do not run (a killed one comes back from its
     * nodes.conf and AOF, as a replica of the node that took over) and waits until every node is ok and in sync.
     */
    public void startStopped() throws IOException, InterruptedException {
        script("up");
    }

    private void signal(int port, String signal) throws IOException, InterruptedException {
        String pid = Files.readString(dir.resolve(port + "/redis.pid")).trim();
        if (new ProcessBuilder("kill", signal, pid).inheritIO().start().waitFor() != 0) {
            throw new IllegalStateException("kill " + signal + " " + pid + " (node :" + port + ") failed");
        }
    }

    /** redis-cli against one node, without following redirections: the answer is that node's own. */
    public String cli(int port, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p", Integer.toString(port)));
        command.addAll(List.of(args));
        Process cli = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        cli.waitFor();
        return out;
    }

    /** {@code scripts/redis-cluster down}, then the state folder goes: the next test gets a new cluster anyway. */
    @Override
    public void close() throws IOException, InterruptedException {
        script("down");
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    private void script(String command) throws IOException, InterruptedException {
        Path log = dir.resolve("script-" + command + ".log");
        ProcessBuilder script = new ProcessBuilder(Path.of("scripts/redis-cluster").toAbsolutePath().toString(), command)
                .redirectErrorStream(true).redirectOutput(log.toFile());
        script.environment().put("SECKILL_REDIS_CLUSTER_PORT", Integer.toString(firstPort));
        script.environment().put("SECKILL_REDIS_CLUSTER_DIR", dir.toString());
        int exit = script.start().waitFor();
        String output = Files.readString(log);
        System.out.print(output);
        if (exit != 0) {
            throw new IllegalStateException("scripts/redis-cluster " + command + " exited " + exit + ":\n" + output);
        }
    }

    /** Six consecutive free ports whose cluster bus ports (+10000) are free too, away from the script's 7101. */
    private static int freeFirstPort() throws IOException {
        for (int first = 7201; first < 8000; first += 100) {
            int candidate = first;
            if (IntStream.range(candidate, candidate + NODES).allMatch(p -> free(p) && free(p + 10_000))) {
                return candidate;
            }
        }
        throw new IOException("no six free ports (and their bus ports) from 7201 to 7999");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
