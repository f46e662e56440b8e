package dev.seckill.order;

import java.time.Instant;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Transient;
import org.springframework.data.domain.Persistable;

/**
 * One shopper's order of one voucher; UNIQUE(user_id, voucher_id) in the schema. The id is assigned
 * by {@link dev.seckill.id.IdGenerator}, so the entity says it is new itself: otherwise save() would
 * SELECT before every INSERT.
 */
@Entity
@Table(name = "voucher_order")
class VoucherOrder implements Persistable<Long> {

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


    @Transient
    private boolean isNew;

    protected VoucherOrder() {
    }


    @Override
    public Long getId() {
        return id;
    }

    @Override
    public boolean isNew() {
        return isNew;
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
