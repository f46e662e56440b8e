package dev.seckill.sale.room;

import java.time.Duration;

import jakarta.validation.constraints.NotNull;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How every waiting room runs (a voucher's own room, its arrival window and rate, is dev.seckill.voucher's, with the
 * defaults {@code seckill.room.arrival-window} and {@code seckill.room.admissions-per-second}).
 *
 * @param batchInterval     how often a room lets its next batch in (a voucher's admissions per second times this
 *                          many seconds at a time)
 * @param admissionLifetime how long a shopper who was let in may buy: long enough to click, short enough that a
 *                          shopper who walked away does not keep the place; once (a lapsed shopper may queue again,
 *                          behind everyone)
 * @param presence          how long an admission waits for its shopper's page to look at it: one who walked away
 *                          gives the unit back to the next place this soon, not after the whole lifetime. Longer than a
 *                          page's look at the room's public state (its poll interval, the cache's second and a jitter);
 *                          the lifetime when that is shorter
 * @param pollInterval      how often the room's page asks for its place: the page's pace, given to it in every answer
 * @param keepAfterSale     how long a room's keys stay in Redis after its sale ends (the dashboard's numbers), set
 *                          anew by every join and poll, so that a sale's end moved later moves it too
 */
@Validated
@ConfigurationProperties("seckill.room")
public record RoomSettings(
        @DefaultValue("1s") @NotNull @DurationMin(millis = 100) @DurationMax(seconds = 60) Duration batchInterval,
        @DefaultValue("60s") @NotNull @DurationMin(seconds = 5) @DurationMax(minutes = 30) Duration admissionLifetime,
        @DefaultValue("20s") @NotNull @DurationMin(seconds = 5) @DurationMax(minutes = 30) Duration presence,
        @DefaultValue("2s") @NotNull @DurationMin(millis = 500) @DurationMax(seconds = 60) Duration pollInterval,
        @DefaultValue("1h") @NotNull @DurationMin(seconds = 1) Duration keepAfterSale) {

    public RoomSettings {
        // An admission is held for its lifetime at most: a shorter lifetime (a test's, a quick sale's) bounds it.
        if (presence != null && admissionLifetime != null && presence.compareTo(admissionLifetime) > 0) {
            presence = admissionLifetime;
        }
    }

    /** How many places a batch lets in, for a room that lets {@code perSecond} in a second; at least one. */
    int batchSize(int perSecond) {
        return (int) Math.max(1, Math.round(perSecond * batchInterval.toMillis() / 1000.0));
    }
}
