package dev.seckill.platform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.PropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses to start an instance that sets a {@code seckill.*} setting which no longer exists, instead of ignoring it
 * silently (an operator who tuned {@code seckill.lock.voucher-lease} would otherwise believe it still applies). The
 * retired settings are declared once, in {@code META-INF/additional-spring-configuration-metadata.json}, as
 * deprecated with level {@code error}, a reason and, where there is one, a replacement: the IDE shows them struck
 * out, and this check reads them from the configuration metadata the build writes (which merges that file in).
 * <p>
 * Runs as an {@link EnvironmentPostProcessor} (registered in {@code META-INF/spring.factories}), once every
 * configuration file is loaded and before any bean exists: a key set anywhere (a file, an environment variable such
 * as {@code SECKILL_LOCK_SHOPPER_LEASE}, a command-line argument, in any relaxed spelling) stops the start with one
 * message naming every retired key that is set, where, and what replaces it.
 */
public final class RetiredSettings implements EnvironmentPostProcessor, Ordered {

    /** Where the build puts the configuration metadata (merged with the additional metadata). */
    static final String METADATA = "META-INF/spring-configuration-metadata.json";

    /** Our own additional metadata, read too in case an incremental build left the merged file stale. */
    static final String ADDITIONAL_METADATA = "META-INF/additional-spring-configuration-metadata.json";

    /** Only this application's settings are checked, not the retired ones of the libraries. */
    private static final String PREFIX = "seckill.";

    /**
     * @param name        the retired key, in its canonical form ({@code seckill.lock.shopper-lease})
     * @param replacement the key to use instead, or {@code null} when nothing replaces it
     * @param reason      why it went
     */
    record Retired(String name, String replacement, String reason) {
    }

    private final List<Retired> retired;

    /** Called by Spring Boot, which passes a log that prints once logging is set up. */
    public RetiredSettings(DeferredLogFactory logs) {
        this.retired = load(logs.getLog(RetiredSettings.class));
    }

    /** The retired settings the metadata declares. */
    List<Retired> retired() {
        return retired;
    }

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
        Map<Retired, List<String>> found = new LinkedHashMap<>();
        for (Retired setting : retired) {
            ConfigurationPropertyName name = ConfigurationPropertyName.of(setting.name());
            for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
                ConfigurationProperty property = source.getConfigurationProperty(name);
                if (property != null) {
                    found.computeIfAbsent(setting, s -> new ArrayList<>()).add(where(property, source));
                }
            }
        }
        if (!found.isEmpty()) {
            throw new RetiredSettingsException(found);
        }
    }

    private static String where(ConfigurationProperty property, ConfigurationPropertySource source) {
        if (property.getOrigin() != null) {
            return property.getOrigin().toString();
        }
        return source.getUnderlyingSource() instanceof PropertySource<?> underlying
                ? "property source '" + underlying.getName() + "'" : String.valueOf(source.getUnderlyingSource());
    }

    /**
     * The error-level deprecations of {@code seckill.*} in the classpath's metadata. Every library has a file of that
     * name, and the application's is not always first nor next to its classes (Spring Boot's jar keeps META-INF at
     * its root): each is read, and only one naming {@code seckill.*} settings is parsed.
     */
    private static List<Retired> load(Log log) {
        Map<String, Retired> retired = new LinkedHashMap<>();
        boolean found = false;
        ObjectMapper json = JsonMapper.builder().build();
        ClassLoader classLoader = RetiredSettings.class.getClassLoader();
        for (String file : List.of(METADATA, ADDITIONAL_METADATA)) {
            for (URL url : resources(classLoader, file)) {
                String text = read(url);
                if (!text.contains("\"" + PREFIX)) {
                    continue;
                }
                found |= METADATA.equals(file);
                for (JsonNode property : json.readTree(text).path("properties")) {
                    String name = property.path("name").asString("");
                    JsonNode deprecation = property.path("deprecation");
                    if (name.startsWith(PREFIX) && "error".equals(deprecation.path("level").asString(""))) {
                        retired.putIfAbsent(name, new Retired(name,
                                blankToNull(deprecation.path("replacement").asString("")),
                                deprecation.path("reason").asString("")));
                    }
                }
            }
        }
        if (!found) {
            log.warn("No " + METADATA + " on the classpath describes the seckill.* settings (built without the "
                    + "configuration processor?): retired settings are not checked");
        }
        return List.copyOf(retired.values());
    }

    private static List<URL> resources(ClassLoader classLoader, String file) {
        try {
            return Collections.list(classLoader.getResources(file));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + file + " on the classpath", e);
        }
    }

    private static String read(URL url) {
        try (InputStream in = url.openStream()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + url, e);
        }
    }

    private static String blankToNull(String value) {
        return value.isBlank() ? null : value;
    }

    /** Thrown at start-up; its message names every retired setting that is set, where, and what to do instead. */
    public static final class RetiredSettingsException extends IllegalStateException {

        private RetiredSettingsException(Map<Retired, List<String>> found) {
            super(message(found));
        }

        private static String message(Map<Retired, List<String>> found) {
            StringBuilder message = new StringBuilder("Retired settings are set; remove them (this instance does not "
                    + "start while they are):");
            found.forEach((setting, places) -> {
                message.append("\n - ").append(setting.name()).append(" (set in ").append(String.join("; ", places))
                        .append("): ");
                if (setting.replacement() != null) {
                    message.append("use ").append(setting.replacement()).append(" instead. ");
                }
                // the reason says why it went and, when nothing replaces it, says so
                message.append(setting.reason());
            });
            return message.toString();
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
