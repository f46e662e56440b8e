package dev.seckill.voucher;

import java.sql.Timestamp;
import java.time.Instant;

import dev.seckill.support.ContainerConnections;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.boot.jdbc.test.autoconfigure.AutoConfigureTestDatabase;
import org.springframework.context.annotation.Import;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The database's own defences, below every cache and lock: the guarded UPDATE, the CHECK on stock
 * and the unique key on (user_id, voucher_id). A JPA slice on the real MySQL/MariaDB schema that
 * Flyway builds; each test rolls back. Named {@code *IT}: it needs MySQL/MariaDB, so failsafe runs it with
 * the integration tests, not surefire with the unit tests.
 */
@DataJpaTest
@AutoConfigureTestDatabase(replace = AutoConfigureTestDatabase.Replace.NONE)
@Import(ContainerConnections.class)
class StockGuardDataJpaIT {

    @Autowired
    SeckillVoucherRepository sales;

    @Autowired
    JdbcTemplate jdbc;

    long voucherId;

    @DynamicPropertySource
    static void servers(DynamicPropertyRegistry registry) {
        ContainerConnections.properties().forEach((name, value) -> registry.add(name, () -> value));
    }

    @BeforeEach
    void voucherWithTwoUnits() {
        Timestamp now = Timestamp.from(Instant.now());
        jdbc.update("INSERT INTO voucher (title, price, created_at) VALUES ('guard', 1.00, ?)", now);
        voucherId = jdbc.queryForObject("SELECT LAST_INSERT_ID()", Long.class);
        jdbc.update("INSERT INTO seckill_voucher (voucher_id, stock, initial_stock, begin_time, end_time) "
                + "VALUES (?, 2, 2, ?, ?)", voucherId, now, Timestamp.from(Instant.now().plusSeconds(3600)));
    }

    @Test
    void theGuardedUpdateNeverTakesTheLastUnitTwice() {
        assertThat(sales.takeUnits(voucherId, 1)).isEqualTo(1);
        assertThat(sales.takeUnits(voucherId, 2)).as("all of a batch or none").isZero();
        assertThat(sales.takeUnits(voucherId, 1)).isEqualTo(1);
        assertThat(sales.takeUnits(voucherId, 1)).as("no row changes once stock is 0").isZero();
        assertThat(stock()).isZero();
    }

    @Test
    void stockCannotGoNegativeEvenByHand() {
        assertThatThrownBy(() -> jdbc.update("UPDATE seckill_voucher SET stock = -1 WHERE voucher_id = ?", voucherId))
                .isInstanceOf(DataIntegrityViolationException.class);
    }

    @Test
    void oneShopperCannotHoldTwoOrdersOfOneVoucher() {
        String insert = "INSERT INTO voucher_order (id, user_id, voucher_id, status, created_at) "
                + "VALUES (?, 77, ?, 'PAID', NOW(3))";
        jdbc.update(insert, 1_000_001L, voucherId);
        assertThatThrownBy(() -> jdbc.update(insert, 1_000_002L, voucherId))
                .isInstanceOf(DataIntegrityViolationException.class);
    }

    private int stock() {
        return jdbc.queryForObject("SELECT stock FROM seckill_voucher WHERE voucher_id = ?", Integer.class, voucherId);
    }
}
