package dev.seckill.sale.room;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The waiting room's lottery, as docs/security.md publishes it so that anyone can recompute it
 * ({@code scripts/room-draw}): a shopper's lottery number is the first 52 bits of
 * {@code SHA-256(seed + ":" + shopperId)} (the seed in lowercase hex, the id in decimal, both as ASCII), read as an
 * unsigned big-endian number; places go by ascending number, a tie (about one in 2^52 per pair) by the shopper ids
 * compared as decimal strings, byte by byte, as Redis orders a sorted set's equal scores. The commitment published
 * before the window opens is {@code SHA-256(seed)}, in hex, of the same ASCII seed. 52 bits: a sorted set's score
 * is a double, exact below 2^53.
 */
public final class RoomLottery {

    private RoomLottery() {
    }

    public static long number(String seed, long shopperId) {
        byte[] hash = sha256(seed + ":" + shopperId);
        long first64 = 0;
        for (int i = 0; i < 8; i++) {
            first64 = (first64 << 8) | (hash[i] & 0xff);
        }
        return first64 >>> 12;
    }

    public static String commitment(String seed) {
        return HexFormat.of().formatHex(sha256(seed));
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException everyJvmHasIt) {
            throw new IllegalStateException(everyJvmHasIt);
        }
    }
}
