// The buy button: enabled only while the sale is open and stock is left, one request per click (the
// button is disabled before the request goes, and the request carries an Idempotency-Key, so a retry
// can never make a second order), then the order followed until it is CONFIRMED or FAILED.
(function () {
  'use strict';
  var WORDS = {
    'sold-out': 'Sold out: every unit has been taken.',
    'already-ordered': 'You already bought this voucher.',
    'rate-limited': 'Too many tries at once. Please wait a moment and try again.',
    'sale-not-started': 'The sale has not started yet.',
    'sale-ended': 'The sale has ended.',
    'voucher-busy': 'The voucher is busy right now. Please try again in a moment.',
    'request-in-flight': 'Your previous click is still being handled.',
    'backend-unavailable': 'The shop is having trouble right now. Please try again in a moment.',
    'order-unconfirmed': 'Your order was taken but is not confirmed yet; it shows in My orders once it is.',
    'token-missing': 'Please sign in again.',
    'token-invalid': 'Please sign in again.',
    'token-expired': 'Your sign-in has expired. Please sign in again.'
  };
  var button, status, inFlight = false, done = false, soldOut = false;

  function csrf() {
    var header = document.querySelector('meta[name="csrf-header"]');
    var token = document.querySelector('meta[name="csrf-token"]');
    var h = {};
    if (header && token) {
      h[header.content] = token.content;
    }
    return h;
  }

  function say(text, kind) {
    status.textContent = text;
    status.dataset.kind = kind || '';
  }

  function refresh() {
    if (!button || inFlight || done) {
      return;
    }
    var phase = window.seckillClock.phase(Number(button.dataset.begin), Number(button.dataset.end));
    button.disabled = soldOut || phase !== 'open' || Number(button.dataset.stock) <= 0;
    button.textContent = soldOut || Number(button.dataset.stock) <= 0 ? 'Sold out'
      : phase === 'before' ? 'Not on sale yet' : phase === 'ended' ? 'Sale ended' : 'Buy now';
  }

  function newKey() {
    if (window.crypto && window.crypto.randomUUID) {
      return window.crypto.randomUUID();
    }
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }

  function follow(orderId, attempt) {
    fetch('/shop/orders/' + encodeURIComponent(orderId), { headers: { 'Accept': 'application/json' } })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (a) {
        if (a.ok && a.body.status === 'CONFIRMED') {
          say('Order ' + orderId + ' is CONFIRMED.', 'CONFIRMED');
        } else if (a.ok && a.body.status === 'FAILED') {
          say('Order ' + orderId + ' FAILED: it could not be written, and your unit went back on sale.', 'FAILED');
        } else {
          say('Order ' + orderId + ' is PENDING…', 'PENDING');
          setTimeout(function () { follow(orderId, attempt + 1); }, Math.min(2000, 300 + attempt * 200));
        }
      })
      .catch(function () {
        setTimeout(function () { follow(orderId, attempt + 1); }, 2000);
      });
  }

  function buy() {
    if (inFlight || done) {
      return;
    }
    inFlight = true;
    button.disabled = true;
    say('Placing your order…', 'PLACING');
    var headers = csrf();
    headers['Idempotency-Key'] = button.dataset.key;
    headers['Accept'] = 'application/json';
    fetch('/shop/seckill/' + encodeURIComponent(button.dataset.voucher), { method: 'POST', headers: headers })
      .then(function (r) { return r.json().then(function (body) { return { status: r.status, body: body, retry: r.headers.get('Retry-After'), replayed: r.headers.get('Idempotent-Replayed') === 'true' }; }); })
      .then(function (a) {
        inFlight = false;
        if (a.status === 201 || a.status === 202) {
          done = true;
          var stock = document.getElementById('stock');
          if (stock && !a.replayed) {
            stock.textContent = Math.max(0, Number(stock.textContent) - 1);
          }
          button.textContent = 'Bought';
          if (a.body.status === 'CONFIRMED') {
            say('Order ' + a.body.orderId + ' is CONFIRMED.', 'CONFIRMED');
          } else {
            say('Order ' + a.body.orderId + ' is PENDING…', 'PENDING');
            follow(a.body.orderId, 0);
          }
          return;
        }
        var code = a.body && a.body.code;
        var words = WORDS[code] || (a.body && (a.body.detail || a.body.title)) || 'Something went wrong.';
        if (code === 'sale-not-started' && a.body.detail) {
          words += ' ' + a.body.detail + '.';
        }
        say(words, code || 'error');
        if (code === 'already-ordered') {
          done = true;
          button.textContent = 'Bought';
          if (a.body.orderId) {
            follow(a.body.orderId, 0);
          }
        } else if (code === 'sold-out') {
          soldOut = true;
        } else if (code === 'rate-limited' || code === 'voucher-busy' || code === 'backend-unavailable') {
          inFlight = true;
          setTimeout(function () { inFlight = false; refresh(); }, 1000 * Math.max(1, Number(a.retry) || 1));
          return;
        } else if (code && code.indexOf('token-') === 0) {
          window.location.assign('/sign-in?expired&next=' + encodeURIComponent(window.location.pathname));
        }
        refresh();
      })
      .catch(function () {
        inFlight = false;
        say('No answer from the shop. Your click may still have bought the voucher: try again, it will not buy twice.', 'error');
        refresh();
      });
  }

  document.addEventListener('DOMContentLoaded', function () {
    button = document.getElementById('buy');
    status = document.getElementById('order-status');
    if (!button) {
      return;
    }
    // One key per page view: every retry of this page's purchase is the same purchase.
    button.dataset.key = newKey();
    button.addEventListener('click', buy);
    refresh();
  });
  document.addEventListener('seckill:tick', refresh);
})();
