package dev.seckill;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/**
 * A bean of the asynchronous order path only ({@code seckill.mode=async}, the default): in sync mode it does
 * not exist, so nothing of the other path runs, or drifts unseen, beside the active one.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ConditionalOnProperty(name = "seckill.mode", havingValue = "async", matchIfMissing = true)
public @interface AsyncMode {
}
