package dev.seckill.voucher;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.OffsetDateTime;

import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;

/**
 * {@code challengeDifficulty}: the proof-of-work a shopper's browser does for a purchase ticket (the ALTCHA
 * challenge's largest number; absent: the instances' default; 0: none). {@code paymentWindow}: how long each order
 * waits for its payment, an ISO-8601 duration such as {@code PT10S} or {@code PT15M}, 10 seconds to 24 hours (absent:
 * the instances' {@code seckill.payment.window}, fixed into the voucher when it is created). Times are ISO-8601 with
 * an offset, e.g. {@code 2026-11-22T10:00:00Z} or {@code ...T18:00:00+08:00}. {@code arrivalWindow}: the waiting room's
 * (dev.seckill.sale.room): everyone who joins within this long of the opening gets a place by lottery, up to ten
 * minutes; {@code PT0S} for no room (absent: the instances' {@code seckill.room.arrival-window}, no room by default).
 * {@code admissionsPerSecond}: how many places the room lets in a second, only with a room (absent: the instances'
 * {@code seckill.room.admissions-per-second}).
 */
public record CreateVoucherRequest(
        @NotBlank @Size(max = 120) String title,
        @Size(max = 2000) String description,
        @NotNull @DecimalMin("0.00") @DecimalMax("1000000.00") @Digits(integer = 7, fraction = 2) BigDecimal price,
        @NotNull @PositiveOrZero @Max(VoucherLimits.MAX_STOCK) Integer stock,
        @NotNull OffsetDateTime beginTime,
        @NotNull OffsetDateTime endTime,
        @PositiveOrZero @Max(VoucherLimits.MAX_CHALLENGE_DIFFICULTY) Integer challengeDifficulty,
        @DurationMin(seconds = VoucherLimits.MIN_PAYMENT_WINDOW_SECONDS)
        @DurationMax(hours = VoucherLimits.MAX_PAYMENT_WINDOW_HOURS) Duration paymentWindow,
        @DurationMin(seconds = 0) @DurationMax(minutes = VoucherLimits.MAX_ARRIVAL_WINDOW_MINUTES) Duration arrivalWindow,
        @Positive @Max(VoucherLimits.MAX_ADMISSIONS_PER_SECOND) Integer admissionsPerSecond) {

    /** The shape older clients send: no waiting room of the request's own. */
    public CreateVoucherRequest(String title, String description, BigDecimal price, Integer stock,
            OffsetDateTime beginTime, OffsetDateTime endTime, Integer challengeDifficulty, Duration paymentWindow) {
        this(title, description, price, stock, beginTime, endTime, challengeDifficulty, paymentWindow, null, null);
    }

    @AssertTrue(message = "endTime must be after beginTime")
    boolean isEndAfterBegin() {
        return beginTime == null || endTime == null || endTime.isAfter(beginTime);
    }

    @AssertTrue(message = "the sale must last longer than its arrival window")
    boolean isArrivalWindowWithinTheSale() {
        return arrivalWindow == null || beginTime == null || endTime == null
                || beginTime.plus(arrivalWindow).isBefore(endTime);
    }

    @AssertTrue(message = "arrivalWindow is kept in whole milliseconds")
    boolean isArrivalWindowInWholeMillis() {
        return arrivalWindow == null || arrivalWindow.getNano() % 1_000_000 == 0;
    }

    @AssertTrue(message = "admissionsPerSecond needs a waiting room: an arrivalWindow above PT0S")
    boolean isAdmissionRateForARoom() {
        return admissionsPerSecond == null || arrivalWindow == null || !arrivalWindow.isZero();
    }
}
