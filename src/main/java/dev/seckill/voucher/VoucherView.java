package dev.seckill.voucher;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;

/**
 * A voucher as the JSON API and the pages show it.
 *
 * @param paymentWindow how long each of its orders waits for its payment (ISO-8601 in JSON, e.g. {@code "PT15M"});
 *                      null only for a voucher created before the window was the voucher's: the instances'
 *                      {@code seckill.payment.window} applies to its orders
 * @param arrivalWindow its waiting room's arrival window, null without a room (the lottery's seed is never shown here:
 *                      dev.seckill.sale.room publishes it after the draw)
 * @param admissionsPerSecond how many of its room's places are let in a second, null without a room
 */
public record VoucherView(long id, String title, String description, BigDecimal price, int stock, int initialStock,
        Instant beginTime, Instant endTime, Integer challengeDifficulty, Duration paymentWindow, Duration arrivalWindow,
        Integer admissionsPerSecond) {

    public VoucherView(long id, String title, String description, BigDecimal price, int stock, int initialStock,
            Instant beginTime, Instant endTime, Integer challengeDifficulty, Duration paymentWindow) {
        this(id, title, description, price, stock, initialStock, beginTime, endTime, challengeDifficulty, paymentWindow,
                null, null);
    }
}
