package dev.seckill.support;

import dev.seckill.SeckillApplication;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One real instance on a random port, against the servers {@link TestServers} found. The async path, as
 * the product runs by default, unless a test says {@code seckill.mode=sync} (the shared refusals,
 * {@code PurchaseRefusals}, run on both). No balancer in front: no shutdown drain, which would add its delay to
 * every cached context closed at the end of the run.
 */
@SpringBootTest(classes = SeckillApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"seckill.web.instance-id=test-instance", "seckill.mode=async", "seckill.shutdown.drain=0s",
                // Spring keeps every context a run needs alive; idle, one connection each, or a full run
                // holds more than a MariaDB's default 151.
                "spring.datasource.hikari.minimum-idle=1", "spring.datasource.hikari.idle-timeout=10000"})
@Import(ContainerConnections.class)
public abstract class IntegrationTest {

    @LocalServerPort
    protected int port;

    protected Api api;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        ContainerConnections.properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    /** The sandbox provider of this JVM runs, and notifies this instance. */
    @BeforeEach
    void connect() {
        SandboxProvider.start();
        SandboxProvider.deliverTo(port);
        api = new Api(port);
    }
}
