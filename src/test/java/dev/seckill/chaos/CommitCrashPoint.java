package dev.seckill.chaos;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * A fault point that exists only in tests: halts the JVM right after a batch of the async path's orders has
 * committed to MySQL and before the consumer acknowledges it (chaos scenario 5). Nothing of it is in the jar:
 * {@link CommitCrashChaosIT} copies this class into a folder of its own and starts the packaged application
 * with that folder on its class path (Spring Boot's PropertiesLauncher, {@code loader.path}), where a
 * {@code META-INF/spring.factories} names this class as an {@code ApplicationContextInitializer}.
 * <p>
 * It adds one advice, outermost, to the transactional proxy of {@code NewOrderWriter}: when
 * {@code persist} returns, the transaction inside has committed, and {@code OrderBatchStep} has not yet
 * acknowledged. Once the file {@code chaos.commit-crash.armed-by} exists, the next call that committed new
 * orders writes their ids to {@code chaos.commit-crash.report} and halts the JVM ({@link #EXIT_CODE}): no
 * shutdown hook, no acknowledgement, nothing flushed but what MySQL already has.
 */
public final class CommitCrashPoint implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    /** Tells the test the JVM stopped here and nowhere else. */
    public static final int EXIT_CODE = 77;
    static final String WRITER = "dev.seckill.order.NewOrderWriter";

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        Path armedBy = Path.of(context.getEnvironment().getRequiredProperty("chaos.commit-crash.armed-by"));
        Path report = Path.of(context.getEnvironment().getRequiredProperty("chaos.commit-crash.report"));
        // A bean, not addBeanPostProcessor(): registered beans that are not Ordered run after Spring's own
        // auto-proxy creator, so this one finds the transactional proxy already built.
        ((GenericApplicationContext) context).registerBean(Installer.class, () -> new Installer(armedBy, report));
    }

    static final class Installer implements BeanPostProcessor {

        private final Path armedBy;
        private final Path report;

        Installer(Path armedBy, Path report) {
            this.armedBy = armedBy;
            this.report = report;
        }

        @Override
        public Object postProcessAfterInitialization(Object bean, String beanName) {
            if (bean instanceof Advised proxy && AopUtils.getTargetClass(bean).getName().equals(WRITER)) {
                // position 0: around the transaction interceptor, so proceed() returns after the commit
                proxy.addAdvice(0, (MethodInterceptor) invocation -> {
                    Object returned = invocation.proceed();
                    if (invocation.getMethod().getName().equals("persist") && Files.exists(armedBy)) {
                        List<Long> committed = committedIds((List<?>) invocation.getArguments()[1], (Set<?>) returned);
                        if (!committed.isEmpty()) {
                            halt((Long) invocation.getArguments()[0], committed);
                        }
                    }
                    return returned;
                });
                System.out.println("[commit-crash-point] installed on " + WRITER + ".persist");
            }
            return bean;
        }

        private void halt(long voucherId, List<Long> committed) {
            try {
                Files.writeString(report, voucherId + " " + committed.stream().map(String::valueOf)
                        .reduce((a, b) -> a + "," + b).orElseThrow());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            System.out.println("[commit-crash-point] voucher " + voucherId + ": " + committed.size()
                    + " order(s) committed, not acknowledged; halting");
            System.out.flush();
            Runtime.getRuntime().halt(EXIT_CODE);
        }
    }

    /** The orders of the batch that this call wrote: those not already in MySQL (persist returns those). */
    static List<Long> committedIds(List<?> orders, Set<?> alreadyThere) {
        List<Long> ids = new ArrayList<>();
        for (Object order : orders) {
            long id = orderId(order);
            if (!alreadyThere.contains(id)) {
                ids.add(id);
            }
        }
        return ids;
    }

    /** {@code NewOrder.orderId()}: a package-private record of the application, read by its component. */
    private static long orderId(Object order) {
        try {
            for (RecordComponent component : order.getClass().getRecordComponents()) {
                if (component.getName().equals("orderId")) {
                    component.getAccessor().setAccessible(true);
                    return (Long) component.getAccessor().invoke(order);
                }
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("no orderId in " + order);
    }
}
