package dev.seckill.sale.buying;

import java.util.OptionalLong;
import java.util.function.Supplier;

import dev.seckill.refusal.Reason;
import dev.seckill.refusal.Refusal;
import dev.seckill.sale.PlacedOrder;
import dev.seckill.sale.buying.PurchaseDecision.Outcome;

/**
 * The answers both order paths give the same way, decided once, so that the same situation gets the same answer
 * in either mode and a shopper cannot tell the modes apart by a refusal.
 */
final class SaleAnswers {

    private SaleAnswers() {
    }

    /**
     * The shopper already bought: their order when the purchase script names it (its index does for every order
     * it settled), else MySQL's (one indexed read, only on this rare path: a buyer sold before the index existed,
     * or whose async order was refused as a duplicate of a confirmed one). An order found nowhere (an older
     * instance's order still on its way, or orders deleted under the buyer set) leaves the refusal without an id.
     * With an Idempotency-Key, a found order is the replay of the first answer.
     */
    public static PlacedOrder alreadyBought(long existingOrderId, boolean replayable, Supplier<OptionalLong> inMySql) {
        long existing = existingOrderId > 0 ? existingOrderId : inMySql.get().orElse(0);
        if (replayable && existing > 0) {
            return PlacedOrder.replayed(existing);
        }
        throw Refusal.alreadyOrdered(existing);
    }

    /**
     * The purchase script's answers that mean "not now" rather than "no": a stock reset under way, or the
     * voucher's keys missing even after a rebuild was tried.
     */
    public static Refusal voucherBusy(Outcome outcome) {
        return switch (outcome) {
            case RESETTING -> new Refusal(Reason.VOUCHER_BUSY, "The voucher's stock is being reset; try again in a moment");
            case NOT_CACHED -> new Refusal(Reason.VOUCHER_BUSY, "The voucher's stock is being rebuilt");
            default -> throw new IllegalArgumentException("not a busy voucher's outcome: " + outcome);
        };
    }
}
