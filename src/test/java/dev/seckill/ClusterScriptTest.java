package dev.seckill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.altcha.altcha.Altcha;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * scripts/cluster's own decisions, run in bash against stand-ins: the script sourced defines its functions and runs
 * nothing, and a stand-in instance is a bash process whose command line names the jar, as an instance's does, and
 * which writes its log and says UP (a file here, in place of its health endpoint) when its script says so.
 */
class ClusterScriptTest {

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** Sources the script, points its run folder at {@code dir}, one instance, and the stand-in's helpers. */
    static final String PRELUDE = """
            set -euo pipefail
            source scripts/cluster
            RUN=$DIR LOGS=$DIR INSTANCES=(app-1)
            # each stand-in leads a process group of its own (setsid): stopped with whatever it started
            trap 'for p in "$RUN"/*.pid; do [ -f "$p" ] && kill -- "-$(cat "$p")" 2>/dev/null; done; true' EXIT
            # fake NAME SCRIPT: a stand-in for instance NAME running SCRIPT; touching "$UP" makes it report UP
            fake() {
                UP="$RUN/$1.up" setsid bash -c "$2"' ; sleep 30 & wait' seckill-platform.jar >>"$LOGS/$1.log" 2>&1 </dev/null &
                echo $! >"$RUN/$1.pid"
                local i
                for ((i = 0; i < 50; i++)); do app_pid "$1" >/dev/null && return; sleep 0.1; done
                echo "the stand-in for $1 did not start" >&2
                exit 3
            }
            instance_up() { [ -f "$RUN/$1.up" ]; }
            """;

    @TempDir
    Path dir;

    @Test
    void aStartSlowerThanTheQuietLimitIsWaitedForWhileItsLogGrows() {
        Run run = bash(Map.of("SECKILL_START_TIMEOUT", "30"), """
                START_QUIET=2 START_REPORT_EVERY=1
                fake app-1 'for i in $(seq 1 10); do
                    echo "2026-11-27T15:58:51.544Z  INFO 5923 --- [seckill] [           main] dev.seckill.Step     : starting, step $i"
                    sleep 0.5
                done; touch "$UP"'
                wait_for_instances
                """);

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("at most 30s, SECKILL_START_TIMEOUT")
                .contains("still starting after").contains("last logged: starting, step")
                .contains("instances UP after");
    }

    @Test
    void anInstanceThatExitsFailsTheWaitAtOnceWithItsLastLogLines() {
        Run run = bash(Map.of("SECKILL_START_TIMEOUT", "60"), """
                fake app-1 'sleep 1; echo "Flyway: migration V9 failed"; exit 1'
                wait_for_instances
                """);

        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("Flyway: migration V9 failed").contains("app-1 exited during start-up");
        assertThat(run.took()).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void anInstanceStillStartingAtTheTimeoutFailsTheWaitNamingTheSettingThatGivesItLonger() {
        Run run = bash(Map.of("SECKILL_START_TIMEOUT", "3"), """
                fake app-1 'while :; do echo "still migrating"; sleep 0.5; done'
                wait_for_instances
                """);

        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("did not report UP within 3s, though still starting")
                .contains("SECKILL_START_TIMEOUT=6 scripts/cluster up").contains("still migrating");
        assertThat(run.took()).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void anInstanceWhoseLogStopsGrowingIsStuckLongBeforeTheTimeout() {
        Run run = bash(Map.of("SECKILL_START_TIMEOUT", "300"), """
                START_QUIET=2
                fake app-1 'echo "waiting for something forever"'
                wait_for_instances
                """);

        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("its log has not grown for 2s").contains("waiting for something forever");
        assertThat(run.took()).isLessThan(Duration.ofSeconds(15));
    }

    @Test
    void upOnARunningInstanceStartedWithOtherSettingsNamesThemAndTheCommandThatAppliesThem() {
        Run run = bash(Map.of(), """
                PROFILES="" APP_DB_USER=app APP_DB_PASSWORD=p1 MIGRATE_DB_USER=mig MIGRATE_DB_PASSWORD=p2
                ADMIN_USER=admin ADMIN_PASSWORD=p3 TOKEN_SECRET=p4 WEBHOOK_SECRET=p5
                instance_env app-1
                setsid env "${ENVS[@]}" bash -c 'sleep 30 & wait' seckill-platform.jar >/dev/null 2>&1 </dev/null &
                echo $! >"$RUN/app-1.pid"
                # env names the jar too, before it has the settings: wait for the stand-in itself
                until tr '\\0' '\\n' <"/proc/$!/environ" | grep -q '^SERVER_PORT='; do sleep 0.1; done
                check_settings
                echo "same settings: up goes on"
                export SECKILL_TICKETS_REQUIRED=true
                ADMIN_PASSWORD=another # as admin_credentials reads SECKILL_ADMIN_PASSWORD
                check_settings
                echo "never here"
                """);

        assertThat(run.exit()).as(run.output()).isEqualTo(1);
        assertThat(run.output()).contains("same settings: up goes on")
                .contains("app-1 runs with other settings than this shell asks for")
                .contains("SECKILL_TICKETS_REQUIRED: running (unset), this shell true")
                .contains("SECKILL_ADMIN_PASSWORD: differs (a secret: values not shown)")
                .contains("NOT applied").contains("scripts/cluster restart")
                .doesNotContain("another").doesNotContain("never here");
    }

    @Test
    void withTicketsOnTheBannerShowsTheHandshakeAndNoPurchaseWithoutATicket() {
        String banner = "ADMIN_DEFAULT=1 ADMIN_USER=admin ADMIN_PASSWORD=pw DEMO_ID=7\nsummary\n";
        Run off = bash(Map.of(), banner);
        Run on = bash(Map.of("SECKILL_TICKETS_REQUIRED", "true"), banner);

        String ticketless = "curl -s -X POST -H \"Authorization: Bearer $TOKEN\" http://127.0.0.1:8080/seckill/7\n";
        assertThat(off.output()).contains(ticketless).doesNotContain("Seckill-Ticket");
        assertThat(on.output()).doesNotContain(ticketless)
                .contains("http://127.0.0.1:8080/seckill/7/challenge").contains("http://127.0.0.1:8080/seckill/7/ticket")
                .contains("-H \"Seckill-Ticket: $TICKET\" http://127.0.0.1:8080/seckill/7\n")
                .contains("http://127.0.0.1:8080/sales/7");
    }

    /** The banner's solver, given a challenge as the server sends it, answers the payload ALTCHA accepts. */
    @Test
    void theBannersSolverAnswersWhatAltchaAccepts() throws Exception {
        Assumptions.assumeTrue(new ProcessBuilder("python3", "--version").start().waitFor() == 0, "python3 is not installed");
        Altcha.Challenge challenge = Altcha.createChallenge(new Altcha.ChallengeOptions().setAlgorithm(Altcha.Algorithm.SHA256)
                .setMaxNumber(50_000L).setHmacKey("a-key").setExpires(4_000_000_000L).addParam("shopper", "7"));
        String sent = JSON.createObjectNode().put("algorithm", challenge.algorithm).put("challenge", challenge.challenge)
                .put("maxnumber", challenge.maxnumber).put("salt", challenge.salt).put("signature", challenge.signature).toString();

        Run run = bash(Map.of("CHALLENGE", sent), "printf '%s' \"$CHALLENGE\" | python3 -c \"$ALTCHA_SOLVER\"\n");

        assertThat(run.exit()).as(run.output()).isZero();
        JsonNode payload = JSON.readTree(Base64.getDecoder().decode(run.output().strip()));
        assertThat(payload.propertyNames()).containsExactlyInAnyOrder("algorithm", "challenge", "number", "salt", "signature");
        Altcha.Payload solution = new Altcha.Payload();
        solution.algorithm = payload.path("algorithm").asString();
        solution.challenge = payload.path("challenge").asString();
        solution.number = payload.path("number").asLong();
        solution.salt = payload.path("salt").asString();
        solution.signature = payload.path("signature").asString();
        assertThat(Altcha.verifySolution(solution, "a-key", false)).as(run.output()).isTrue();
    }

    record Run(int exit, String output, Duration took) {
    }

    private Run bash(Map<String, String> env, String script) {
        try {
            ProcessBuilder builder = new ProcessBuilder("bash", "-c", PRELUDE + script).redirectErrorStream(true);
            builder.environment().put("DIR", dir.toString());
            builder.environment().putAll(env);
            long start = System.nanoTime();
            Process process = builder.start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("bash did not finish within 60 s: " + script);
            }
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Run(process.exitValue(), output, Duration.ofNanos(System.nanoTime() - start));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
