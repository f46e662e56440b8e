package dev.seckill.salestate;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Redis database the instance uses ({@code spring.data.redis.database}, also read by Redisson). Pub/sub
 * channels are shared by every database of a server, so the channel names carry it: two deployments on two databases
 * of one Redis would otherwise hear each other's messages.
 * <p>
 * A Redis Cluster ({@code spring.data.redis.cluster.nodes}) has database 0 only, and Redisson then ignores the
 * database setting without a word: an instance told to keep apart in database 1 would share database 0 with
 * whatever else runs there. So that combination stops the start instead.
 */
@ConfigurationProperties("spring.data.redis")
public record RedisDatabase(int database, Cluster cluster) {

    public RedisDatabase {
        if (database != 0 && cluster != null && cluster.nodes() != null && !cluster.nodes().isEmpty()) {
            throw new IllegalStateException("spring.data.redis.database=" + database + " with spring.data.redis.cluster"
                    + ".nodes: a Redis Cluster has database 0 only. Leave the database unset (0) to run on a cluster.");
        }
    }

    /** {@code spring.data.redis.cluster}: its nodes, when the instance runs on a Redis Cluster. */
    public record Cluster(List<String> nodes) {
    }

    public String channel(String name) {
        return name + database;
    }
}
