package dev.seckill.support;

import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Connects a Spring test context to the MariaDB and Redis containers {@link TestServers} started, through
 * {@code @ServiceConnection}: Spring Boot turns the MariaDB container into {@code JdbcConnectionDetails} (the
 * DataSource, and Flyway through it, use them) and the Redis container into {@code DataRedisConnectionDetails}.
 * Redisson reads the latter: redisson-spring-boot-starter 4.7.0's {@code RedissonAutoConfigurationV4.redisson()}
 * asks the context for a {@code DataRedisConnectionDetails} and takes host, port, database, username and
 * password from it instead of {@code spring.data.redis.*} (unless {@code spring.redis.redisson.config}/{@code file}
 * is set, which replaces both). The container beans are the very instances child processes reach through
 * {@link TestServers#properties()}: one pair per test JVM, which a closing context must not stop (their
 * {@code close()} does nothing: Spring Boot closes a container bean with its context whatever its destroy method).
 * <p>
 * Only when TestServers chose Testcontainers; with env-configured servers this class adds nothing
 * and {@link #properties()} is {@link TestServers#properties()} unchanged. A test class imports it and takes
 * its properties from {@link #properties()} instead of {@link TestServers#properties()}; the two go together,
 * as the connection properties are left out exactly when these beans supply the connections.
 * <p>
 * A plain class for {@code @Import}, not a {@code @TestConfiguration}: that is a {@code @Component}, and the
 * in-JVM instances {@link Instances} starts (a plain SpringApplication, whose scan of {@code dev.seckill} sees
 * the test classes and lacks the test exclude filter) would pick it up and connect to the containers past
 * the servers they are given, e.g. MySqlOutageIT's proxy. Imported, its {@code @Bean} methods work as in a
 * {@code @Configuration(proxyBeanMethods = false)}.
 */
@Conditional(ContainerConnections.InContainers.class)
public class ContainerConnections {

    /** What {@code @ServiceConnection} replaces: the properties that name a server. */
    private static final String[] CONNECTION_PREFIXES = {"spring.datasource.", "spring.data.redis."};

    /** {@link TestServers#properties()} without those the service connections supply, when they do. */
    public static Map<String, String> properties() {
        if (TestServers.containers() == null) {
            return TestServers.properties();
        }
        return TestServers.properties().entrySet().stream()
                .filter(property -> !isConnection(property.getKey()))
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static boolean isConnection(String name) {
        for (String prefix : CONNECTION_PREFIXES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    // destroyMethod "": Spring would otherwise close them with the context (they are AutoCloseable)
    @Bean(destroyMethod = "")
    @ServiceConnection
    TestServers.MariaDb mysqlContainer() {
        return TestServers.containers().mysql();
    }

    // a GenericContainer says nothing of what it runs: the name picks Spring Boot's Redis connection details
    @Bean(destroyMethod = "")
    @ServiceConnection(name = "redis")
    HostContainer redisContainer() {
        return TestServers.containers().redis();
    }

    static class InContainers implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            return TestServers.containers() != null;
        }
    }
}
