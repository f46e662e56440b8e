package dev.seckill.support;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * An {@link IntegrationTest} whose instance stands behind a real Nginx running the repository's rules, as the cluster
 * runs it: started before the class's first test (the instance's port is known only then), stopped after its last.
 */
public abstract class NginxFrontedTest extends IntegrationTest {

    protected static Nginx nginx;

    @BeforeEach
    void nginxInFront() {
        if (nginx == null) {
            nginx = Nginx.start(port, "");
        }
    }

    @AfterAll
    static void stopNginx() {
        if (nginx != null) {
            nginx.close();
            nginx = null;
        }
    }
}
