package dev.seckill.voucher;

import org.springframework.data.jpa.repository.JpaRepository;

interface VoucherRepository extends JpaRepository<Voucher, Long> {
}
