package dev.seckill.voucher;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The waiting room a voucher gets when its creation asks for none of its own (dev.seckill.sale.room has the rest of
 * {@code seckill.room}).
 *
 * @param arrivalWindow       how long after the opening an arrival still joins the lottery; 0 (the default): vouchers
 *                            get no room unless their creation asks for one
 * @param admissionsPerSecond how many places a room lets in a second, for a room whose creation set no rate
 * @param preQueue            how long before a sale's opening its room takes joins: everyone who joins from then until
 *                            the arrival window closes is in the lottery alike, so nobody needs to be there at the
 *                            opening second (the buy page joins by itself when it is open in that time)
 */
@Validated
@ConfigurationProperties("seckill.room")
public record RoomDefaults(
        @DefaultValue("0s") @NotNull @DurationMin(seconds = 0) @DurationMax(minutes = VoucherLimits.MAX_ARRIVAL_WINDOW_MINUTES)
        Duration arrivalWindow,
        @DefaultValue("50") @Positive @Max(VoucherLimits.MAX_ADMISSIONS_PER_SECOND) int admissionsPerSecond,
        @DefaultValue("10m") @NotNull @DurationMin(seconds = 0) @DurationMax(hours = 24) Duration preQueue) {

    /** When a room of a sale opening at {@code opening} starts taking joins. */
    public Instant joinsFrom(Instant opening) {
        return opening.minus(preQueue);
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    /** The room a voucher created by {@code request} gets, with a new seed; null for none. */
    WaitingRoom roomFor(CreateVoucherRequest request) {
        Duration window = request.arrivalWindow() != null ? request.arrivalWindow() : arrivalWindow;
        if (window.isZero()) {
            return null;
        }
        int rate = request.admissionsPerSecond() != null ? request.admissionsPerSecond() : admissionsPerSecond;
        byte[] seed = new byte[32];
        RANDOM.nextBytes(seed);
        return new WaitingRoom(window, rate, HexFormat.of().formatHex(seed));
    }
}
