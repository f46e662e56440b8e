package dev.seckill.voucher;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface SeckillVoucherRepository extends JpaRepository<SeckillVoucher, Long> {

    /**
     * The database's own guard against overselling: the row is changed only while stock remains.
     * Returns the number of rows changed; 0 means sold out, whatever any cache said.
     */
    @Modifying
    @Query("update SeckillVoucher v set v.stock = v.stock - 1 where v.voucherId = :voucherId and v.stock > 0")
    int takeOne(@Param("voucherId") long voucherId);

    /** The same guard for a batch of orders: all of them, or none when fewer units are left. */
    @Modifying
    @Query("update SeckillVoucher v set v.stock = v.stock - :units where v.voucherId = :voucherId and v.stock >= :units")
    int takeUnits(@Param("voucherId") long voucherId, @Param("units") int units);

    /** Units of orders that ended unpaid, back on sale; never above the stock put on sale. */
    @Modifying
    @Query("update SeckillVoucher v set v.stock = v.stock + :units where v.voucherId = :voucherId "
            + "and v.stock + :units <= v.initialStock")
    int returnUnits(@Param("voucherId") long voucherId, @Param("units") int units);

    @Modifying(clearAutomatically = true)
    @Query("update SeckillVoucher v set v.stock = :stock, v.initialStock = :initialStock where v.voucherId = :voucherId")
    int resetStock(@Param("voucherId") long voucherId, @Param("stock") int stock, @Param("initialStock") int initialStock);
}
