package dev.seckill;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * scripts/cluster's own decisions, run in bash against a stand-in for docker: the script sourced defines its functions
 * and runs nothing, {@code $DOCKER} is a script that answers {@code ps} with one container and {@code inspect} with
 * the line in {@code $DIR/state} (service, status, health, exit code, restarts, start time) or the settings in
 * {@code $DIR/env}; compose's {@code up} is a process that waits, as compose waits for its dependencies, and its logs
 * a line. A real engine is what ComposeClusterIT runs on.
 */
class ClusterScriptTest {

    static final String PRELUDE = """
            set -euo pipefail
            source scripts/cluster
            cat >"$DIR/docker" <<'FAKE'
            #!/bin/bash
            case "$1" in
            ps) echo c0ffee ;;
            inspect) if [[ "$*" == *Config.Env* ]]; then cat "$DIR/env"; else cat "$DIR/state"; fi ;;
            esac
            FAKE
            chmod +x "$DIR/docker"
            DOCKER="$DIR/docker"
            # compose: `up` waits (as docker-compose does for its dependencies), `logs` says the instance's last words
            cat >"$DIR/compose" <<'FAKE'
            #!/bin/bash
            if [[ " $* " == *" up "* ]]; then exec sleep "${UP_TAKES:-30}"; fi
            echo "app1 | the instance's last words"
            FAKE
            chmod +x "$DIR/compose"
            COMPOSE=("$DIR/compose")
            RUN=$DIR LOGS=$DIR
            : >"$DIR/env"
            # state SERVICE STATUS HEALTH [EXIT [RESTARTS]]: what the stand-in reports from now on, as started after
            # the wait began (a container this up started)
            state_is() { echo "$1 $2 $3 ${4:-0} ${5:-0} 9999-12-31T00:00:00" >"$DIR/state"; }
            """;

    @TempDir
    Path dir;

    @Test
    void aContainerStillStartingIsWaitedForAndNamedUntilItIsHealthy() {
        Run run = bash(Map.of("SECKILL_START_TIMEOUT", "60"), """
                state_is app1 running starting
                ( sleep 5; state_is app1 running healthy ) &
                UP_TAKES=1 compose_up_in_background; wait_up "$UP_PID"
                echo "WAITED $SECONDS"
                """);

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("waiting for app1").contains("WAITED");
        assertThat(run.took()).isGreaterThan(Duration.ofSeconds(4));
    }

    @Test
    void aContainerThatExitsWhileStartingFailsTheWaitAtOnceWithItsLastLogLines() {
        Run run = bash(Map.of("SECKILL_START_TIMEOUT", "60"), """
                state_is app1 exited exited 1
                compose_up_in_background; wait_up "$UP_PID"
                """);

        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("app1 exited (code 1) while starting").contains("the instance's last words");
        assertThat(run.took()).isLessThan(Duration.ofSeconds(20));
    }

    @Test
    void aContainerThatRestartsWhileStartingFailsTheWait() {
        Run run = bash(Map.of("SECKILL_START_TIMEOUT", "60"), """
                state_is app1 running starting 0 1
                compose_up_in_background; wait_up "$UP_PID"
                """);

        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("app1 restarted while starting");
    }

    @Test
    void aContainerStillStartingAtTheTimeoutFailsTheWaitNamingTheSettingThatGivesItLonger() {
        Run run = bash(Map.of("SECKILL_START_TIMEOUT", "3"), """
                START_TIMEOUT=3
                state_is app1 running starting
                compose_up_in_background; wait_up "$UP_PID"
                """);

        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("not healthy within 3s").contains("still starting: app1")
                .contains("SECKILL_START_TIMEOUT=");
    }

    @Test
    void withTicketsOnTheBannerShowsTheHandshakeAndNoPurchaseWithoutATicket() {
        Run run = bash(Map.of(), """
                printf 'SECKILL_TICKETS_REQUIRED=true\\n' >"$DIR/env"
                echo 42 >"$DIR/demo-voucher-id"
                summary
                """);

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("purchase tickets ON").contains("/seckill/42/ticket")
                .contains("-H \"Seckill-Ticket: $TICKET\" http://127.0.0.1:8080/seckill/42")
                .doesNotContain("$TOKEN\" http://127.0.0.1:8080/seckill/42\n");
    }

    @Test
    void withTicketsOffTheBannerBuysDirectly() {
        Run run = bash(Map.of(), """
                echo 42 >"$DIR/demo-voucher-id"
                summary
                """);

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("purchase tickets off")
                .contains("curl -s -X POST -H \"Authorization: Bearer $TOKEN\" http://127.0.0.1:8080/seckill/42")
                .doesNotContain("Seckill-Ticket");
    }

    @Test
    void aRedisClusterIsTheClusterProfileBesideTheOthersAsked() {
        Run run = bash(Map.of("SECKILL_REDIS_HA", "cluster", "COMPOSE_PROFILES", "metrics"), """
                echo "PROFILES $(profiles)"
                """);

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output()).contains("PROFILES metrics,cluster");
    }

    @Test
    void anUnknownRedisSetupIsRefusedNamingTheOnesThereAre() {
        Run run = bash(Map.of("SECKILL_REDIS_HA", "shards"), "echo SOURCED\n");

        assertThat(run.exit()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("SECKILL_REDIS_HA must be 'sentinel' or 'cluster'").doesNotContain("SOURCED");
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
