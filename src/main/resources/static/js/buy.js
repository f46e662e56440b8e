// The buy button: enabled only while the sale is open and stock is left, one request per click (the
// button is disabled before the request goes, and the request carries an Idempotency-Key, so a retry
// can never make a second order), then the order followed to its payment: Pay now or Cancel order while its
// window runs, and its end in words. A shopper who already holds an order of the voucher sees it on arrival.
// When the shop asks purchase tickets, the page's challenge widget solves a proof of work while the countdown runs,
// and a click first spends the solution on a ticket, then the ticket on the purchase.
// A voucher with a waiting room (data-room) hands the button to room.js: it joins the room (spending the solution,
// where tickets are asked), follows the place, and once let in the click buys with the room's admission as its ticket.
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
    'order-unconfirmed': 'Your order may have been taken but is not confirmed; it shows in My orders if it stands. Look there before buying again.',
    'token-missing': 'Please sign in again.',
    'token-invalid': 'Please sign in again.',
    'token-expired': 'Your sign-in has expired. Please sign in again.',
    'challenge-required': 'Your browser check is not done yet. Please click again in a moment.',
    'challenge-invalid': 'Your browser check ran out; it is being redone. Please click again in a moment.',
    'challenge-spent': 'Your browser check was used already; it is being redone. Please click again in a moment.',
    'ticket-required': 'Your browser check is not done yet. Please click again in a moment.',
    'ticket-invalid': 'Your purchase ticket ran out. Please click again.',
    'not-admitted': 'Your turn in the waiting room is not (or no longer) open; checking your place…',
    'waiting-room-required': 'This sale lets shoppers in through its waiting room. Please reload the page.'
  };
  var HOLDS_UNIT = { PENDING: true, AWAITING_PAYMENT: true, PAID: true };
  var order = window.seckillOrder;
  var button, status, box, timer, payButton, cancelButton, inFlight = false, done = false, soldOut = false;
  var shown = null, clock = null;
  var widget = null, solution = null, waitingForSolution = false, solutionWaiter = null;
  // A ticket not spent yet (its purchase was refused without taking a unit): the next click uses it again.
  var held = null;
  // The waiting room's hold on the button, for a voucher with one; null otherwise.
  var room = null;

  function csrf() {
    return window.seckillCsrfHeaders(false);
  }

  function say(text, kind) {
    status.textContent = text;
    status.dataset.kind = kind || '';
  }

  function refresh() {
    if (!button || inFlight || done) {
      return;
    }
    if (room) {
      room.refresh();
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
    order.read(orderId).then(function (a) {
      if (a.ok && a.body.status !== 'PENDING') {
        show(a.body);
      } else {
        setTimeout(function () { follow(orderId, attempt + 1); }, Math.min(2000, 300 + attempt * 200));
      }
    }).catch(function () {
      setTimeout(function () { follow(orderId, attempt + 1); }, 2000);
    });
  }

  function stock(change) {
    var left = document.getElementById('stock');
    if (left) {
      left.textContent = Math.max(0, Number(left.textContent) + change);
    }
  }

  /** The order as it is now: words for its state, and while it awaits payment the window and its two buttons. */
  function show(view) {
    if (clock) {
      clock.stop();
      clock = null;
    }
    if (view.status === 'FAILED' && room) {
      // The room gives back the admission that bought it, or queues the shopper again if its unit went to the next
      // place meanwhile; the room's words say which. A new purchase is a new key.
      shown = null;
      done = false;
      button.dataset.key = newKey();
      say(order.words('FAILED') + '.', 'FAILED');
      room.orderFailed();
      return;
    }
    shown = view;
    status.dataset.order = view.orderId;
    done = true;
    if (room) {
      room.stop();
    }
    if (widget) {
      // Bought: no further ticket, so no further proof of work.
      widget.hidden = true;
    }
    button.disabled = true;
    button.textContent = HOLDS_UNIT[view.status] ? 'Bought' : view.status === 'FAILED' ? 'Not bought' : 'Already ordered';
    box.hidden = view.status !== 'AWAITING_PAYMENT';
    if (view.status === 'PENDING') {
      say('Order ' + view.orderId + ' is on its way…', 'PENDING');
      follow(view.orderId, 0);
    } else if (view.status !== 'AWAITING_PAYMENT') {
      say(order.words(view.status), view.status);
    } else if (view.secondsLeft === undefined) {
      follow(view.orderId, 0);
    } else {
      say('Order ' + view.orderId + ' is yours once it is paid.', 'AWAITING_PAYMENT');
      payButton.disabled = cancelButton.disabled = false;
      clock = order.countdown(view.secondsLeft, function (left) {
        timer.textContent = 'Pay now — ' + left + ' left';
      }, function () {
        payButton.disabled = cancelButton.disabled = true;
        say('The payment window ran out; checking your order…', 'AWAITING_PAYMENT');
        order.afterWindow(view.orderId, show);
      });
    }
  }

  /** Pay or cancel answered: a refusal that means the order moved on shows where it went. */
  function answered(a, onOk) {
    if (a.ok) {
      onOk(a.body);
    } else if (order.moved(a.body)) {
      follow(shown.orderId, 0);
    } else {
      say(order.refusal(a.body), 'error');
      payButton.disabled = cancelButton.disabled = false;
    }
  }

  function failed() {
    say('No answer from the shop. Please try again.', 'error');
    payButton.disabled = cancelButton.disabled = false;
  }

  function pay() {
    payButton.disabled = cancelButton.disabled = true;
    say('Opening the payment page…', 'AWAITING_PAYMENT');
    order.pay(shown.orderId).then(function (a) {
      answered(a, function (payment) { window.location.assign(payment.checkoutUrl); });
    }).catch(failed);
  }

  function cancel() {
    payButton.disabled = cancelButton.disabled = true;
    order.cancel(shown.orderId).then(function (a) {
      answered(a, function (view) {
        stock(1);
        show(view);
      });
    }).catch(failed);
  }

  function parsed(r) {
    return r.json().then(function (body) {
      return { status: r.status, body: body, retry: r.headers.get('Retry-After'),
        replayed: r.headers.get('Idempotent-Replayed') === 'true' };
    });
  }

  /** The challenge widget's solutions: the latest one waits for a click; a click that came first waits for it. */
  function watchChallenge() {
    widget = document.getElementById('challenge');
    if (!widget) {
      return;
    }
    widget.addEventListener('statechange', function (e) {
      solution = e.detail.state === 'verified' ? e.detail.payload : null;
      if (solution && waitingForSolution) {
        waitingForSolution = false;
        buy();
      }
      if (solution && solutionWaiter) {
        var then = solutionWaiter;
        solutionWaiter = null;
        then();
      }
    });
  }

  /** A solution is spent by one ticket: solve the next one now, so a second click does not wait. */
  function solveAgain() {
    solution = null;
    if (widget && typeof widget.reset === 'function') {
      widget.reset();
      widget.verify();
    }
  }

  /**
   * The purchase ticket for this click: the one held, or a new one for the solution, or the refusal of it (answered
   * as a purchase's would be). Only a refusal that spent or condemned the solution costs a new proof of work; one
   * that came too early or was rate-limited keeps it for the next click.
   */
  function ticket(voucher) {
    if (held && held.until > Date.now()) {
      return Promise.resolve({ status: 200, body: { ticket: held.ticket } });
    }
    held = null;
    var headers = csrf();
    headers['Accept'] = 'application/json';
    headers['Content-Type'] = 'application/json';
    return fetch('/shop/seckill/' + voucher + '/ticket',
      { method: 'POST', headers: headers, body: JSON.stringify({ solution: solution }) }).then(parsed)
      .then(function (t) {
        var code = t.body && t.body.code;
        if (t.status === 200 || code === 'challenge-spent' || code === 'challenge-invalid') {
          solveAgain();
        }
        if (t.status === 200) {
          // A little before the server's expiry, so a ticket is never sent as it dies.
          held = { ticket: t.body.ticket, until: Date.now() + Math.max(0, t.body.expiresInSeconds - 3) * 1000 };
        }
        return t;
      });
  }

  function buy() {
    if (inFlight || done) {
      return;
    }
    var tickets = !room && button.dataset.tickets === 'true';
    if (tickets && !solution && !(held && held.until > Date.now())) {
      waitingForSolution = true;
      button.disabled = true;
      say('Checking your browser… your order goes as soon as that is done.', 'PLACING');
      return;
    }
    inFlight = true;
    button.disabled = true;
    say('Placing your order…', 'PLACING');
    var voucher = encodeURIComponent(button.dataset.voucher);
    // In a waiting room the admission is the ticket: no challenge of its own.
    (room ? Promise.resolve({ status: 200, body: { ticket: room.ticket() } })
      : tickets ? ticket(voucher) : Promise.resolve(null))
      .then(function (t) {
        if (t && t.status !== 200) {
          return t;
        }
        var headers = csrf();
        headers['Idempotency-Key'] = button.dataset.key;
        headers['Accept'] = 'application/json';
        if (t) {
          headers['Seckill-Ticket'] = t.body.ticket;
        }
        return fetch('/shop/seckill/' + voucher, { method: 'POST', headers: headers }).then(parsed);
      })
      .then(function (a) {
        inFlight = false;
        if (a.status === 201 || a.status === 202) {
          held = null;
          if (!a.replayed) {
            stock(-1);
          }
          show(a.body);
          return;
        }
        var code = a.body && a.body.code;
        if (code === 'ticket-invalid' || code === 'ticket-required' || code === 'already-ordered') {
          held = null;
        }
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
          return;
        } else if (code === 'sold-out') {
          soldOut = true;
        } else if (code === 'not-admitted' && room) {
          room.pollNow();
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
    watchChallenge();
    if (button.dataset.room === 'true' && window.seckillRoom) {
      room = window.seckillRoom.start(button, {
        say: say,
        solution: function () { return solution; },
        awaitSolution: function (then) {
          if (solution) {
            then();
          } else {
            solutionWaiter = then;
          }
        },
        solveAgain: solveAgain,
        // Joined: the room's admission is the ticket from now on, so no further proof of work.
        challengeDone: function () {
          if (widget) {
            widget.hidden = true;
          }
        },
        buy: buy
      }, button.dataset.tickets === 'true');
    }
    button.addEventListener('click', function () {
      if (room) {
        room.click();
      } else {
        buy();
      }
    });
    box = document.getElementById('order-box');
    timer = document.getElementById('pay-timer');
    payButton = document.getElementById('pay');
    cancelButton = document.getElementById('cancel');
    payButton.addEventListener('click', pay);
    cancelButton.addEventListener('click', cancel);
    refresh();
    // A shopper back on the page (from the checkout, or a day later) finds their order, not a button that
    // would only answer already-ordered.
    order.byVoucher(button.dataset.voucher).then(function (a) {
      // A FAILED order is not the shopper's any more (its unit went back): they may buy again.
      if (a.ok && !shown && a.body.status !== 'FAILED') {
        show(a.body);
      }
    }).catch(function () { /* no order known yet: the page stays as it is */ });
  });
  document.addEventListener('seckill:tick', refresh);
})();
