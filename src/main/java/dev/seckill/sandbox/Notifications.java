package dev.seckill.sandbox;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.random.RandomGenerator;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;
import tools.jackson.databind.json.JsonMapper;

/**
 * Queues the webhook notifications of a payment's move in {@code sandbox_delivery}, in the transaction that made the
 * move: the move and what it owes the merchant commit together or not at all. The body is written once, so every
 * delivery of an event (retries, duplicates) posts the same bytes under the same event id.
 */
@Component
class Notifications {

    @JsonPropertyOrder({"id", "type", "created", "payment"})
    record Body(String id, String type, long created, PaymentBody payment) {
    }

    /** The order id is a string: a JavaScript reader would round a long above 2^53. */
    @JsonPropertyOrder({"ref", "orderId", "amountCents", "status"})
    record PaymentBody(String ref, String orderId, long amountCents, String status) {
    }

    private final JdbcTemplate jdbc;
    private final JsonMapper json;
    private final DueTimes dueTimes;

    Notifications(JdbcTemplate jdbc, JsonMapper json, SandboxSettings settings, RandomGenerator sandboxRandom) {
        this.jdbc = jdbc;
        this.json = json;
        this.dueTimes = new DueTimes(settings.delayMin(), settings.delayMax(), settings.outOfOrder(), sandboxRandom);
    }

    /**
     * One notification per type, the types in the order their events happened. One statement: its rows' due times
     * count from the same instant of the database's clock, so their order is the one {@link DueTimes} chose.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    void queue(SandboxPayment payment, Instant now, EventType... types) {
        List<Duration> delays = dueTimes.delays(types.length);
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < types.length; i++) {
            String eventId = RandomRefs.event();
            EventType type = types[i];
            String body = json.writeValueAsString(new Body(eventId, type.wireName, now.getEpochSecond(),
                    new PaymentBody(payment.ref(), Long.toString(payment.orderId()), payment.amountCents(),
                            type.reportedStatus)));
            args.addAll(List.of(eventId, payment.ref(), type.wireName, body, DeliveryQueue.micros(delays.get(i))));
        }
        String row = "(?, ?, ?, ?, " + DeliveryQueue.IN_MICROS + ", 0, UTC_TIMESTAMP(3))";
        jdbc.update("INSERT INTO sandbox_delivery (event_id, payment_ref, type, body, due_at, attempts, created_at) VALUES "
                + String.join(", ", Collections.nCopies(types.length, row)), args.toArray());
    }
}
