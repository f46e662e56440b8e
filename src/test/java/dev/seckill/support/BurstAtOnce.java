package dev.seckill.support;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.BiConsumer;

/**
 * Every request of a burst released at the same moment (all wait on one latch), the i-th through instance
 * {@code i % instances}; each answer is handed to {@code onAnswer} with the token that got it, on the client thread.
 */
public final class BurstAtOnce {

    private BurstAtOnce() {
    }

    public static void send(ExecutorService clients, List<String> tokens, long voucherId,
            BiConsumer<String, Api.Response> onAnswer, Api... instances) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> sent = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            Api instance = instances[i % instances.length];
            String token = tokens.get(i);
            sent.add(clients.submit(() -> {
                go.await();
                onAnswer.accept(token, instance.seckill(voucherId, token));
                return null;
            }));
        }
        go.countDown();
        for (Future<?> request : sent) {
            request.get();
        }
    }
}
