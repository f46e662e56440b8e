package dev.seckill.stock;

import java.util.List;
import java.util.Set;

import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * A voucher's sale state in Redis, read in one round trip (one batch, executed in order on one
 * connection): what an audit compares with MySQL.
 */
@Component
public class SaleStateReader {

    private final RedissonClient redisson;

    SaleStateReader(RedissonClient redisson) {
        this.redisson = redisson;
    }

    /**
     * @param stock            the counter, null when Redis holds none
     * @param pendingOrderIds  accepted async orders not acknowledged yet (in MySQL or on their way)
     * @param syncUnitOrderIds orders of sync requests that hold a unit and have not settled it yet
     */
    public record SaleState(Long stock, Set<String> pendingOrderIds, Set<String> syncUnitOrderIds, long failed,
            long deadLetters) {
    }

    @SuppressWarnings("unchecked")
    public SaleState read(long voucherId) {
        RBatch batch = redisson.createBatch();
        batch.getBucket(VoucherKeys.stock(voucherId), StringCodec.INSTANCE).getAsync();
        batch.getMap(VoucherKeys.pending(voucherId), StringCodec.INSTANCE).readAllKeySetAsync();
        batch.getMap(VoucherKeys.syncUnits(voucherId), StringCodec.INSTANCE).readAllKeySetAsync();
        batch.getMap(VoucherKeys.failed(voucherId), StringCodec.INSTANCE).sizeAsync();
        batch.getStream(VoucherKeys.deadLetters(voucherId), StringCodec.INSTANCE).sizeAsync();
        List<?> answers = batch.execute().getResponses();
        Object stock = answers.get(0);
        return new SaleState(stock == null ? null : Long.valueOf(stock.toString()), (Set<String>) answers.get(1),
                (Set<String>) answers.get(2), ((Number) answers.get(3)).longValue(), ((Number) answers.get(4)).longValue());
    }
}
