// An order after the click, shared by the buy page and My orders: its state in words, the payment window's
// countdown, and the two things a shopper may do while it awaits payment (pay, cancel), each one call to the
// shop's API with the page's CSRF token.
(function () {
  'use strict';
  var WORDS = {
    PENDING: 'On its way…',
    AWAITING_PAYMENT: 'Awaiting payment',
    PAID: 'Paid',
    EXPIRED: 'Expired — the payment window ran out; the unit went back on sale',
    CANCELLED: 'Cancelled — the unit went back on sale',
    REFUNDED: 'Refunded — your payment arrived after the order had ended and went back to you',
    FAILED: 'Failed — the order could not be written, and the unit went back on sale'
  };
  var REFUSALS = {
    'order-on-its-way': 'Your order is still on its way; try again in a moment.',
    'payment-unavailable': 'The payment provider cannot be reached right now; try again shortly.',
    'rate-limited': 'Too many tries at once. Please wait a moment and try again.',
    'order-not-found': 'This order cannot be found.'
  };

  function headers() {
    return window.seckillCsrfHeaders(true);
  }

  /** Resolves to {status, ok, body}; a refusal is an answer too (problem+json with a code), not a failure. */
  function call(method, url) {
    return fetch(url, { method: method, headers: headers(), credentials: 'same-origin' }).then(function (r) {
      return r.json().catch(function () { return null; }).then(function (body) {
        return { status: r.status, ok: r.ok, body: body };
      });
    });
  }

  function path(orderId, action) {
    return '/shop/orders/' + encodeURIComponent(orderId) + (action ? '/' + action : '');
  }

  function mmss(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    return (m < 10 ? '0' : '') + m + ':' + (s % 60 < 10 ? '0' : '') + (s % 60);
  }

  /**
   * Counts an order's payment window down on this browser's own clock from the server's secondsLeft (a
   * difference, so a visitor's wrong clock does not matter): onTick(text) every second, onZero() once.
   */
  function countdown(secondsLeft, onTick, onZero) {
    var end = Date.now() + secondsLeft * 1000;
    var timer = null;
    function tick() {
      var left = (end - Date.now()) / 1000;
      onTick(mmss(left));
      if (left <= 0) {
        clearInterval(timer);
        onZero();
      }
    }
    timer = setInterval(tick, 1000);
    tick();
    return { stop: function () { clearInterval(timer); } };
  }

  /**
   * After the window's countdown ran out: the order stays AWAITING_PAYMENT until the next expiry scan (about a
   * second) ends it, or a payment that came in at the last moment makes it PAID, so read it until it moved.
   */
  function afterWindow(orderId, show, attempt) {
    attempt = attempt || 0;
    call('GET', path(orderId)).then(function (a) {
      if (a.ok && a.body.status === 'AWAITING_PAYMENT') {
        // A minute on, the scans are not running: leave the page as it is rather than poll for ever.
        if (attempt < 60) {
          setTimeout(function () { afterWindow(orderId, show, attempt + 1); }, 1000);
        }
      } else if (a.ok) {
        show(a.body);
      }
    }).catch(function () {
      setTimeout(function () { afterWindow(orderId, show, attempt + 1); }, 2000);
    });
  }

  window.seckillOrder = {
    words: function (status) { return WORDS[status] || status; },
    refusal: function (body) {
      var code = body && body.code;
      return REFUSALS[code] || (body && (body.detail || body.title)) || 'No answer from the shop. Please try again.';
    },
    read: function (orderId) { return call('GET', path(orderId)); },
    byVoucher: function (voucherId) { return call('GET', '/shop/orders?voucherId=' + encodeURIComponent(voucherId)); },
    pay: function (orderId) { return call('POST', path(orderId, 'payment')); },
    cancel: function (orderId) { return call('POST', path(orderId, 'cancel')); },
    countdown: countdown,
    afterWindow: afterWindow,
    /** The refusals of pay and cancel that mean the order moved on: read it again and show where it is. */
    moved: function (body) {
      return ['order-paid', 'order-expired', 'order-cancelled', 'order-refunded'].indexOf(body && body.code) >= 0;
    }
  };
})();
