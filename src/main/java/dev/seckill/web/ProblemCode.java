package dev.seckill.web;

import org.springframework.http.HttpStatus;

/**
 * Every refusal the API can give. The {@code code} string is part of the API contract: clients
 * (and the JMeter plans) branch on it, so never rename one; add new ones instead.
 */
public enum ProblemCode {
    VOUCHER_NOT_FOUND("voucher-not-found", HttpStatus.NOT_FOUND, "Voucher not found"),
    SALE_NOT_STARTED("sale-not-started", HttpStatus.CONFLICT, "The sale has not started yet"),
    SALE_ENDED("sale-ended", HttpStatus.CONFLICT, "The sale has ended"),
    SOLD_OUT("sold-out", HttpStatus.CONFLICT, "Sold out"),
    ALREADY_ORDERED("already-ordered", HttpStatus.CONFLICT, "This shopper already ordered this voucher"),
    REQUEST_IN_FLIGHT("request-in-flight", HttpStatus.TOO_MANY_REQUESTS,
            "Another request of this shopper for this voucher is being processed"),
    VOUCHER_BUSY("voucher-busy", HttpStatus.SERVICE_UNAVAILABLE, "Too many orders in progress for this voucher"),
    ORDER_NOT_FOUND("order-not-found", HttpStatus.NOT_FOUND, "Order not found"),
    ORDERS_PENDING("orders-pending", HttpStatus.CONFLICT, "Accepted orders are still on their way to MySQL"),
    ORDER_UNCONFIRMED("order-unconfirmed", HttpStatus.SERVICE_UNAVAILABLE,
            "The order is not confirmed: it may stand; look it up before buying again"),
    ORDER_ON_ITS_WAY("order-on-its-way", HttpStatus.CONFLICT, "The order is still on its way; try again in a moment"),
    ORDER_PAID("order-paid", HttpStatus.CONFLICT, "The order is paid"),
    ORDER_EXPIRED("order-expired", HttpStatus.CONFLICT, "The order expired"),
    ORDER_CANCELLED("order-cancelled", HttpStatus.CONFLICT, "The order was cancelled"),
    ORDER_REFUNDED("order-refunded", HttpStatus.CONFLICT, "The order ended unpaid and its late payment was refunded"),
    PAYMENT_UNAVAILABLE("payment-unavailable", HttpStatus.SERVICE_UNAVAILABLE,
            "The payment provider cannot be reached right now; try again shortly"),
    WEBHOOK_SIGNATURE_INVALID("webhook-signature-invalid", HttpStatus.BAD_REQUEST,
            "The notification's signature is missing, malformed, too old or wrong"),
    PAYMENT_UNKNOWN("payment-unknown", HttpStatus.NOT_FOUND, "No such payment of ours"),
    PAYMENT_AMOUNT_MISMATCH("payment-amount-mismatch", HttpStatus.UNPROCESSABLE_CONTENT,
            "The notification's amount is not the payment's"),
    PAYMENT_NOT_SETTLED("payment-not-settled", HttpStatus.CONFLICT,
            "The provider does not report yet what the notification says happened"),

    TICKET_REQUIRED("ticket-required", HttpStatus.FORBIDDEN, "A purchase needs a ticket"),
    TICKET_INVALID("ticket-invalid", HttpStatus.FORBIDDEN, "The ticket is spent, expired, or not this shopper's"),
    CHALLENGE_REQUIRED("challenge-required", HttpStatus.FORBIDDEN, "A ticket for this voucher needs a solved challenge"),
    CHALLENGE_INVALID("challenge-invalid", HttpStatus.FORBIDDEN, "The challenge solution is not valid"),
    CHALLENGE_SPENT("challenge-spent", HttpStatus.CONFLICT, "This challenge solution was used before"),
    TOKEN_MISSING("token-missing", HttpStatus.UNAUTHORIZED, "A shopper token is required"),
    TOKEN_INVALID("token-invalid", HttpStatus.UNAUTHORIZED, "The shopper token is malformed or forged"),
    TOKEN_EXPIRED("token-expired", HttpStatus.UNAUTHORIZED, "The shopper token has expired"),
    ADMIN_CREDENTIALS_MISSING("admin-credentials-missing", HttpStatus.UNAUTHORIZED, "Admin credentials are required"),
    ADMIN_CREDENTIALS_INVALID("admin-credentials-invalid", HttpStatus.UNAUTHORIZED, "Admin credentials are wrong"),
    ACCESS_DENIED("access-denied", HttpStatus.FORBIDDEN, "These credentials may not do this"),
    CSRF_REJECTED("csrf-rejected", HttpStatus.FORBIDDEN, "A change made from a browser must carry the page's CSRF token"),
    RATE_LIMITED("rate-limited", HttpStatus.TOO_MANY_REQUESTS, "Too many requests; slow down"),
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

    private final String code;
    private final HttpStatus status;
    private final String title;

    ProblemCode(String code, HttpStatus status, String title) {
        this.code = code;
        this.status = status;
        this.title = title;
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
