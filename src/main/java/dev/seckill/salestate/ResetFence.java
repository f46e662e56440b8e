package dev.seckill.salestate;

/**
 * A voucher fenced for a stock reset ({@link StockCache#fence}): no order gets in until {@link #write}
 * has set the new counter, or until it is closed. Use with try-with-resources, so that a reset that fails
 * before its write lifts the fence at once instead of leaving orders refused until it expires.
 */
public final class ResetFence implements AutoCloseable {

    private final StockCache stock;
    private final long voucherId;
    private final String token;
    private boolean lifted;

    ResetFence(StockCache stock, long voucherId, String token) {
        this.stock = stock;
        this.voucherId = voucherId;
        this.token = token;
    }

    /**
     * Writes the new counter ({@code stock} minus any order still pending) and the sale's generation as MySQL
     * committed it, and lifts the fence, atomically; for a fresh sale ({@code ordersDeleted}, a new generation) also
     * forgets the buyers, the failed orders and the order index. Call after MySQL committed the reset.
     *
     * @return whether the fence held until now (false: it expired first, which the log says)
     */
    public boolean write(int stock, boolean ordersDeleted, long saleGeneration) {
        lifted = true;
        return this.stock.writeReset(voucherId, token, stock, ordersDeleted, saleGeneration);
    }

    @Override
    public void close() {
        if (!lifted) {
            lifted = true;
            stock.liftFence(voucherId, token);
        }
    }
}
