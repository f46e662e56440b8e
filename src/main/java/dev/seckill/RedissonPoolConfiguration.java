package dev.seckill;

import jakarta.validation.constraints.Min;
import org.redisson.spring.starter.RedissonAutoConfigurationCustomizer;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.validation.annotation.Validated;

/**
 * Sizes Redisson's connection pool for the request concurrency of a sale. With the default 64
 * connections and 200 concurrent orders per instance, JFR showed 15% of all samples in Redisson's
 * pool semaphore spinning on its wait queue (docs/benchmarks.md). Applies to a single server set by
 * spring.data.redis.*; a Redisson config file (cluster, sentinel) carries its own pool sizes.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RedissonPoolConfiguration.RedisPoolSettings.class)
class RedissonPoolConfiguration {

    @Bean
    RedissonAutoConfigurationCustomizer redissonPoolSize(RedisPoolSettings settings) {
        return config -> {
            if (config.isSingleConfig()) {
                config.useSingleServer().setConnectionPoolSize(settings.connectionPoolSize())
                        .setConnectionMinimumIdleSize(settings.minimumIdle());
            }
        };
    }

    /**
     * @param connectionPoolSize Redis connections per instance (single server)
     * @param minimumIdle        kept open while idle
     */
    @Validated
    @ConfigurationProperties("seckill.redis")
    record RedisPoolSettings(@Min(1) int connectionPoolSize, @Min(0) int minimumIdle) {
    }
}
