package dev.seckill;

import java.util.List;

import org.springframework.boot.context.TypeExcludeFilter;
import org.springframework.core.type.classreading.MetadataReader;
import org.springframework.core.type.classreading.MetadataReaderFactory;
import org.springframework.stereotype.Component;

/**
 * The packages under {@code dev.seckill} that are applications of their own, built into jars of their own: the
 * sandbox payment provider, which the shop reaches only over HTTP. Their classes are on this application's classpath in
 * tests, so both of its scans leave them out: the component scan names this filter, and the settings scan
 * ({@code @ConfigurationPropertiesScan}) asks the {@link TypeExcludeFilter} beans, of which this is one.
 */
@Component
public class OtherApplications extends TypeExcludeFilter {

    /** Package prefixes, as strings: this application uses no class of theirs. */
    public static final List<String> PACKAGES = List.of("dev.seckill.sandbox.");

    @Override
    public boolean match(MetadataReader reader, MetadataReaderFactory factory) {
        String name = reader.getClassMetadata().getClassName();
        return PACKAGES.stream().anyMatch(name::startsWith);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof OtherApplications;
    }

    @Override
    public int hashCode() {
        return OtherApplications.class.hashCode();
    }
}
