package dev.seckill.sale.durability;

import java.nio.charset.StandardCharsets;

/**
 * The Redis Cluster hash slot of a key, as {@code CLUSTER KEYSLOT} computes it: CRC16 (XMODEM) of the key, or of
 * its hash tag (the text between the first "{" and the next "}", when not empty), modulo 16384. Computed here so
 * that {@link EpochMarkers} can choose keys in given slots without asking the cluster.
 */
final class KeySlot {

    static final int SLOTS = 16_384;

    private KeySlot() {
    }

    static int of(String key) {
        int crc = 0;
        for (byte b : hashed(key).getBytes(StandardCharsets.UTF_8)) {
            crc ^= (b & 0xff) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = ((crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1) & 0xffff;
            }
        }
        return crc % SLOTS;
    }

    private static String hashed(String key) {
        int open = key.indexOf('{');
        if (open >= 0) {
            int close = key.indexOf('}', open + 1);
            if (close > open + 1) {
                return key.substring(open + 1, close);
            }
        }
        return key;
    }
}
