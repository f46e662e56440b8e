package dev.seckill.salestate;

import org.redisson.config.ReadMode;
import org.redisson.spring.starter.RedissonAutoConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Every read goes to the master that owns the key, on a Redis Cluster or Sentinel too, also when Redisson reads
 * its own config file. There Redisson reads from replicas by default ({@code ReadMode.SLAVE}), and replication is
 * asynchronous: a consumer could take an order given up by another for still pending and write it to MySQL after
 * its unit went back on sale, a shopper could hear 404 for the order just answered 202, an audit could count what
 * is gone. These reads are few next to the scripts (which run on masters anyway); replicas are there to take over
 * a master, and for {@code seckill.redis.wait-replicas}. One Redis server: nothing changes.
 */
@Configuration(proxyBeanMethods = false)
class ReadFromMasters {

    @Bean
    RedissonAutoConfigurationCustomizer readsFromMasters() {
        return config -> {
            if (config.isClusterConfig()) {
                config.useClusterServers().setReadMode(ReadMode.MASTER);
            }
            if (config.isSentinelConfig()) {
                config.useSentinelServers().setReadMode(ReadMode.MASTER);
            }
        };
    }
}
