package dev.seckill.support;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One command to a Redis on 127.0.0.1, answered as {@code redis-cli} prints it when not on a terminal: a string as
 * it is, a number as digits, an array one element a line, nothing for nil. The servers of the tests run in
 * containers, and a {@code docker exec redis-cli} per call costs a process in a container each time (tens of
 * milliseconds on a quiet machine, seconds on a loaded one), which the faults timed inside a burst cannot afford.
 * A connection per command, as redis-cli makes; "Could not connect" when nothing listens, as redis-cli says.
 */
final class RedisCli {

    private static final int TIMEOUT_MILLIS = 10_000;

    private RedisCli() {
    }

    static String run(int port, List<String> args) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            ByteArrayOutputStream request = new ByteArrayOutputStream();
            request.writeBytes(("*" + args.size() + "\r\n").getBytes(StandardCharsets.UTF_8));
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                request.writeBytes(bytes);
                request.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
            }
            out.write(request.toByteArray());
            out.flush();
            List<String> lines = new ArrayList<>();
            reply(new BufferedInputStream(socket.getInputStream()), lines);
            return String.join("\n", lines).replace("\r", "").trim();
        } catch (ConnectException refused) {
            return "Could not connect to Redis at 127.0.0.1:" + port + ": Connection refused";
        } catch (SocketTimeoutException silent) {
            return "(no answer from 127.0.0.1:" + port + " within " + TIMEOUT_MILLIS + " ms)";
        } catch (IOException e) {
            return "Error: " + e.getMessage();
        }
    }

    private static void reply(InputStream in, List<String> lines) throws IOException {
        int type = in.read();
        if (type == -1) {
            throw new EOFException("the server closed the connection");
        }
        String line = line(in);
        switch (type) {
            case '+', '-', ':' -> lines.add(line);
            case '$' -> {
                int length = Integer.parseInt(line);
                if (length >= 0) {
                    byte[] bytes = in.readNBytes(length + 2);
                    lines.add(new String(bytes, 0, length, StandardCharsets.UTF_8));
                } else {
                    lines.add("");
                }
            }
            case '*' -> {
                int count = Integer.parseInt(line);
                for (int i = 0; i < count; i++) {
                    reply(in, lines);
                }
            }
            default -> throw new IOException("not a RESP reply: " + (char) type + line);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != '\n') {
            if (b == -1) {
                throw new EOFException("the server closed the connection");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.UTF_8);
    }
}
