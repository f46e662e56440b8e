package dev.seckill.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.testcontainers.containers.JdbcDatabaseContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.lifecycle.Startables;

/**
 * Where the integration tests find MySQL and Redis, decided once per test JVM:
 * <ol>
 *   <li>{@code SECKILL_TEST_DB_URL} (+ {@code _USER}, {@code _PASSWORD}) and {@code SECKILL_TEST_REDIS_HOST}
 *       ({@code _PORT}) when set;</li>
 *   <li>otherwise a MariaDB and a Redis of this test JVM's own, started by Testcontainers from the project's images
 *       ({@link Docker#MARIADB}, {@link Docker#REDIS}, as docker-compose.yml runs them) on the host's network
 *       ({@link HostContainer}), kept for the whole run: every test class, every Spring test context and every
 *       instance a test starts uses the same pair. The Spring test contexts connect through
 *       {@link ContainerConnections}' {@code @ServiceConnection}s; child processes get the plain properties of
 *       {@link #properties()}.</li>
 * </ol>
 * Tests never share state by accident: each creates its own voucher and shoppers.
 */
public final class TestServers {

    public static final String ADMIN_USER = "test-admin";
    public static final String ADMIN_PASSWORD = "test-admin-password";
    public static final String TOKEN_SECRET = "test-token-secret-that-is-long-enough-0123456789";
    public static final String WEBHOOK_SECRET = "test-payment-webhook-secret-0123";

    private static Map<String, String> properties;

    private static Containers containers;

    /** The containers {@link TestServers} started, when it chose Testcontainers. */
    public record Containers(MariaDb mysql, HostContainer redis) {
    }

    private TestServers() {
    }

    /** Spring properties pointing an application instance at the test servers. */
    public static synchronized Map<String, String> properties() {
        if (properties == null) {
            properties = resolve();
        }
        return properties;
    }

    /** The containers behind {@link #properties()}, or {@code null} when the tests use other servers. */
    public static synchronized Containers containers() {
        properties();
        return containers;
    }

    private static Map<String, String> resolve() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("seckill.auth.admin-user", ADMIN_USER);
        props.put("seckill.auth.admin-password", ADMIN_PASSWORD);
        props.put("seckill.auth.token-secret", TOKEN_SECRET);
        props.put("seckill.payment.webhook.secret", WEBHOOK_SECRET);
        // the sandbox provider this JVM runs (SandboxProvider), started by the integration tests
        props.put("seckill.payment.provider-url", SandboxProvider.url());
        props.put("seckill.payment.provider-secret", SandboxProvider.API_SECRET);

        String dbUrl = System.getenv("SECKILL_TEST_DB_URL");
        String redisHost = System.getenv("SECKILL_TEST_REDIS_HOST");
        if (dbUrl != null && redisHost != null) {
            props.put("spring.datasource.url", dbUrl);
            props.put("spring.datasource.username", env("SECKILL_TEST_DB_USER", "root"));
            props.put("spring.datasource.password", env("SECKILL_TEST_DB_PASSWORD", ""));
            props.put("spring.data.redis.host", redisHost);
            props.put("spring.data.redis.port", env("SECKILL_TEST_REDIS_PORT", "6379"));
            // servers that other runs may share: not database 0, which a local cluster uses
            props.put("spring.data.redis.database", Integer.toString(fork()));
            if (isMariaDb(props)) {
                props.put("spring.profiles.active", "mariadb");
            }
        } else {
            startContainers(props);
            // as docker-compose.yml runs it: without the profile, Hibernate takes MariaDB ("5.5.5-10.x") for
            // MySQL 5.5 and drops the milliseconds of every time it writes
            props.put("spring.profiles.active", "mariadb");
        }
        return Map.copyOf(props);
    }

    @SuppressWarnings("resource") // they live as long as the test JVM: Testcontainers removes them when it exits
    private static void startContainers(Map<String, String> props) {
        int dbPort;
        int redisPort;
        try {
            dbPort = Nginx.freePort();
            redisPort = Nginx.freePort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        MariaDb mysql = new MariaDb(dbPort, testDatabase());
        // no persistence: the shared Redis is never restarted (a test that restarts one starts a RedisServer)
        HostContainer redis = new HostContainer(Docker.REDIS, "redis :" + redisPort).listeningOn(redisPort)
                .running("redis-server", "--bind", "127.0.0.1", "--port", Integer.toString(redisPort),
                        "--save", "", "--appendonly", "no")
                .waitingFor(Wait.forLogMessage(".*Ready to accept connections.*", 1)).keptForTheRun();
        // both at once: MariaDB initialises its data folder meanwhile
        Startables.deepStart(mysql, redis).join();
        containers = new Containers(mysql, redis);
        props.put("spring.datasource.url", mysql.getJdbcUrl());
        props.put("spring.datasource.username", mysql.getUsername());
        props.put("spring.datasource.password", mysql.getPassword());
        props.put("spring.data.redis.host", "127.0.0.1");
        props.put("spring.data.redis.port", Integer.toString(redisPort));
    }

    /**
     * MariaDB 10.11 of {@link Docker#MARIADB}, on a port of its own on 127.0.0.1, with its data in a tmpfs (nothing
     * here outlives the run, and no test restarts it). Not the image's entrypoint, which makes the deployment's two
     * accounts from the compose secrets: the tests connect as root without a password, since they create databases
     * and accounts of their own (a chaos cluster's, {@code DataOnlyAccounts}). A {@code JdbcDatabaseContainer}, so
     * that Spring Boot's {@code @ServiceConnection} knows it.
     */
    public static final class MariaDb extends JdbcDatabaseContainer<MariaDb> {

        private final int port;
        private final String database;

        MariaDb(int port, String database) {
            super(Docker.image(Docker.MARIADB));
            this.port = port;
            this.database = database;
            withNetworkMode("host");
            withImagePullPolicy(imageName -> false);
            withLabel(Docker.OWNER_LABEL, Docker.OWNER);
            withTmpFs(Map.of("/var/lib/mysql", "rw"));
            withCreateContainerCmdModifier(cmd -> cmd.withEntrypoint("bash"));
            withCommand("-c", """
                    set -e
                    install -d -o mysql -g mysql /run/mysqld
                    mariadb-install-db --user=mysql --datadir=/var/lib/mysql --skip-test-db >/dev/null
                    cat >/run/mysqld/init.sql <<'SQL'
                    CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY '';
                    GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;
                    CREATE USER IF NOT EXISTS 'root'@'%%' IDENTIFIED BY '';
                    GRANT ALL ON *.* TO 'root'@'%%' WITH GRANT OPTION;
                    SQL
                    exec mariadbd --user=mysql --bind-address=127.0.0.1 --port=%d --skip-name-resolve \
                        --max-connections=1000 --innodb-flush-method=fsync --init-file=/run/mysqld/init.sql
                    """.formatted(port));
            withStartupTimeoutSeconds(120);
        }

        /** Kept for the whole run, as {@link HostContainer#keptForTheRun()}. */
        @Override
        public void close() {
        }

        @Override
        public String getDriverClassName() {
            return "com.mysql.cj.jdbc.Driver";
        }

        /**
         * nullDatabaseMeansCurrent: Hibernate's schema validation asks the driver for tables without naming a
         * database, and Connector/J then lists every database's; a test dropping its own database meanwhile failed
         * another context's start-up ("Table 'seckill_live_it.flyway_schema_history' doesn't exist").
         */
        @Override
        public String getJdbcUrl() {
            return "jdbc:mysql://127.0.0.1:" + port + "/" + database
                    + "?createDatabaseIfNotExist=true&nullDatabaseMeansCurrent=true";
        }

        @Override
        public String getUsername() {
            return "root";
        }

        @Override
        public String getPassword() {
            return "";
        }

        @Override
        protected String getTestQueryString() {
            return "SELECT 1";
        }

        @Override
        public Integer getMappedPort(int originalPort) {
            return port;
        }

        @Override
        public String getHost() {
            return "127.0.0.1";
        }
    }

    /**
     * Which of failsafe's parallel test JVMs this is (1, 2, ...; {@code seckill.test.fork}, set from
     * {@code surefire.forkNumber}). In containers each JVM has servers of its own anyway; on servers named by
     * {@code SECKILL_TEST_DB_URL} and {@code SECKILL_TEST_REDIS_HOST}, which several JVMs share, each has a database
     * and a Redis database of its own, so that two JVMs running at once never see each other's sales. A test that
     * makes a database of its own derives it from this one's name ({@code seckill_test_2} ->
     * {@code seckill_chaos_x_2}).
     */
    static int fork() {
        // SECKILL_TEST_FORK_OFFSET: a second checkout testing on the same servers at the same time takes other numbers
        int fork = Integer.getInteger("seckill.test.fork", 1) + Integer.parseInt(env("SECKILL_TEST_FORK_OFFSET", "0"));
        if (fork < 1 || fork > 15) {
            throw new IllegalStateException("seckill.test.fork must be 1..15 (Redis databases 1..15), not " + fork);
        }
        return fork;
    }

    /** {@code seckill_test} for the first test JVM, {@code seckill_test_<n>} for the n-th. */
    static String testDatabase() {
        return fork() == 1 ? "seckill_test" : "seckill_test_" + fork();
    }

    private static boolean isMariaDb(Map<String, String> props) {
        try (Connection connection = DriverManager.getConnection(props.get("spring.datasource.url"),
                props.get("spring.datasource.username"), props.get("spring.datasource.password"))) {
            return connection.getMetaData().getDatabaseProductVersion().contains("MariaDB");
        } catch (SQLException e) {
            throw new IllegalStateException("The test database " + props.get("spring.datasource.url") + " cannot be asked its version", e);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
