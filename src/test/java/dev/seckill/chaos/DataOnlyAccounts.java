package dev.seckill.chaos;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two database accounts of a real deployment ({@code scripts/cluster}'s seckill_app and seckill_migrate),
 * for one chaos cluster's database: {@code <name>_app} may only read and write data, {@code <name>_migrate}
 * may also change the schema and is used by Flyway alone. Created, and dropped again, with the tests' admin
 * account.
 */
final class DataOnlyAccounts implements AutoCloseable {

    /** MariaDB may see a connection from 127.0.0.1 as from 'localhost'; '%' for a server elsewhere. */
    private static final List<String> HOSTS = List.of("localhost", "127.0.0.1", "%");

    private static final Pattern JDBC_URL = Pattern.compile("jdbc:[a-z]+://[^/]+/([^?]+).*");

    private final String adminUrl;
    private final String app;
    private final String migrate;
    private final String password;

    private DataOnlyAccounts(String adminUrl, String app, String migrate, String password) {
        this.adminUrl = adminUrl;
        this.app = app;
        this.migrate = migrate;
        this.password = password;
    }

    /** Creates (or resets) both accounts on the database of {@code dbUrl}, creating that database if missing. */
    static DataOnlyAccounts create(String dbUrl, String name) throws SQLException {
        String prefix = name.replaceAll("[^A-Za-z0-9]", "_");
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        DataOnlyAccounts accounts = new DataOnlyAccounts(dbUrl, prefix + "_app", prefix + "_migrate",
                HexFormat.of().formatHex(secret));
        String database = "`" + databaseOf(dbUrl) + "`";
        try (Connection db = ChaosCluster.admin(dbUrl); Statement sql = db.createStatement()) {
            for (String host : HOSTS) {
                for (String user : List.of(accounts.app, accounts.migrate)) {
                    String account = "'" + user + "'@'" + host + "'";
                    sql.execute("CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY '" + accounts.password + "'");
                    sql.execute("ALTER USER " + account + " IDENTIFIED BY '" + accounts.password + "'");
                }
                sql.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON " + database + ".* TO '" + accounts.app + "'@'"
                        + host + "'");
                sql.execute("GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX, REFERENCES ON "
                        + database + ".* TO '" + accounts.migrate + "'@'" + host + "'");
            }
        }
        return accounts;
    }

    /** The instances' settings: data as {@code <name>_app}, Flyway as {@code <name>_migrate}. */
    Map<String, String> settings() {
        return Map.of("spring.datasource.username", app, "spring.datasource.password", password,
                "spring.flyway.user", migrate, "spring.flyway.password", password);
    }

    /** {@code jdbc:mysql://host:port/NAME?options} -> NAME */
    private static String databaseOf(String dbUrl) {
        Matcher url = JDBC_URL.matcher(dbUrl);
        if (!url.matches()) {
            throw new IllegalArgumentException("no database named in " + dbUrl);
        }
        return url.group(1);
    }

    @Override
    public void close() throws SQLException {
        try (Connection db = ChaosCluster.admin(adminUrl); Statement sql = db.createStatement()) {
            for (String host : HOSTS) {
                sql.execute("DROP USER IF EXISTS '" + app + "'@'" + host + "', '" + migrate + "'@'" + host + "'");
            }
        }
    }
}
