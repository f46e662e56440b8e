package dev.seckill.voucher;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import dev.seckill.salestate.HeldLock;
import dev.seckill.salestate.SeckillLocks;
import dev.seckill.salestate.ResetFence;
import dev.seckill.salestate.StockCache;
import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.data.domain.PageRequest;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creating, reading and re-stocking vouchers. Redis is written only after MySQL has committed, so
 * the cache never announces stock the database does not have. A reset holds the voucher's lock (no
 * sync order, reconcile or other reset is half-way through) and fences the voucher in Redis from before
 * it reads MySQL until the new counter is written: the fence is set only when no accepted order is
 * pending, and the order scripts refuse every order while it stands, so no order falls between the
 * count and the counter write.
 */
@Service
public class VoucherService {

    private final VoucherRepository vouchers;
    private final SeckillVoucherRepository seckillVouchers;
    private final StockCache stock;
    private final SaleWindowCache windows;
    private final SeckillLocks locks;
    private final OrderCount orderCount;
    private final DefaultPaymentWindow defaultPaymentWindow;
    private final TransactionTemplate tx;
    private final Clock clock;
    private final ApplicationEventPublisher events;
    private final VoucherStock levels;
    private final RoomDefaults roomDefaults;

    VoucherService(VoucherRepository vouchers, SeckillVoucherRepository seckillVouchers, StockCache stock,
            SaleWindowCache windows, SeckillLocks locks, OrderCount orderCount, DefaultPaymentWindow defaultPaymentWindow,
            TransactionTemplate tx, Clock clock, ApplicationEventPublisher events, VoucherStock levels,
            RoomDefaults roomDefaults) {
        this.levels = levels;
        this.roomDefaults = roomDefaults;
        this.vouchers = vouchers;
        this.seckillVouchers = seckillVouchers;
        this.stock = stock;
        this.windows = windows;
        this.locks = locks;
        this.orderCount = orderCount;
        this.defaultPaymentWindow = defaultPaymentWindow;
        this.tx = tx;
        this.clock = clock;
        this.events = events;
    }

    public VoucherView create(CreateVoucherRequest request) {
        // The instances' window is written into the voucher when none is asked for: every instance then gives its
        // orders the same window, whatever its own setting is or later becomes.
        Duration paymentWindow = request.paymentWindow() != null ? request.paymentWindow() : defaultPaymentWindow.window();
        WaitingRoom room = roomDefaults.roomFor(request);
        if (room != null && !room.drawAt(request.beginTime().toInstant()).isBefore(request.endTime().toInstant())) {
            // Only the instances' default can get here: a window of the request's own is checked with its fields.
            throw new Refusal(Reason.ARRIVAL_WINDOW_TOO_LONG, "The waiting room's arrival window ("
                    + room.arrivalWindow() + ", seckill.room.arrival-window) does not end before the sale does");
        }
        VoucherView written = tx.execute(status -> {
            Voucher voucher = vouchers.save(new Voucher(request.title().strip(), request.description(),
                    request.price(), clock.instant()));
            SeckillVoucher sale = seckillVouchers.save(new SeckillVoucher(voucher.getId(), request.stock(),
                    request.beginTime().toInstant(), request.endTime().toInstant(), request.challengeDifficulty(),
                    paymentWindow, room));
            return view(voucher, sale);
        });
        // The window as MySQL keeps it, read back after the commit: that is what every other instance (and
        // this one after a restart) will read, and what the pages show. It can differ from the request's:
        // MariaDB announces itself as "5.5.5-10.x", so Connector/J sends it whole seconds, and MySQL rounds
        // to DATETIME(3). Remembering the request's own times opened the sale up to a second later here than
        // anywhere else.
        SaleWindow stored = requireSale(written.id()).window();
        VoucherView created = new VoucherView(written.id(), written.title(), written.description(), written.price(),
                written.stock(), written.initialStock(), stored.begin(), stored.end(), stored.challengeDifficulty(),
                stored.paymentWindow(), written.arrivalWindow(), written.admissionsPerSecond());
        stock.set(created.id(), created.stock());
        windows.remember(created.id(), stored);
        events.publishEvent(new VoucherStockChanged(created.id(), false));
        return created;
    }

    @Transactional(readOnly = true)
    public VoucherView find(long voucherId) {
        SeckillVoucher sale = requireSale(voucherId);
        return view(vouchers.getReferenceById(voucherId), sale);
    }

    @Transactional(readOnly = true)
    public List<VoucherView> newest(int page, int size) {
        return vouchers.newest(PageRequest.of(page, size));
    }

    public VoucherView resetStock(long voucherId, StockResetRequest request) {
        if (!seckillVouchers.existsById(voucherId)) {
            throw notFound(voucherId);
        }
        try (HeldLock voucherLock = locks.lockVoucher(voucherId); ResetFence fence = stock.fence(voucherId)) {
            // Fenced: no new unit is taken. Units of sync orders already committed are settled now (their
            // records dropped), before MySQL changes and the counter is written less the units still held.
            events.publishEvent(new StockResetRequested(voucherId));
            Reset reset = tx.execute(status -> {
                // A fresh sale is a new generation of it: the orders of the old one, deleted here, are not the new
                // sale's, and a failover's replay of an instance's journal leaves them out (FailoverReplay).
                long generation;
                if (request.deletesOrders()) {
                    events.publishEvent(new FreshSaleStarting(voucherId));
                    generation = levels.startFreshSale(voucherId);
                } else {
                    generation = levels.saleGeneration(voucherId);
                }
                long held = orderCount.unitsHeldBy(voucherId);
                seckillVouchers.resetStock(voucherId, request.stock(), Math.toIntExact(held + request.stock()));
                return new Reset(view(vouchers.getReferenceById(voucherId), requireSale(voucherId)), generation);
            });
            // Less the units sync requests hold (stock-reset.lua): they took them from the old counter and
            // commit (or give them back) against the new stock once this lock is released.
            fence.write(request.stock(), request.deletesOrders(), reset.saleGeneration());
            events.publishEvent(new VoucherStockChanged(voucherId, request.deletesOrders()));
            return reset.view();
        }
    }

    private record Reset(VoucherView view, long saleGeneration) {
    }

    private SeckillVoucher requireSale(long voucherId) {
        return seckillVouchers.findById(voucherId).orElseThrow(() -> notFound(voucherId));
    }

    private static Refusal notFound(long voucherId) {
        return new Refusal(Reason.VOUCHER_NOT_FOUND, "No voucher with id " + voucherId);
    }

    static VoucherView view(Voucher voucher, SeckillVoucher sale) {
        SaleWindow window = sale.window();
        WaitingRoom room = window.room();
        return new VoucherView(voucher.getId(), voucher.getTitle(), voucher.getDescription(), voucher.getPrice(),
                sale.getStock(), sale.getInitialStock(), window.begin(), window.end(), window.challengeDifficulty(),
                window.paymentWindow(), room == null ? null : room.arrivalWindow(),
                room == null ? null : room.admissionsPerSecond());
    }
}
