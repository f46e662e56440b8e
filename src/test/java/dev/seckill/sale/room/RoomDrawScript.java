package dev.seckill.sale.room;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** {@code scripts/room-draw}, run as a shopper would run it against the published draw. */
final class RoomDrawScript {

    private RoomDrawScript() {
    }

    /** What the script printed; an AssertionError with its output when it found something wrong. */
    static String check(int port, long voucherId, long shopperId, String... more) throws IOException, InterruptedException {
        String[] command = new String[5 + more.length];
        command[0] = "scripts/room-draw";
        command[1] = "http://127.0.0.1:" + port;
        command[2] = Long.toString(voucherId);
        command[3] = "--shopper";
        command[4] = Long.toString(shopperId);
        System.arraycopy(more, 0, command, 5, more.length);
        Process script = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!script.waitFor(60, TimeUnit.SECONDS) || script.exitValue() != 0) {
            throw new AssertionError("scripts/room-draw failed:\n" + output);
        }
        return output;
    }
}
