package dev.seckill.voucher;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface SeckillVoucherRepository extends JpaRepository<SeckillVoucher, Long> {

    /**
     * The database's own guard against overselling, for a batch of orders: the row is changed only while that many
     * units remain, so all of them are taken or none. Returns the number of rows changed; 0 means not enough stock,
     * whatever any cache said.
     */
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
