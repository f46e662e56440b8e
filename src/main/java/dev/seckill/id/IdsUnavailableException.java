package dev.seckill.id;

import dev.seckill.platform.BackendUnavailableException;

/**
 * No id can be issued right now: this instance holds no worker number (its lease was lost or could
 * not be renewed in time). Issuing anyway could duplicate an id another instance issues, and a
 * duplicate order id silently drops an accepted order; refusing is the safe answer. The web layer
 * answers 503 backend-unavailable (MySQL, where leases live, is the usual cause).
 */
public class IdsUnavailableException extends BackendUnavailableException {

    public IdsUnavailableException(String message) {
        // No stack trace: during an outage every request throws this, and the cause is logged once
        // by the lease keeper.
        super(message, null, false);
    }
}
