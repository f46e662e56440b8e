package dev.seckill.chaos;

import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReferenceArray;

import dev.seckill.support.Api;
import dev.seckill.support.AppProcess;
import dev.seckill.support.Nginx;
import dev.seckill.support.SandboxProvider;
import dev.seckill.support.RedisCluster;
import dev.seckill.support.RedisSentinels;
import dev.seckill.support.RedisServer;
import dev.seckill.support.TcpProxy;
import dev.seckill.support.TestServers;

/**
 * What every chaos scenario runs against, as {@code scripts/cluster} runs it: two instances (the packaged
 * jar, each in a JVM of its own) behind the repository's Nginx rules, on a Redis of the scenario's own (AOF,
 * {@code appendfsync always}) and a database of its own, new for each cluster (a deployment is one Redis data
 * set with one database: the epoch marker ties them together), so a scenario may kill, flush or cut any of them.
 * <pre>{@code
 * static ChaosCluster cluster;
 *
 * @BeforeAll
 * static void start() throws Exception {
 *     cluster = ChaosCluster.named("chaos-x", "seckill_chaos_x").args("--seckill.stream.claim-idle=10m").start();
 * }
 *
 * @AfterAll
 * static void stop() throws Exception {
 *     if (cluster != null) {
 *         cluster.close();
 *     }
 * }
 * }</pre>
 * The instances are {@code <name>-1} and {@code <name>-2} (their logs target/&lt;id&gt;.log); the database is
 * the test database's URL with {@code /seckill_test} replaced by {@code /<database>}.
 * <p>
 * Instead of the one Redis, a scenario may ask for a replicated one it can fail over: a master with two replicas
 * under three Sentinels ({@link Builder#sentinels()}), or a six-node Redis Cluster ({@link Builder#redisCluster()}).
 * On either, the instances answer 202 only once a replica has the order ({@code seckill.redis.wait-replicas=1}),
 * unless the scenario says otherwise ({@link Builder#waitReplicas}).
 */
final class ChaosCluster implements AutoCloseable {

    private final Builder settings;
    private final String dbUrl;
    private final AtomicReferenceArray<AppProcess> instances = new AtomicReferenceArray<>(2);
    private DataOnlyAccounts accounts;
    private TcpProxy mySql;
    private TcpProxy redisProxy;
    private RedisServer redis;
    private RedisSentinels sentinels;
    private RedisCluster redisCluster;
    private Nginx nginx;
    private SandboxProvider sandbox;
    private Api api;

    private ChaosCluster(Builder settings) {
        this.settings = settings;
        this.dbUrl = TestServers.properties().get("spring.datasource.url")
                .replace("/seckill_test", "/" + settings.database);
    }

    /** A cluster whose instances are {@code <name>-1} and {@code <name>-2}, on the database {@code database}. */
    static Builder named(String name, String database) {
        return new Builder(name, database);
    }

    static final class Builder {

        private final String name;
        private final String database;
        private String fsync = "always";
        private String mode = "async";
        private final List<String> args = new ArrayList<>();
        private boolean mySqlProxy;
        private boolean redisProxy;
        private boolean dataOnlyAccount;
        private boolean sentinels;
        private boolean redisCluster;
        private Integer waitReplicas;

        private Builder(String name, String database) {
            this.name = name;
            this.database = database;
        }

        /** The Redis AOF's {@code appendfsync} ({@code always}, the default, or {@code everysec}); null: none. */
        Builder redisFsync(String fsync) {
            this.fsync = fsync;
            return this;
        }

        /** {@code seckill.mode} of both instances: {@code async} (the default) or {@code sync}. */
        Builder mode(String mode) {
            this.mode = mode;
            return this;
        }

        /** More settings for both instances, as command-line arguments: {@code --seckill.stream.claim-idle=10m}. */
        Builder args(String... args) {
            this.args.addAll(List.of(args));
            return this;
        }

        /** The instances reach MySQL through a {@link TcpProxy} ({@link ChaosCluster#mySql()}) a scenario can cut. */
        Builder mySqlProxy() {
            this.mySqlProxy = true;
            return this;
        }

        /** The instances reach Redis through a {@link TcpProxy} ({@link ChaosCluster#redisProxy()}) a scenario can cut. */
        Builder redisProxy() {
            this.redisProxy = true;
            return this;
        }

        /**
         * The instances connect as an account that may only read and write data (SELECT, INSERT, UPDATE, DELETE
         * on the cluster's database), and Flyway as one that may change its schema, as {@code scripts/cluster}
         * and docker-compose run them: unlike the tests' admin account, such an account is held by
         * {@code read_only}. Created with the tests' admin account (which needs GRANT OPTION), dropped on close.
         */
        Builder dataOnlyAccount() {
            this.dataOnlyAccount = true;
            return this;
        }

        /**
         * Redis as a master, two replicas and three Sentinels ({@link RedisSentinels}; {@link ChaosCluster#sentinels()}):
         * the instances find the master through the Sentinels ({@code spring.data.redis.sentinel.*}).
         */
        Builder sentinels() {
            this.sentinels = true;
            return this;
        }

        /**
         * Redis as a six-node Redis Cluster, three masters with a replica each ({@link RedisCluster};
         * {@link ChaosCluster#redisCluster()}), through {@code spring.data.redis.cluster.nodes}.
         */
        Builder redisCluster() {
            this.redisCluster = true;
            return this;
        }

        /**
         * {@code seckill.redis.wait-replicas} of both instances: 1 by default with {@link #sentinels()} or
         * {@link #redisCluster()}, 0 (the product's default) otherwise.
         */
        Builder waitReplicas(int replicas) {
            this.waitReplicas = replicas;
            return this;
        }

        ChaosCluster start() throws Exception {
            if ((sentinels || redisCluster) && (redisProxy || !"always".equals(fsync))) {
                throw new IllegalStateException("sentinels() and redisCluster() come with AOF always and without a proxy");
            }
            if (sentinels && redisCluster) {
                throw new IllegalStateException("sentinels() or redisCluster(), not both");
            }
            ChaosCluster cluster = new ChaosCluster(this);
            try {
                cluster.launch();
                return cluster;
            } catch (Exception | Error e) {
                try {
                    cluster.close();
                } catch (Exception closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }
    }

    private void launch() throws Exception {
        freshDatabase(dbUrl);
        Map<String, String> servers = new LinkedHashMap<>();
        String appDbUrl = dbUrl;
        if (settings.mySqlProxy) {
            URI db = URI.create(dbUrl.substring("jdbc:".length()));
            mySql = new TcpProxy(db.getHost(), db.getPort());
            appDbUrl = dbUrl.replace(db.getHost() + ":" + db.getPort(), "127.0.0.1:" + mySql.port());
        }
        if (settings.dataOnlyAccount) {
            accounts = DataOnlyAccounts.create(dbUrl, settings.name);
            servers.putAll(accounts.settings());
        }
        if (settings.sentinels) {
            sentinels = RedisSentinels.start();
            servers.put("spring.data.redis.sentinel.master", RedisSentinels.MASTER_NAME);
            servers.put("spring.data.redis.sentinel.nodes", sentinels.sentinelNodes());
        } else if (settings.redisCluster) {
            redisCluster = RedisCluster.start();
            servers.put("spring.data.redis.cluster.nodes", redisCluster.nodes());
        } else {
            redis = RedisServer.start(settings.fsync);
            int redisPort = redis.port();
            if (settings.redisProxy) {
                redisProxy = new TcpProxy("127.0.0.1", redis.port());
                redisPort = redisProxy.port();
            }
            servers.put("spring.data.redis.port", Integer.toString(redisPort));
        }
        servers.put("spring.data.redis.database", "0");
        servers.put("spring.datasource.url", appDbUrl);
        List<String> args = new ArrayList<>(List.of("--seckill.mode=" + settings.mode));
        int waitReplicas = settings.waitReplicas != null ? settings.waitReplicas
                : settings.sentinels || settings.redisCluster ? 1 : 0;
        if (waitReplicas > 0 || settings.waitReplicas != null) {
            args.add("--seckill.redis.wait-replicas=" + waitReplicas);
        }
        args.addAll(settings.args);
        // the sandbox provider beside them, on their database, notifying through Nginx, as the cluster runs it
        Map<String, String> sandboxDb = new LinkedHashMap<>();
        servers.forEach((name, value) -> {
            if (name.startsWith("spring.datasource.")) {
                sandboxDb.put(name, value);
            }
        });
        sandbox = SandboxProvider.separate(sandboxDb);
        servers.put("seckill.payment.provider-url", sandbox.address());
        for (int number = 1; number <= instances.length(); number++) {
            instances.set(number - 1, AppProcess.start(instanceId(number), servers, args.toArray(String[]::new)));
        }
        nginx = Nginx.start(List.of(instance(1).port(), instance(2).port()), sandbox.port(), "");
        sandbox.notify(nginx.port());
        api = new Api(nginx.port());
    }

    /**
     * Empties the database at {@code dbUrl}. A new Redis comes with a new database: the last run's epoch marker
     * would count as a loss of this Redis.
     */
    static void freshDatabase(String dbUrl) throws SQLException {
        try (Connection db = admin(dbUrl); Statement sql = db.createStatement()) {
            String database = "`" + db.getCatalog() + "`";
            sql.execute("DROP DATABASE " + database);
            sql.execute("CREATE DATABASE " + database);
        }
    }

    /** A connection to {@code dbUrl} (created if missing) with the tests' admin account. */
    static Connection admin(String dbUrl) throws SQLException {
        Map<String, String> servers = TestServers.properties();
        return DriverManager.getConnection(dbUrl, servers.get("spring.datasource.username"),
                servers.get("spring.datasource.password"));
    }

    /** The API through Nginx, as the outside client sees it. */
    Api api() {
        return api;
    }

    Nginx nginx() {
        return nginx;
    }

    /** The one Redis (null with {@link Builder#sentinels()} or {@link Builder#redisCluster()}). */
    RedisServer redis() {
        return redis;
    }

    /** The master, replicas and Sentinels (with {@link Builder#sentinels()}). */
    RedisSentinels sentinels() {
        if (sentinels == null) {
            throw new IllegalStateException("no Sentinels: build the cluster with sentinels()");
        }
        return sentinels;
    }

    /** The Redis Cluster (with {@link Builder#redisCluster()}). */
    RedisCluster redisCluster() {
        if (redisCluster == null) {
            throw new IllegalStateException("no Redis Cluster: build the cluster with redisCluster()");
        }
        return redisCluster;
    }

    /** The proxy between the instances and MySQL (with {@link Builder#mySqlProxy()}). */
    TcpProxy mySql() {
        if (mySql == null) {
            throw new IllegalStateException("no MySQL proxy: build the cluster with mySqlProxy()");
        }
        return mySql;
    }

    /** The proxy between the instances and Redis (with {@link Builder#redisProxy()}). */
    TcpProxy redisProxy() {
        if (redisProxy == null) {
            throw new IllegalStateException("no Redis proxy: build the cluster with redisProxy()");
        }
        return redisProxy;
    }

    /** The cluster's database, straight (not through the proxy): what the scenario counts against. */
    String dbUrl() {
        return dbUrl;
    }

    /** Instance 1 or 2 (after a {@link #restart}, the restarted one). */
    AppProcess instance(int number) {
        return instances.get(number - 1);
    }

    String instanceId(int number) {
        return settings.name + "-" + number;
    }

    /** Starts instance {@code number} again after it stopped: same id, port and settings (see {@link AppProcess#restart}). */
    AppProcess restart(int number) throws IOException, InterruptedException {
        AppProcess restarted = instance(number).restart();
        instances.set(number - 1, restarted);
        return restarted;
    }

    /** Where each instance's log stands now, for {@link #logSince}. */
    LogMark logMark() throws IOException {
        List<Integer> lengths = new ArrayList<>();
        for (int number = 1; number <= instances.length(); number++) {
            lengths.add(instance(number).logText().length());
        }
        return new LogMark(lengths);
    }

    /** What both instances logged since {@code mark} (all of a log that started afresh since, by a restart). */
    String logSince(LogMark mark) throws IOException {
        StringBuilder text = new StringBuilder();
        for (int number = 1; number <= instances.length(); number++) {
            String log = instance(number).logText();
            int from = mark.lengths().get(number - 1);
            text.append(log.length() >= from ? log.substring(from) : log);
        }
        return text.toString();
    }

    record LogMark(List<Integer> lengths) {
    }

    /** Stops everything it started, in the reverse order; each step is tried whatever failed before it. */
    @Override
    public void close() throws Exception {
        List<AutoCloseable> parts = new ArrayList<>();
        parts.add(nginx);
        for (int i = 0; i < instances.length(); i++) {
            parts.add(instances.get(i));
        }
        parts.add(sandbox);
        parts.add(redisProxy);
        parts.add(redis);
        parts.add(sentinels);
        parts.add(redisCluster);
        parts.add(mySql);
        parts.add(accounts);
        Exception failed = null;
        for (AutoCloseable part : parts) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }
}
