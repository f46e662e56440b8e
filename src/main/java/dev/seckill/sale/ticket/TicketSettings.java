package dev.seckill.sale.ticket;

import java.time.Duration;

import jakarta.validation.constraints.Max;
import org.hibernate.validator.constraints.time.DurationMin;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Purchase tickets and their challenges.
 *
 * @param required            whether a purchase must carry a ticket ({@code Seckill-Ticket}); off, any holder of
 *                            a shopper token can fire the purchase itself at the opening millisecond: the
 *                            default, so that a load generator can send purchases without a handshake
 * @param lifetime            how long an issued ticket can be spent: long enough for one click's purchase and its
 *                            retries, short enough that tickets cannot be stocked up
 * @param challengeDifficulty the default proof-of-work of a voucher that sets none: the ALTCHA challenge's largest
 *                            number (a browser tries half of it on average); 0 for no challenge
 * @param challengeExpiry     how long a challenge can be solved and spent: the buy page fetches one while the
 *                            countdown runs, and a new one when it expires
 * @param challengeSecret     the key challenges are signed with, shared by every instance (at least 32
 *                            characters); application.yml falls back to {@code SECKILL_TOKEN_SECRET}, from which a
 *                            key of its own is derived either way
 */
@Validated
@ConfigurationProperties("seckill.tickets")
public record TicketSettings(
        @DefaultValue("false") boolean required,
        @DefaultValue("30s") @NotNull @DurationMin(seconds = 1) Duration lifetime,
        @DefaultValue("50000") @PositiveOrZero @Max(10_000_000) int challengeDifficulty,
        @DefaultValue("10m") @NotNull @DurationMin(seconds = 10) Duration challengeExpiry,
        @NotBlank @Size(min = 32, message = "must be at least 32 characters") String challengeSecret) {
}
