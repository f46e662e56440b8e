package dev.seckill.voucher;

import java.math.BigDecimal;
import java.time.Instant;

public record VoucherView(long id, String title, String description, BigDecimal price, int stock, int initialStock,
        Instant beginTime, Instant endTime, Integer challengeDifficulty) {
}
