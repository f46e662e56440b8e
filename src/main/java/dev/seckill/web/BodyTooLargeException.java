package dev.seckill.web;

import java.io.IOException;

/** Raised while reading a chunked body that grows past the limit; surfaces as 413 body-too-large. */
class BodyTooLargeException extends IOException {

    BodyTooLargeException(long limit) {
        super("The request body exceeds " + limit + " bytes");
    }
}
