package dev.seckill.voucher;

import java.time.Duration;
import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Convert;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * The sale part of a voucher: its stock, time window and payment window. The stock column is only ever changed by SQL.
 */
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

    /** Null only for a voucher created before the window was the voucher's. */
    @Column(name = "payment_window_ms")
    @Convert(converter = DurationMillis.class)
    private Duration paymentWindow;

    /** The waiting room's three: all null for a voucher without one (WaitingRoom). */
    @Column(name = "arrival_window_ms")
    @Convert(converter = DurationMillis.class)
    private Duration arrivalWindow;

    @Column(name = "admissions_per_second")
    private Integer admissionsPerSecond;

    @Column(name = "room_seed")
    private String roomSeed;

    protected SeckillVoucher() {
    }

    SeckillVoucher(Long voucherId, int stock, Instant beginTime, Instant endTime, Integer challengeDifficulty,
            Duration paymentWindow, WaitingRoom room) {
        this.voucherId = voucherId;
        this.stock = stock;
        this.initialStock = stock;
        this.beginTime = beginTime;
        this.endTime = endTime;
        this.challengeDifficulty = challengeDifficulty;
        this.paymentWindow = paymentWindow;
        if (room != null) {
            this.arrivalWindow = room.arrivalWindow();
            this.admissionsPerSecond = room.admissionsPerSecond();
            this.roomSeed = room.seed();
        }
    }

    int getStock() {
        return stock;
    }

    int getInitialStock() {
        return initialStock;
    }

    SaleWindow window() {
        return new SaleWindow(beginTime, endTime, challengeDifficulty, paymentWindow,
                arrivalWindow == null ? null : new WaitingRoom(arrivalWindow, admissionsPerSecond, roomSeed));
    }
}
