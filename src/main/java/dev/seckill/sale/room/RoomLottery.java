package dev.seckill.sale.room;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;

/**
 * The waiting room's lottery, as docs/security.md publishes it so that anyone can recompute it
 * ({@code scripts/room-draw}). Numbers are computed only at the draw, from two things: the seed, committed to before
 * the window opens ({@code SHA-256(seed)}, published), and the entrants themselves, known to nobody before the window
 * closes. The entrants' hash is {@code SHA-256} of their shopper ids in decimal, sorted as strings byte by byte, each
 * followed by a line feed; a shopper's lottery number is the first 52 bits of
 * {@code SHA-256(seed + ":" + entrantsHash + ":" + shopperId)} (the seed and the hash in lowercase hex, all ASCII), read
 * as an unsigned big-endian number; places go by ascending number, a tie (about one in 2^52 per pair) by the shopper
 * ids compared as decimal strings, byte by byte, as Redis orders a sorted set's equal scores. 52 bits: a sorted set's
 * score is a double, exact below 2^53.
 * <p>
 * So nobody, the shop included, can tell anyone's place before the window closes: one more entrant changes every
 * number.
 */
public final class RoomLottery {

    private RoomLottery() {
    }

    public static long number(String seed, String entrantsHash, long shopperId) {
        byte[] hash = sha256(seed + ":" + entrantsHash + ":" + shopperId);
        long first64 = 0;
        for (int i = 0; i < 8; i++) {
            first64 = (first64 << 8) | (hash[i] & 0xff);
        }
        return first64 >>> 12;
    }

    /** The hash of the draw's entrants (shopper ids in decimal), in whatever order they are given. */
    public static String entrantsHash(Collection<String> shopperIds) {
        StringBuilder lines = new StringBuilder(shopperIds.size() * 20);
        // ASCII digits: String's order is the bytes' order
        shopperIds.stream().sorted().forEach(id -> lines.append(id).append('\n'));
        return HexFormat.of().formatHex(sha256(lines.toString()));
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
