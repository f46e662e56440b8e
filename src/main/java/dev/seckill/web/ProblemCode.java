package dev.seckill.web;

import dev.seckill.refusal.Reason;
import org.springframework.http.HttpStatus;

/**
 * Every refusal the API can give. The {@code code} string is part of the API contract: clients
 * (and the JMeter plans) branch on it, so never rename one; add new ones instead. A code that answers one of the
 * sale's {@link Reason}s names it and takes its title from it, so the words are written once, in the sale's terms;
 * {@link Refusals} checks that every reason has exactly one code.
 */
public enum ProblemCode {
    VOUCHER_NOT_FOUND(Reason.VOUCHER_NOT_FOUND, "voucher-not-found", HttpStatus.NOT_FOUND),
    SALE_NOT_STARTED(Reason.SALE_NOT_STARTED, "sale-not-started", HttpStatus.CONFLICT),
    SALE_ENDED(Reason.SALE_ENDED, "sale-ended", HttpStatus.CONFLICT),
    SOLD_OUT(Reason.SOLD_OUT, "sold-out", HttpStatus.CONFLICT),
    ALREADY_ORDERED(Reason.ALREADY_ORDERED, "already-ordered", HttpStatus.CONFLICT),
    REQUEST_IN_FLIGHT(Reason.REQUEST_IN_FLIGHT, "request-in-flight", HttpStatus.TOO_MANY_REQUESTS),
    VOUCHER_BUSY(Reason.VOUCHER_BUSY, "voucher-busy", HttpStatus.SERVICE_UNAVAILABLE),
    ORDER_NOT_FOUND(Reason.ORDER_NOT_FOUND, "order-not-found", HttpStatus.NOT_FOUND),
    ORDERS_PENDING(Reason.ORDERS_PENDING, "orders-pending", HttpStatus.CONFLICT),
    ORDER_UNCONFIRMED(Reason.ORDER_UNCONFIRMED, "order-unconfirmed", HttpStatus.SERVICE_UNAVAILABLE),
    ORDER_ON_ITS_WAY(Reason.ORDER_ON_ITS_WAY, "order-on-its-way", HttpStatus.CONFLICT),
    ORDER_PAID(Reason.ORDER_PAID, "order-paid", HttpStatus.CONFLICT),
    ORDER_EXPIRED(Reason.ORDER_EXPIRED, "order-expired", HttpStatus.CONFLICT),
    ORDER_CANCELLED(Reason.ORDER_CANCELLED, "order-cancelled", HttpStatus.CONFLICT),
    ORDER_REFUNDED(Reason.ORDER_REFUNDED, "order-refunded", HttpStatus.CONFLICT),
    PAYMENT_UNAVAILABLE(Reason.PAYMENT_UNAVAILABLE, "payment-unavailable", HttpStatus.SERVICE_UNAVAILABLE),
    WEBHOOK_SIGNATURE_INVALID("webhook-signature-invalid", HttpStatus.BAD_REQUEST,
            "The notification's signature is missing, malformed, too old or wrong"),
    PAYMENT_UNKNOWN("payment-unknown", HttpStatus.NOT_FOUND, "No such payment of ours"),
    PAYMENT_AMOUNT_MISMATCH("payment-amount-mismatch", HttpStatus.UNPROCESSABLE_CONTENT,
            "The notification's amount is not the payment's"),
    PAYMENT_NOT_SETTLED("payment-not-settled", HttpStatus.CONFLICT,
            "The provider does not report yet what the notification says happened"),

    TICKET_REQUIRED(Reason.TICKET_REQUIRED, "ticket-required", HttpStatus.FORBIDDEN),
    TICKET_INVALID(Reason.TICKET_INVALID, "ticket-invalid", HttpStatus.FORBIDDEN),
    CHALLENGE_REQUIRED(Reason.CHALLENGE_REQUIRED, "challenge-required", HttpStatus.FORBIDDEN),
    CHALLENGE_INVALID(Reason.CHALLENGE_INVALID, "challenge-invalid", HttpStatus.FORBIDDEN),
    CHALLENGE_SPENT(Reason.CHALLENGE_SPENT, "challenge-spent", HttpStatus.CONFLICT),
    NO_WAITING_ROOM(Reason.NO_WAITING_ROOM, "no-waiting-room", HttpStatus.NOT_FOUND),
    WAITING_ROOM_REQUIRED(Reason.WAITING_ROOM_REQUIRED, "waiting-room-required", HttpStatus.CONFLICT),
    NOT_ADMITTED(Reason.NOT_ADMITTED, "not-admitted", HttpStatus.FORBIDDEN),
    NOT_IN_WAITING_ROOM(Reason.NOT_IN_WAITING_ROOM, "not-in-waiting-room", HttpStatus.NOT_FOUND),
    DRAW_NOT_YET(Reason.DRAW_NOT_YET, "draw-not-yet", HttpStatus.CONFLICT),
    ROOM_CLOSED(Reason.ROOM_CLOSED, "room-closed", HttpStatus.CONFLICT),
    ARRIVAL_WINDOW_TOO_LONG(Reason.ARRIVAL_WINDOW_TOO_LONG, "arrival-window-too-long", HttpStatus.BAD_REQUEST),
    TOKEN_MISSING("token-missing", HttpStatus.UNAUTHORIZED, "A shopper token is required"),
    TOKEN_INVALID("token-invalid", HttpStatus.UNAUTHORIZED, "The shopper token is malformed or forged"),
    TOKEN_EXPIRED("token-expired", HttpStatus.UNAUTHORIZED, "The shopper token has expired"),
    ADMIN_CREDENTIALS_MISSING("admin-credentials-missing", HttpStatus.UNAUTHORIZED, "Admin credentials are required"),
    ADMIN_CREDENTIALS_INVALID("admin-credentials-invalid", HttpStatus.UNAUTHORIZED, "Admin credentials are wrong"),
    ACCESS_DENIED("access-denied", HttpStatus.FORBIDDEN, "These credentials may not do this"),
    CSRF_REJECTED("csrf-rejected", HttpStatus.FORBIDDEN, "A change made from a browser must carry the page's CSRF token"),
    RATE_LIMITED(Reason.RATE_LIMITED, "rate-limited", HttpStatus.TOO_MANY_REQUESTS),
    REQUEST_REJECTED("request-rejected", HttpStatus.BAD_REQUEST,
            "The request URL is not allowed (encoded or repeated slashes, dot segments, semicolons, control characters)"),

    LAB_UNKNOWN_STRATEGY("lab-unknown-strategy", HttpStatus.BAD_REQUEST, "The lock lab has no such strategy"),
    LAB_UNKNOWN_FAULT("lab-unknown-fault", HttpStatus.BAD_REQUEST, "The lock lab has no such fault"),
    LAB_FAULT_NOT_APPLICABLE("lab-fault-not-applicable", HttpStatus.BAD_REQUEST, "This fault does not apply to this strategy"),
    LAB_FAULT_NOT_IN_PLACE("lab-fault-not-in-place", HttpStatus.CONFLICT,
            "The lab's Redis nodes are not as this run needs them"),
    LAB_RUN_NOT_FOUND("lab-run-not-found", HttpStatus.NOT_FOUND, "No such lab run"),

    BAD_REQUEST("bad-request", HttpStatus.BAD_REQUEST, "The HTTP request could not be parsed"),
    VALIDATION_FAILED("validation-failed", HttpStatus.BAD_REQUEST, "The request is invalid"),
    INVALID_PARAMETER("invalid-parameter", HttpStatus.BAD_REQUEST, "A path or query parameter is invalid"),
    MISSING_PARAMETER("missing-parameter", HttpStatus.BAD_REQUEST, "A required parameter is missing"),
    MALFORMED_BODY("malformed-body", HttpStatus.BAD_REQUEST, "The request body is not valid JSON for this endpoint"),
    BODY_TOO_LARGE("body-too-large", HttpStatus.CONTENT_TOO_LARGE, "The request body is too large"),
    UNSUPPORTED_MEDIA_TYPE("unsupported-media-type", HttpStatus.UNSUPPORTED_MEDIA_TYPE, "Unsupported content type"),
    NOT_ACCEPTABLE("not-acceptable", HttpStatus.NOT_ACCEPTABLE, "No acceptable representation"),
    METHOD_NOT_ALLOWED("method-not-allowed", HttpStatus.METHOD_NOT_ALLOWED, "Method not allowed"),
    NOT_FOUND("not-found", HttpStatus.NOT_FOUND, "No such resource"),
    RANGE_NOT_SATISFIABLE("range-not-satisfiable", HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
            "The requested range is not within the resource"),
    URI_TOO_LONG("uri-too-long", HttpStatus.URI_TOO_LONG, "The request URL is too long"),
    HEADER_TOO_LARGE("header-too-large", HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Request headers too large"),
    NOT_IMPLEMENTED("not-implemented", HttpStatus.NOT_IMPLEMENTED,
            "The server does not implement what this request needs (its method or Transfer-Encoding)"),
    HTTP_VERSION_NOT_SUPPORTED("http-version-not-supported", HttpStatus.HTTP_VERSION_NOT_SUPPORTED,
            "HTTP version not supported"),
    BACKEND_UNAVAILABLE("backend-unavailable", HttpStatus.SERVICE_UNAVAILABLE,
            "MySQL or Redis cannot be reached right now; try again shortly"),
    INTERNAL_ERROR("internal-error", HttpStatus.INTERNAL_SERVER_ERROR, "Internal error");

    private final Reason reason;
    private final String code;
    private final HttpStatus status;
    private final String title;

    ProblemCode(Reason reason, String code, HttpStatus status) {
        this(reason, code, status, reason.title());
    }

    ProblemCode(String code, HttpStatus status, String title) {
        this(null, code, status, title);
    }

    private ProblemCode(Reason reason, String code, HttpStatus status, String title) {
        this.reason = reason;
        this.code = code;
        this.status = status;
        this.title = title;
    }

    /** The sale's reason this code answers; null for a code of the door (bad input, credentials, the lab...). */
    Reason reason() {
        return reason;
    }

    public String code() {
        return code;
    }

    public HttpStatus status() {
        return status;
    }

    public String title() {
        return title;
    }
}
