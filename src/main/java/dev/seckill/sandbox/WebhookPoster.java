package dev.seckill.sandbox;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * One POST of a notification to the merchant's webhook, with short timeouts: a merchant that does not answer within
 * them is retried later like one that answered 500, and no deliverer waits long on it.
 */
final class WebhookPoster {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(2);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();

    /** Empty when the merchant answered 2xx, else what went wrong. */
    Optional<String> post(URI url, String body, String signature) {
        HttpRequest request = HttpRequest.newBuilder(url).timeout(ANSWER_TIMEOUT)
                .header("Content-Type", "application/json")
                .header(NotificationSigner.HEADER, signature)
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
        try {
            HttpResponse<Void> answer = http.send(request, HttpResponse.BodyHandlers.discarding());
            int status = answer.statusCode();
            return status >= 200 && status < 300 ? Optional.empty() : Optional.of("HTTP " + status);
        } catch (IOException e) {
            return Optional.of(e.getClass().getSimpleName() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted: the sandbox is stopping");
        }
    }
}
