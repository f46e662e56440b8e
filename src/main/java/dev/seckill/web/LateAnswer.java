package dev.seckill.web;

import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.http.HttpServletRequest;

/**
 * An answer written after the handler returned, on whatever thread decides it (Redisson's I/O thread for an
 * order), but never while the request's own thread is still on its way out through the filters: some of
 * them write headers there (Spring Security's header writer does, when the response is not committed yet),
 * and two threads writing one response's headers corrupt them (under load Nginx then refuses an upstream
 * header of "\x3a...": a 502). So the answer runs when both have happened, the decision and the end of the
 * dispatch ({@link LateAnswerFilter}, outermost), on the thread that comes second, and completes the request.
 */
public final class LateAnswer {

    private static final String ATTRIBUTE = LateAnswer.class.getName();
    private static final int DISPATCH_ENDED = 1;
    private static final int DECIDED = 2;
    private static final int ANSWERED = 4;

    private final AsyncContext async;
    private final AtomicInteger state = new AtomicInteger();
    private volatile Runnable answer;

    private LateAnswer(AsyncContext async) {
        this.async = async;
    }

    /**
     * Puts the request in asynchronous mode. Past {@code timeoutMillis} without a decision, {@code onTimeout}
     * answers instead (on a container thread) and a decision that comes later is dropped.
     */
    public static LateAnswer start(HttpServletRequest request, long timeoutMillis, Runnable onTimeout) {
        LateAnswer late = new LateAnswer(request.startAsync());
        late.async.setTimeout(timeoutMillis);
        late.async.addListener(new TimeoutListener(late, onTimeout));
        request.setAttribute(ATTRIBUTE, late);
        return late;
    }

    /** The decision: {@code write} answers it; it runs now, or when the dispatch has ended. */
    public void decided(Runnable write) {
        answer = write;
        if ((state.getAndUpdate(s -> s | DECIDED) & DISPATCH_ENDED) != 0) {
            answerOnce();
        }
    }

    /** Called by the outermost filter when the request's own thread is done with it. */
    static void dispatchEnded(HttpServletRequest request) {
        if (request.getAttribute(ATTRIBUTE) instanceof LateAnswer late
                && (late.state.getAndUpdate(s -> s | DISPATCH_ENDED) & DECIDED) != 0) {
            late.answerOnce();
        }
    }

    private void answerOnce() {
        if ((state.getAndUpdate(s -> s | ANSWERED) & ANSWERED) == 0) {
            try {
                answer.run();
            } finally {
                async.complete();
            }
        }
    }

    /** Tomcat times a request out after the dispatch ended; whichever answers first, the other is dropped. */
    private record TimeoutListener(LateAnswer late, Runnable onTimeout) implements AsyncListener {

        @Override
        public void onTimeout(AsyncEvent event) {
            late.answer = onTimeout;
            late.state.getAndUpdate(s -> s | DISPATCH_ENDED);
            late.answerOnce();
        }

        @Override
        public void onComplete(AsyncEvent event) {
        }

        @Override
        public void onError(AsyncEvent event) {
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
        }
    }
}
