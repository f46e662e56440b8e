package dev.seckill.sale.room;

/**
 * What an admin set of a waiting room.
 *
 * @param paused              nobody more is let in until it resumes (admissions given stay good)
 * @param closed              for good: nobody more joins or is let in
 * @param admissionsPerSecond the rate places are let in now
 * @param voucherRate         the rate the voucher was created with (the room's own when no admin set one)
 */
public record RoomControl(boolean paused, boolean closed, int admissionsPerSecond, int voucherRate) {
}
