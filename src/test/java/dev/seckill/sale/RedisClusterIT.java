package dev.seckill.sale;

import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import dev.seckill.support.Api;
import dev.seckill.support.Instances;
import dev.seckill.support.RedisCluster;
import dev.seckill.support.TestServers;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.redisson.config.ReadMode;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The platform on a real Redis Cluster: six nodes (three masters with a replica each, AOF fsynced always) in
 * containers, set up as the {@code cluster} profile of docker-compose.yml sets one up ({@link RedisCluster}), two
 * async instances on it through Redisson's cluster client, each answering 202 only once the voucher's replica has the order ({@code WAIT 1} through the cluster). The two-instance
 * invariants run unchanged (inherited); then vouchers must land on different masters with every key on that
 * master, sell and reach MySQL from each, orders must go on after a failover, reads must go to masters,
 * and a master that loses its data alone must be noticed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterIT extends TwoInstanceInvariants {

    /** Enough that all on one master is a 1-in-2,000 chance for ids the cluster hashes as it likes. */
    static final int VOUCHERS = 8;

    /**
     * A database of its own: MySQL remembers which Redis data set it expects (the epoch), and the test contexts on
     * the shared Redis, still running, would take the cluster's for a loss of theirs, and the other way round.
     */
    static final String DB_URL = TestServers.properties().get("spring.datasource.url")
            .replace("/seckill_test", "/seckill_redis_cluster");

    static RedisCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = RedisCluster.start();
        startTwoInstances("async", "it-cluster", Map.of(
                "spring.datasource.url", DB_URL,
                "spring.data.redis.cluster.nodes", cluster.nodes(),
                // TestServers chooses database 1 on a shared Redis; a cluster has database 0 only
                "spring.data.redis.database", "0",
                // each master has a replica: an order is answered once it is on two nodes
                "seckill.redis.wait-replicas", "1"));
    }

    /** The instances first (they use the cluster until they are closed), then the cluster. */
    @AfterAll
    static void stopInstancesThenCluster() throws Exception {
        stop();
        if (cluster != null) {
            cluster.close();
        }
    }

    @Override
    int acceptedStatus() {
        return 202;
    }

    @Test
    @Order(1)
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void vouchersLandOnDifferentMastersAndSellFromEach() throws Exception {
        Api a = new Api(Instances.port(instanceA));
        Api b = new Api(Instances.port(instanceB));
        Map<Integer, List<Long>> byMaster = new TreeMap<>();
        List<Long> vouchers = new ArrayList<>();
        for (int i = 0; i < VOUCHERS; i++) {
            long voucher = a.createVoucher(10);
            vouchers.add(voucher);
            String stock = "seckill:{" + voucher + "}:stock";
            int master = cluster.masterOf(stock);
            byMaster.computeIfAbsent(master, m -> new ArrayList<>()).add(voucher);
            // really there: that master answers the counter itself, and no other master holds a key of the slot
            assertThat(cluster.cli(master, "GET", stock)).as(stock + " on :" + master).isEqualTo("10");
            for (int other : cluster.masters().keySet()) {
                if (other != master) {
                    assertThat(cluster.cli(other, "CLUSTER", "COUNTKEYSINSLOT", Integer.toString(cluster.slot(stock))))
                            .as("keys of " + stock + "'s slot on :" + other).isEqualTo("0");
                }
            }
        }
        System.out.printf("Redis Cluster: vouchers by master port %s (slot ranges %s)%n", byMaster, describe(cluster.masters()));
        assertThat(byMaster).as("masters holding the %d vouchers", VOUCHERS).hasSizeGreaterThanOrEqualTo(2);

        // One order of each voucher, alternately through both instances: the purchase script (and its WAIT) runs
        // on every master, and the consumers read the streams of every master.
        List<String> shoppers = a.mintShoppers(VOUCHERS);
        for (int i = 0; i < VOUCHERS; i++) {
            (i % 2 == 0 ? a : b).seckill(vouchers.get(i), shoppers.get(i)).expectStatus(202);
        }
        JdbcTemplate db = instanceA.getBean(JdbcTemplate.class);
        for (int i = 0; i < VOUCHERS; i++) {
            long voucher = vouchers.get(i);
            JsonNode audit = b.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
            assertThat(db.queryForObject("SELECT COUNT(*) FROM voucher_order WHERE voucher_id = ?", Long.class, voucher))
                    .as("orders of voucher %d in MySQL", voucher).isEqualTo(1);
            assertThat(audit.path("redisStock").asLong()).isEqualTo(9);
            assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
            int master = cluster.masterOf("seckill:{" + voucher + "}:stock");
            assertThat(cluster.cli(master, "SCARD", "seckill:{" + voucher + "}:buyers")).as("buyers on :" + master)
                    .isEqualTo("1");
        }
    }

    /**
     * A replica takes over its master (CLUSTER FAILOVER, as after a crash but without losing writes): the new master
     * may not have the scripts (LuaScript then reloads them on NOSCRIPT), and Redisson will not follow the old master's
     * MOVED replies to it before its next topology scan has seen it promoted: the purchase call's retries wait for
     * that, and Redisson's own scan every 5 s outlasted them on a loaded machine. Orders of a voucher on it still go
     * through, wait for its new replica and reach MySQL.
     */
    @Test
    @Order(3)
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void ordersGoOnAfterAFailover() throws Exception {
        for (ConfigurableApplicationContext instance : List.of(instanceA, instanceB)) {
            assertThat(instance.getBean(RedissonClient.class).getConfig().useClusterServers().getScanInterval())
                    .as("topology scan interval, ms").isEqualTo(1_000);
        }
        Api a = new Api(Instances.port(instanceA));
        Api b = new Api(Instances.port(instanceB));
        long voucher = a.createVoucher(10);
        String stock = "seckill:{" + voucher + "}:stock";
        int master = cluster.masterOf(stock);
        int replica = cluster.replicaOf(master);
        assertThat(cluster.cli(replica, "CLUSTER", "FAILOVER")).isEqualTo("OK");
        await().atMost(Duration.ofSeconds(15)).until(() -> cluster.masterOf(stock) == replica);
        System.out.printf("Redis Cluster: failover of :%d to :%d; purchase.lua on the new master before the first "
                + "order: %s%n", master, replica, cluster.cli(replica, "SCRIPT", "EXISTS", purchaseSha()));

        List<String> shoppers = a.mintShoppers(4);
        for (int i = 0; i < shoppers.size(); i++) {
            (i % 2 == 0 ? a : b).seckill(voucher, shoppers.get(i)).expectStatus(202);
        }
        b.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        // The failover is on record: until both instances have replayed what they accepted into the new master (each
        // within a check or two of noticing it), the audit cannot know the sale is whole, and says so.
        JsonNode audit = await("both instances replayed").atMost(Duration.ofSeconds(15))
                .until(() -> b.audit(voucher), replayed -> replayed.path("failover").path("allReplayed").asBoolean());
        assertThat(audit.path("redisFailedOver").asBoolean()).as(audit.toString()).isTrue();
        assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
        assertThat(instanceA.getBean(JdbcTemplate.class).queryForObject(
                "SELECT COUNT(*) FROM voucher_order WHERE voucher_id = ?", Long.class, voucher)).isEqualTo(4);
        assertThat(cluster.cli(replica, "GET", stock)).as("the counter on the new master").isEqualTo("6");
    }

    /**
     * Reads go to masters ({@code ReadFromMasters}): the instances' Redisson clients read in {@code MASTER} mode, not
     * in Redisson's cluster default {@code SLAVE} (replicas lag: a stale read can revive an order given up), and with
     * the voucher's replica stopped a read of its counter and the audit answer at once. Before the failover test:
     * in {@code SLAVE} mode this took 13.7 s here, but after a failover Redisson read from no replica any more and
     * the stall did not show.
     */
    @Test
    @Order(2)
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void readsGoToMasters() throws Exception {
        for (ConfigurableApplicationContext instance : List.of(instanceA, instanceB)) {
            assertThat(instance.getBean(RedissonClient.class).getConfig().useClusterServers().getReadMode())
                    .isEqualTo(ReadMode.MASTER);
        }
        Api a = new Api(Instances.port(instanceA));
        long voucher = a.createVoucher(10);
        a.seckill(voucher, a.mintShoppers(1).get(0)).expectStatus(202);
        a.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        String stock = "seckill:{" + voucher + "}:stock";
        int replica = cluster.replicaOf(cluster.masterOf(stock));
        cluster.pause(replica);
        try {
            long start = System.nanoTime();
            String counter = instanceA.getBean(RedissonClient.class).<String>getBucket(stock, StringCodec.INSTANCE).get();
            JsonNode audit = a.audit(voucher);
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(counter).isEqualTo("9");
            assertThat(audit.path("consistent").asBoolean()).as(audit.toString()).isTrue();
            assertThat(millis).as("a read and the audit with the replica :%d stopped", replica).isLessThan(1_000);
        } finally {
            cluster.resume(replica);
        }
    }

    private static String purchaseSha() throws Exception {
        byte[] script = new ClassPathResource("sale/buying/purchase.lua").getContentAsByteArray();
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(script));
    }

    /** A waiting room on the cluster: its keys on the voucher's master, joins, the draw, admissions and purchases. */
    @Test
    @Order(4)
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void aWaitingRoomRunsOnTheVouchersMaster() throws Exception {
        Api a = new Api(Instances.port(instanceA));
        Api b = new Api(Instances.port(instanceB));
        Instant opening = Instant.now().plusSeconds(2);
        long voucher = a.createRoomVoucher(2, opening, opening.plusSeconds(3_600), Duration.ofSeconds(2), 50);
        List<String> tokens = a.mintShoppers(3);
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> !Instant.now().isBefore(opening));
        for (int i = 0; i < tokens.size(); i++) {
            (i % 2 == 0 ? a : b).post("/seckill/" + voucher + "/room", null, "Authorization", "Bearer " + tokens.get(i))
                    .expectStatus(200);
        }
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> !Instant.now().isBefore(opening.plusSeconds(2)));
        List<String> order = new ArrayList<>();
        b.get("/vouchers/" + voucher + "/room/draw").expectStatus(200).json().path("entrants")
                .forEach(id -> order.add(id.asString()));
        assertThat(order).hasSize(3);
        // Each shopper polls as the page does, all at once: the last place is let in only once a unit is free of
        // open admissions, so waiting on one shopper at a time would stall on whoever drew the last place.
        Map<String, String> ended = new TreeMap<>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            for (String token : tokens) {
                if (ended.containsKey(token)) {
                    continue;
                }
                JsonNode place = a.get("/seckill/" + voucher + "/room/place", "Authorization", "Bearer " + token)
                        .expectStatus(200).json();
                String state = place.path("state").asString();
                if (state.equals("admitted")) {
                    b.post("/seckill/" + voucher, null, "Authorization", "Bearer " + token, "Seckill-Ticket",
                            place.path("ticket").asString()).expectStatus(202);
                    ended.put(token, "bought");
                } else if (!state.equals("waiting")) {
                    ended.put(token, state);
                }
            }
            return ended.size() == tokens.size();
        });
        long bought = ended.values().stream().filter("bought"::equals).count();
        assertThat(ended.values()).as("two bought, the last place told it sold out").containsOnly("bought", "sold-out");
        assertThat(bought).isEqualTo(2);
        int master = cluster.masterOf("seckill:{" + voucher + "}:stock");
        assertThat(cluster.cli(master, "ZCARD", "seckill:{" + voucher + "}:room:places").trim()).as("the places, on the "
                + "voucher's master").isEqualTo("3");
        JsonNode audit = b.awaitNoPendingOrders(voucher, Duration.ofSeconds(30));
        assertThat(audit.path("orders").asLong()).isEqualTo(2);
        assertThat(audit.path("consistent").asBoolean()).as("%s", audit).isTrue();
    }

    /** Last: it empties one master. */
    @Test
    @Order(Integer.MAX_VALUE)
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void aMasterThatLosesItsDataAloneIsNoticed() throws Exception {
        Api a = new Api(Instances.port(instanceA));
        int markerMaster = cluster.masterOf("seckill:epoch");
        int victim = cluster.masters().keySet().stream().filter(port -> port != markerMaster).findFirst().orElseThrow();
        long voucher = 0;
        for (int i = 0; i < 20 && voucher == 0; i++) {
            long candidate = a.createVoucher(5);
            voucher = cluster.masterOf("seckill:{" + candidate + "}:stock") == victim ? candidate : 0;
        }
        assertThat(voucher).as("a voucher on :" + victim + " within 20").isNotZero();
        double before = losses();
        // quiet before: a check or two (seckill.durability.epoch-check 1s) finds nothing lost
        Thread.sleep(1_200);
        assertThat(losses()).as("losses recorded while nothing was lost").isEqualTo(before);

        // A master restarted without its data, as far as the platform can tell; the marker's master keeps its own.
        assertThat(cluster.cli(victim, "FLUSHALL")).isEqualTo("OK");

        await().atMost(Duration.ofSeconds(10)).until(() -> losses() == before + 1);
        Thread.sleep(1_200);
        assertThat(losses()).as("the loss recorded once, and the new epoch held").isEqualTo(before + 1);
        assertThat(cluster.cli(markerMaster, "GET", "seckill:epoch")).as("the marker's master lost nothing").isNotBlank();
        long lost = voucher;
        await().atMost(Duration.ofSeconds(5)).until(() -> a.audit(lost).path("redisDataLost").asBoolean());
        assertThat(a.audit(voucher).path("consistent").asBoolean()).isFalse();
    }

    /** Losses recorded by the two instances (the first to notice records it, once). */
    private static double losses() {
        double sum = 0;
        for (ConfigurableApplicationContext instance : List.of(instanceA, instanceB)) {
            sum += instance.getBean(MeterRegistry.class).get("seckill.redis.data.losses").counter().count();
        }
        return sum;
    }

    private static String describe(Map<Integer, List<int[]>> masters) {
        StringBuilder text = new StringBuilder();
        masters.forEach((port, ranges) -> {
            text.append(text.isEmpty() ? "" : ", ").append(port).append('=');
            ranges.forEach(range -> text.append(range[0]).append('-').append(range[1]).append(' '));
        });
        return text.toString().trim();
    }
}
