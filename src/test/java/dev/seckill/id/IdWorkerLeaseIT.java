package dev.seckill.id;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import dev.seckill.support.Instances;
import dev.seckill.support.TestServers;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Worker numbers leased from the real database (MySQL or MariaDB): what makes two instances' ids
 * different no longer depends on Redis, and a number changes hands only when it is free.
 */
class IdWorkerLeaseIT {

    private static JdbcTemplate jdbc;
    private final List<WorkerLeaseKeeper> keepers = new ArrayList<>();

    @BeforeAll
    static void migrate() {
        Map<String, String> servers = TestServers.properties();
        DataSource dataSource = new DriverManagerDataSource(servers.get("spring.datasource.url"),
                servers.get("spring.datasource.username"), servers.get("spring.datasource.password"));
        Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().migrate();
        jdbc = new JdbcTemplate(dataSource);
    }

    @AfterEach
    void releaseAll() {
        keepers.forEach(WorkerLeaseKeeper::release);
    }

    @Test
    void twoHoldersGetDifferentWorkerNumbers() {
        WorkerLeaseKeeper a = keeper("a", Duration.ofSeconds(60));
        WorkerLeaseKeeper b = keeper("b", Duration.ofSeconds(60));
        assertThat(a.claimAny()).isTrue();
        assertThat(b.claimAny()).isTrue();
        assertThat(worker(a)).isNotEqualTo(worker(b));
        assertThat(ownerOf((int) worker(a))).isEqualTo(a.owner());
        assertThat(ownerOf((int) worker(b))).isEqualTo(b.owner());
        // Neither may take the other's number while its lease runs.
        assertThat(a.claim((int) worker(b))).isFalse();
    }

    @Test
    void aLeaseLeftToExpireIsTakenOverAndTheNewHolderStartsAfterTheOldOnesMark() throws InterruptedException {
        WorkerLeaseKeeper crashed = keeper("crashed", Duration.ofSeconds(1));
        assertThat(crashed.claimAny()).isTrue();
        int workerId = (int) worker(crashed);
        long lastOfCrashed = generator(crashed).next();
        long markOfCrashed = issuedUntil(workerId);
        // written when it took the number: its clock then plus the lease, past anything it issues in time
        assertThat(markOfCrashed).isGreaterThanOrEqualTo(IdGenerator.issuedAt(lastOfCrashed).toEpochMilli());

        WorkerLeaseKeeper successor = keeper("successor", Duration.ofSeconds(60));
        assertThat(successor.claim(workerId)).as("taken while the lease runs").isFalse();
        Thread.sleep(1_300); // the crashed holder renews no more: its lease runs out (database clock)
        assertThat(successor.claim(workerId)).isTrue();
        long first = generator(successor).next();
        assertThat(IdGenerator.issuedAt(first).toEpochMilli()).isGreaterThan(markOfCrashed);
        assertThat(first).isGreaterThan(lastOfCrashed);

        // The old holder wakes up: its own clock says the lease ran out, and its renewal finds the
        // number taken, so it moves to another number.
        assertThatThrownBy(generator(crashed)::next).isInstanceOf(IdsUnavailableException.class);
        crashed.renewOrReclaim();
        assertThat(worker(crashed)).isNotEqualTo(IdGenerator.NO_WORKER).isNotEqualTo(workerId);
        assertThat(ownerOf(workerId)).isEqualTo(successor.owner());
        generator(crashed).next();
    }

    @Test
    void aReleasedLeaseIsReusableAndItsNextHolderStartsRightAfterTheLastIdIssued() {
        WorkerLeaseKeeper first = keeper("first", Duration.ofSeconds(60));
        assertThat(first.claimAny()).isTrue();
        int workerId = (int) worker(first);
        long last = 0;
        for (int i = 0; i < 100; i++) {
            last = generator(first).next();
        }
        first.release();
        assertThat(ownerOf(workerId)).isNull();
        // Released: the mark is the last millisecond actually used, not the renewal margin.
        assertThat(issuedUntil(workerId)).isEqualTo(IdGenerator.issuedAt(last).toEpochMilli());
        assertThatThrownBy(generator(first)::next).isInstanceOf(IdsUnavailableException.class);

        WorkerLeaseKeeper next = keeper("next", Duration.ofSeconds(60));
        assertThat(next.claim(workerId)).isTrue();
        assertThat(generator(next).next()).isGreaterThan(last);
    }

    @Test
    void flushingRedisChangesNothingAboutWorkerNumbers() {
        try (ConfigurableApplicationContext one = Instances.start("sync", "ids-it-1")) {
            long workerOne = one.getBean(IdGenerator.class).workerId();
            assertThat(workerOne).isNotEqualTo(IdGenerator.NO_WORKER);
            assertThat(ownerOf((int) workerOne)).startsWith("ids-it-1/");
            // What used to hand a restarted instance a number in use: Redis loses its data.
            one.getBean(RedissonClient.class).getKeys().flushdb();
            long workerTwo;
            try (ConfigurableApplicationContext two = Instances.start("sync", "ids-it-2")) {
                workerTwo = two.getBean(IdGenerator.class).workerId();
                assertThat(workerTwo).isNotEqualTo(workerOne);
                assertThat(one.getBean(IdGenerator.class).workerId()).isEqualTo(workerOne);
                long a = one.getBean(IdGenerator.class).next();
                long b = two.getBean(IdGenerator.class).next();
                assertThat(workerOf(a)).isEqualTo(workerOne);
                assertThat(workerOf(b)).isEqualTo(workerTwo);
            }
            // A stopped instance gives its number back at once.
            assertThat(ownerOf((int) workerTwo)).isNull();
        }
    }

    private WorkerLeaseKeeper keeper(String name, Duration lease) {
        WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(new WorkerLeaseTable(jdbc), new IdGenerator(Clock.systemUTC()),
                new IdSettings(lease, null), Clock.systemUTC(), System::nanoTime, WorkerLeaseKeeper.ownerName(name));
        keepers.add(keeper);
        return keeper;
    }

    private static IdGenerator generator(WorkerLeaseKeeper keeper) {
        return keeper.ids();
    }

    private static long worker(WorkerLeaseKeeper keeper) {
        return keeper.ids().workerId();
    }

    private static long workerOf(long id) {
        return (id >>> IdGenerator.SEQUENCE_BITS) & IdGenerator.MAX_WORKER;
    }

    private static String ownerOf(int workerId) {
        return jdbc.queryForObject("SELECT owner FROM id_worker_lease WHERE worker_id = ?", String.class, workerId);
    }

    private static long issuedUntil(int workerId) {
        return jdbc.queryForObject("SELECT issued_until FROM id_worker_lease WHERE worker_id = ?", Long.class, workerId);
    }
}
