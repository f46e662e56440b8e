package dev.seckill.platform;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import dev.seckill.platform.RetiredSettings.RetiredSettingsException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.io.support.SpringFactoriesLoader.ArgumentResolver;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RetiredSettingsTest {

    static final DeferredLogFactory LOGS = Supplier::get;

    final RetiredSettings check = new RetiredSettings();

    @Test
    void everyRetiredSettingInTheConfigurationMetadataIsCheckedWithItsReplacementAndReason() {
        MockEnvironment environment = new MockEnvironment().withProperty("seckill.lock.shopper-lease", "10s")
                .withProperty("seckill.lock.voucher-lease", "10s").withProperty("seckill.redis.connection-pool-size", "64")
                .withProperty("seckill.redis.minimum-idle", "4");

        assertThatThrownBy(() -> check.check(environment)).isInstanceOf(RetiredSettingsException.class)
                .hasMessageContainingAll("seckill.lock.shopper-lease (set in", "seckill.lock.voucher-lease (set in",
                        "use seckill.lock.watchdog-timeout instead. Locks have no lease any more",
                        "seckill.redis.connection-pool-size (set in", "seckill.redis.minimum-idle (set in",
                        "Redisson's pool sizing was dropped");
    }

    @Test
    void aRetiredSettingStopsTheStartNamingItsReplacement() {
        MockEnvironment environment = new MockEnvironment().withProperty("seckill.lock.shopper-lease", "10s")
                .withProperty("seckill.lock.watchdog-timeout", "30s");

        assertThatThrownBy(() -> check.check(environment)).isInstanceOf(RetiredSettingsException.class)
                .hasMessageContaining("seckill.lock.shopper-lease")
                .hasMessageContaining("use seckill.lock.watchdog-timeout instead")
                .hasMessageContaining("watchdog renews")
                .hasMessageNotContaining("voucher-lease");
    }

    @Test
    void anEnvironmentVariableCountsAndASettingWithoutReplacementSaysSo() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("SECKILL_REDIS_MINIMUM_IDLE", "4")));

        assertThatThrownBy(() -> check.check(environment)).isInstanceOf(RetiredSettingsException.class)
                .hasMessageContaining("seckill.redis.minimum-idle")
                .hasMessageContaining("SECKILL_REDIS_MINIMUM_IDLE")
                .hasMessageContaining("nothing replaces it");
    }

    @Test
    void oneMessageNamesEveryRetiredSettingInAnySpelling() {
        MockEnvironment environment = new MockEnvironment().withProperty("seckill.redis.connectionPoolSize", "64");
        environment.getPropertySources().addFirst(new MapPropertySource("commandLineArgs",
                Map.of("seckill.lock.voucher-lease", "15s")));

        assertThatThrownBy(() -> check.check(environment)).isInstanceOf(RetiredSettingsException.class)
                .hasMessageContainingAll("seckill.lock.voucher-lease", "seckill.redis.connection-pool-size",
                        "commandLineArgs");
    }

    @Test
    void withoutRetiredSettingsNothingHappens() {
        MockEnvironment environment = new MockEnvironment().withProperty("seckill.lock.watchdog-timeout", "30s")
                .withProperty("seckill.redis.wait-replicas", "1").withProperty("seckill.lock.prefix", "x:");

        assertThatNoException().isThrownBy(() -> check.check(environment));
    }

    @Test
    void springBootRunsItAsAnEnvironmentPostProcessor() {
        List<EnvironmentPostProcessor> registered = SpringFactoriesLoader.forDefaultResourceLocation()
                .load(EnvironmentPostProcessor.class, ArgumentResolver.of(DeferredLogFactory.class, LOGS));

        assertThat(registered).hasAtLeastOneElementOfType(RetiredSettings.class);
    }
}
