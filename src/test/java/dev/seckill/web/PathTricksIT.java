package dev.seckill.web;

import java.util.ArrayList;
import java.util.List;

import dev.seckill.support.NginxFrontedTest;
import dev.seckill.support.RawHttp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * URLs that spell an admin or actuator path another way never reach a controller without credentials:
 * each answers 400, 401 or 404 as a problem, and nothing in MySQL or Redis changes. Sent byte for byte
 * (no client normalizes them), straight to an instance and through Nginx with the cluster's own rules.
 */
class PathTricksIT extends NginxFrontedTest {


    @Autowired
    JdbcTemplate db;

    @Autowired
    RedissonClient redisson;

    /** Every trick of the issue, against a minting admin endpoint and against the actuator. */
    static List<String> tricks() {
        List<String> lines = new ArrayList<>();
        for (String[] target : new String[][] {{"POST", "admin", "shoppers?count=1"}, {"GET", "actuator", "metrics"},
                {"POST", "admin", "vouchers/1/reconcile"}, {"GET", "actuator", "env"}}) {
            String method = target[0];
            String area = target[1];
            String rest = target[2];
            String encodedFirst = "%" + Integer.toHexString(area.charAt(0)) + area.substring(1);
            lines.add(method + " /" + encodedFirst + "/" + rest);
            lines.add(method + " /%25" + Integer.toHexString(area.charAt(0)) + area.substring(1) + "/" + rest);
            lines.add(method + " //" + area + "/" + rest);
            lines.add(method + " /./" + area + "/" + rest);
            lines.add(method + " /seckill/../" + area + "/" + rest);
            lines.add(method + " /vouchers/%2E%2E/" + area + "/" + rest);
            lines.add(method + " /" + area + ";x=1/" + rest);
            lines.add(method + " /" + Character.toUpperCase(area.charAt(0)) + area.substring(1) + "/" + rest);
            lines.add(method + " /" + area + "%2F" + rest);
            lines.add(method + " /" + area + "/" + rest.replace("?", "%00?") + (rest.contains("?") ? "" : "%00"));
            lines.add(method + " /" + area + "/" + rest.replace("?", "/?") + (rest.contains("?") ? "" : "/"));
            lines.add(method + " /" + area + "/" + rest.replace("?", "%3F"));
        }
        lines.add("GET /admin/vouchers/1/audit/");
        lines.add("GET /admin/vouchers/1/audit;jsessionid=x");
        lines.add("GET /actuator/health/../metrics");
        lines.add("GET /actuator/health/%2E%2E/metrics");
        return lines;
    }

    @ParameterizedTest
    @MethodSource("tricks")
    void refusedByTheInstance(String requestLine) {
        assertRefusedWithNothingChanged(port, requestLine);
    }

    @ParameterizedTest
    @MethodSource("tricks")
    void refusedThroughNginx(String requestLine) {
        assertRefusedWithNothingChanged(nginx.port(), requestLine);
    }

    private void assertRefusedWithNothingChanged(int target, String requestLine) {
        Snapshot before = snapshot();
        RawHttp.Answer answer = RawHttp.send(target, requestLine);
        assertThat(answer.status()).as(requestLine + " answered " + answer).isIn(400, 401, 404);
        assertThat(answer.contentType()).as(requestLine + " answered " + answer).startsWith("application/problem+json");
        assertThat(answer.asResponse().code()).as(requestLine).isNotBlank();
        assertThat(snapshot()).as(requestLine).isEqualTo(before);
    }

    private Snapshot snapshot() {
        return new Snapshot(db.queryForObject("SELECT COUNT(*) FROM shopper", Long.class),
                db.queryForObject("SELECT COUNT(*) FROM voucher", Long.class),
                // Stock put on sale, which only an admin changes: the stock left moves by itself whenever an
                // earlier test's unpaid order expires and its unit goes back.
                db.queryForObject("SELECT COALESCE(SUM(initial_stock), 0) FROM seckill_voucher", Long.class),
                // A voucher's own keys. Rate-limit and lock keys come and go by themselves, and so do purchase
                // tickets and spent challenges (their TTL) and the set of units given back (an expiry's).
                redisson.getKeys().getKeysStreamByPattern("seckill:{*")
                        .filter(key -> !key.contains(":ticket:") && !key.contains(":solved:") && !key.endsWith(":returned"))
                        .count());
    }

    record Snapshot(long shoppers, long vouchers, long stockPutOnSale, long voucherKeysInRedis) {
    }
}
