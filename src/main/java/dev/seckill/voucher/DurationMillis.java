package dev.seckill.voucher;

import java.time.Duration;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;

/** A duration kept as whole milliseconds in a BIGINT column (NULL stays null). */
@Converter
class DurationMillis implements AttributeConverter<Duration, Long> {

    @Override
    public Long convertToDatabaseColumn(Duration duration) {
        return duration == null ? null : duration.toMillis();
    }

    @Override
    public Duration convertToEntityAttribute(Long millis) {
        return millis == null ? null : Duration.ofMillis(millis);
    }
}
