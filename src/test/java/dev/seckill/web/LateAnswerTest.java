package dev.seckill.web;

import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/** The answer is written once, after both the decision and the end of the request's own dispatch. */
class LateAnswerTest {

    final MockHttpServletRequest request = new MockHttpServletRequest();
    final List<String> written = new ArrayList<>();

    LateAnswerTest() {
        request.setAsyncSupported(true);
    }

    @Test
    void aDecisionBeforeTheDispatchEndedWaitsForItThenAnswersOnThatThread() {
        LateAnswer late = LateAnswer.start(request, 30_000, () -> written.add("timeout"));
        late.decided(() -> written.add("order on " + Thread.currentThread().getName()));
        assertThat(written).as("not while the filters may still write headers").isEmpty();
        assertThat(request.isAsyncStarted()).isTrue();

        LateAnswer.dispatchEnded(request);
        assertThat(written).containsExactly("order on " + Thread.currentThread().getName());
        assertThat(request.isAsyncStarted()).as("completed").isFalse();
    }

    @Test
    void aDecisionAfterTheDispatchEndedAnswersAtOnceOnTheDecidingThread() throws Exception {
        LateAnswer late = LateAnswer.start(request, 30_000, () -> written.add("timeout"));
        LateAnswer.dispatchEnded(request);
        assertThat(written).isEmpty();

        Thread redis = new Thread(() -> late.decided(() -> written.add("order on " + Thread.currentThread().getName())),
                "redisson-netty-1");
        redis.start();
        redis.join();
        assertThat(written).containsExactly("order on redisson-netty-1");
    }

    @Test
    void aTimeoutAnswersFirstAndTheLateDecisionIsDropped() throws Exception {
        LateAnswer late = LateAnswer.start(request, 30_000, () -> written.add("timeout"));
        LateAnswer.dispatchEnded(request);
        MockAsyncContext async = (MockAsyncContext) request.getAsyncContext();
        for (AsyncListener listener : async.getListeners()) {
            listener.onTimeout(new AsyncEvent(async));
        }
        late.decided(() -> written.add("order"));
        assertThat(written).containsExactly("timeout");
        assertThat(async.getTimeout()).isEqualTo(30_000);
    }

    @Test
    void aRequestWithoutALateAnswerIsLeftAlone() {
        LateAnswer.dispatchEnded(request);
        assertThat(request.isAsyncStarted()).isFalse();
        assertThat(written).isEmpty();
    }
}
