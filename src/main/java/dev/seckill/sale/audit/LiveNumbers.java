package dev.seckill.sale.audit;

import java.time.Clock;
import java.time.Instant;

import dev.seckill.sale.PendingBacklog;
import dev.seckill.sale.room.WaitingRooms;
import org.springframework.stereotype.Service;

/** A voucher's live numbers: the audit's counts, the backlog's age and every instance's latest snapshot. */
@Service
class LiveNumbers {

    private final AuditService audits;
    private final PendingBacklog backlog;
    private final LiveSnapshots snapshots;
    private final Clock clock;
    private final WaitingRooms rooms;

    LiveNumbers(AuditService audits, PendingBacklog backlog, LiveSnapshots snapshots, Clock clock, WaitingRooms rooms) {
        this.rooms = rooms;
        this.audits = audits;
        this.backlog = backlog;
        this.snapshots = snapshots;
        this.clock = clock;
    }

    /** @throws dev.seckill.refusal.Refusal voucher-not-found */
    public VoucherLive of(long voucherId) {
        AuditService.SaleNumbers sale = audits.numbers(voucherId);
        Instant now = clock.instant();
        // The count is read now; the oldest order may be up to a second older than the gauges' last read.
        long age = sale.pendingOrders() == 0 ? 0 : backlog.of(voucherId).oldestAgeMillis(now.toEpochMilli());
        return new VoucherLive(voucherId, now, sale.redisStock(), sale.dbStock(), sale.orders(), sale.pendingOrders(),
                age, sale.deadLetters(), snapshots.read(voucherId), sale.lifecycle(), rooms.numbers(voucherId));
    }
}
