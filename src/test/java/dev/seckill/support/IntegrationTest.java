package dev.seckill.support;

import dev.seckill.SeckillApplication;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * One real instance on a random port, against the servers {@link TestServers} found. The sync path
 * unless a test says {@code seckill.mode=async} (the shared refusals behave the same on both; the
 * async tests cover what differs). No balancer in front: no shutdown drain, which would add its delay to
 * every cached context closed at the end of the run.
 */
@SpringBootTest(classes = SeckillApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"seckill.web.instance-id=test-instance", "seckill.mode=sync", "seckill.shutdown.drain=0s"})
public abstract class IntegrationTest {

    @LocalServerPort
    protected int port;

    protected Api api;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        TestServers.properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @BeforeEach
    void connect() {
        api = new Api(port);
    }
}
