package dev.seckill.syncunit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.seckill.SyncMode;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/** Which orders of a voucher MySQL holds: the one question whose answer decides what a unit was. */
@SyncMode
@Component
class CommittedOrders {

    /** Ids per query: an IN list stays a few kilobytes. */
    private static final int CHUNK = 500;

    private final JdbcTemplate jdbc;

    CommittedOrders(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    Set<Long> among(long voucherId, Collection<Long> orderIds) {
        if (orderIds.isEmpty()) {
            return Set.of();
        }
        List<Long> ids = new ArrayList<>(orderIds);
        Set<Long> found = new HashSet<>();
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            List<Object> args = new ArrayList<>(chunk.size() + 1);
            args.add(voucherId);
            args.addAll(chunk);
            found.addAll(jdbc.queryForList("SELECT id FROM voucher_order WHERE voucher_id = ? AND id IN ("
                    + String.join(",", Collections.nCopies(chunk.size(), "?")) + ")", Long.class, args.toArray()));
        }
        return found;
    }
}
