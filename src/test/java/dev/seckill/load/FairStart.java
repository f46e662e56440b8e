package dev.seckill.load;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import dev.seckill.sale.room.RoomLottery;
import dev.seckill.support.Handshake;
import dev.seckill.support.Tokens;
import org.altcha.altcha.Altcha;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A bot and a crowd at a sale's opening, against a running cluster through Nginx (scripts/fair-start runs it, once
 * with purchase tickets off and once on; docs/security.md, "A fair start", quotes it).
 *
 * <p>Each sale round mints {@code --bots} and {@code --crowd} new shoppers and creates a voucher of {@code --stock}
 * units that opens {@code --lead} seconds on (the instances' default challenge difficulty). Then:
 * <ul>
 *   <li><b>bots</b> (round {@code off} and {@code on}) do what a script with a few hundred accounts does: each has its
 *       purchase request written out before the sale, on an open connection to Nginx, all but its last byte; at the
 *       opening millisecond the last bytes go out, one after another from one thread. No page, no handshake, one
 *       request each;</li>
 *   <li><b>smart bots</b> (round {@code smart}) do the handshake too, as a script can: challenge fetched and solved
 *       during the countdown, the ticket request written out the same way and fired at the opening millisecond, the
 *       purchase sent the moment the ticket comes back;</li>
 *   <li><b>the crowd</b> do what the buy page does: with tickets on, each fetches its challenge during the countdown
 *       and solves it with ALTCHA's Java solver (the widget's algorithm, in Java, not in a browser: Chromium's
 *       solve time is TicketBuyBrowserIT's); each clicks at the opening plus a reaction time drawn from
 *       {@code --reaction-ms} (uniform, {@code --seed}), then asks its ticket (tickets on) and buys with it.</li>
 * </ul>
 * Every request is HTTP/1.0 on a connection of its own from 127.0.0.1, which the local cluster's Nginx leaves out
 * of its per-address limits. After the sale it waits for the async path to write the orders, and counts each
 * group's units three ways: the purchases answered 201/202, the audit's orders, and MySQL's {@code voucher_order}
 * rows by shopper. It fails (exit status 1) when they disagree, when the audit is not consistent, or when the
 * answers show the cluster's ticket setting is not the one the round expects.
 *
 * <p>Round {@code room} puts the smart bots and the crowd before a voucher with a waiting room (see
 * {@link #roomSale}); round {@code crowd} runs a whole sale through a room of simulated pages, with an instance
 * killed during the joins if asked (see {@link #roomCrowd}).
 *
 * <p>Rounds {@code warm} and {@code warm-tickets} warm new instances up before the sale rounds: {@code --warm}
 * shoppers buy a voucher of as many units, through challenge and ticket with {@code warm-tickets}.
 *
 * <p>Round {@code cpu} prices a verification on the server: bursts of {@code --verifications} ticket requests of
 * three kinds in turn: with a solved challenge of a voucher of difficulty {@code --cpu-difficulty} (verified); with
 * the same body for a voucher that asks no challenge (difficulty 0: the body is read and validated, never verified);
 * with no body for that voucher. Each burst is timed by the instances' own CPU ({@code utime + stime} of
 * {@code /proc/<pid>/stat}, both instances, less their idle rate measured before and after) and by the Micrometer
 * timer {@code seckill.tickets.challenge.verification} (both instances' Prometheus sum and count, before and after).
 * A verification's cost does not depend on the difficulty (one SHA-256 of the salt and number, one HMAC of the
 * challenge): only the solver's does, so a low one keeps the client's solving short. Last, the same library's
 * verification is timed in a loop in this JVM (thread CPU).
 *
 * <p>Arguments ({@code --name value}): {@code --base} (Nginx, http://127.0.0.1:9180), {@code --instances} (the
 * instances' ports for Prometheus, 9181,9182), {@code --pids} (theirs, for round cpu), {@code --db} (the cluster's
 * database), {@code --rounds} (warm,off | warm-tickets,on,smart,cpu ...), {@code --warm} 2000, {@code --bots} 500,
 * {@code --crowd} 200, {@code --stock} 100, {@code --lead} 30 ({@code --smart-lead} 60 for round smart, whose bots
 * solve their challenges before the opening too), {@code --seed} 42, {@code --reaction-ms} 150-1500,
 * {@code --verifications} 2000, {@code --reps} 5 (after one burst of each kind of {@code --warmup} 10000),
 * {@code --cpu-difficulty} 1000, {@code --threads} 8, {@code --room-window} 10, {@code --room-rate} 20,
 * {@code --room-crowd} 20000, {@code --room-crowd-stock} 500, {@code --room-crowd-window} 60, {@code --room-crowd-lead}
 * 60, {@code --room-crowd-early} 25 (per cent), {@code --room-crowd-tail} 600, {@code --room-crowd-hold} 300,
 * {@code --room-crowd-threads} 64, {@code --cgroups} (name=file of each container's CPU accounting, for round crowd),
 * {@code --room-crowd-kill-at} (none), {@code --room-crowd-kill}, {@code --room-crowd-restart},
 * {@code --room-crowd-restart-after} 20.
 * Environment: SECKILL_ADMIN_USER/PASSWORD (admin / seckill-dev-password), SECKILL_DB_HOST/PORT/USER/PASSWORD
 * (127.0.0.1 / 3306 / root / empty).
 */
public final class FairStart {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<String, String> options;
    private final String host;
    private final int port;
    private final String adminAuth;
    private final HttpClient admin = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final List<String> failures = new ArrayList<>();

    private FairStart(Map<String, String> options) {
        this.options = options;
        URI base = URI.create(option("base", "http://127.0.0.1:9180"));
        this.host = base.getHost();
        this.port = base.getPort();
        this.adminAuth = "Basic " + Base64.getEncoder().encodeToString((env("SECKILL_ADMIN_USER", "admin") + ":"
                + env("SECKILL_ADMIN_PASSWORD", "seckill-dev-password")).getBytes(StandardCharsets.UTF_8));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        FairStart run = new FairStart(options);
        for (String round : run.option("rounds", "off").split(",")) {
            switch (round.strip()) {
                case "warm" -> run.warm(false);
                case "warm-tickets" -> run.warm(true);
                case "off" -> run.sale("off", false, false);
                case "on" -> run.sale("on", false, true);
                case "smart" -> run.sale("smart", true, true);
                case "room" -> run.roomSale();
                case "crowd" -> run.roomCrowd();
                case "cpu" -> run.cpu();
                default -> throw new IllegalArgumentException("no such round: " + round);
            }
        }
        if (!run.failures.isEmpty()) {
            System.out.println("[fair-start] FAILED: " + String.join("; ", run.failures));
            System.exit(1);
        }
    }

    // ---------------------------------------------------------------- the sale rounds

    /** What one group sent and was answered: "step status code" counts, and who won a unit by their answer. */
    static final class Group {
        final String name;
        final Map<String, LongAdder> answers = new ConcurrentHashMap<>();
        final Map<Long, Long> wonAt = new ConcurrentHashMap<>();

        Group(String name) {
            this.name = name;
        }

        void count(String step, Answer answer) {
            answers.computeIfAbsent(step + " " + answer.key(), k -> new LongAdder()).increment();
        }

        long requests(String step) {
            return answers.entrySet().stream().filter(e -> e.getKey().startsWith(step + " "))
                    .mapToLong(e -> e.getValue().sum()).sum();
        }

        String answersLine() {
            return new TreeMap<>(answers).entrySet().stream().map(e -> e.getKey() + ": " + e.getValue().sum())
                    .collect(Collectors.joining(", "));
        }
    }

    /** A challenge fetched and solved during the countdown: the widget's payload, or null and why not. */
    record Solved(String payload, long cpuNanos, long doneAtMillis, String failure) {
    }

    /**
     * New instances are cold (their code not compiled yet); a sale opens on instances that have served for a while.
     * {@code --warm} shoppers buy a voucher of as many units, {@code --threads} at a time, through the page's flow
     * (with tickets: challenge of {@code --cpu-difficulty}, ticket, purchase), before the sale rounds.
     */
    private void warm(boolean tickets) throws Exception {
        int count = intOption("warm", 2000);
        if (count == 0) {
            return;
        }
        List<String> tokens = mint(count);
        Instant now = Instant.now();
        long voucher = createVoucher(count, now.minusSeconds(60), now.plus(Duration.ofHours(1)),
                tickets ? intOption("cpu-difficulty", 1000) : null);
        Group group = new Group("warm-up");
        ExecutorService pool = Executors.newFixedThreadPool(intOption("threads", 8));
        List<Future<?>> done = new ArrayList<>();
        for (String token : tokens) {
            done.add(pool.submit(() -> {
                String ticket = null;
                if (tickets) {
                    Solved solved = fetchAndSolve(voucher, token, group);
                    Answer answer = Wire.exchange(host, port, Wire.request("POST", "/seckill/" + voucher + "/ticket", token,
                            null, solutionBody(solved.payload())));
                    group.count("ticket", answer);
                    ticket = answer.status() == 200 ? answer.json().path("ticket").asString() : null;
                }
                group.count("purchase", Wire.exchange(host, port, Wire.request("POST", "/seckill/" + voucher, token, ticket, null)));
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdownNow();
        JsonNode audit = awaitAudit(voucher);
        System.out.printf("%n[fair-start] warm-up: %d shoppers bought voucher %d%s: %s; audit orders %d, consistent %s%n",
                count, voucher, tickets ? " through challenge and ticket" : "", group.answersLine(),
                audit.path("orders").asLong(), audit.path("consistent").asBoolean());
    }

    private void sale(String round, boolean smartBots, boolean ticketsOn) throws Exception {
        int botCount = intOption("bots", 500);
        int crowdCount = intOption("crowd", 200);
        int stock = intOption("stock", 100);
        long seed = Long.parseLong(option("seed", "42"));
        int[] reaction = reactionRange();

        List<String> bots = mint(botCount);
        List<String> crowd = mint(crowdCount);
        Map<Long, String> groupOf = groupsOf(bots, crowd);

        int[] instances = instancePorts();
        double[] timerBefore = timer(instances);
        // Round smart: the bots' 500 challenges are solved before the opening too, on a loaded machine: a longer lead
        int lead = smartBots ? intOption("smart-lead", 60) : intOption("lead", 30);
        Instant opens = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(lead);
        long voucher = createVoucher(stock, opens, opens.plus(Duration.ofHours(1)), null);
        long t0 = opens.toEpochMilli();
        Group botGroup = new Group(smartBots ? "smart bots" : "bots");
        Group crowdGroup = new Group("crowd");
        System.out.printf("%n[fair-start] round %s: voucher %d, %d units, opens %s; %d %s, %d crowd; tickets %s%n",
                round, voucher, stock, opens, botCount, botGroup.name, crowdCount, ticketsOn ? "on" : "off");

        // The countdown: challenges fetched and solved (crowd and, in round smart, bots), on as many solver threads
        // as there are cores, the two groups interleaved.
        ExecutorService solvers = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        List<Future<Solved>> crowdSolved = new ArrayList<>();
        List<Future<Solved>> botSolved = new ArrayList<>();
        if (ticketsOn) {
            for (int i = 0; i < Math.max(crowdCount, smartBots ? botCount : 0); i++) {
                if (i < crowdCount) {
                    String token = crowd.get(i);
                    crowdSolved.add(solvers.submit(() -> fetchAndSolve(voucher, token, crowdGroup)));
                }
                if (smartBots && i < botCount) {
                    String token = bots.get(i);
                    botSolved.add(solvers.submit(() -> fetchAndSolve(voucher, token, botGroup)));
                }
            }
        }

        Random random = new Random(seed);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < crowdCount; i++) {
            long clickAt = t0 + reaction[0] + random.nextInt(reaction[1] - reaction[0] + 1);
            String token = crowd.get(i);
            Future<Solved> solved = ticketsOn ? crowdSolved.get(i) : null;
            threads.add(thread("crowd-" + i, () -> crowdClick(voucher, token, solved, clickAt, crowdGroup)));
        }

        // The bots' requests, written out before the sale on open connections, all but their last byte.
        List<Solved> botSolutions = new ArrayList<>();
        for (Future<Solved> solved : botSolved) {
            botSolutions.add(solved.get());
        }
        // armed 10 s ahead (Nginx waits 60 s for a request's last byte): on a loaded machine, opening 500 connections
        // and starting their threads took over 1.5 s once, and the bots fired late
        sleepUntil(t0 - 10_000);
        List<Armed> armed = new ArrayList<>();
        for (int i = 0; i < botCount; i++) {
            String token = bots.get(i);
            if (smartBots) {
                Solved solved = botSolutions.get(i);
                if (solved.payload() == null) {
                    botGroup.count("challenge", Answer.failed(solved.failure()));
                    continue;
                }
                armed.add(new Armed(token, Wire.request("POST", "/seckill/" + voucher + "/ticket", token, null,
                        solutionBody(solved.payload()))));
            } else {
                armed.add(new Armed(token, Wire.request("POST", "/seckill/" + voucher, token, null, null)));
            }
        }
        for (Armed bot : armed) {
            bot.connect(host, port);
            threads.add(thread("bot", () -> botAnswer(voucher, bot, smartBots, botGroup)));
        }
        threads.forEach(Thread::start);
        while (System.currentTimeMillis() < t0) {
            Thread.onSpinWait();
        }
        long firedFrom = System.currentTimeMillis();
        for (Armed bot : armed) {
            bot.fire();
        }
        long firedTo = System.currentTimeMillis();
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(3));
        }
        solvers.shutdownNow();

        // What the groups were answered, what the audit and MySQL hold.
        JsonNode audit = awaitAudit(voucher);
        Map<String, Long> inMySql = ordersByGroup(voucher, groupOf);
        long wonByAnswers = botGroup.wonAt.size() + crowdGroup.wonAt.size();
        System.out.printf("  bots' last bytes sent from +%d to +%d ms%n", firedFrom - t0, firedTo - t0);
        if (firedFrom - t0 > 100) {
            failures.add(round + ": the bots fired " + (firedFrom - t0) + " ms after the opening, not at it (their "
                    + "challenges were not solved in time: a longer --" + (smartBots ? "smart-lead" : "lead") + ")");
        }
        if (ticketsOn) {
            printSolves("crowd", crowdSolved, t0);
            if (smartBots) {
                printSolves("smart bots", botSolved, t0);
            }
        }
        for (Group group : List.of(botGroup, crowdGroup)) {
            String mysqlKey = group == crowdGroup ? "crowd" : "bots";
            long mysql = inMySql.getOrDefault(mysqlKey, 0L);
            String requests = List.of("challenge", "ticket", "purchase").stream()
                    .filter(step -> group.requests(step) > 0).map(step -> group.requests(step) + " " + step)
                    .collect(Collectors.joining(" + "));
            String when = group.wonAt.isEmpty() ? "" : String.format(" (answered +%d to +%d ms)",
                    group.wonAt.values().stream().mapToLong(at -> at - t0).min().orElse(0),
                    group.wonAt.values().stream().mapToLong(at -> at - t0).max().orElse(0));
            System.out.printf("  %-10s requests %s; units won: %d by answer, %d in MySQL%s%n", group.name, requests,
                    group.wonAt.size(), mysql, when);
            System.out.printf("  %-10s answers: %s%n", "", group.answersLine());
            if (mysql != group.wonAt.size()) {
                failures.add(round + ": " + group.name + " won " + group.wonAt.size() + " by answer, " + mysql + " in MySQL");
            }
        }
        System.out.printf("  audit: orders %d, oversold %d, duplicateBuyers %d, dbStock %d, redisStock %s, consistent %s%n",
                audit.path("orders").asLong(), audit.path("oversold").asLong(), audit.path("duplicateBuyers").asLong(),
                audit.path("dbStock").asLong(), audit.path("redisStock").asString(), audit.path("consistent").asBoolean());
        double[] timerAfter = timer(instances);
        long verified = (long) (timerAfter[1] - timerBefore[1]);
        System.out.printf("  verification timer over this round (both instances): %d verifications, mean %.1f µs%n",
                verified, verified == 0 ? 0 : (timerAfter[0] - timerBefore[0]) / verified * 1e6);
        System.out.printf("[fair-start] SUMMARY %s tickets=%s %s=%d/%d crowd=%d/%d units=%d orders=%d%n", round,
                ticketsOn ? "on" : "off", botGroup.name.replace(' ', '-'), inMySql.getOrDefault("bots", 0L), botCount,
                inMySql.getOrDefault("crowd", 0L), crowdCount, stock, audit.path("orders").asLong());
        if (!audit.path("consistent").asBoolean() || audit.path("oversold").asLong() != 0) {
            failures.add(round + ": the audit is not consistent: " + audit);
        }
        if (audit.path("orders").asLong() != wonByAnswers) {
            failures.add(round + ": " + wonByAnswers + " purchases answered 201/202, the audit counts " + audit.path("orders"));
        }
        long ticketRequired = botGroup.answers.entrySet().stream().filter(e -> e.getKey().contains("ticket-required"))
                .mapToLong(e -> e.getValue().sum()).sum();
        if (!ticketsOn && ticketRequired > 0) {
            failures.add(round + ": tickets are meant to be off, yet " + ticketRequired + " purchases were refused ticket-required");
        }
        if (ticketsOn && !smartBots && !botGroup.wonAt.isEmpty()) {
            failures.add(round + ": tickets are meant to be on, yet " + botGroup.wonAt.size() + " bots bought without one");
        }
    }

    private Solved fetchAndSolve(long voucher, String token, Group group) {
        Answer challenge = Wire.exchange(host, port, Wire.request("GET", "/seckill/" + voucher + "/challenge", token, null, null));
        group.count("challenge", challenge);
        if (challenge.status() != 200) {
            return new Solved(null, 0, System.currentTimeMillis(), "challenge " + challenge.key());
        }
        long cpu = THREADS.getCurrentThreadCpuTime();
        String payload = Handshake.solve(JSON.readTree(challenge.body()));
        return new Solved(payload, THREADS.getCurrentThreadCpuTime() - cpu, System.currentTimeMillis(), null);
    }

    private void crowdClick(long voucher, String token, Future<Solved> solved, long clickAt, Group group) {
        String ticket = null;
        try {
            Solved solution = solved == null ? null : solved.get();
            if (solution != null && solution.payload() == null) {
                return; // the page would show its challenge failing; counted under "challenge"
            }
            sleepUntil(clickAt);
            if (solution != null) {
                Answer answer = Wire.exchange(host, port, Wire.request("POST", "/seckill/" + voucher + "/ticket", token,
                        null, solutionBody(solution.payload())));
                group.count("ticket", answer);
                if (answer.status() != 200) {
                    return;
                }
                ticket = answer.json().path("ticket").asString();
            }
        } catch (Exception e) {
            group.count("ticket", Answer.failed(e.toString()));
            return;
        }
        Answer purchase = Wire.exchange(host, port, Wire.request("POST", "/seckill/" + voucher, token, ticket, null));
        group.count("purchase", purchase);
        if (purchase.won()) {
            group.wonAt.put(Tokens.shopperId(token), purchase.atMillis());
        }
    }

    private void botAnswer(long voucher, Armed bot, boolean smart, Group group) {
        Answer first = bot.read();
        if (!smart) {
            group.count("purchase", first);
            if (first.won()) {
                group.wonAt.put(Tokens.shopperId(bot.token), first.atMillis());
            }
            return;
        }
        group.count("ticket", first);
        if (first.status() != 200) {
            return;
        }
        Answer purchase = Wire.exchange(host, port, Wire.request("POST", "/seckill/" + voucher, bot.token,
                first.json().path("ticket").asString(), null));
        group.count("purchase", purchase);
        if (purchase.won()) {
            group.wonAt.put(Tokens.shopperId(bot.token), purchase.atMillis());
        }
    }

    private static void printSolves(String group, List<Future<Solved>> solved, long t0) throws Exception {
        List<Long> cpuMs = new ArrayList<>();
        long last = Long.MIN_VALUE;
        long late = 0;
        for (Future<Solved> future : solved) {
            Solved s = future.get();
            if (s.payload() != null) {
                cpuMs.add(s.cpuNanos());
                last = Math.max(last, s.doneAtMillis());
                late += s.doneAtMillis() > t0 ? 1 : 0;
            }
        }
        if (cpuMs.isEmpty()) {
            System.out.printf("  %s: no challenge solved%n", group);
            return;
        }
        cpuMs.sort(null);
        System.out.printf("  %s: %d challenges solved by ALTCHA's Java solver (thread CPU per solve: median %.1f ms, "
                        + "p90 %.1f ms); %d solved after the opening, the last at %+d ms%n", group, cpuMs.size(),
                cpuMs.get(cpuMs.size() / 2) / 1e6, cpuMs.get(cpuMs.size() * 9 / 10) / 1e6, late, last - t0);
    }

    // ---------------------------------------------------------------- the CPU round

    private void cpu() throws Exception {
        int perBurst = intOption("verifications", 2000);
        int reps = intOption("reps", 5);
        int warmup = intOption("warmup", 10_000);
        int difficulty = intOption("cpu-difficulty", 1000);
        int threads = intOption("threads", 8);
        long[] pids = Arrays.stream(option("pids", "").split(",")).filter(s -> !s.isBlank()).mapToLong(Long::parseLong).toArray();
        if (pids.length == 0) {
            throw new IllegalArgumentException("round cpu needs the instances' --pids");
        }
        int[] instances = instancePorts();
        long hz = clockTicksPerSecond();
        double[] sales = timer(instances);
        Instant now = Instant.now();
        long withChallenge = createVoucher(10_000_000, now.minusSeconds(60), now.plus(Duration.ofHours(1)), difficulty);
        long without = createVoucher(10_000_000, now.minusSeconds(60), now.plus(Duration.ofHours(1)), 0);
        int warmups = warmup > 0 ? 1 : 0;
        int bursts = warmups + reps;
        int[] sizes = new int[bursts];
        Arrays.fill(sizes, perBurst);
        if (warmups > 0) {
            sizes[0] = warmup;
        }
        System.out.printf("%n[fair-start] round cpu: a burst of each kind of %d ticket requests to warm the instances up "
                        + "(uncounted), then %d reps of %d, %d at a time; voucher %d (difficulty %d) beside voucher %d "
                        + "(difficulty 0); instances' pids %s, %d ticks/s%n",
                warmup, reps, perBurst, threads, withChallenge, difficulty, without, Arrays.toString(pids), hz);
        System.out.printf("  the verification timer before this round (the sale rounds' verifications, both instances): "
                + "%d, mean %.1f µs%n", (long) sales[1], sales[1] == 0 ? 0 : sales[0] / sales[1] * 1e6);

        List<String> tokens = mint(3 * Arrays.stream(sizes).sum());
        int used = 0;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        // per burst index: the three kinds' requests, KINDS order
        List<List<List<byte[]>>> requests = new ArrayList<>();
        Group prep = new Group("prep");
        for (int b = 0; b < bursts; b++) {
            List<Future<String>> solving = new ArrayList<>();
            List<String> solvers = new ArrayList<>();
            List<String> readers = new ArrayList<>();
            List<byte[]> plain = new ArrayList<>();
            for (int i = 0; i < sizes[b]; i++) {
                String token = tokens.get(used++);
                solvers.add(token);
                solving.add(pool.submit(() -> {
                    Solved s = fetchAndSolve(withChallenge, token, prep);
                    if (s.payload() == null) {
                        throw new IllegalStateException(s.failure());
                    }
                    return solutionBody(s.payload());
                }));
                readers.add(tokens.get(used++));
                plain.add(Wire.request("POST", "/seckill/" + without + "/ticket", tokens.get(used++), null, null));
            }
            List<byte[]> solved = new ArrayList<>();
            List<byte[]> bodyOnly = new ArrayList<>();
            for (int i = 0; i < solving.size(); i++) {
                String body = solving.get(i).get();
                solved.add(Wire.request("POST", "/seckill/" + withChallenge + "/ticket", solvers.get(i), null, body));
                // the same body, to a voucher that asks no challenge: read and validated, never verified
                bodyOnly.add(Wire.request("POST", "/seckill/" + without + "/ticket", readers.get(i), null, body));
            }
            requests.add(List.of(solved, bodyOnly, plain));
        }
        System.out.printf("  %d challenges fetched and solved beforehand (%s)%n", Arrays.stream(sizes).sum(), prep.answersLine());

        // The three kinds in turn, each triplet starting with the next kind. Idle measured after the warm-up and
        // after the last triplet, its mean subtracted from every burst by its wall time.
        List<Burst[]> triplets = new ArrayList<>();
        double idleBefore = 0;
        for (int b = 0; b < bursts; b++) {
            if (b == warmups) {
                idleBefore = idleTicksPerSecond(pids);
            }
            Burst[] triplet = new Burst[KINDS.length];
            for (int k = 0; k < KINDS.length; k++) {
                int kind = (b + k) % KINDS.length;
                triplet[kind] = burst(pool, requests.get(b).get(kind), pids, instances);
            }
            triplets.add(triplet);
        }
        double idle = (idleBefore + idleTicksPerSecond(pids)) / 2;
        pool.shutdownNow();
        System.out.printf("  idle: the instances use %.2f CPU ticks/s with no requests (mean of before and after the "
                + "counted bursts; subtracted from each burst by its wall time)%n", idle);
        List<List<Double>> perKind = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        List<Double> verifyUs = new ArrayList<>();
        List<Double> bodyUs = new ArrayList<>();
        double[] timerBursts = {0, 0};
        for (int b = 0; b < bursts; b++) {
            Burst[] triplet = triplets.get(b);
            String label = b < warmups ? "warm-up" : "rep " + (b - warmups + 1);
            for (int k = 0; k < KINDS.length; k++) {
                System.out.printf("  %-8s %-38s %s%n", k == 0 ? label : "", KINDS[k] + ":", triplet[k].describe(idle));
            }
            if (b >= warmups) {
                for (int k = 0; k < KINDS.length; k++) {
                    perKind.get(k).add(triplet[k].cpuUsPerRequest(idle));
                }
                verifyUs.add(triplet[0].cpuUsPerRequest(idle) - triplet[1].cpuUsPerRequest(idle));
                bodyUs.add(triplet[1].cpuUsPerRequest(idle) - triplet[2].cpuUsPerRequest(idle));
                timerBursts[0] += triplet[0].timerSeconds();
                timerBursts[1] += triplet[0].timerCount();
            }
        }
        System.out.printf("  JVM CPU per ticket request, median of %d reps: %.0f µs %s, %.0f µs %s, %.0f µs %s%n", reps,
                median(perKind.get(0)), KINDS[0], median(perKind.get(1)), KINDS[1], median(perKind.get(2)), KINDS[2]);
        System.out.printf("  differences, median (each rep): verifying the solution and spending it %.0f µs (%s); reading "
                        + "the body %.0f µs (%s)%n", median(verifyUs), joined(verifyUs), median(bodyUs), joined(bodyUs));
        double timerMean = timerBursts[1] == 0 ? 0 : timerBursts[0] / timerBursts[1] * 1e6;
        System.out.printf("  timer seckill.tickets.challenge.verification over the counted bursts: %d verifications, "
                + "mean %.1f µs (wall time, waits for a core included)%n", (long) timerBursts[1], timerMean);
        double[] total = timer(instances);
        System.out.printf("  the timer since the instances started (both, all rounds): %d verifications, mean %.1f µs%n",
                (long) total[1], total[1] == 0 ? 0 : total[0] / total[1] * 1e6);
        double local = localVerificationUs();
        System.out.printf("  ALTCHA's verifySolution timed in this JVM (same library, one thread, 20,000 after as many "
                + "to warm up; thread CPU): %.1f µs each%n", local);
        System.out.printf(Locale.ROOT, "[fair-start] SUMMARY cpu per-ticket-request: solved=%.0fus body-only=%.0fus "
                        + "no-body=%.0fus; verify+spend=%.0fus (%s) body=%.0fus (%s); timer-mean: sales=%.1fus (n=%d) "
                        + "bursts=%.1fus (n=%d); library-verify=%.1fus%n",
                median(perKind.get(0)), median(perKind.get(1)), median(perKind.get(2)), median(verifyUs), joined(verifyUs),
                median(bodyUs), joined(bodyUs), sales[1] == 0 ? 0 : sales[0] / sales[1] * 1e6, (long) sales[1], timerMean,
                (long) timerBursts[1], local);
    }

    /** The cpu round's three kinds of ticket request. */
    private static final String[] KINDS = {"with a solution (verified)", "the same body, difficulty 0 (not verified)",
            "no body, difficulty 0"};

    private static String joined(List<Double> values) {
        return values.stream().map(d -> String.format(Locale.ROOT, "%.0f", d)).collect(Collectors.joining(", "));
    }

    /** One burst: the instances' CPU ticks, its wall time, the verification timer's sum and count over it. */
    record Burst(long requests, long ok, long ticks, long wallMs, double timerSeconds, long timerCount) {

        double cpuUsPerRequest(double idleTicksPerSecond) {
            return (ticks - idleTicksPerSecond * wallMs / 1000.0) * 1e6 / TICKS_PER_SECOND[0] / requests;
        }

        String describe(double idle) {
            return String.format(Locale.ROOT, "%d requests (%d answered 200), %d ticks (%.1f idle) in %d ms: %.0f µs "
                            + "CPU each; timer %d, mean %.1f µs", requests, ok, ticks, idle * wallMs / 1000.0, wallMs,
                    cpuUsPerRequest(idle), timerCount, timerCount == 0 ? 0 : timerSeconds / timerCount * 1e6);
        }
    }

    private static final long[] TICKS_PER_SECOND = {100};

    private Burst burst(ExecutorService pool, List<byte[]> requests, long[] pids, int[] instances) throws Exception {
        double[] timer0 = timer(instances);
        long ticks0 = ticks(pids);
        long wall0 = System.nanoTime();
        AtomicInteger next = new AtomicInteger();
        AtomicLong ok = new AtomicLong();
        int threads = ((java.util.concurrent.ThreadPoolExecutor) pool).getCorePoolSize();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < requests.size(); i = next.getAndIncrement()) {
                    if (Wire.exchange(host, port, requests.get(i)).status() == 200) {
                        ok.incrementAndGet();
                    }
                }
            }));
        }
        for (Future<?> worker : workers) {
            worker.get();
        }
        long wallMs = (System.nanoTime() - wall0) / 1_000_000;
        long ticks = ticks(pids) - ticks0;
        double[] timer1 = timer(instances);
        if (ok.get() != requests.size()) {
            failures.add("cpu: " + (requests.size() - ok.get()) + " ticket requests of a burst not answered 200");
        }
        return new Burst(requests.size(), ok.get(), ticks, wallMs, timer1[0] - timer0[0], (long) (timer1[1] - timer0[1]));
    }

    private static double idleTicksPerSecond(long[] pids) throws InterruptedException {
        long ticks0 = ticks(pids);
        long wall0 = System.nanoTime();
        Thread.sleep(5_000);
        return (ticks(pids) - ticks0) / ((System.nanoTime() - wall0) / 1e9);
    }

    /** utime + stime of these processes, in clock ticks ({@code /proc/<pid>/stat} fields 14 and 15). */
    private static long ticks(long[] pids) {
        long sum = 0;
        for (long pid : pids) {
            try {
                String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                sum += Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            } catch (IOException e) {
                throw new IllegalStateException("cannot read /proc/" + pid + "/stat: is the instance running?", e);
            }
        }
        return sum;
    }

    private static long clockTicksPerSecond() {
        try {
            Process getconf = new ProcessBuilder("getconf", "CLK_TCK").start();
            String out = new String(getconf.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            getconf.waitFor();
            TICKS_PER_SECOND[0] = Long.parseLong(out);
        } catch (IOException | NumberFormatException e) {
            TICKS_PER_SECOND[0] = 100;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return TICKS_PER_SECOND[0];
    }

    /** The verification timer's {sum (s), count} over the instances (their Prometheus endpoints, admin auth). */
    private double[] timer(int[] instances) {
        double[] sumCount = {0, 0};
        for (int instance : instances) {
            String text = adminCall("GET", "http://127.0.0.1:" + instance + "/actuator/prometheus", null, "text/plain").body();
            for (String line : text.split("\n")) {
                if (line.startsWith("seckill_tickets_challenge_verification_seconds_sum")) {
                    sumCount[0] += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                } else if (line.startsWith("seckill_tickets_challenge_verification_seconds_count")) {
                    sumCount[1] += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                }
            }
        }
        return sumCount;
    }

    /** The library's verification alone, as Challenges.verify calls it, on a challenge of its own making. */
    private static double localVerificationUs() throws Exception {
        String key = "a key for timing verification only, 32+ characters";
        Altcha.Challenge challenge = Altcha.createChallenge(new Altcha.ChallengeOptions()
                .setAlgorithm(Altcha.Algorithm.SHA256).setMaxNumber(1000L).setHmacKey(key)
                .setExpires(Instant.now().plusSeconds(600).getEpochSecond())
                .addParam("shopper", "1").addParam("voucher", "1"));
        Altcha.Solution solution = Altcha.solveChallenge(challenge.challenge, challenge.salt, Altcha.Algorithm.SHA256,
                challenge.maxnumber, 0);
        Altcha.Payload payload = new Altcha.Payload();
        payload.algorithm = challenge.algorithm;
        payload.challenge = challenge.challenge;
        payload.number = (long) solution.number;
        payload.salt = challenge.salt;
        payload.signature = challenge.signature;
        for (int i = 0; i < 20_000; i++) {
            Altcha.verifySolution(payload, key, false); // warm-up: compiled, as in a running instance
        }
        long cpu = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < 20_000; i++) {
            if (!Altcha.verifySolution(payload, key, false)) {
                throw new IllegalStateException("the library refused its own solution");
            }
        }
        return (THREADS.getCurrentThreadCpuTime() - cpu) / 20_000 / 1e3;
    }

    private static double median(List<Double> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    // ---------------------------------------------------------------- admin calls, MySQL

    private List<String> mint(int count) {
        List<String> tokens = new ArrayList<>();
        for (int left = count; left > 0; left -= 10_000) {
            HttpResponse<String> minted = adminCall("POST", base() + "/admin/shoppers?count=" + Math.min(left, 10_000), null, "text/csv");
            expect(minted, 201, "minting shoppers");
            minted.body().lines().filter(line -> !line.isBlank()).forEach(tokens::add);
        }
        return tokens;
    }

    private long createVoucher(int stock, Instant begin, Instant end, Integer difficulty) {
        return createVoucher(stock, begin, end, difficulty, "");
    }

    /** @param more further fields of the voucher, as JSON members with a leading comma */
    private long createVoucher(int stock, Instant begin, Instant end, Integer difficulty, String more) {
        String body = "{\"title\":\"fair start\",\"price\":1.00,\"stock\":%d,\"beginTime\":\"%s\",\"endTime\":\"%s\"%s%s}"
                .formatted(stock, begin, end, difficulty == null ? "" : ",\"challengeDifficulty\":" + difficulty, more);
        HttpResponse<String> created = adminCall("POST", base() + "/admin/vouchers", body, "application/json");
        expect(created, 201, "creating a voucher");
        return JSON.readTree(created.body()).path("id").asLong();
    }

    /** The voucher's audit once no order is pending (the async path writes MySQL a moment after its 202). */
    private JsonNode awaitAudit(long voucher) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 120_000;
        while (true) {
            HttpResponse<String> audit = adminCall("GET", base() + "/admin/vouchers/" + voucher + "/audit", null, "application/json");
            expect(audit, 200, "reading the audit");
            JsonNode json = JSON.readTree(audit.body());
            if (json.path("pendingOrders").asLong() == 0 && json.path("syncUnitsInFlight").asLong() == 0) {
                Thread.sleep(200);
                return JSON.readTree(adminCall("GET", base() + "/admin/vouchers/" + voucher + "/audit", null,
                        "application/json").body());
            }
            if (System.currentTimeMillis() > deadline) {
                failures.add("voucher " + voucher + ": orders still pending after 2 minutes: " + json);
                return json;
            }
            Thread.sleep(200);
        }
    }

    /** The voucher's orders in MySQL, counted by the group their shopper belongs to. */
    private Map<String, Long> ordersByGroup(long voucher, Map<Long, String> groupOf) throws SQLException {
        String url = "jdbc:mysql://%s:%s/%s".formatted(env("SECKILL_DB_HOST", "127.0.0.1"), env("SECKILL_DB_PORT", "3306"),
                option("db", "seckill"));
        Map<String, Long> byGroup = new TreeMap<>();
        try (Connection db = DriverManager.getConnection(url, env("SECKILL_DB_USER", "root"), env("SECKILL_DB_PASSWORD", ""));
                PreparedStatement orders = db.prepareStatement("SELECT user_id FROM voucher_order WHERE voucher_id = ?")) {
            orders.setLong(1, voucher);
            try (ResultSet rows = orders.executeQuery()) {
                while (rows.next()) {
                    byGroup.merge(groupOf.getOrDefault(rows.getLong(1), "other"), 1L, Long::sum);
                }
            }
        }
        if (byGroup.containsKey("other")) {
            failures.add("voucher " + voucher + ": " + byGroup.get("other") + " orders in MySQL by shoppers of neither group");
        }
        return byGroup;
    }

    private HttpResponse<String> adminCall(String method, String url, String json, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60))
                .header("Authorization", adminAuth).header("Accept", accept);
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        request.method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        try {
            return admin.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(method + " " + url + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void expect(HttpResponse<String> response, int status, String what) {
        if (response.statusCode() != status) {
            throw new IllegalStateException(what + ": expected " + status + ", got " + response.statusCode() + ": " + response.body());
        }
    }

    private String base() {
        return "http://" + host + ":" + port;
    }

    // ---------------------------------------------------------------- the waiting room

    /**
     * Round {@code room}: the smart bots and the crowd of round {@code smart} at a voucher with a waiting room
     * ({@code --room-window} seconds of arrival window, {@code --room-rate} places let in a second). The bots' joins
     * are written out before the opening and fired at its millisecond, with the challenges they solved beforehand;
     * then each asks its place every second (the poll limit's pace) and buys the moment it is let in. The crowd join
     * at the opening plus their reaction time, ask their place as often as the page does ({@code pollAfterSeconds}),
     * and click buy a reaction time after their turn comes. Fair is each group's share of the arrivals in the window.
     */
    private void roomSale() throws Exception {
        int botCount = intOption("bots", 500);
        int crowdCount = intOption("crowd", 200);
        int stock = intOption("stock", 100);
        int window = intOption("room-window", 10);
        int rate = intOption("room-rate", 20);
        long seed = Long.parseLong(option("seed", "42"));
        int[] reaction = reactionRange();
        List<String> bots = mint(botCount);
        List<String> crowd = mint(crowdCount);
        Map<Long, String> groupOf = groupsOf(bots, crowd);
        Instant opens = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(intOption("smart-lead", 60));
        long voucher = createVoucher(stock, opens, opens.plus(Duration.ofHours(1)), null,
                ",\"arrivalWindow\":\"PT" + window + "S\",\"admissionsPerSecond\":" + rate);
        long t0 = opens.toEpochMilli();
        Group botGroup = new Group("smart bots");
        Group crowdGroup = new Group("crowd");
        System.out.printf("%n[fair-start] round room: voucher %d, %d units, opens %s, arrival window %d s, %d let in a "
                + "second; %d smart bots, %d crowd; tickets on%n", voucher, stock, opens, window, rate, botCount, crowdCount);

        ExecutorService solvers = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        List<Future<Solved>> crowdSolved = new ArrayList<>();
        List<Future<Solved>> botSolved = new ArrayList<>();
        for (int i = 0; i < Math.max(crowdCount, botCount); i++) {
            if (i < crowdCount) {
                String token = crowd.get(i);
                crowdSolved.add(solvers.submit(() -> fetchAndSolve(voucher, token, crowdGroup)));
            }
            if (i < botCount) {
                String token = bots.get(i);
                botSolved.add(solvers.submit(() -> fetchAndSolve(voucher, token, botGroup)));
            }
        }
        Random random = new Random(seed);
        Map<Long, Long> joinedAt = new ConcurrentHashMap<>();
        Map<Long, Long> clickAfterOf = new HashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < crowdCount; i++) {
            long joinAt = t0 + reaction[0] + random.nextInt(reaction[1] - reaction[0] + 1);
            long clickAfter = reaction[0] + random.nextInt(reaction[1] - reaction[0] + 1);
            String token = crowd.get(i);
            clickAfterOf.put(Tokens.shopperId(token), clickAfter);
            Future<Solved> solved = crowdSolved.get(i);
            threads.add(thread("crowd-" + i, () -> {
                try {
                    Solved solution = solved.get();
                    if (solution.payload() == null) {
                        return;
                    }
                    sleepUntil(joinAt);
                    Answer joined = Wire.exchange(host, port, Wire.request("POST", "/seckill/" + voucher + "/room", token,
                            null, solutionBody(solution.payload())));
                    crowdGroup.count("join", joined);
                    if (joined.status() == 200) {
                        joinedAt.put(Tokens.shopperId(token), joined.atMillis() - t0);
                        waitYourTurnAndBuy(voucher, token, joined, clickAfter, false, crowdGroup);
                    }
                } catch (Exception e) {
                    crowdGroup.count("join", Answer.failed(e.toString()));
                }
            }));
        }
        List<Armed> armed = new ArrayList<>();
        for (int i = 0; i < botCount; i++) {
            Solved solved = botSolved.get(i).get();
            if (solved.payload() == null) {
                botGroup.count("challenge", Answer.failed(solved.failure()));
                continue;
            }
            armed.add(new Armed(bots.get(i), Wire.request("POST", "/seckill/" + voucher + "/room", bots.get(i), null,
                    solutionBody(solved.payload()))));
        }
        sleepUntil(t0 - 10_000);
        for (Armed bot : armed) {
            bot.connect(host, port);
            threads.add(thread("bot", () -> {
                Answer joined = bot.read();
                botGroup.count("join", joined);
                if (joined.status() == 200) {
                    joinedAt.put(Tokens.shopperId(bot.token), joined.atMillis() - t0);
                    waitYourTurnAndBuy(voucher, bot.token, joined, 0, true, botGroup);
                }
            }));
        }
        threads.forEach(Thread::start);
        while (System.currentTimeMillis() < t0) {
            Thread.onSpinWait();
        }
        long firedFrom = System.currentTimeMillis();
        armed.forEach(Armed::fire);
        long firedTo = System.currentTimeMillis();
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(5));
        }
        solvers.shutdownNow();

        JsonNode audit = awaitAudit(voucher);
        Map<String, Long> inMySql = ordersByGroup(voucher, groupOf);
        long botsIn = joinedAt.keySet().stream().filter(id -> "bots".equals(groupOf.get(id))).count();
        long crowdIn = joinedAt.size() - botsIn;
        System.out.printf("  bots' joins sent from +%d to +%d ms; in the window: %d bots, %d crowd (bots %.0f %% of arrivals)%n",
                firedFrom - t0, firedTo - t0, botsIn, crowdIn, 100.0 * botsIn / Math.max(1, joinedAt.size()));
        for (Group group : List.of(botGroup, crowdGroup)) {
            System.out.printf("  %-10s units won: %d by answer, %d in MySQL; answers: %s%n", group.name, group.wonAt.size(),
                    inMySql.getOrDefault(group == crowdGroup ? "crowd" : "bots", 0L), group.answersLine());
        }
        printChances(joinedAt, id -> botGroup.wonAt.containsKey(id) || crowdGroup.wonAt.containsKey(id), clickAfterOf);
        long botUnits = inMySql.getOrDefault("bots", 0L);
        long crowdUnits = inMySql.getOrDefault("crowd", 0L);
        System.out.printf("  audit: orders %d, oversold %d, duplicateBuyers %d, consistent %s%n", audit.path("orders").asLong(),
                audit.path("oversold").asLong(), audit.path("duplicateBuyers").asLong(), audit.path("consistent").asBoolean());
        System.out.printf("[fair-start] SUMMARY room tickets=on smart-bots=%d/%d crowd=%d/%d units=%d orders=%d "
                + "bots-share-of-arrivals=%.0f%% bots-share-of-units=%.0f%%%n", botUnits, botCount, crowdUnits, crowdCount,
                stock, audit.path("orders").asLong(), 100.0 * botsIn / Math.max(1, joinedAt.size()),
                100.0 * botUnits / Math.max(1, botUnits + crowdUnits));
        if (!audit.path("consistent").asBoolean() || audit.path("oversold").asLong() != 0) {
            failures.add("room: the audit is not consistent: " + audit);
        }
        if (botUnits != botGroup.wonAt.size() || crowdUnits != crowdGroup.wonAt.size()) {
            failures.add("room: units won by answer and in MySQL differ");
        }
    }

    /**
     * Round room's chances, for everyone who joined in the window: by when they arrived (fifths of the arrival
     * order, the join's answer as the server saw it) and by how fast they are (the bots, who fire at the opening
     * millisecond and click at once, against the crowd, and the crowd's faster half of clickers against its slower
     * half). Fair is flat: every row near the units' share of the arrivals, within the binomial spread shown.
     */
    private static void printChances(Map<Long, Long> joinedAt, java.util.function.LongPredicate won,
            Map<Long, Long> clickAfterOf) {
        List<Long> arrivals = joinedAt.entrySet().stream().sorted(Map.Entry.comparingByValue()).map(Map.Entry::getKey)
                .toList();
        long units = arrivals.stream().filter(won::test).count();
        double chance = (double) units / Math.max(1, arrivals.size());
        System.out.printf("  chance to buy, fair at %.1f %% each (%d units, %d arrivals):%n", 100 * chance, units,
                arrivals.size());
        int fifths = 5;
        for (int f = 0; f < fifths; f++) {
            List<Long> part = arrivals.subList(arrivals.size() * f / fifths, arrivals.size() * (f + 1) / fifths);
            printChance("arrived %d/5 (+%d to +%d ms)".formatted(f + 1, joinedAt.get(part.get(0)),
                    joinedAt.get(part.get(part.size() - 1))), part, won, chance);
        }
        printChance("smart bots (fire at +0 ms, click at once)", arrivals.stream()
                .filter(id -> !clickAfterOf.containsKey(id)).toList(), won, chance);
        List<Long> crowd = arrivals.stream().filter(clickAfterOf::containsKey)
                .sorted(java.util.Comparator.comparingLong(clickAfterOf::get)).toList();
        if (!crowd.isEmpty()) {
            List<Long> fast = crowd.subList(0, crowd.size() / 2);
            List<Long> slow = crowd.subList(crowd.size() / 2, crowd.size());
            printChance("crowd, faster half (click %d-%d ms after their turn)".formatted(clickAfterOf.get(fast.get(0)),
                    clickAfterOf.get(fast.get(fast.size() - 1))), fast, won, chance);
            printChance("crowd, slower half (click %d-%d ms after their turn)".formatted(clickAfterOf.get(slow.get(0)),
                    clickAfterOf.get(slow.get(slow.size() - 1))), slow, won, chance);
        }
    }

    /** One row: bought of arrived, and the spread (two standard deviations) a fair draw gives a group that size. */
    private static void printChance(String label, List<Long> group, java.util.function.LongPredicate won, double fair) {
        long bought = group.stream().filter(won::test).count();
        double spread = 2 * Math.sqrt(fair * (1 - fair) / Math.max(1, group.size()));
        System.out.printf("    %-55s %4d of %4d bought: %5.1f %% (fair %.1f ± %.1f)%n", label, bought, group.size(),
                100.0 * bought / Math.max(1, group.size()), 100 * fair, 100 * spread);
    }

    /**
     * Asks the shopper's place until they are let in, then buys ({@code clickAfterMillis} later: a person's
     * reaction); a bot asks every second, a page when the server says.
     */
    private void waitYourTurnAndBuy(long voucher, String token, Answer joined, long clickAfterMillis, boolean bot,
            Group group) {
        JsonNode place = joined.json();
        long deadline = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(4);
        try {
            while (System.currentTimeMillis() < deadline) {
                String state = place.path("state").asString();
                if (state.equals("admitted")) {
                    Thread.sleep(clickAfterMillis);
                    Answer purchase = Wire.exchange(host, port, Wire.request("POST", "/seckill/" + voucher, token,
                            place.path("ticket").asString(), null));
                    group.count("purchase", purchase);
                    if (purchase.won()) {
                        group.wonAt.put(Tokens.shopperId(token), purchase.atMillis());
                    }
                    return;
                }
                if (List.of("sold-out", "admission-lapsed", "admission-used").contains(state)) {
                    group.count("room", new Answer(200, state, "", System.currentTimeMillis()));
                    return;
                }
                Thread.sleep(bot ? 1_000 : Math.max(1, place.path("pollAfterSeconds").asLong(2)) * 1_000);
                Answer polled = Wire.exchange(host, port, Wire.request("GET", "/seckill/" + voucher + "/room/place", token,
                        null, null));
                if (polled.status() != 200) {
                    group.count("poll", polled);
                    continue;
                }
                place = polled.json();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Round {@code crowd}: a whole sale through a waiting room of {@code --room-crowd} simulated pages that do what
     * room.js does. A voucher of {@code --room-crowd-stock} units letting {@code --room-rate} in a second, no challenge
     * (difficulty 0: the room's cost, not the proof of work's), opens {@code --room-crowd-lead} s after it is made,
     * inside its room's pre-queue: {@code --room-crowd-early} per cent of the pages join over that lead, the rest over
     * the first two thirds of the arrival window ({@code --room-crowd-window} s). Each page, opened while the room takes
     * joins, first asks its place (a shopper back on the page may be in already) and joins; then it waits on the room's
     * public state, asks its place once after the draw (within a spread that grows with the room) and again when the
     * places let in reach it, and buys the moment it is let in; a sold-out page only looks at the public state. The
     * round goes on {@code --room-crowd-tail} s after the public state says sold out ({@code --room-crowd-hold} s after
     * the draw at most), on {@code --room-crowd-threads} client threads.
     *
     * <p>Recorded by phase (pre-queue, window, admissions, the tail after sold out): the pages' requests by kind, status
     * and code, and their latency through Nginx; what reached the instances by their own meters, read every few
     * seconds (the room's routes of http.server.requests, the voucher's purchase counters); the looks at the public
     * state that the pages would make (one watcher stands for all of them, as they all get the same bytes from Nginx's
     * cache: the looks are modelled from the pages waiting and the interval each answer gives); each container's CPU
     * ({@code --cgroups} name=file of its CPU accounting, read the same way). At the end the published draw is
     * recomputed from its seed and the shoppers who joined (here, and with scripts/room-draw) and every place a page
     * learnt is compared with it. With {@code --room-crowd-kill-at} S the shell command {@code --room-crowd-kill} runs S
     * s after the opening, during the joins, and {@code --room-crowd-restart} {@code --room-crowd-restart-after} s
     * later. A 5xx or no answer, more than 4 requests per shopper to the instances (by the pages' count or by the
     * instances'), a place that is not the draw's, a page that asks the instances in the tail after its first 30 s, or
     * an audit that is not consistent fails the round.
     */
    private void roomCrowd() throws Exception {
        int count = intOption("room-crowd", 20_000);
        int stock = intOption("room-crowd-stock", 500);
        int rate = intOption("room-rate", 20);
        int window = intOption("room-crowd-window", 60);
        int lead = intOption("room-crowd-lead", 60);
        int early = count * intOption("room-crowd-early", 25) / 100;
        int hold = intOption("room-crowd-hold", 300);
        int tail = intOption("room-crowd-tail", 600);
        int threads = intOption("room-crowd-threads", 64);
        int killAt = intOption("room-crowd-kill-at", -1);
        int restartAfter = intOption("room-crowd-restart-after", 20);
        Map<String, Path> cgroups = new TreeMap<>();
        for (String pair : option("cgroups", "").split(",")) {
            if (pair.contains("=")) {
                cgroups.put(pair.substring(0, pair.indexOf('=')), Path.of(pair.substring(pair.indexOf('=') + 1)));
            }
        }
        List<String> tokens = new ArrayList<>();
        while (tokens.size() < count) {
            tokens.addAll(mint(Math.min(10_000, count - tokens.size())));
        }
        Instant opens = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(lead + 1);
        long voucher = createVoucher(stock, opens, opens.plus(Duration.ofHours(1)), 0,
                ",\"arrivalWindow\":\"PT" + window + "S\",\"admissionsPerSecond\":" + rate);
        long madeAt = System.currentTimeMillis();
        long openAt = opens.toEpochMilli();
        long drawAt = openAt + window * 1_000L;
        AtomicLong endAt = new AtomicLong(drawAt + hold * 1_000L);
        // kept from before the draw, as a shopper who checks the draw keeps it
        String commitment = Wire.exchange(host, port, Wire.request("GET", "/vouchers/" + voucher + "/room", null, null,
                null)).json().path("commitment").asString("");
        System.out.printf("%n[fair-start] round crowd: voucher %d, %d units, %d let in a second, opens %s, %d s after it "
                + "was made (inside its pre-queue); %d shoppers: %d join before the opening, %d over the first %d s of a %d s "
                + "window; the round ends %d s after sold out; %d client threads%s%n", voucher, stock, rate, opens,
                (openAt - madeAt) / 1_000, count, early, count - early, window * 2 / 3, window, tail, threads,
                killAt < 0 ? "" : "; an instance killed " + killAt + " s after the opening, started " + restartAfter
                        + " s later");
        CrowdAnswers answers = new CrowdAnswers(host, port, openAt, drawAt);
        Map<Long, Long> boughtAt = new ConcurrentHashMap<>();
        Map<Long, Long> placeOf = new ConcurrentHashMap<>();
        AtomicLong placesChanged = new AtomicLong();
        java.util.Set<Long> inTheDraw = ConcurrentHashMap.newKeySet();
        java.util.Set<Long> joined = ConcurrentHashMap.newKeySet();
        // pages that wait on the public state now: joined, not bought, not stopped
        AtomicLong watching = new AtomicLong();
        java.util.concurrent.DelayQueue<Page> due = new java.util.concurrent.DelayQueue<>();
        for (int i = 0; i < early; i++) {
            due.add(new Page(tokens.get(i), madeAt + 1_000 + (openAt - madeAt - 2_000) * i / early, "look"));
        }
        long joinSpan = window * 2_000L / 3;
        for (int i = early; i < count; i++) {
            due.add(new Page(tokens.get(i), openAt + joinSpan * (i - early) / (count - early), "look"));
        }
        // Pages that wait on the room's public state, as room.js does: for the draw (then each asks its place once,
        // within a spread that grows with the room), or for the places let in to reach theirs (then it asks for its
        // admission). One watcher stands for every page's look at the public state: they all get the same bytes from
        // Nginx's cache, which the instances answer about once a second whoever asks.
        java.util.concurrent.ConcurrentLinkedQueue<String> awaitingDraw = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.concurrent.PriorityBlockingQueue<Waiting> awaitingTurn = new java.util.concurrent.PriorityBlockingQueue<>();
        double[] modelledLooks = new double[CrowdAnswers.PHASES.length];
        List<Thread> clients = new ArrayList<>();
        clients.add(thread("public-state", () -> {
            java.util.Random jitter = new java.util.Random();
            long lastLook = System.currentTimeMillis();
            long pollAfter = 10;
            try {
                while (System.currentTimeMillis() < endAt.get()) {
                    Answer answer = answers.send("now", Wire.request("GET", "/vouchers/" + voucher + "/room/now", null,
                            null, null));
                    long at = System.currentTimeMillis();
                    // each waiting page looks every pollAfterSeconds times 1 to 1.25 (room.js's later())
                    modelledLooks[answers.phaseOf(at)] += watching.get() * (at - lastLook) / 1000.0 / (1.125 * pollAfter);
                    lastLook = at;
                    if (answer.status() == 200) {
                        JsonNode now = answer.json();
                        pollAfter = Math.max(1, now.path("pollAfterSeconds").asLong(pollAfter));
                        if (now.path("drawn").asBoolean()) {
                            long spread = 1_000L * Math.max(1, (now.path("waiting").asLong() + 1_999) / 2_000);
                            for (String token = awaitingDraw.poll(); token != null; token = awaitingDraw.poll()) {
                                due.add(new Page(token, at + (long) (jitter.nextDouble() * spread), "place"));
                            }
                        }
                        if (now.path("soldOut").asBoolean() && answers.soldOutAt == Long.MAX_VALUE) {
                            answers.soldOutAt = at;
                            endAt.set(at + tail * 1_000L);
                        }
                        long reached = now.path("soldOut").asBoolean() ? 0 : now.path("admittedUpTo").asLong();
                        for (Waiting next = awaitingTurn.peek(); next != null && next.place() <= reached;
                                next = awaitingTurn.peek()) {
                            awaitingTurn.remove(next);
                            due.add(new Page(next.token(), at + jitter.nextInt(1_000), "turn"));
                        }
                    }
                    Thread.sleep(250);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        for (int t = 0; t < threads; t++) {
            clients.add(thread("page", () -> {
                try {
                    while (true) {
                        Page page = due.poll(1, TimeUnit.SECONDS);
                        if (page == null) {
                            if (System.currentTimeMillis() >= endAt.get()) {
                                return;
                            }
                            continue;
                        }
                        if (page.at() >= endAt.get()) {
                            continue;
                        }
                        String token = page.token();
                        Answer answer = answers.send(page.step(), page.step().equals("join")
                                ? Wire.request("POST", "/seckill/" + voucher + "/room", token, null, null)
                                : Wire.request("GET", "/seckill/" + voucher + "/room/place", token, null, null));
                        boolean failed = answer.status() >= 500 || answer.status() == 0;
                        if (page.step().equals("look") && answer.status() != 200) {
                            // not in the room (404 not-in-waiting-room): the page joins; no answer: it looks again
                            due.add(new Page(token, System.currentTimeMillis() + (failed ? 3_000 : 0), failed ? "look" : "join"));
                            continue;
                        }
                        if (answer.status() != 200) {
                            // the page joins again (room.js's joinAgain), or asks its place again a few seconds on
                            due.add(new Page(token, System.currentTimeMillis() + 2_000, page.step()));
                            continue;
                        }
                        long shopper = Tokens.shopperId(token);
                        JsonNode place = answer.json();
                        String state = place.path("state").asString();
                        if (joined.add(shopper)) {
                            watching.incrementAndGet();
                        }
                        if (state.equals("in-the-draw")) {
                            inTheDraw.add(shopper);
                        } else if (place.path("place").isNumber()) {
                            Long before = placeOf.putIfAbsent(shopper, place.path("place").asLong());
                            if (before != null && before != place.path("place").asLong()) {
                                placesChanged.incrementAndGet();
                            }
                        }
                        switch (state) {
                            case "admitted" -> buy(voucher, token, place.path("ticket").asString(), answers, boughtAt,
                                    watching, due);
                            case "in-the-draw" -> awaitingDraw.add(token);
                            case "waiting", "sold-out" -> awaitingTurn.add(new Waiting(place.path("place").asLong(), token));
                            default -> watching.decrementAndGet(); // its turn lapsed or was used: the page stops
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        if (killAt >= 0) {
            clients.add(thread("kill", () -> {
                try {
                    sleepUntil(openAt + killAt * 1_000L);
                    answers.killedAt = System.currentTimeMillis();
                    String killed = shell(option("room-crowd-kill", "true"));
                    System.out.printf("  killed at %+.1f s after the opening: %s%n", (answers.killedAt - openAt) / 1e3,
                            killed);
                    Thread.sleep(restartAfter * 1_000L);
                    long restartedAt = System.currentTimeMillis();
                    System.out.printf("  started again at %+.1f s: %s%n", (restartedAt - openAt) / 1e3,
                            shell(option("room-crowd-restart", "true")));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        // What reached the instances and each container's CPU, every 2 s until half a minute after sold out, then
        // every 10 s (each reading is a request to each instance and costs it a little CPU itself).
        Tally tally = new Tally();
        List<Sample> timeline = java.util.Collections.synchronizedList(new ArrayList<>());
        Runnable sample = () -> {
            for (int instance : instancePorts()) {
                Map<String, Double> meters = roomMeters(instance, voucher);
                if (meters != null) {
                    tally.read("instance " + instance, meters, meters.remove("started"));
                }
            }
            cgroups.forEach((name, file) -> {
                Double nanos = cpuNanos(file);
                if (nanos != null) {
                    tally.read(name, Map.of("cpu " + name, nanos), 0);
                }
            });
            Map<String, Long> pages = new TreeMap<>();
            for (String kind : CrowdAnswers.KINDS) {
                pages.put(kind, answers.all.requests(kind));
            }
            timeline.add(new Sample(System.currentTimeMillis(), tally.totals(), pages));
        };
        sample.run();
        clients.add(thread("meters", () -> {
            try {
                while (System.currentTimeMillis() < endAt.get()) {
                    Thread.sleep(System.currentTimeMillis() < answers.soldOutAt + 30_000 ? 2_000 : 10_000);
                    sample.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        clients.forEach(Thread::start);
        sleepUntil(drawAt);
        long letInAtDraw = live(voucher).path("room").path("letIn").asLong();
        // The places let in, second by second, as the dashboard sees them, until sold out.
        List<Long> letIn = new ArrayList<>();
        List<Long> letInAt = new ArrayList<>();
        while (System.currentTimeMillis() < endAt.get() && answers.soldOutAt == Long.MAX_VALUE) {
            Thread.sleep(1_000);
            letIn.add(live(voucher).path("room").path("letIn").asLong());
            letInAt.add(System.nanoTime());
        }
        while (System.currentTimeMillis() < endAt.get()) {
            Thread.sleep(1_000);
        }
        for (Thread client : clients) {
            client.join(TimeUnit.MINUTES.toMillis(2));
        }
        sample.run();
        long soldOutAt = Math.min(answers.soldOutAt, endAt.get());
        JsonNode audit = awaitAudit(voucher);

        System.out.printf("  answers: %s%n", answers.all.answersLine());
        long[] bounds = {madeAt, openAt, drawAt, soldOutAt, endAt.get()};
        System.out.println("  by phase: the pages' requests (to the instances, and their public looks modelled), what "
                + "reached the instances by their meters, and each container's CPU:");
        for (int p = 0; p < CrowdAnswers.PHASES.length; p++) {
            Sample from = sampleAt(timeline, bounds[p]);
            Sample to = sampleAt(timeline, bounds[p + 1]);
            double seconds = (bounds[p + 1] - bounds[p]) / 1e3;
            System.out.printf("    %-10s %+6.0f to %+6.0f s: pages %s, public looks modelled %,.0f; instances %s; CPU %s%n",
                    CrowdAnswers.PHASES[p], (bounds[p] - openAt) / 1e3, (bounds[p + 1] - openAt) / 1e3,
                    answers.byPhase[p].answersLine(), modelledLooks[p], to.instancesSince(from, "cpu "),
                    cpuLine(from, to, seconds));
        }
        // The tail: sold-out pages look at the cached public state only; every 30 s, what reached the instances.
        List<String> tailPages = new ArrayList<>();
        List<String> tailInstances = new ArrayList<>();
        long lateRequests = 0;
        for (long at = soldOutAt; at < endAt.get(); at += 30_000) {
            Sample from = sampleAt(timeline, at);
            Sample to = sampleAt(timeline, Math.min(at + 30_000, endAt.get()));
            long pages = to.pagesToInstances() - from.pagesToInstances();
            lateRequests += at > soldOutAt ? pages : 0;
            tailPages.add(Long.toString(pages));
            tailInstances.add(String.format(Locale.ROOT, "%.0f+%.0f", to.instance("place") + to.instance("purchase")
                    - from.instance("place") - from.instance("purchase"), to.instance("now") - from.instance("now")));
        }
        System.out.printf("  the tail after sold out, each 30 s: the pages' requests to the instances %s; by the "
                + "instances' meters, places and purchases + public state %s%n", tailPages, tailInstances);
        Sample first = timeline.get(0);
        Sample last = timeline.get(timeline.size() - 1);
        long pageRequests = last.pagesToInstances() - first.pagesToInstances();
        // The joins are not observed by the instances (POST /seckill/... is left out of http.server.requests, as the
        // purchase is): the pages' count stands for them, and Nginx's log (scripts/fair-start) shows any sent twice.
        long joins = answers.all.requests("join");
        double instanceRequests = joins;
        for (String kind : List.of("place", "purchase", "now")) {
            instanceRequests += last.instance(kind) - first.instance(kind);
        }
        double perShopper = pageRequests / (double) count;
        System.out.printf(Locale.ROOT, "  requests per shopper to the instances: %.2f by the pages (%s); %.2f by the "
                        + "instances' meters (the place's route %.0f for the pages' %d looks, places and turns; purchases "
                        + "%.0f for their %d; the public state %.0f; and the pages' %d joins, which no meter counts)%n",
                perShopper, CrowdAnswers.KINDS.stream().filter(k -> !k.equals("now"))
                        .map(k -> String.format(Locale.ROOT, "%s %.3f", k, answers.all.requests(k) / (double) count))
                        .collect(Collectors.joining(", ")),
                instanceRequests / count, last.instance("place") - first.instance("place"),
                answers.all.requests("look") + answers.all.requests("place") + answers.all.requests("turn"),
                last.instance("purchase") - first.instance("purchase"), answers.all.requests("purchase"),
                last.instance("now") - first.instance("now"), joins);
        double modelled = Arrays.stream(modelledLooks).sum();
        System.out.printf(Locale.ROOT, "  the public state: the pages would look %,.0f times (%.1f a shopper), the one "
                        + "watcher looked %d times, %.0f reached the instances (%.4f a shopper)%n", modelled,
                modelled / count, answers.all.requests("now"), last.instance("now") - first.instance("now"),
                (last.instance("now") - first.instance("now")) / count);
        System.out.println("  latency through Nginx, client side (ms):");
        for (String kind : CrowdAnswers.KINDS) {
            List<Long> sorted = new ArrayList<>(answers.nanos.getOrDefault(kind, List.of()));
            sorted.sort(null);
            System.out.printf(Locale.ROOT, "    %-8s %7d  p50 %7.1f  p99 %7.1f  max %7.1f%n", kind, sorted.size(),
                    percentile(sorted, 50), percentile(sorted, 99), percentile(sorted, 100));
        }
        long placesAsked = answers.all.requests("place") + answers.all.requests("turn");
        double admissions = Math.max(1, soldOutAt - drawAt) / 1e3;
        System.out.printf("  from the draw to sold out (%.1f s): %d places asked, %.0f a second%s%n", admissions,
                placesAsked, placesAsked / admissions, cgroups.isEmpty() ? "" : String.format(Locale.ROOT,
                        "; the instances' CPU %.2f ms a place asked (purchases included)",
                        (sampleAt(timeline, soldOutAt).cpuOf("app") - sampleAt(timeline, drawAt).cpuOf("app")) / 1e6
                                / Math.max(1, placesAsked)));
        System.out.printf("  places let in: %d at the draw, then each second %s%n", letInAtDraw, letIn);
        // The rate while places were let in: from the first reading to the first that found every unit let in.
        int full = letIn.indexOf((long) stock);
        int lastRead = full < 0 ? letIn.size() - 1 : full;
        if (lastRead > 0) {
            double span = (letInAt.get(lastRead) - letInAt.get(0)) / 1e9;
            System.out.printf("  admission rate: %.1f places a second over %.1f s (the voucher's: %d)%n",
                    (letIn.get(lastRead) - letIn.get(0)) / span, span, rate);
        }
        if (!answers.failed.isEmpty()) {
            System.out.printf("  5xx or no answer (first %d): %s%n", answers.failed.size(), answers.failed);
        }
        String draw = checkDraw(voucher, commitment, inTheDraw, placeOf, placesChanged.get());
        System.out.printf("  bought: %d; audit orders %d, oversold %d, consistent %s%n", boughtAt.size(),
                audit.path("orders").asLong(), audit.path("oversold").asLong(), audit.path("consistent").asBoolean());
        System.out.printf(Locale.ROOT, "[fair-start] SUMMARY crowd shoppers=%d early=%d kill=%s requests-per-shopper=%.2f "
                        + "(instances' meters %.2f) public-looks=%.0f/%.0f 5xx=%d p99-ms=%s bought=%d/%d sold-out=%+.0fs "
                        + "tail=%ds tail-requests=%d draw=%s consistent=%s%n", count, early,
                killAt < 0 ? "no" : "+" + killAt + "s", perShopper, instanceRequests / count, modelled,
                last.instance("now") - first.instance("now"), answers.fiveHundreds.get(),
                CrowdAnswers.KINDS.stream().map(k -> {
                    List<Long> sorted = new ArrayList<>(answers.nanos.getOrDefault(k, List.of()));
                    sorted.sort(null);
                    return String.format(Locale.ROOT, "%s:%.0f", k, percentile(sorted, 99));
                }).collect(Collectors.joining(",")), boughtAt.size(), stock, (soldOutAt - openAt) / 1e3,
                (endAt.get() - soldOutAt) / 1_000, lateRequests, draw, audit.path("consistent").asBoolean());
        if (perShopper > 4 || instanceRequests / count > 4) {
            failures.add(String.format(Locale.ROOT, "crowd: %.2f requests per shopper to the instances by the pages, "
                    + "%.2f by the instances' meters: more than 4", perShopper, instanceRequests / count));
        }
        if (answers.fiveHundreds.get() > 0) {
            failures.add("crowd: " + answers.fiveHundreds.get() + " answers were 5xx or none");
        }
        if (lateRequests > 0) {
            failures.add("crowd: " + lateRequests + " requests of sold-out pages reached the instances in the tail");
        }
        if (!draw.equals("ok")) {
            failures.add("crowd: the places are not the draw's: " + draw);
        }
        if (!audit.path("consistent").asBoolean() || audit.path("oversold").asLong() != 0
                || audit.path("orders").asLong() != boughtAt.size()) {
            failures.add("crowd: the audit is not consistent with " + boughtAt.size() + " bought: " + audit);
        }
    }

    /**
     * The admitted page's purchase with its admission. A purchase that no instance answered leaves the admission on
     * the page and the button enabled: the shopper clicks again (the same purchase, twice more at most). One refused
     * {@code not-admitted} makes the page ask its place again (buy.js's room.pollNow).
     */
    private void buy(long voucher, String token, String ticket, CrowdAnswers answers, Map<Long, Long> boughtAt,
            AtomicLong watching, java.util.concurrent.DelayQueue<Page> due) throws InterruptedException {
        for (int click = 1; ; click++) {
            Answer purchase = answers.send("purchase", Wire.request("POST", "/seckill/" + voucher, token, ticket, null));
            if (purchase.won()) {
                boughtAt.put(Tokens.shopperId(token), purchase.atMillis());
                watching.decrementAndGet();
                return;
            }
            if ((purchase.status() >= 500 || purchase.status() == 0) && click < 3) {
                Thread.sleep(1_000);
                continue;
            }
            if ("not-admitted".equals(purchase.code())) {
                due.add(new Page(token, System.currentTimeMillis(), "turn"));
            }
            return;
        }
    }

    /**
     * The published draw against what the pages saw: its seed is the commitment kept before the draw; its entrants
     * are the shoppers whose join was answered in the draw; its order is the one the seed gives them
     * ({@link RoomLottery}, the rule scripts/room-draw checks too, which runs here as well); and every place a page
     * learnt is its place in that order. "ok", or what differs.
     */
    private String checkDraw(long voucher, String commitment, java.util.Set<Long> inTheDraw, Map<Long, Long> placeOf,
            long placesChanged) throws Exception {
        Answer answer = Wire.exchange(host, port, Wire.request("GET", "/vouchers/" + voucher + "/room/draw", null, null,
                null));
        if (answer.status() != 200) {
            return "no draw: " + answer.key();
        }
        JsonNode draw = answer.json();
        String seed = draw.path("seed").asString();
        List<String> published = new ArrayList<>();
        draw.path("entrants").forEach(id -> published.add(id.asString()));
        List<String> ids = inTheDraw.stream().map(id -> Long.toString(id)).toList();
        String entrantsHash = RoomLottery.entrantsHash(ids);
        List<String> recomputed = ids.stream()
                .sorted(java.util.Comparator.comparingLong((String id) -> RoomLottery.number(seed, entrantsHash,
                        Long.parseLong(id))).thenComparing(java.util.Comparator.naturalOrder()))
                .toList();
        Map<Long, Long> placeInDraw = new HashMap<>();
        for (int i = 0; i < recomputed.size(); i++) {
            placeInDraw.put(Long.parseLong(recomputed.get(i)), i + 1L);
        }
        long wrong = placeOf.entrySet().stream().filter(e -> !e.getValue().equals(placeInDraw.get(e.getKey()))).count();
        List<String> problems = new ArrayList<>();
        if (!RoomLottery.commitment(seed).equals(commitment)) {
            problems.add("the seed is not the commitment kept before the draw");
        }
        if (!entrantsHash.equals(draw.path("entrantsHash").asString())) {
            problems.add("the entrants' hash is not the joined shoppers'");
        }
        if (!recomputed.equals(published)) {
            problems.add("the published order (" + published.size() + ") is not the seed's for the " + ids.size()
                    + " who joined in the draw");
        }
        if (wrong > 0 || placesChanged > 0) {
            problems.add(wrong + " places learnt are not the draw's, " + placesChanged + " changed");
        }
        String script = "not run (no scripts/room-draw here)";
        if (Files.isExecutable(Path.of("scripts/room-draw"))) {
            Process check = new ProcessBuilder("scripts/room-draw", base(), Long.toString(voucher), "--commitment",
                    commitment).redirectErrorStream(true).start();
            script = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().replace("\n", "; ");
            if (!check.waitFor(2, TimeUnit.MINUTES) || check.exitValue() != 0) {
                problems.add("scripts/room-draw: " + script);
            }
        }
        System.out.printf("  the draw: %d entrants, %d joined in it; %d places learnt by the pages, %d not the "
                + "recomputed draw's; scripts/room-draw: %s%n", published.size(), ids.size(), placeOf.size(), wrong, script);
        return problems.isEmpty() ? "ok" : String.join("; ", problems);
    }

    /**
     * What round crowd's pages sent and were answered, by kind: overall and by phase (before the opening, the arrival
     * window, the draw to sold out, the tail), with their latency and the 5xx or missing answers.
     */
    static final class CrowdAnswers {
        static final String[] PHASES = {"pre-queue", "window", "admissions", "tail"};
        /** look: the place asked when the page opens; place: once after the draw; turn: when the places let in reach it. */
        static final List<String> KINDS = List.of("look", "join", "place", "turn", "purchase", "now");
        final Group all = new Group("crowd");
        final Group[] byPhase = Arrays.stream(PHASES).map(Group::new).toArray(Group[]::new);
        final Map<String, List<Long>> nanos = new ConcurrentHashMap<>();
        final AtomicLong fiveHundreds = new AtomicLong();
        final List<String> failed = java.util.Collections.synchronizedList(new ArrayList<>());
        final String host;
        final int port;
        final long openAt;
        final long drawAt;
        volatile long soldOutAt = Long.MAX_VALUE;
        volatile long killedAt;

        CrowdAnswers(String host, int port, long openAt, long drawAt) {
            this.host = host;
            this.port = port;
            this.openAt = openAt;
            this.drawAt = drawAt;
        }

        int phaseOf(long at) {
            return at < openAt ? 0 : at < drawAt ? 1 : at < soldOutAt ? 2 : 3;
        }

        Answer send(String kind, byte[] request) {
            long start = System.nanoTime();
            Answer answer = Wire.exchange(host, port, request);
            nanos.computeIfAbsent(kind, k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                    .add(System.nanoTime() - start);
            all.count(kind, answer);
            byPhase[phaseOf(answer.atMillis())].count(kind, answer);
            if (answer.status() >= 500 || answer.status() == 0) {
                fiveHundreds.incrementAndGet();
                if (failed.size() < 40) {
                    failed.add(String.format(Locale.ROOT, "%s %s at %+.1f s", kind, answer.key(),
                            (answer.atMillis() - openAt) / 1e3));
                }
            }
            return answer;
        }
    }

    /**
     * Counters read now and then from sources that may restart (an instance killed and started again, its container's
     * CPU accounting made anew): what each counted since its first reading, a restart's counts added from zero.
     */
    static final class Tally {
        private final Map<String, Double> last = new HashMap<>();
        private final Map<String, Double> started = new HashMap<>();
        private final Map<String, Double> counted = new TreeMap<>();

        /** @param startedAt when the source started (its counters begin at zero then), or 0 when unknown */
        synchronized void read(String source, Map<String, Double> values, double startedAt) {
            boolean known = started.containsKey(source);
            Double before = started.put(source, startedAt);
            boolean restarted = known && before != startedAt;
            values.forEach((key, value) -> {
                Double previous = last.put(source + " " + key, value);
                double delta = !known ? 0 : previous == null || restarted || value < previous ? value : value - previous;
                counted.merge(key, delta, Double::sum);
            });
        }

        synchronized Map<String, Double> totals() {
            return new TreeMap<>(counted);
        }
    }

    /** One reading of round crowd: what reached the instances and the containers' CPU (ns), and the pages' requests. */
    record Sample(long at, Map<String, Double> counted, Map<String, Long> pages) {

        double instance(String kind) {
            return counted.getOrDefault(kind, 0.0);
        }

        long pagesToInstances() {
            return pages.entrySet().stream().filter(e -> !e.getKey().equals("now")).mapToLong(Map.Entry::getValue).sum();
        }

        /** The CPU (ns) of the containers whose name starts with {@code prefix}. */
        double cpuOf(String prefix) {
            return counted.entrySet().stream().filter(e -> e.getKey().startsWith("cpu " + prefix))
                    .mapToDouble(Map.Entry::getValue).sum();
        }

        /** The instances' counts since {@code from}, by kind ("join 5000, place 0, ..."). */
        String instancesSince(Sample from, String skip) {
            return counted.keySet().stream().filter(k -> !k.startsWith(skip))
                    .map(k -> String.format(Locale.ROOT, "%s %.0f", k, instance(k) - from.instance(k)))
                    .collect(Collectors.joining(", "));
        }
    }

    /** The first reading at or after {@code at}, else the last. */
    private static Sample sampleAt(List<Sample> timeline, long at) {
        synchronized (timeline) {
            return timeline.stream().filter(s -> s.at() >= at).findFirst().orElse(timeline.get(timeline.size() - 1));
        }
    }

    /** Each container's CPU seconds between two readings, and its share of one core over {@code seconds}. */
    private static String cpuLine(Sample from, Sample to, double seconds) {
        String line = to.counted().keySet().stream().filter(k -> k.startsWith("cpu "))
                .map(k -> {
                    double cpu = (to.instance(k) - from.instance(k)) / 1e9;
                    return String.format(Locale.ROOT, "%s %.1f s (%.0f %%)", k.substring(4), cpu, 100 * cpu / seconds);
                })
                .collect(Collectors.joining(", "));
        return line.isEmpty() ? "not read (no --cgroups)" : line;
    }

    /**
     * One instance's requests of the room's place and public state (its http.server.requests counts), the voucher's
     * purchases (its accepted and refused counters: POST /seckill/..., the purchase and the join, is not observed as
     * http.server.requests), and when its JVM started, under "started"; null when it does not answer (killed, or
     * starting).
     */
    private Map<String, Double> roomMeters(int instance, long voucher) {
        HttpResponse<String> scraped;
        try {
            scraped = adminCall("GET", "http://127.0.0.1:" + instance + "/actuator/prometheus", null, "text/plain");
        } catch (IllegalStateException down) {
            return null;
        }
        if (scraped.statusCode() != 200) {
            return null;
        }
        Map<String, Double> values = new HashMap<>(Map.of("place", 0.0, "now", 0.0, "purchase", 0.0));
        String tag = "voucher=\"" + voucher + "\"";
        for (String line : scraped.body().split("\n")) {
            String kind = null;
            if (line.startsWith("http_server_requests_seconds_count{")) {
                kind = line.contains("uri=\"/vouchers/{voucherId}/room/now\"") ? "now"
                        : line.contains("uri=\"/seckill/{voucherId}/room/place\"") ? "place" : null;
            } else if ((line.startsWith("seckill_orders_accepted_total{") || line.startsWith("seckill_orders_refused_total{"))
                    && line.contains(tag)) {
                kind = "purchase";
            } else if (line.startsWith("process_start_time_seconds")) {
                kind = "started";
            }
            if (kind != null) {
                values.merge(kind, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)), Double::sum);
            }
        }
        values.putIfAbsent("started", 0.0);
        return values;
    }

    /** A container's CPU time in ns: cgroup v1's cpuacct.usage, or v2's cpu.stat usage_usec; null while it is gone. */
    private static Double cpuNanos(Path file) {
        try {
            String text = Files.readString(file).strip();
            if (file.getFileName().toString().equals("cpu.stat")) {
                return text.lines().filter(l -> l.startsWith("usage_usec ")).findFirst()
                        .map(l -> Double.parseDouble(l.substring(11)) * 1_000).orElse(null);
            }
            return Double.parseDouble(text);
        } catch (IOException | NumberFormatException gone) {
            return null;
        }
    }

    /** A shell command's output (and its exit status when not 0). */
    private static String shell(String command) {
        try {
            Process process = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            int status = process.waitFor();
            return command + (out.isEmpty() ? "" : ": " + out.replace("\n", "; ")) + (status == 0 ? "" : " (exit " + status + ")");
        } catch (IOException e) {
            return command + ": " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return command + ": interrupted";
        }
    }

    /** A simulated page's next request, due at {@code at} (epoch ms): {@code step} one of CrowdAnswers.KINDS. */
    record Page(String token, long at, String step) implements java.util.concurrent.Delayed {

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(at - System.currentTimeMillis(), TimeUnit.MILLISECONDS);
        }

        @Override
        public int compareTo(java.util.concurrent.Delayed other) {
            return Long.compare(at, ((Page) other).at);
        }
    }

    /** A page that knows its place and waits for the places let in to reach it. */
    record Waiting(long place, String token) implements Comparable<Waiting> {

        @Override
        public int compareTo(Waiting other) {
            return Long.compare(place, other.place);
        }
    }

    private JsonNode live(long voucher) {
        return JSON.readTree(adminCall("GET", base() + "/admin/vouchers/" + voucher + "/live", null, "application/json").body());
    }

    private static double percentile(List<Long> sortedNanos, int percent) {
        if (sortedNanos.isEmpty()) {
            return 0;
        }
        int index = Math.min(sortedNanos.size() - 1, (int) Math.ceil(percent / 100.0 * sortedNanos.size()) - 1);
        return sortedNanos.get(Math.max(0, index)) / 1e6;
    }

    /** {@code --reaction-ms} FROM-TO: a person's reaction time, in milliseconds. */
    private int[] reactionRange() {
        return Arrays.stream(option("reaction-ms", "150-1500").split("-")).mapToInt(Integer::parseInt).toArray();
    }

    /** Each shopper's group by id, as MySQL's orders are counted: "bots" or "crowd". */
    private static Map<Long, String> groupsOf(List<String> bots, List<String> crowd) {
        Map<Long, String> groupOf = new HashMap<>();
        bots.forEach(token -> groupOf.put(Tokens.shopperId(token), "bots"));
        crowd.forEach(token -> groupOf.put(Tokens.shopperId(token), "crowd"));
        return groupOf;
    }

    // ---------------------------------------------------------------- the wire

    /** An answer: status, the problem's code (null for none), body, and when it was read (epoch ms). */
    record Answer(int status, String code, String body, long atMillis) {

        static Answer failed(String why) {
            return new Answer(0, why, "", System.currentTimeMillis());
        }

        boolean won() {
            return status == 201 || status == 202;
        }

        String key() {
            return status == 0 ? "error " + code : code == null ? Integer.toString(status) : status + " " + code;
        }

        JsonNode json() {
            return JSON.readTree(body);
        }
    }

    /** HTTP/1.0, one connection per request: what goes on the wire is exactly what is written here. */
    static final class Wire {

        private Wire() {
        }

        static byte[] request(String method, String path, String token, String ticket, String body) {
            StringBuilder head = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.0\r\nHost: 127.0.0.1\r\n");
            if (token != null) {
                head.append("Authorization: Bearer ").append(token).append("\r\n");
            }
            if (ticket != null) {
                head.append("Seckill-Ticket: ").append(ticket).append("\r\n");
            }
            byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            if (body != null) {
                head.append("Content-Type: application/json\r\n");
            }
            if ("POST".equals(method)) {
                head.append("Content-Length: ").append(content.length).append("\r\n");
            }
            byte[] headBytes = head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
            byte[] request = Arrays.copyOf(headBytes, headBytes.length + content.length);
            System.arraycopy(content, 0, request, headBytes.length, content.length);
            return request;
        }

        static Answer exchange(String host, int port, byte[] request) {
            try (Socket socket = open(host, port)) {
                OutputStream out = socket.getOutputStream();
                out.write(request);
                out.flush();
                return parse(socket.getInputStream());
            } catch (IOException | RuntimeException e) {
                return Answer.failed(e.getClass().getSimpleName());
            }
        }

        static Socket open(String host, int port) throws IOException {
            Socket socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), 10_000);
            socket.setSoTimeout(60_000);
            return socket;
        }

        static Answer parse(InputStream in) throws IOException {
            byte[] raw = in.readAllBytes();
            long at = System.currentTimeMillis();
            String text = new String(raw, StandardCharsets.UTF_8);
            int headerEnd = text.indexOf("\r\n\r\n");
            if (headerEnd < 0) {
                return Answer.failed("not HTTP: " + text.substring(0, Math.min(40, text.length())));
            }
            int status = Integer.parseInt(text.substring(0, text.indexOf("\r\n")).split(" ")[1]);
            String body = text.substring(headerEnd + 4);
            String code = null;
            if (status >= 300 && body.startsWith("{")) {
                try {
                    code = JSON.readTree(body).path("code").asString(null);
                } catch (RuntimeException notJson) {
                    code = null;
                }
            }
            return new Answer(status, code, body, at);
        }
    }

    /** A bot's request on an open connection, all but its last byte written, waiting for {@link #fire()}. */
    static final class Armed {
        final String token;
        final byte[] request;
        Socket socket;
        volatile IOException broken;

        Armed(String token, byte[] request) {
            this.token = token;
            this.request = request;
        }

        void connect(String host, int port) throws IOException {
            socket = Wire.open(host, port);
            socket.getOutputStream().write(request, 0, request.length - 1);
            socket.getOutputStream().flush();
        }

        void fire() {
            try {
                socket.getOutputStream().write(request[request.length - 1]);
                socket.getOutputStream().flush();
            } catch (IOException e) {
                broken = e;
            }
        }

        Answer read() {
            try (Socket s = socket) {
                return Wire.parse(s.getInputStream());
            } catch (IOException e) {
                return Answer.failed((broken != null ? broken : e).getClass().getSimpleName());
            }
        }
    }

    // ---------------------------------------------------------------- small things

    private static String solutionBody(String payload) {
        return JSON.createObjectNode().put("solution", payload).toString();
    }

    private static Thread thread(String name, Runnable body) {
        Thread thread = new Thread(null, body, name, 256 * 1024);
        thread.setDaemon(true);
        return thread;
    }

    private static void sleepUntil(long epochMillis) throws InterruptedException {
        long wait = epochMillis - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private int[] instancePorts() {
        return Arrays.stream(option("instances", (port + 1) + "," + (port + 2)).split(",")).mapToInt(Integer::parseInt).toArray();
    }

    private String option(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    private int intOption(String name, int fallback) {
        return Integer.parseInt(option(name, Integer.toString(fallback)));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
