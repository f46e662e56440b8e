package dev.seckill.web;

import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * @param maxBodySize  bodies above this are refused with 413 before anything parses them (the instance's
 *                     name, {@code seckill.web.instance-id}, is {@link dev.seckill.InstanceIdentity})
 */
@Validated
@ConfigurationProperties("seckill.web")
record WebSettings(@NotNull @DefaultValue("16KB") DataSize maxBodySize) {
}
