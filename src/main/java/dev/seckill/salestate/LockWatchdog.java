package dev.seckill.salestate;

import org.redisson.spring.starter.RedissonAutoConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Hands {@code seckill.lock.watchdog-timeout} to the Redisson client, also when it reads its own config file. */
@Configuration(proxyBeanMethods = false)
class LockWatchdog {

    @Bean
    RedissonAutoConfigurationCustomizer lockWatchdogTimeout(LockSettings settings) {
        return config -> config.setLockWatchdogTimeout(settings.watchdogTimeout().toMillis());
    }
}
