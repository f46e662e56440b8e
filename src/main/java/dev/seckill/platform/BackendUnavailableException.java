package dev.seckill.platform;

/**
 * An outage this code declares itself (no id lease, a backend that failed its probe): answered like MySQL or
 * Redis out of reach, 503 backend-unavailable, and waited out by the consumers. Subclasses say which.
 */
public abstract class BackendUnavailableException extends RuntimeException {

    protected BackendUnavailableException(String message, Throwable cause, boolean writableStackTrace) {
        super(message, cause, false, writableStackTrace);
    }
}
