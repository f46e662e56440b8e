package dev.seckill.salestate;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Redis database the instance uses ({@code spring.data.redis.database}, also read by Redisson). Pub/sub
 * channels are shared by every database of a server, so the channel names carry it: the local cluster
 * (database 0) and the tests (database 1) on one Redis would otherwise hear each other's messages.
 */
@ConfigurationProperties("spring.data.redis")
public record RedisDatabase(int database) {

    public String channel(String name) {
        return name + database;
    }
}
