package dev.seckill.audit;

import java.time.Clock;
import java.time.Instant;

import dev.seckill.audit.AuditService;
import dev.seckill.sale.PendingBacklog;
import org.springframework.stereotype.Service;

/** A voucher's live numbers: the audit's counts, the backlog's age and every instance's latest snapshot. */
@Service
public class LiveNumbers {

    private final AuditService audits;
    private final PendingBacklog backlog;
    private final LiveSnapshots snapshots;
    private final Clock clock;

    LiveNumbers(AuditService audits, PendingBacklog backlog, LiveSnapshots snapshots, Clock clock) {
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
                age, sale.deadLetters(), snapshots.read(voucherId), sale.lifecycle());
    }
}
