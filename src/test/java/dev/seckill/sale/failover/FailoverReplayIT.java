package dev.seckill.sale.failover;

import dev.seckill.salestate.OrderStates;

import dev.seckill.sale.stream.StreamSettings;

import dev.seckill.sale.stream.OrderStream;

import dev.seckill.salestate.VoucherKeys;

import dev.seckill.sale.buying.PurchaseDecision;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.seckill.support.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real lost write: the replica is cut off from its master and promoted (as Sentinel does when it cannot reach the
 * master), the old master accepts more orders that the replica never receives, then dies (kill -9). (A paused
 * replica would not do: what the master sent piles up in the socket and arrives when it resumes.) The journal of
 * what was accepted puts them back, once.
 */
class FailoverReplayIT {

    static final long VOUCHER = 42;
    static final StreamSettings STREAMS = new StreamSettings("order-writers", 100, Duration.ofMillis(50),
            Duration.ofSeconds(30), 3, 1, "replay-test");

    private RedisServer master;
    private RedisServer replica;
    private RedissonClient onMaster;
    private RedissonClient onReplica;

    @AfterEach
    void stop() throws Exception {
        for (RedissonClient client : new RedissonClient[] {onMaster, onReplica}) {
            if (client != null) {
                client.shutdown();
            }
        }
        for (RedisServer server : new RedisServer[] {master, replica}) {
            if (server != null) {
                server.close();
            }
        }
    }

    @Test
    void ordersThePromotedReplicaNeverReceivedArePutBackOnceAndWhatCannotBeIsCountedLost() throws Exception {
        // The replica hears none of 102-104: 102 goes on to MySQL before the failover, 103 and 104 do not.
        AcceptedOrdersJournal journal = promotedWithout(4, new PurchaseDecision.Order(1, 101, 1_000),
                List.of(new PurchaseDecision.Order(2, 102, 2_000), new PurchaseDecision.Order(3, 103, 3_000),
                        new PurchaseDecision.Order(4, 104, 4_000)));

        // On the new master, before the replay: shopper 4 buys again, and takes the last unit there is.
        List<PurchaseDecision.Decision> rebought = new PurchaseDecision(onReplica).decideAsync(VOUCHER,
                PurchaseDecision.Keeping.QUEUE, List.of(new PurchaseDecision.Order(4, 204, 5_000),
                        new PurchaseDecision.Order(5, 205, 5_000), new PurchaseDecision.Order(6, 206, 5_000))).join();
        assertThat(rebought).extracting(PurchaseDecision.Decision::outcome).containsOnly(PurchaseDecision.Outcome.ACCEPTED);
        assertThat(stock()).as("3 units left after order 101; these three took them").isZero();

        // An order the old master accepted but no replica confirmed: the shopper was told 503 order-unconfirmed.
        journal.accepted(VOUCHER, 0, List.of(new AcceptedOrdersJournal.Accepted(7, 107, 4_500)), false);
        FailoverReplay replay = new FailoverReplay(onReplica, journal, new OrderStream(onReplica, STREAMS,
                new OrderStates(onReplica)), Duration.ofMinutes(1));
        List<FailoverReplay.Replayed> found = replay.replay(journal.snapshot(), (voucher, ids) -> Set.of(102L), voucher -> 0);

        assertThat(found).singleElement().satisfies(voucher -> {
            assertThat(voucher.present()).as("101 had reached the replica").isEqualTo(1);
            assertThat(voucher.reapplied()).isZero();
            assertThat(voucher.resold()).as("102 is in MySQL, its unit sold again by the new master").isEqualTo(1);
            assertThat(voucher.lost()).as("103: no unit left; 104: its shopper bought again").isEqualTo(2);
            assertThat(voucher.lostOrderIds()).containsExactly(103L, 104L);
            assertThat(voucher.dropped()).as("107 cannot come back either, but nobody was promised it").isEqualTo(1);
        });
        // 102 is restored all the same, below zero: the new master's order MySQL refuses gives its unit back to 0,
        // not to 1 (where it would be sold again, and refused again, for every shopper after).
        assertThat(stock()).isEqualTo(-1);
    }

    @Test
    void aReplayPutsBackWhatTheNewMasterLacksAndASecondReplayAddsNothing() throws Exception {
        AcceptedOrdersJournal journal = promotedWithout(10, new PurchaseDecision.Order(1, 101, 1_000),
                List.of(new PurchaseDecision.Order(2, 102, 2_000), new PurchaseDecision.Order(3, 103, 3_000),
                        new PurchaseDecision.Order(4, 104, 3_500), new PurchaseDecision.Order(5, 105, 3_600)));
        // What the new master saw after them, though it never had them: 104 given up (seckill-fail.lua), 105 ended
        // and its unit given back (unit-return.lua). Neither may come back to life.
        onReplica.getMap(VoucherKeys.failed(VOUCHER), StringCodec.INSTANCE).put("104", "4");
        onReplica.getSet(VoucherKeys.returnedUnits(VOUCHER), StringCodec.INSTANCE).add("105");
        assertThat(stock()).as("the promoted replica lacks 102 and 103").isEqualTo(9);

        FailoverReplay replay = new FailoverReplay(onReplica, journal, new OrderStream(onReplica, STREAMS,
                new OrderStates(onReplica)), Duration.ofMinutes(1));
        // 102 reached MySQL before the master died (its Redis half is restored, not queued again); 103 did not.
        List<FailoverReplay.Replayed> first = replay.replay(journal.snapshot(), (voucher, ids) -> Set.of(102L), voucher -> 0);
        assertThat(first).singleElement().satisfies(voucher -> {
            assertThat(voucher.present()).as("101, and what came after 104 and 105").isEqualTo(3);
            assertThat(voucher.reapplied()).isEqualTo(2);
            assertThat(voucher.lost()).isZero();
            assertThat(voucher.resold()).isZero();
        });
        assertThat(stock()).isEqualTo(7);
        assertThat(onReplica.getSet(VoucherKeys.buyers(VOUCHER), StringCodec.INSTANCE).readAll())
                .containsExactlyInAnyOrder("1", "2", "3");
        assertThat(onReplica.getMap(VoucherKeys.pending(VOUCHER), StringCodec.INSTANCE).readAllKeySet())
                .as("queued for MySQL again: 103 only (101 is still pending from before)").containsExactlyInAnyOrder("101", "103");
        assertThat(onReplica.getStream(VoucherKeys.orders(VOUCHER), StringCodec.INSTANCE).size()).isEqualTo(2);

        List<FailoverReplay.Replayed> second = replay.replay(journal.snapshot(), (voucher, ids) -> Set.of(102L), voucher -> 0);
        assertThat(second).singleElement().satisfies(voucher -> {
            assertThat(voucher.present()).isEqualTo(5);
            assertThat(voucher.reapplied()).isZero();
        });
        assertThat(stock()).isEqualTo(7);
        assertThat(onReplica.getStream(VoucherKeys.orders(VOUCHER), StringCodec.INSTANCE).size()).isEqualTo(2);
    }

    @Test
    void ordersOfASaleStartedAfreshSinceAreLeftOutWhetherTheNewMasterHasTheResetOrNot() throws Exception {
        // 102 and 103 never reached the promoted replica; MySQL has neither (a fresh sale deleted what it had).
        AcceptedOrdersJournal journal = promotedWithout(10, new PurchaseDecision.Order(1, 101, 1_000),
                List.of(new PurchaseDecision.Order(2, 102, 2_000), new PurchaseDecision.Order(3, 103, 3_000)));
        FailoverReplay replay = new FailoverReplay(onReplica, journal, new OrderStream(onReplica, STREAMS,
                new OrderStates(onReplica)), Duration.ofMinutes(1));

        // The new master never got the fresh sale's Redis half, but MySQL committed its generation first.
        List<FailoverReplay.Replayed> byMySql = replay.replay(journal.snapshot(), (voucher, ids) -> Set.of(),
                voucher -> 1);
        assertThat(byMySql).singleElement().satisfies(voucher -> {
            assertThat(voucher.voided()).isEqualTo(3);
            assertThat(voucher.reapplied()).isZero();
            assertThat(voucher.lost()).isZero();
        });
        assertThat(stock()).isEqualTo(9);

        // The fresh sale's Redis half reached the new master after MySQL was asked: the script sees it.
        onReplica.getBucket(VoucherKeys.sale(VOUCHER), StringCodec.INSTANCE).set("1");
        List<FailoverReplay.Replayed> byRedis = replay.replay(journal.snapshot(), (voucher, ids) -> Set.of(),
                voucher -> 0);
        assertThat(byRedis).singleElement().satisfies(voucher -> {
            assertThat(voucher.voided()).isEqualTo(3);
            assertThat(voucher.reapplied()).isZero();
            assertThat(voucher.present()).isZero();
            assertThat(voucher.lost()).isZero();
        });
        assertThat(stock()).isEqualTo(9);
        assertThat(onReplica.getSet(VoucherKeys.buyers(VOUCHER), StringCodec.INSTANCE).readAll()).containsExactly("1");
        assertThat(onReplica.getStream(VoucherKeys.orders(VOUCHER), StringCodec.INSTANCE).size()).isEqualTo(1);
    }

    /**
     * A master with {@code stock} units accepts {@code replicated}, which reaches its replica; the replica is promoted
     * on its own; the old master accepts {@code lost} and dies. Returns the journal of all of them.
     */
    private AcceptedOrdersJournal promotedWithout(int stock, PurchaseDecision.Order replicated,
            List<PurchaseDecision.Order> lost) throws Exception {
        master = RedisServer.start("always");
        replica = RedisServer.startReplicaOf(master);
        onMaster = master.client();
        AcceptedOrdersJournal journal = new AcceptedOrdersJournal(Duration.ofMinutes(1), 1_000, System::nanoTime);
        PurchaseDecision purchases = new PurchaseDecision(onMaster);
        onMaster.getBucket(VoucherKeys.stock(VOUCHER), StringCodec.INSTANCE).set(Integer.toString(stock));
        new OrderStream(onMaster, STREAMS, new OrderStates(onMaster)).register(VOUCHER);

        accept(purchases, journal, replicated);
        replica.awaitCaughtUpWith(master);
        replica.cli("replicaof", "no", "one");
        for (PurchaseDecision.Order order : lost) {
            accept(purchases, journal, order);
        }
        master.kill();
        onReplica = replica.client();
        return journal;
    }

    private static void accept(PurchaseDecision purchases, AcceptedOrdersJournal journal, PurchaseDecision.Order order) {
        PurchaseDecision.Decision decision = purchases.decide(VOUCHER, PurchaseDecision.Keeping.QUEUE, order);
        assertThat(decision.outcome()).isEqualTo(PurchaseDecision.Outcome.ACCEPTED);
        var accepted = new AcceptedOrdersJournal.Accepted(order.shopperId(), order.orderId(), order.atMillis());
        journal.accepted(VOUCHER, 0, List.of(accepted), true);
    }

    private long stock() {
        return Long.parseLong(onReplica.getBucket(VoucherKeys.stock(VOUCHER), StringCodec.INSTANCE).get().toString());
    }
}
