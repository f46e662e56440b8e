package dev.seckill.sale.durability;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import org.redisson.api.RBatch;
import org.redisson.api.RBucket;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Where Redis holds the epoch marker. On one Redis server, one key. On a Redis Cluster each master holds its own
 * share of the data and can lose it alone (restarted without its AOF, a failover to a replica that had not caught
 * up, a FLUSHALL on one node): a single key would watch only the master that owns its slot, and a loss of another
 * master's vouchers would go unnoticed. So there the marker is also copied under one key per window of
 * {@value #WINDOW} slots, and a check reads them all: every master owning {@code 2 * WINDOW - 1} or more
 * contiguous slots holds a copy (with 3 masters, each owns about 5,461).
 */
final class EpochMarkers {

    static final int WINDOW = 256;

    private final RedissonClient redisson;
    private final String primary;
    private final List<String> copies;

    EpochMarkers(RedissonClient redisson, String primary) {
        this.redisson = redisson;
        this.primary = primary;
        this.copies = redisson.getConfig().isClusterConfig() ? copyKeys(primary) : List.of();
    }

    /** For each window of slots, the first key {@code <primary>:{c<n>}} whose slot falls in it. */
    static List<String> copyKeys(String primary) {
        List<String> keys = new ArrayList<>();
        Set<Integer> windows = new HashSet<>();
        for (int n = 0; windows.size() < KeySlot.SLOTS / WINDOW; n++) {
            String key = primary + ":{c" + n + "}";
            if (windows.add(KeySlot.of(key) / WINDOW)) {
                keys.add(key);
            }
        }
        return List.copyOf(keys);
    }

    List<String> copies() {
        return copies;
    }

    /** The primary marker's value, or null; then the copies', in one round trip (one per master on a cluster). */
    List<String> read() {
        RBatch batch = redisson.createBatch();
        batch.getBucket(primary, StringCodec.INSTANCE).getAsync();
        copies.forEach(key -> batch.getBucket(key, StringCodec.INSTANCE).getAsync());
        List<String> values = new ArrayList<>();
        batch.execute().getResponses().forEach(value -> values.add(value == null ? null : value.toString()));
        return values;
    }

    /** Whether the primary and every copy hold {@code epoch}. */
    static boolean allHold(List<String> values, String epoch) {
        return values.stream().allMatch(value -> Objects.equals(value, epoch));
    }

    /**
     * The epoch to hold from now on, written to every copy. {@code expected} is MySQL's, or null. The primary
     * holding it while a copy does not: that copy's master lost its data, and the platform moves to a new epoch,
     * compare-and-set so that instances noticing together agree on one. Otherwise (the primary gone, or never
     * set) the first instance to set it picks the epoch, as on one server.
     */
    String moveOn(String expected, List<String> values) {
        RBucket<String> marker = redisson.getBucket(primary, StringCodec.INSTANCE);
        String current = null;
        if (expected != null && expected.equals(values.get(0))) {
            String candidate = UUID.randomUUID().toString();
            current = marker.compareAndSet(expected, candidate) ? candidate : marker.get();
        }
        if (current == null) {
            String candidate = UUID.randomUUID().toString();
            current = marker.setIfAbsent(candidate) ? candidate : marker.get();
            current = current != null ? current : candidate;
        }
        if (!copies.isEmpty()) {
            RBatch batch = redisson.createBatch();
            for (String key : copies) {
                batch.getBucket(key, StringCodec.INSTANCE).setAsync(current);
            }
            batch.execute();
        }
        return current;
    }
}
