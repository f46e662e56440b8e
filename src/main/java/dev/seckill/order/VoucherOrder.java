package dev.seckill.order;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/**
 * One shopper's order of one voucher, as it is read; UNIQUE(user_id, voucher_id) in the schema. Never saved
 * through JPA: orders are inserted by JDBC batches ({@code SyncOrderCreation}) and moved by guarded UPDATEs
 * ({@code OrderTransitions}).
 */
@Entity
@Table(name = "voucher_order")
class VoucherOrder {

    @Id
    private Long id;

    @Column(name = "user_id", nullable = false)
    private long userId;

    @Column(name = "voucher_id", nullable = false)
    private long voucherId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    private OrderStatus status;

    @Column(name = "created_at", nullable = false)
    private Instant createdAt;

    @Column(name = "pay_by")
    private Instant payBy;

    protected VoucherOrder() {
    }

    long id() {
        return id;
    }

    OrderStatus status() {
        return status;
    }

    OrderView toView(Instant now) {
        return OrderView.inMySql(id, voucherId, status, createdAt, payBy, now);
    }
}
