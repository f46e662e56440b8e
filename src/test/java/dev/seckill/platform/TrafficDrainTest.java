package dev.seckill.platform;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.availability.ApplicationAvailabilityBean;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import static org.assertj.core.api.Assertions.assertThat;

/** Readiness and connections around a drain, without a context: Spring Boot's own availability bean. */
class TrafficDrainTest {

    final ApplicationAvailabilityBean availability = new ApplicationAvailabilityBean();
    final ApplicationEventPublisher events = event -> availability.onApplicationEvent((AvailabilityChangeEvent<?>) event);
    final TrafficDrain drain = new TrafficDrain(events, availability, new ShutdownSettings(Duration.ZERO));
    final DrainingConnectionFilter filter = new DrainingConnectionFilter(availability);

    @Test
    void stoppingTurnsReadinessDownAndClosesEveryConnectionFromThen() throws Exception {
        AvailabilityChangeEvent.publish(events, this, ReadinessState.ACCEPTING_TRAFFIC);
        drain.start();
        assertThat(answer().getHeader("Connection")).as("kept alive while ready").isNull();

        drain.stop();

        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
        assertThat(answer().getHeader("Connection")).isEqualTo("close");
        assertThat(drain.isRunning()).isFalse();
    }

    @Test
    void aContextStoppedAndStartedAgainIsReadyAgain() {
        AvailabilityChangeEvent.publish(events, this, ReadinessState.ACCEPTING_TRAFFIC);
        drain.start();
        drain.stop();
        drain.start();
        assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
    }

    @Test
    void readinessTurnedDownByTheClosingContextIsLeftToIt() {
        AvailabilityChangeEvent.publish(events, this, ReadinessState.ACCEPTING_TRAFFIC);
        drain.start();
        AvailabilityChangeEvent.publish(events, this, ReadinessState.REFUSING_TRAFFIC); // as Boot does on close
        drain.stop();
        drain.start();
        assertThat(availability.getReadinessState()).as("not ours to turn up").isEqualTo(ReadinessState.REFUSING_TRAFFIC);
    }

    @Test
    void thePhasesStopInTheOrderTheShutdownPromises() {
        assertThat(new int[] {ShutdownOrder.TRAFFIC_DRAIN, ShutdownOrder.WEB_GRACEFUL_SHUTDOWN, ShutdownOrder.WEB_SERVER,
                ShutdownOrder.ORDER_CONSUMERS, ShutdownOrder.REDIS_EPOCH_CHECK, ShutdownOrder.ID_WORKER_LEASE})
                .as("highest stops first").isSortedAccordingTo((a, b) -> Integer.compare(b, a)).doesNotHaveDuplicates();
        assertThat(drain.getPhase()).isEqualTo(ShutdownOrder.TRAFFIC_DRAIN);
    }

    private MockHttpServletResponse answer() throws Exception {
        MockHttpServletResponse response = new MockHttpServletResponse();
        filter.doFilter(new MockHttpServletRequest("POST", "/seckill/1"), response, new MockFilterChain());
        return response;
    }
}
