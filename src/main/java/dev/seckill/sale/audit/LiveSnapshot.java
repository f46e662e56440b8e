package dev.seckill.sale.audit;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import dev.seckill.sale.SaleMeters.VoucherCounts;

/**
 * An instance's snapshot as the fields of its Redis hash: {@code at} (epoch millis), then per voucher
 * {@code v:<id>:accepted}, {@code v:<id>:replayed}, {@code v:<id>:written}, {@code v:<id>:refused:<code>} and
 * {@code v:<id>:given-up:<reason>}. The colon after the id keeps voucher 1's fields apart from voucher 12's.
 */
final class LiveSnapshot {

    static final String AT = "at";

    private LiveSnapshot() {
    }

    static Map<String, String> encode(Instant at, Map<Long, VoucherCounts> counts) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put(AT, Long.toString(at.toEpochMilli()));
        counts.forEach((voucherId, voucher) -> {
            String prefix = prefix(voucherId);
            fields.put(prefix + "accepted", Long.toString(voucher.accepted()));
            fields.put(prefix + "replayed", Long.toString(voucher.replayed()));
            fields.put(prefix + "written", Long.toString(voucher.written()));
            voucher.refused().forEach((code, n) -> fields.put(prefix + "refused:" + code, Long.toString(n)));
            voucher.givenUp().forEach((reason, n) -> fields.put(prefix + "given-up:" + reason, Long.toString(n)));
        });
        return fields;
    }

    /** One voucher's counters in an instance's hash; all zero when it counted nothing for the voucher. */
    static InstanceLive decode(String instance, Map<String, String> fields, long voucherId) {
        String prefix = prefix(voucherId);
        long accepted = 0;
        long replayed = 0;
        long written = 0;
        long givenUp = 0;
        Map<String, Long> refused = new TreeMap<>();
        for (Map.Entry<String, String> field : fields.entrySet()) {
            if (!field.getKey().startsWith(prefix)) {
                continue;
            }
            String name = field.getKey().substring(prefix.length());
            long value = Long.parseLong(field.getValue());
            if (name.equals("accepted")) {
                accepted = value;
            } else if (name.equals("replayed")) {
                replayed = value;
            } else if (name.equals("written")) {
                written = value;
            } else if (name.startsWith("refused:")) {
                refused.put(name.substring("refused:".length()), value);
            } else if (name.startsWith("given-up:")) {
                givenUp += value;
            }
        }
        String at = fields.get(AT);
        return new InstanceLive(instance, at == null ? null : Instant.ofEpochMilli(Long.parseLong(at)), accepted, refused,
                replayed, written, givenUp);
    }

    private static String prefix(long voucherId) {
        return "v:" + voucherId + ":";
    }
}
