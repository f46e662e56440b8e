package dev.seckill.salestate;

import org.redisson.spring.starter.RedissonAutoConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Hands {@code seckill.redis.cluster.scan-interval} to the Redisson client on a Redis Cluster, also when it reads its
 * own config file: how soon orders go on after a failover depends on it ({@link ClusterTopologySettings}).
 */
@Configuration(proxyBeanMethods = false)
class ClusterTopologyScan {

    @Bean
    RedissonAutoConfigurationCustomizer clusterScanInterval(ClusterTopologySettings settings) {
        return config -> {
            if (config.isClusterConfig()) {
                config.useClusterServers().setScanInterval(Math.toIntExact(settings.scanInterval().toMillis()));
            }
        };
    }
}
