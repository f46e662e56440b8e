package dev.seckill.lab;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.stereotype.Component;

/**
 * Starts runs and reads their results. A run's definition lives on the lab's first node, so that both instances
 * behind the balancer deduct under the same strategy and fault.
 */
@LabEnabled
@Component
public class LabRuns {

    private final LabProcess process;
    private final LabSettings settings;
    private final Map<String, LabRun> known = new ConcurrentHashMap<>();

    LabRuns(LabProcess process, LabSettings settings) {
        this.process = process;
        this.settings = settings;
    }

    /** Every strategy with the faults a run of it may switch on. */
    public record Choice(String strategy, String articles, List<String> faults) {
    }

    /** The timings every run uses, for the report beside its numbers. */
    public record Timings(long leaseMs, long watchdogTimeoutMs, long lockWaitMs, long spinMs, long workMs,
            long pauseMs, int pauseEvery, int crashAt, int nodes) {
    }

    public Timings timings() {
        return new Timings(settings.lease().toMillis(), settings.watchdogTimeout().toMillis(),
                settings.lockWait().toMillis(), settings.spin().toMillis(), settings.work().toMillis(),
                settings.pause().toMillis(), settings.pauseEvery(), settings.crashAt(), settings.nodes().size());
    }

    public List<Choice> choices() {
        return Arrays.stream(Strategy.values()).map(s -> new Choice(s.id(), s.articles(),
                Arrays.stream(Fault.values()).filter(s::takes).map(Fault::id).toList())).toList();
    }

    public LabRun start(String strategyId, String faultId, int stock) {
        Strategy strategy = Strategy.of(strategyId);
        Fault fault = Fault.of(faultId == null ? Fault.NONE.id() : faultId);
        if (!strategy.takes(fault)) {
            throw new LabException(LabException.Problem.FAULT_NOT_APPLICABLE, "The fault " + fault.id() + " does not "
                    + "apply to " + strategy.id() + "; its faults are " + strategy.faults().stream().map(Fault::id).toList());
        }
        checkNodes(strategy, fault);
        LabRun run = new LabRun(UUID.randomUUID().toString().substring(0, 12), strategy, fault, stock);
        LabKeys keys = run.keys();
        RedissonClient first = process.first();
        first.getBucket(keys.stock(), StringCodec.INSTANCE).set(Integer.toString(stock));
        first.<String, String>getMap(keys.definition(), StringCodec.INSTANCE)
                .putAll(Map.of("strategy", strategy.id(), "fault", fault.id(), "stock", Integer.toString(stock)));
        known.put(run.id(), run);
        return run;
    }

    /**
     * The node-down fault is the runner's doing (it stops a node's process): the lab only checks that it is in
     * place, so that a run labelled node-down really ran with a node down, and any other run with all of them up.
     */
    private void checkNodes(Strategy strategy, Fault fault) {
        List<RedissonClient> nodes = process.all();
        if (strategy == Strategy.REDISSON_MULTILOCK && nodes.size() < 3) {
            throw new LabException(LabException.Problem.FAULT_NOT_IN_PLACE,
                    "redisson-multilock needs three lab nodes (seckill.lab.nodes), there are " + nodes.size());
        }
        if (!answers(nodes.get(0))) {
            throw new LabException(LabException.Problem.FAULT_NOT_IN_PLACE, "The first lab node, which holds the "
                    + "stock, does not answer");
        }
        List<Integer> down = java.util.stream.IntStream.range(0, nodes.size()).filter(i -> !answers(nodes.get(i)))
                .boxed().toList();
        if (fault == Fault.NODE_DOWN && down.size() != 1) {
            throw new LabException(LabException.Problem.FAULT_NOT_IN_PLACE, "node-down needs exactly one lab node "
                    + "stopped (not the first); stopped now: " + down.size());
        }
        if (fault != Fault.NODE_DOWN && !down.isEmpty() && strategy == Strategy.REDISSON_MULTILOCK) {
            throw new LabException(LabException.Problem.FAULT_NOT_IN_PLACE, "lab node(s) " + down
                    + " do not answer; start them, or run with the node-down fault");
        }
    }

    private static boolean answers(RedissonClient node) {
        try {
            node.getKeys().countExists("seckill:lab:ping");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The run, as this instance or the other one started it. */
    public LabRun find(String id) {
        return known.computeIfAbsent(id, this::load);
    }

    private LabRun load(String id) {
        RMap<String, String> definition = process.first().getMap(new LabKeys(id).definition(), StringCodec.INSTANCE);
        Map<String, String> fields = definition.readAllMap();
        if (fields.isEmpty()) {
            throw new LabException(LabException.Problem.RUN_NOT_FOUND, "No lab run " + id);
        }
        return new LabRun(id, Strategy.of(fields.get("strategy")), Fault.of(fields.get("fault")),
                Integer.parseInt(fields.get("stock")));
    }

    public RunResult result(String id) {
        LabRun run = find(id);
        LabKeys keys = run.keys();
        RedissonClient first = process.first();
        Map<String, String> stats = first.<String, String>getMap(keys.stats(), StringCodec.INSTANCE).readAllMap();
        long finalStock = Long.parseLong(first.<String>getBucket(keys.stock(), StringCodec.INSTANCE).get());
        long attempts = first.getAtomicLong(keys.attempts()).get();
        long deducted = count(stats, Outcome.DEDUCTED.field());
        long done = count(stats, "done");
        long started = count(stats, "firstStartMs");
        double seconds = done == 0 ? 0 : (count(stats, "lastEndMs") - started) / 1000.0;
        long[] lock = lockLeft(run);
        return new RunResult(run.id(), run.strategy().id(), run.fault().id(), run.stock(), finalStock, attempts, done,
                deducted, count(stats, Outcome.SOLD_OUT.field()), count(stats, Outcome.BUSY.field()),
                count(stats, Outcome.CRASHED.field()), count(stats, Outcome.FENCED.field()),
                count(stats, Outcome.ERROR.field()), deducted - (run.stock() - finalStock),
                Math.max(0, deducted - run.stock()), count(stats, "overlaps"), count(stats, "maxHolders"),
                count(stats, Hold.Release.DELETED_ANOTHERS.name()), count(stats, Hold.Release.NOT_HELD.name()),
                lock[0] == -1 ? "forever" : lock[0] > 0 ? "expiring" : "no", Math.max(0, lock[0]),
                done == 0 ? 0 : count(stats, "waitMicros") / 1000.0 / done, count(stats, "maxWaitMicros") / 1000.0,
                seconds, seconds > 0 ? done / seconds : 0);
    }

    /**
     * The run's lock as it is now, over the nodes that answer: {-1} if one has it without expiry, else the longest
     * time it still has to live, or {-2} when no node has it.
     */
    private long[] lockLeft(LabRun run) {
        List<RedissonClient> nodes = run.strategy() == Strategy.REDISSON_MULTILOCK ? process.all() : List.of(process.first());
        long left = -2;
        for (RedissonClient node : nodes) {
            try {
                long ttl = node.getKeys().remainTimeToLive(run.keys().lock());
                if (ttl == -1) {
                    return new long[] {-1};
                }
                left = Math.max(left, ttl);
            } catch (RuntimeException stopped) {
                // a stopped node (node-down) holds nothing anyone could wait for
            }
        }
        return new long[] {left};
    }

    private static long count(Map<String, String> stats, String field) {
        String value = stats.get(field);
        return value == null ? 0 : Long.parseLong(value);
    }
}
