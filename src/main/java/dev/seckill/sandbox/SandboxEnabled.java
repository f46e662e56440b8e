package dev.seckill.sandbox;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * The one condition every bean of the sandbox carries (its page too): with {@code seckill.sandbox.enabled=false} none
 * exists, no notification is delivered, and {@code /sandbox/**} answers 404 (the security configuration keeps its
 * chain for those paths on the same property).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ConditionalOnBooleanProperty(name = "seckill.sandbox.enabled", matchIfMissing = true)
public @interface SandboxEnabled {
}
