package dev.seckill;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md tells the truth about the {@code seckill.*} settings: every setting of the configuration
 * metadata (which the build writes from the settings records, their {@code @DefaultValue}s included) is documented
 * with the metadata's default, the doc names no setting that does not exist, and the retired settings (error-level
 * deprecations) are listed under "Retired settings" with their replacement.
 */
class ConfigurationDocTest {

    static final Path DOC = Path.of("docs/configuration.md");
    static final String METADATA = "META-INF/spring-configuration-metadata.json";
    static final String RETIRED_SECTION = "Retired settings";
    static final String NO_REPLACEMENT = "nothing";

    /** {@code | `seckill.x` | second cell | ... |} */
    private static final Pattern ROW = Pattern.compile("^\\|\\s*`(seckill\\.[^`]+)`\\s*\\|\\s*([^|]*?)\\s*\\|");
    /** a value read from the environment: {@code ${NAME:fallback}}, the fallback optional */
    private static final Pattern PLACEHOLDER = Pattern.compile("^\\$\\{[^:}]+(?::(.*))?}$");

    /** name -> metadata entry, seckill.* only */
    static Map<String, JsonNode> metadata;
    /** setting -> default cell, from the tables outside the retired section */
    static Map<String, String> documented;
    /** setting -> replacement cell, from the retired section */
    static Map<String, String> documentedRetired;

    @BeforeAll
    static void read() throws IOException {
        metadata = new TreeMap<>();
        JsonMapper json = JsonMapper.builder().build();
        for (URL url : Collections.list(ConfigurationDocTest.class.getClassLoader().getResources(METADATA))) {
            try (InputStream in = url.openStream()) {
                for (JsonNode property : json.readTree(in).path("properties")) {
                    String name = property.path("name").asString("");
                    if (name.startsWith("seckill.")) {
                        metadata.put(name, property);
                    }
                }
            }
        }
        assertThat(metadata).as("seckill.* properties in the classpath's " + METADATA).isNotEmpty();

        documented = new LinkedHashMap<>();
        documentedRetired = new LinkedHashMap<>();
        String section = "";
        for (String line : Files.readAllLines(DOC)) {
            if (line.startsWith("## ")) {
                section = line.substring(3).trim();
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                Map<String, String> table = section.equals(RETIRED_SECTION) ? documentedRetired : documented;
                assertThat(table.put(row.group(1), row.group(2))).as(row.group(1) + " documented twice").isNull();
            }
        }
    }

    static boolean retired(JsonNode property) {
        return "error".equals(property.path("deprecation").path("level").asString(""));
    }

    @Test
    void everySettingIsDocumented() {
        List<String> missing = new ArrayList<>();
        metadata.forEach((name, property) -> {
            if (!(retired(property) ? documentedRetired : documented).containsKey(name)) {
                missing.add(name + (retired(property) ? " (under \"" + RETIRED_SECTION + "\")" : ""));
            }
        });
        assertThat(missing).as("settings missing from " + DOC).isEmpty();
    }

    @Test
    void everyDocumentedSettingExists() {
        TreeSet<String> unknown = new TreeSet<>();
        documented.keySet().stream().filter(name -> !metadata.containsKey(name) || retired(metadata.get(name)))
                .forEach(unknown::add);
        documentedRetired.keySet().stream().filter(name -> !metadata.containsKey(name) || !retired(metadata.get(name)))
                .forEach(name -> unknown.add(name + " (listed as retired)"));
        assertThat(unknown).as("documented in " + DOC + " but not (or not so) in the metadata").isEmpty();
    }

    @Test
    void everyDocumentedDefaultIsTheRecordsDefault() {
        List<String> wrong = new ArrayList<>();
        documented.forEach((name, cell) -> {
            JsonNode property = metadata.get(name);
            if (property == null) {
                return; // everyDocumentedSettingExists
            }
            String actual = property.has("defaultValue") ? property.get("defaultValue").asString() : null;
            String shown = documentedDefault(cell);
            Matcher placeholder = PLACEHOLDER.matcher(shown == null ? "" : shown);
            if (placeholder.matches()) {
                // read from the environment in application.yml: its fallback, if any, is the record's default
                if (actual != null && !actual.equals(placeholder.group(1))) {
                    wrong.add(name + ": " + cell + ", the record's default is " + actual);
                }
            } else if (actual == null ? shown != null : !actual.equals(shown)) {
                wrong.add(name + ": documented " + cell + ", the record's default is "
                        + (actual == null ? "none" : "`" + actual + "`"));
            }
        });
        assertThat(wrong).as("defaults in " + DOC).isEmpty();
    }

    @Test
    void everyRetiredSettingNamesItsReplacement() {
        List<String> wrong = new ArrayList<>();
        documentedRetired.forEach((name, cell) -> {
            JsonNode property = metadata.get(name);
            if (property == null) {
                return; // everyDocumentedSettingExists
            }
            String replacement = property.path("deprecation").path("replacement").asString(NO_REPLACEMENT);
            String shown = cell.startsWith("`") && cell.endsWith("`") ? cell.substring(1, cell.length() - 1) : cell;
            if (!replacement.equals(shown)) {
                wrong.add(name + ": documented " + cell + ", the metadata's replacement is " + replacement);
            }
        });
        assertThat(wrong).as("replacements in the \"" + RETIRED_SECTION + "\" section of " + DOC).isEmpty();
    }

    /** The value of a default cell shown as code ({@code `500ms`}), or {@code null} when it shows none. */
    private static String documentedDefault(String cell) {
        if (cell.length() > 1 && cell.startsWith("`") && cell.endsWith("`") && cell.indexOf('`', 1) == cell.length() - 1) {
            return cell.substring(1, cell.length() - 1).trim();
        }
        return null;
    }
}
