package dev.seckill.lab;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;

/**
 * The one condition every bean of the lab carries (its controller too): without {@code seckill.lab.enabled=true}
 * none exists, so the lab's endpoints answer 404 and its naive locks cannot run in a real sale.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ConditionalOnBooleanProperty(name = "seckill.lab.enabled")
public @interface LabEnabled {
}
