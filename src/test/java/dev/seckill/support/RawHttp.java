package dev.seckill.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.0 over a plain socket: the request line goes on the wire byte for byte (no client normalizes
 * {@code //}, {@code /./} or {@code %2F} away), and the client address can be chosen (any 127.x.y.z is
 * this machine), so a test can be "another client" to Nginx's per-IP limits.
 */
public final class RawHttp {

    private RawHttp() {
    }

    public static Answer send(int port, String requestLine, String... headers) {
        return send("127.0.0.1", port, requestLine, null, headers);
    }

    public static Answer send(String fromAddress, int port, String requestLine, String body, String... headers) {
        StringBuilder request = new StringBuilder(requestLine).append(" HTTP/1.0\r\nHost: 127.0.0.1\r\n");
        for (int i = 0; i < headers.length; i += 2) {
            request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        byte[] content = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            request.append("Content-Type: application/json\r\nContent-Length: ").append(content.length).append("\r\n");
        }
        request.append("\r\n");
        return exchange(fromAddress, port, request.toString().getBytes(StandardCharsets.ISO_8859_1), content, requestLine);
    }

    /**
     * {@code request} on the wire exactly as given (request line, headers, blank line and body; ISO-8859-1), for
     * what {@link #send} cannot spell: another HTTP version, another Host, a Transfer-Encoding. It should ask the
     * server to close ({@code Connection: close}, or HTTP/1.0): the answer is read to the end of the stream.
     */
    public static Answer sendRaw(String fromAddress, int port, String request) {
        return exchange(fromAddress, port, request.getBytes(StandardCharsets.ISO_8859_1), new byte[0],
                request.lines().findFirst().orElse(""));
    }

    private static Answer exchange(String fromAddress, int port, byte[] head, byte[] content, String requestLine) {
        try (Socket socket = new Socket()) {
            socket.bind(new InetSocketAddress(fromAddress, 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head);
            try {
                out.write(content);
                out.flush();
            } catch (IOException refusedMidBody) {
                // a server may answer (413) and close before it has read the body: read its answer below
            }
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            String shown = requestLine.length() > 120 ? requestLine.substring(0, 120) + "..." : requestLine;
            throw new IllegalStateException("Request '" + shown + "' to port " + port + " failed: " + e, e);
        }
    }

    private static Answer parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.UTF_8);
        int headerEnd = text.indexOf("\r\n\r\n");
        if (headerEnd < 0) {
            throw new IllegalStateException("Not an HTTP answer: " + text);
        }
        String[] lines = text.substring(0, headerEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        return new Answer(status, headers, text.substring(headerEnd + 4));
    }

    public record Answer(int status, Map<String, String> headers, String body) {

        public String contentType() {
            return headers.getOrDefault("content-type", "");
        }

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        /**
         * Same checks as {@link Api.Response#expectProblem}, for a raw answer, and the body's {@code status} is the
         * answer's.
         */
        public Answer expectProblem(int expectedStatus, String expectedCode) {
            Api.Response response = new Api.Response(status, contentType(), header("X-Instance-Id"), body);
            response.expectProblem(expectedStatus, expectedCode);
            if (response.json().path("status").asInt() != status) {
                throw new AssertionError("The problem's status field is not the answer's " + status + ": " + body);
            }
            return this;
        }

        public Api.Response asResponse() {
            return new Api.Response(status, contentType(), header("X-Instance-Id"), body);
        }
    }

}
