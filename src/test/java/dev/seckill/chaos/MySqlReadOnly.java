package dev.seckill.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * {@code SET GLOBAL read_only} on the test database server, through the tests' admin account: from
 * {@link #on()} every account without the privilege to bypass it (READ ONLY ADMIN, SUPER) may read but not
 * write, as on a replica or a server a DBA froze. It holds for the whole server, other tests' databases
 * included, so it is switched off again by {@link #off()}, which every way out must call (a finally, an
 * {@code @AfterAll}), and failing that by a shutdown hook of the test JVM.
 */
final class MySqlReadOnly implements AutoCloseable {

    private final String adminUrl;
    private final Thread offAtExit = new Thread(this::offQuietly, "mysql-read-only-off");
    private boolean switchedOn;

    /** @param adminUrl any database of the server, reached with the tests' admin account */
    MySqlReadOnly(String adminUrl) {
        this.adminUrl = adminUrl;
    }

    /** Switches read_only on; refuses if it already was (someone else's: this one would switch it off after). */
    synchronized void on() throws SQLException {
        if (switchedOn) {
            return;
        }
        try (Connection db = ChaosCluster.admin(adminUrl); Statement sql = db.createStatement();
                ResultSet now = sql.executeQuery("SELECT @@GLOBAL.read_only")) {
            now.next();
            if (now.getInt(1) != 0) {
                throw new IllegalStateException("read_only is already ON on the database server; not touching it");
            }
            Runtime.getRuntime().addShutdownHook(offAtExit);
            switchedOn = true;
            // It waits for the global read lock (running writes); fail rather than hang behind a stuck one.
            sql.execute("SET SESSION lock_wait_timeout = 10");
            sql.execute("SET GLOBAL read_only = ON");
        }
    }

    /** Switches read_only off again if {@link #on()} switched it on; else does nothing. */
    synchronized void off() throws SQLException {
        if (!switchedOn) {
            return;
        }
        try (Connection db = ChaosCluster.admin(adminUrl); Statement sql = db.createStatement()) {
            sql.execute("SET GLOBAL read_only = OFF");
        }
        switchedOn = false;
        try {
            Runtime.getRuntime().removeShutdownHook(offAtExit);
        } catch (IllegalStateException exiting) {
            // the JVM is shutting down and runs the hook anyway: it finds the switch off
        }
    }

    @Override
    public void close() throws SQLException {
        off();
    }

    private void offQuietly() {
        try {
            off();
        } catch (SQLException e) {
            System.err.println("[chaos] could not switch MySQL's read_only OFF again: do it by hand (SET GLOBAL "
                    + "read_only = OFF): " + e);
        }
    }

}
