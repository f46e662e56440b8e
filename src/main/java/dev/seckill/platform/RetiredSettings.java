package dev.seckill.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses to start an instance that sets a {@code seckill.*} setting which no longer exists, instead of ignoring it
 * silently (an operator who tuned {@code seckill.lock.voucher-lease} would otherwise believe it still applies). The
 * retired settings are declared once, in {@value #METADATA}, as deprecated with level {@code error}, a reason and,
 * where there is one, a replacement: the IDE shows them struck out, and this check reads them from there.
 * <p>
 * Registered in {@code META-INF/spring.factories}; runs once every configuration file is loaded and before any bean
 * exists, so a key set anywhere (a file, an environment variable, an argument, in any relaxed spelling) stops the
 * start with one message naming every retired key that is set, where, and what replaces it.
 */
public final class RetiredSettings implements EnvironmentPostProcessor, Ordered {

    /** Ours, not the merged file the build writes: every library ships one of those, and ours is the source. */
    static final String METADATA = "META-INF/additional-spring-configuration-metadata.json";

    /** @param replacement the key to use instead, or {@code null} when nothing replaces it */
    private record Retired(String name, String replacement, String reason) {
    }

    private final List<Retired> retired = load();

    @Override
    public int getOrder() {
        // after ConfigDataEnvironmentPostProcessor: application.yml and the profiles' files are in the environment
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        check(environment);
    }

    /** Throws {@link RetiredSettingsException} when any retired setting is set in any of the environment's sources. */
    void check(Environment environment) {
        List<String> found = new ArrayList<>();
        for (Retired setting : retired) {
            List<String> places = new ArrayList<>();
            for (var source : ConfigurationPropertySources.get(environment)) {
                ConfigurationProperty property = source.getConfigurationProperty(ConfigurationPropertyName.of(setting.name()));
                if (property != null) {
                    places.add(property.getOrigin() != null ? property.getOrigin().toString() : String.valueOf(source));
                }
            }
            if (!places.isEmpty()) {
                found.add(setting.name() + " (set in " + String.join("; ", places) + "): "
                        + (setting.replacement() != null ? "use " + setting.replacement() + " instead. " : "")
                        + setting.reason());
            }
        }
        if (!found.isEmpty()) {
            throw new RetiredSettingsException("Retired settings are set; remove them (this instance does not start "
                    + "while they are):\n - " + String.join("\n - ", found));
        }
    }

    /** The error-level deprecations of {@code seckill.*} in the metadata file that names {@code seckill.*} settings. */
    private static List<Retired> load() {
        List<Retired> retired = new ArrayList<>();
        try {
            for (URL url : Collections.list(RetiredSettings.class.getClassLoader().getResources(METADATA))) {
                try (InputStream in = url.openStream()) {
                    for (JsonNode property : JsonMapper.builder().build().readTree(in).path("properties")) {
                        String name = property.path("name").asString("");
                        JsonNode deprecation = property.path("deprecation");
                        if (name.startsWith("seckill.") && "error".equals(deprecation.path("level").asString(""))) {
                            String replacement = deprecation.path("replacement").asString("");
                            retired.add(new Retired(name, replacement.isBlank() ? null : replacement,
                                    deprecation.path("reason").asString("")));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + METADATA + " on the classpath", e);
        }
        return List.copyOf(retired);
    }

    /** Thrown at start-up; its message names every retired setting that is set, where, and what to do instead. */
    public static final class RetiredSettingsException extends IllegalStateException {

        private RetiredSettingsException(String message) {
            super(message);
        }
    }

    /** Reports the exception as Spring Boot's "APPLICATION FAILED TO START" with the message and what to do. */
    static final class Analyzer extends AbstractFailureAnalyzer<RetiredSettingsException> {

        @Override
        protected FailureAnalysis analyze(Throwable rootFailure, RetiredSettingsException cause) {
            return new FailureAnalysis(cause.getMessage(), "Remove these settings from the files, environment "
                    + "variables and arguments the instance is started with; where a replacement is named, set that "
                    + "instead if you need to. docs/configuration.md lists the retired settings.", cause);
        }
    }
}
