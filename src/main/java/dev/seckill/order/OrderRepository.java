package dev.seckill.order;

import java.util.List;
import java.util.Optional;

import org.springframework.data.jpa.repository.JpaRepository;

interface OrderRepository extends JpaRepository<VoucherOrder, Long> {

    boolean existsByUserIdAndVoucherId(long userId, long voucherId);

    Optional<VoucherOrder> findByIdAndUserId(long id, long userId);

    /** At most one: UNIQUE(user_id, voucher_id). */
    Optional<VoucherOrder> findByUserIdAndVoucherId(long userId, long voucherId);

    /** The shopper's latest orders, newest first (ids are time-ordered); read through UNIQUE(user_id, ...). */
    List<VoucherOrder> findTop50ByUserIdOrderByIdDesc(long userId);
}
