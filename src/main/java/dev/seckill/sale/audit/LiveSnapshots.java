package dev.seckill.sale.audit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import dev.seckill.sale.SaleMeters.VoucherCounts;
import org.redisson.api.BatchOptions;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/** The instances' snapshots in Redis: one hash per instance, and the sorted set that names them. */
@Component
class LiveSnapshots {

    /** Instances that wrote a snapshot, scored by when (epoch millis); their hashes expire on their own. */
    static final String INSTANCES = "seckill:live:{snapshots}:instances";
    /** A name whose hash expired long ago leaves {@link #INSTANCES} after this long (instance ids are reused). */
    static final long FORGET_AFTER_MILLIS = 3_600_000;

    private final RedissonClient redisson;
    private final LiveSettings settings;

    LiveSnapshots(RedissonClient redisson, LiveSettings settings) {
        this.redisson = redisson;
        this.settings = settings;
    }

    static String key(String instance) {
        return "seckill:live:{snapshots}:instance:" + instance;
    }

    /**
     * Replaces the instance's snapshot, in one MULTI: the hash is deleted and written again (a restarted
     * instance counts from zero, and a voucher it no longer counts must not linger), so a reader never sees
     * it half written or missing.
     */
    void write(String instance, Instant at, Map<Long, VoucherCounts> counts) {
        RBatch batch = redisson.createBatch(BatchOptions.defaults().executionMode(BatchOptions.ExecutionMode.IN_MEMORY_ATOMIC));
        String key = key(instance);
        batch.getMap(key, StringCodec.INSTANCE).deleteAsync();
        batch.<String, String>getMap(key, StringCodec.INSTANCE).putAllAsync(LiveSnapshot.encode(at, counts));
        batch.getMap(key, StringCodec.INSTANCE).expireAsync(settings.ttl());
        batch.getScoredSortedSet(INSTANCES, StringCodec.INSTANCE).addAsync(at.toEpochMilli(), instance);
        batch.getScoredSortedSet(INSTANCES, StringCodec.INSTANCE)
                .removeRangeByScoreAsync(0, true, at.toEpochMilli() - FORGET_AFTER_MILLIS, true);
        batch.execute();
    }

    /** Every instance whose snapshot has not expired, with its counters for this voucher, by instance name. */
    List<InstanceLive> read(long voucherId) {
        Collection<Object> names = redisson.getScoredSortedSet(INSTANCES, StringCodec.INSTANCE).readAll();
        if (names.isEmpty()) {
            return List.of();
        }
        List<String> instances = names.stream().map(Object::toString).sorted().toList();
        RBatch batch = redisson.createBatch();
        instances.forEach(name -> batch.getMap(key(name), StringCodec.INSTANCE).readAllMapAsync());
        List<?> hashes = batch.execute().getResponses();
        List<InstanceLive> live = new ArrayList<>();
        for (int i = 0; i < instances.size(); i++) {
            @SuppressWarnings("unchecked")
            Map<String, String> fields = (Map<String, String>) hashes.get(i);
            if (fields != null && !fields.isEmpty()) {
                live.add(LiveSnapshot.decode(instances.get(i), fields, voucherId));
            }
        }
        return live;
    }
}
