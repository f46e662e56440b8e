package dev.seckill.sale.failover;

import org.redisson.api.RedissonClient;

/** What kind of Redis the platform writes to, as far as losing writes goes. */
public final class RedisDeployment {

    private RedisDeployment() {
    }

    /**
     * Whether another node can take over as master (Sentinel, Cluster, a configured master with replicas): then a
     * failover can drop what no replica had received. One server cannot fail over; it can only restart from its AOF.
     */
    public static boolean failsOver(RedissonClient redisson) {
        return !redisson.getConfig().isSingleConfig();
    }
}
