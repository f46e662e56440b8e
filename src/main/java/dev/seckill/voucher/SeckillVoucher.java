package dev.seckill.voucher;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The sale part of a voucher: its stock and time window. The stock column is only ever changed by SQL. */
@Entity
@Table(name = "seckill_voucher")
class SeckillVoucher {

    @Id
    @Column(name = "voucher_id")
    private Long voucherId;

    @Column(nullable = false)
    private int stock;

    @Column(name = "initial_stock", nullable = false)
    private int initialStock;

    @Column(name = "begin_time", nullable = false)
    private Instant beginTime;

    @Column(name = "end_time", nullable = false)
    private Instant endTime;

    @Column(name = "challenge_difficulty")
    private Integer challengeDifficulty;

    protected SeckillVoucher() {
    }

    SeckillVoucher(Long voucherId, int stock, Instant beginTime, Instant endTime, Integer challengeDifficulty) {
        this.voucherId = voucherId;
        this.stock = stock;
        this.initialStock = stock;
        this.beginTime = beginTime;
        this.endTime = endTime;
        this.challengeDifficulty = challengeDifficulty;
    }

    Long getVoucherId() {
        return voucherId;
    }

    int getStock() {
        return stock;
    }

    int getInitialStock() {
        return initialStock;
    }

    SaleWindow window() {
        return new SaleWindow(beginTime, endTime, challengeDifficulty);
    }
}
