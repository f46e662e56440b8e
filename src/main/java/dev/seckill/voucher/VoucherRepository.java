package dev.seckill.voucher;

import java.util.List;

import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Query;

interface VoucherRepository extends JpaRepository<Voucher, Long> {

    /** One page of the catalogue, newest first, in one query (no count query: the result is a plain list). */
    @Query("""
            select new dev.seckill.voucher.VoucherView(v.id, v.title, v.description, v.price, s.stock, s.initialStock,
                s.beginTime, s.endTime, s.challengeDifficulty, s.paymentWindow, s.arrivalWindow, s.admissionsPerSecond)
            from Voucher v join SeckillVoucher s on s.voucherId = v.id
            order by v.id desc""")
    List<VoucherView> newest(Pageable page);
}
