package dev.seckill.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.mysql.MySQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * Where the integration tests find MySQL and Redis, decided once per test JVM:
 * <ol>
 *   <li>{@code SECKILL_TEST_DB_URL} (+ {@code _USER}, {@code _PASSWORD}) and {@code SECKILL_TEST_REDIS_HOST}
 *       ({@code _PORT}) when set;</li>
 *   <li>otherwise servers already listening on 127.0.0.1:3306 and :6379 (or :6380, the cluster's own Redis) (CI and the dev machines run
 *       MariaDB and Redis there), using the database {@code seckill_test} and Redis database 1;</li>
 *   <li>otherwise MySQL 8.4 and Redis 7 in Testcontainers, where Docker runs: one pair per test JVM, kept in
 *       {@link #containers()}. Child processes still get them as the plain properties of {@link #properties()};
 *       the Spring test contexts connect through {@link ContainerConnections}' {@code @ServiceConnection}s.</li>
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
    public record Containers(MySQLContainer mysql, GenericContainer<?> redis) {
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

        String dbUrl = System.getenv("SECKILL_TEST_DB_URL");
        String redisHost = System.getenv("SECKILL_TEST_REDIS_HOST");
        if (dbUrl != null && redisHost != null) {
            props.put("spring.datasource.url", dbUrl);
            props.put("spring.datasource.username", env("SECKILL_TEST_DB_USER", "root"));
            props.put("spring.datasource.password", env("SECKILL_TEST_DB_PASSWORD", ""));
            props.put("spring.data.redis.host", redisHost);
            props.put("spring.data.redis.port", env("SECKILL_TEST_REDIS_PORT", "6379"));
        } else if (listening(3306) && (listening(6379) || listening(6380))) {
            // nullDatabaseMeansCurrent: Hibernate's schema validation asks the driver for tables without naming a
            // database, and Connector/J then lists every database's; a test in the other test JVM dropping its own
            // database meanwhile failed this JVM's start-up ("Table 'seckill_live_it.flyway_schema_history'
            // doesn't exist").
            props.put("spring.datasource.url", "jdbc:mysql://127.0.0.1:3306/" + testDatabase()
                    + "?createDatabaseIfNotExist=true&nullDatabaseMeansCurrent=true");
            props.put("spring.datasource.username", "root");
            props.put("spring.datasource.password", "");
            props.put("spring.data.redis.host", "127.0.0.1");
            // A Redis on :6379, else the one scripts/cluster up starts on :6380 (on a fresh machine the
            // README's first command leaves only that one running)
            props.put("spring.data.redis.port", listening(6379) ? "6379" : "6380");
            // not database 0, which the local cluster (scripts/cluster) uses on the same server
            props.put("spring.data.redis.database", Integer.toString(fork()));
            if (isMariaDb(props)) {
                // as scripts/cluster runs it: without the profile, Hibernate takes MariaDB ("5.5.5-10.x") for
                // MySQL 5.5 and drops the milliseconds of every time it writes
                props.put("spring.profiles.active", "mariadb");
            }
        } else if (DockerClientFactory.instance().isDockerAvailable()) {
            startContainers(props);
        } else {
            throw new IllegalStateException("The integration tests need MySQL/MariaDB and Redis: none listens on "
                    + "127.0.0.1:3306/6379, SECKILL_TEST_DB_URL/SECKILL_TEST_REDIS_HOST are not set and Docker "
                    + "is not available. Start them (see README, 'Running the tests').");
        }
        return Map.copyOf(props);
    }

    @SuppressWarnings("resource") // they live as long as the test JVM; Testcontainers' reaper removes them
    private static void startContainers(Map<String, String> props) {
        // withReuse: ContainerConnections declares them as beans of every test context, and Spring Boot stops a
        // container bean when its context closes unless it is reusable. A context closes mid-run (cache eviction,
        // @DirtiesContext on ConsumerFailurePolicyIT) while other contexts and child processes still use them.
        // Unless ~/.testcontainers.properties enables reuse (then they outlive the JVM and the next run takes them
        // over; the tests cope, as with local servers), Testcontainers only warns and the reaper removes them.
        MySQLContainer mysql = new MySQLContainer(DockerImageName.parse("mysql:8.4")).withDatabaseName("seckill_test")
                .withReuse(true);
        GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse("redis:7-alpine")).withExposedPorts(6379)
                .withReuse(true);
        mysql.start();
        redis.start();
        containers = new Containers(mysql, redis);
        props.put("spring.datasource.url", mysql.getJdbcUrl());
        props.put("spring.datasource.username", mysql.getUsername());
        props.put("spring.datasource.password", mysql.getPassword());
        props.put("spring.data.redis.host", redis.getHost());
        props.put("spring.data.redis.port", String.valueOf(redis.getMappedPort(6379)));
    }

    /**
     * Which of failsafe's parallel test JVMs this is (1, 2, ...; {@code seckill.test.fork}, set from
     * {@code surefire.forkNumber}). Each has a database and a Redis database of its own, so that two JVMs running
     * at once never see each other's sales; a test that makes a database of its own derives it from this one's
     * name ({@code seckill_test_2} -> {@code seckill_chaos_x_2}), and pub/sub topics carry the Redis database.
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
            throw new IllegalStateException("The test database answers on 3306 but cannot be asked its version", e);
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
