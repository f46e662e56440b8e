package dev.seckill.lab;

import java.util.List;

import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisConnectionException;
import org.redisson.config.Config;

/**
 * What a lock holder's process is to Redis: one Redisson client per lab node, with their connections and, for the
 * Redisson locks, their watchdog. The instance's own runs for its whole life; a holder that is to crash gets one of
 * its own, and {@link #die()} ends it as a crash would: nothing released, nothing renewed any more.
 */
final class LabProcess {

    /** How many times a node's client is made before the instance gives up starting. */
    static final int START_ATTEMPTS = 5;

    private final List<RedissonClient> clients;

    private LabProcess(List<RedissonClient> clients) {
        this.clients = clients;
    }

    static LabProcess start(LabSettings settings) {
        return new LabProcess(settings.nodes().stream().map(address -> client(address, settings)).toList());
    }

    /** The node that holds the stock and the single-node locks. */
    RedissonClient first() {
        return clients.get(0);
    }

    List<RedissonClient> all() {
        return clients;
    }

    void die() {
        clients.forEach(RedissonClient::shutdown);
    }

    /**
     * No retries and short timeouts: a stopped node (the node-down fault) should cost a request one timeout, not
     * Redisson's default four retries; the lab measures locks, not patience. A connection for every Tomcat thread:
     * the first full run, with 64, counted "Unable to acquire connection" errors under 100 requests per instance.
     */
    private static RedissonClient client(String address, LabSettings settings) {
        int timeout = Math.toIntExact(settings.nodeTimeout().toMillis());
        Config config = new Config();
        config.setLockWatchdogTimeout(settings.watchdogTimeout().toMillis());
        config.useSingleServer().setAddress(address).setConnectTimeout(timeout).setTimeout(timeout).setRetryAttempts(0)
                .setConnectionMinimumIdleSize(8).setConnectionPoolSize(200)
                .setSubscriptionConnectionMinimumIdleSize(1).setSubscriptionConnectionPoolSize(25);
        // The short timeouts are for the faults the lab injects; the pool's first connections, each answering a PING
        // within them, can miss one on a busy machine while the instance starts. Tried again, not given up on.
        for (int attempt = 1; ; attempt++) {
            try {
                return Redisson.create(config);
            } catch (RedisConnectionException slowStart) {
                if (attempt == START_ATTEMPTS) {
                    throw slowStart;
                }
            }
        }
    }
}
