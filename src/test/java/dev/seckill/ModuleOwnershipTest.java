package dev.seckill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.persistence.Entity;
import org.junit.jupiter.api.Test;
import org.springframework.data.repository.Repository;
import org.springframework.modulith.core.ApplicationModule;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One door per table and per Redis key: each module declares what it owns ({@link Owns} on its package-info), and
 * nothing outside it names those tables, key prefixes or scripts in its code, or uses its JPA entities and
 * repositories. The SQL, keys and script names are read from the string literals of {@code src/main/java}.
 */
class ModuleOwnershipTest {

    static final Path SOURCES = Path.of("src/main/java/dev/seckill");
    static final Path MIGRATIONS = Path.of("db/migration");

    private static final Pattern STRING = Pattern.compile("\"\"\"(.*?)\"\"\"|\"((?:[^\"\\\\\\n]|\\\\.)*)\"", Pattern.DOTALL);
    private static final Pattern SQL_TABLE = Pattern.compile(
            "(?i)\\b(?:from|into|update|join|table|exists)\\s+`?([a-z_][a-z0-9_]*)`?");
    private static final Pattern ENTITY_TABLE = Pattern.compile("@Table\\(\\s*name\\s*=\\s*\"(\\w+)\"");
    private static final Pattern CREATE_TABLE = Pattern.compile("(?i)CREATE TABLE\\s+(?:IF NOT EXISTS\\s+)?`?(\\w+)`?");

    /**
     * The tables of the sandbox provider, an application of its own that shares the shop's database (the shop's
     * migrations create them): owned by it, though it declares no {@link Owns}, since it uses no class of the shop's.
     */
    static final Map<String, String> OTHER_APPLICATIONS_TABLES = Map.of("sandbox_payment", "sandbox",
            "sandbox_delivery", "sandbox");

    /** module name -> what it owns */
    static Map<String, Owns> owners() {
        Map<String, Owns> owners = new TreeMap<>();
        for (ApplicationModule module : ModuleBoundariesTest.MODULES) {
            Package base = packageOf(module.getBasePackage().getName());
            Owns owns = base == null ? null : base.getAnnotation(Owns.class);
            if (owns != null) {
                owners.put(module.getIdentifier().toString(), owns);
            }
        }
        return owners;
    }

    private static Package packageOf(String name) {
        try {
            return Class.forName(name + ".package-info").getPackage();
        } catch (ClassNotFoundException e) {
            return null;
        }
    }

    @Test
    void everyTableHasExactlyOneOwner() throws IOException {
        List<String> tables = new ArrayList<>();
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            for (Path file : files.sorted().toList()) {
                Matcher m = CREATE_TABLE.matcher(Files.readString(file));
                while (m.find()) {
                    tables.add(m.group(1).toLowerCase());
                }
            }
        }
        assertThat(tables).isNotEmpty();
        Map<String, List<String>> ownersOf = new HashMap<>();
        owners().forEach((module, owns) -> Arrays.stream(owns.tables())
                .forEach(table -> ownersOf.computeIfAbsent(table, t -> new ArrayList<>()).add(module)));
        OTHER_APPLICATIONS_TABLES.forEach((table, application) ->
                ownersOf.computeIfAbsent(table, t -> new ArrayList<>()).add(application));
        for (String table : tables) {
            assertThat(ownersOf.get(table)).as("modules that declare @Owns(tables = \"%s\")", table).hasSize(1);
        }
        assertThat(tables).as("every owned table exists").containsAll(ownersOf.keySet());
    }

    @Test
    void noModuleNamesAnotherModulesTablesKeysOrScripts() throws IOException {
        assertThat(violations(SOURCES, owners())).isEmpty();
    }

    @Test
    void noModuleUsesAnotherModulesEntitiesOrRepositories() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.seckill");
        List<String> violations = new ArrayList<>();
        for (JavaClass owned : classes) {
            if (!owned.isAssignableTo(Repository.class) && !owned.isAnnotatedWith(Entity.class)) {
                continue;
            }
            String owner = moduleOf(owned.getPackageName());
            owned.getDirectDependenciesToSelf().forEach(dependency -> {
                String user = moduleOf(dependency.getOriginClass().getPackageName());
                if (!owner.equals(user)) {
                    violations.add(dependency.getDescription());
                }
            });
        }
        assertThat(violations).isEmpty();
    }

    /** What the sources under {@code root} name that another module owns: one line per finding. */
    static List<String> violations(Path root, Map<String, Owns> owners) throws IOException {
        Map<String, String> tableOwner = new HashMap<>();
        Map<String, String> keyOwner = new HashMap<>();
        Map<String, String> scriptOwner = new HashMap<>();
        tableOwner.putAll(OTHER_APPLICATIONS_TABLES);
        owners.forEach((module, owns) -> {
            Arrays.stream(owns.tables()).forEach(t -> tableOwner.put(t, module));
            Arrays.stream(owns.redisKeys()).forEach(k -> keyOwner.put(k, module));
            Arrays.stream(owns.scripts()).forEach(s -> scriptOwner.put(s, module));
        });
        List<String> violations = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.walk(root)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        for (Path source : sources) {
            Path relative = root.relativize(source);
            String module = relative.getNameCount() > 1 ? relative.getName(0).toString() : "";
            String code = Files.readString(source);
            Matcher entityTable = ENTITY_TABLE.matcher(code);
            while (entityTable.find()) {
                check(violations, relative, module, "table " + entityTable.group(1), tableOwner.get(entityTable.group(1)));
            }
            Matcher literal = STRING.matcher(code);
            while (literal.find()) {
                String text = literal.group(1) != null ? literal.group(1) : literal.group(2);
                Matcher sql = SQL_TABLE.matcher(text);
                while (sql.find()) {
                    check(violations, relative, module, "table " + sql.group(1), tableOwner.get(sql.group(1).toLowerCase()));
                }
                if (text.startsWith("seckill:")) {
                    Optional<String> prefix = keyOwner.keySet().stream().filter(text::startsWith)
                            .max(Comparator.comparingInt(String::length));
                    if (prefix.isEmpty()) {
                        violations.add(relative + ": Redis key \"" + text + "\" has no owner (@Owns(redisKeys))");
                    } else {
                        check(violations, relative, module, "Redis key " + text, keyOwner.get(prefix.get()));
                    }
                }
                if (text.endsWith(".lua")) {
                    String owner = scriptOwner.get(text);
                    if (owner == null) {
                        violations.add(relative + ": script " + text + " has no owner (@Owns(scripts))");
                    } else {
                        check(violations, relative, module, "script " + text, owner);
                    }
                }
            }
        }
        return violations;
    }

    private static void check(List<String> violations, Path file, String module, String what, String owner) {
        if (owner != null && !owner.equals(module)) {
            violations.add(file + " (module " + module + ") names " + what + ", owned by " + owner);
        }
    }

    static String moduleOf(String packageName) {
        String rest = packageName.startsWith("dev.seckill.") ? packageName.substring("dev.seckill.".length()) : "";
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }
}
