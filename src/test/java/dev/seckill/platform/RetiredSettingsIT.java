package dev.seckill.platform;

import java.util.ArrayList;
import java.util.List;

import dev.seckill.SeckillApplication;
import dev.seckill.support.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The real application, pointed at the test servers (it would start), refuses to start with a retired setting and
 * says which one and what replaces it.
 */
@ExtendWith(OutputCaptureExtension.class)
class RetiredSettingsIT {

    @Test
    void aRetiredSettingStopsTheApplicationWithAMessageNamingItsReplacement(CapturedOutput output) {
        List<String> args = new ArrayList<>();
        TestServers.properties().forEach((name, value) -> args.add("--" + name + "=" + value));
        args.add("--server.port=0");
        args.add("--seckill.shutdown.drain=0s");
        args.add("--seckill.lock.shopper-lease=10s");

        RuntimeException failure = null;
        try (ConfigurableApplicationContext started = new SpringApplicationBuilder(SeckillApplication.class)
                .run(args.toArray(String[]::new))) {
            fail("started with seckill.lock.shopper-lease set: " + started);
        } catch (RuntimeException e) {
            failure = e;
        }

        assertThat(failure).isInstanceOf(RetiredSettings.RetiredSettingsException.class)
                .hasMessageContaining("seckill.lock.shopper-lease")
                .hasMessageContaining("use seckill.lock.watchdog-timeout instead");
        // what an operator sees: Spring Boot's failure report, not only a stack trace
        assertThat(output).contains("APPLICATION FAILED TO START", "seckill.lock.shopper-lease",
                "use seckill.lock.watchdog-timeout instead");
    }
}
