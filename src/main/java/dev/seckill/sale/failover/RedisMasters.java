package dev.seckill.sale.failover;

import java.net.InetSocketAddress;
import java.util.Collection;
import java.util.List;
import java.util.stream.Collectors;

import org.redisson.api.RedissonClient;
import org.redisson.api.redisnode.RedisNode;
import org.redisson.api.redisnode.RedisNodes;
import org.redisson.config.Config;

/**
 * The masters Redisson writes to now, as one comparable string: {@code host:port} of each, sorted, comma-separated.
 * Sentinel's switch-master (Redisson follows it) and a Redis Cluster's promotion of a replica change it; a master
 * restarted in place from its AOF does not (that keeps its data: nothing to replay). One server never changes it.
 */
final class RedisMasters {

    private final RedissonClient redisson;

    RedisMasters(RedissonClient redisson) {
        this.redisson = redisson;
    }

    String current() {
        Config config = redisson.getConfig();
        if (config.isClusterConfig()) {
            return join(redisson.getRedisNodes(RedisNodes.CLUSTER).getMasters());
        }
        if (config.isSentinelConfig()) {
            return join(List.of(redisson.getRedisNodes(RedisNodes.SENTINEL_MASTER_SLAVE).getMaster()));
        }
        if (config.isSingleConfig()) {
            return join(List.of(redisson.getRedisNodes(RedisNodes.SINGLE).getInstance()));
        }
        return join(List.of(redisson.getRedisNodes(RedisNodes.MASTER_SLAVE).getMaster()));
    }

    private static String join(Collection<? extends RedisNode> masters) {
        return masters.stream().map(RedisNode::getAddr).map(RedisMasters::address).sorted()
                .collect(Collectors.joining(","));
    }

    private static String address(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }
}
