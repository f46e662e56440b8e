// A voucher's waiting room on its buy page (the page has a #room section only for a voucher with one). For anyone:
// the lottery's commitment from the start, and once the arrival window has closed a link to the draw, so the order can
// be checked against it. For a signed-in shopper, buy.js hands the buy button over to the room (seckillRoom.start):
// it joins at a click (after the browser check where tickets are asked) and learns its place once; then it watches the
// room's public state (GET /vouchers/{id}/room/now, the same for everyone, which Nginx answers from its cache) and asks
// for its admission only when the places let in reach its own. Once let in, the button buys with the admission until
// its time runs out. So a waiting shopper costs the instances a join, a place, an admission and a purchase, however
// long the sale, and a sold-out room is watched slowly, from the cache, in case units come back.
(function () {
  'use strict';
  var NUMBER = new Intl.NumberFormat('en');
  var ORDINAL = new Intl.PluralRules('en', { type: 'ordinal' });
  var SUFFIX = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
  // The draw's moment in the visitor's own time zone, to the second: the page says when places are drawn.
  var CLOCK = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  var WORDS = {
    'sale-not-started': 'The sale has not started yet.',
    'sale-ended': 'The sale has ended.',
    'rate-limited': 'Too many tries at once. Please wait a moment and try again.',
    'challenge-required': 'Your browser check is not done yet; you join as soon as it is.',
    'challenge-invalid': 'Your browser check ran out; it is being redone, and you join as soon as it is done.',
    'challenge-spent': 'Your browser check was used already; it is being redone, and you join as soon as it is done.',
    'backend-unavailable': 'The shop is having trouble right now. Please try again in a moment.',
    'not-in-waiting-room': 'You are not in the waiting room. Please join it.',
    'no-waiting-room': 'This sale has no waiting room. Please reload the page.',
    'room-closed': 'The shop closed this sale\'s waiting room: nobody more joins.'
  };

  function ordinal(n) {
    return NUMBER.format(n) + SUFFIX[ORDINAL.select(n)];
  }

  /** A chance in words: "1 in 40" below a tenth, else a percentage. */
  function chance(p) {
    if (p >= 0.1) {
      return Math.round(p * 100) + ' %';
    }
    return p > 0 ? '1 in ' + NUMBER.format(Math.round(1 / p)) : 'no chance';
  }

  function about(seconds) {
    if (seconds < 60) {
      return 'about ' + Math.max(1, seconds) + ' s';
    }
    return seconds < 5400 ? 'about ' + NUMBER.format(Math.round(seconds / 60)) + ' min'
      : 'about ' + NUMBER.format(Math.round(seconds / 3600)) + ' h';
  }

  function parsed(r) {
    return r.json().catch(function () { return null; }).then(function (body) {
      return { status: r.status, body: body, retry: Number(r.headers.get('Retry-After')) || 0 };
    });
  }

  function problemWords(a) {
    var code = a.body && a.body.code;
    return WORDS[code] || (a.body && (a.body.detail || a.body.title)) || 'Something went wrong.';
  }

  var section, voucher, drawAt;

  /** The commitment, kept from before the draw; the draw's link once the window has closed. */
  function announce() {
    fetch('/vouchers/' + encodeURIComponent(voucher) + '/room', { headers: { 'Accept': 'application/json' } })
      .then(parsed).then(function (a) {
        if (a.status !== 200 || !a.body || !a.body.commitment) {
          return;
        }
        var hash = document.getElementById('room-hash');
        hash.textContent = a.body.commitment.slice(0, 16) + '…';
        hash.title = a.body.commitment;
        document.getElementById('room-commitment').hidden = false;
        command(a.body.commitment);
      }).catch(function () { /* the commitment stays unshown; the page works without it */ });
  }

  /** The line that checks the draw, for this shop's address (and this shopper's place, when signed in). */
  function command(commitment) {
    var shopper = section.dataset.shopper;
    document.getElementById('room-command').textContent = 'scripts/room-draw ' + window.location.origin + ' ' + voucher
      + (commitment ? ' --commitment ' + commitment : '') + (shopper ? ' --shopper ' + shopper : '');
  }

  function drawLink() {
    var check = document.getElementById('room-check');
    if (check && check.hidden && window.seckillClock.now() >= drawAt) {
      check.hidden = false;
    }
  }

  /**
   * The room for the shopper's buy button. ui: say(text, kind) for the page's status line; solution() the browser
   * check's current solution (null while there is none or none is asked); awaitSolution(then) calls then once
   * there is one; solveAgain(); challengeDone() hides the check once joined; buy() places the order.
   */
  function start(button, ui, tickets) {
    var place = document.getElementById('room-place');
    var detail = document.getElementById('room-detail');
    var timer = document.getElementById('room-timer');
    var base = '/shop/seckill/' + encodeURIComponent(button.dataset.voucher) + '/room';
    var publicState = '/vouchers/' + encodeURIComponent(button.dataset.voucher) + '/room/now';
    var joined = false, joining = false, stopped = false, state = null, held = null, myPlace = null;
    var next = null, admission = null, busyUntil = 0, joinRetries = 0, asked = 0;
    // The odds the shop gave this place when it last asked (the public state carries none of its own); the places let in
    // as the public state last said; whether the last order failed (the next answer says what became of the turn).
    var odds = null, lastAdmitted = 0, afterFailure = false;
    // The room takes joins from its pre-queue's start; a page open then joins by itself, each at its own moment within
    // the pre-queue's first minute (at most half of it), so that pages left open do not all join at one instant.
    var begin = Number(button.dataset.begin), end = Number(button.dataset.end);
    var joinsFrom = Number(document.getElementById('room').dataset.joinsFrom) || begin;
    var autoJoinAt = joinsFrom + Math.random() * Math.min(60000, (begin - joinsFrom) / 2);
    var autoJoined = false;

    /** Whether the room takes joins now: from the pre-queue's start until the sale ends. */
    function joinable() {
      var now = window.seckillClock.now();
      return now >= joinsFrom && now < end;
    }

    function show(headline, more, kind) {
      place.textContent = headline;
      place.dataset.state = kind;
      detail.textContent = more || '';
      button.dataset.roomState = kind;
    }

    function endAdmission() {
      if (admission) {
        admission.stop();
        admission = null;
      }
      held = null;
      timer.hidden = true;
    }

    /** then() after about this many seconds, each page a little apart so that a crowd does not ask in step. */
    function later(then, seconds) {
      clearTimeout(next);
      if (!stopped) {
        next = setTimeout(then, Math.max(1, seconds) * (1 + Math.random() / 4) * 1000);
      }
    }

    /** The shopper's own place, asked of the shop now: not more often than every second. */
    function askPlace(withinSeconds) {
      clearTimeout(next);
      var wait = Math.max(Math.random() * (withinSeconds || 0) * 1000, asked + 1000 - Date.now());
      next = setTimeout(poll, Math.max(0, wait));
    }

    /** What the room's public state says of this shopper's place, without asking the shop. */
    function follow(n) {
      var before = lastAdmitted;
      lastAdmitted = n.drawn ? n.admittedUpTo : lastAdmitted;
      if (!n.drawn) {
        render({ state: 'in-the-draw', drawAt: n.drawAt, waiting: n.waiting });
        later(watch, n.pollAfterSeconds);
      } else if (n.admittedUpTo < before) {
        // Fewer let in than before: a fresh sale started the room again from the front, and a place this shopper was
        // queued again at is theirs no longer: asked again.
        myPlace = null;
        askPlace(Math.max(1, Math.ceil(n.waiting / 2000)));
      } else if (myPlace != null && n.admittedUpTo >= myPlace && !n.soldOut) {
        // Before a closed room's words: an admission given before the close stays good.
        askPlace(1);
      } else if (n.closed) {
        render({ state: 'room-closed', place: myPlace, waiting: n.waiting });
      } else if (myPlace == null) {
        // The draw is done: the place, once, each page at its own moment within a spread that grows with the room.
        askPlace(Math.max(1, Math.ceil(n.waiting / 2000)));
      } else if (n.soldOut) {
        render({ state: 'sold-out', place: myPlace, waiting: n.waiting });
        later(watch, n.pollAfterSeconds);
      } else {
        var ahead = Math.max(0, myPlace - 1 - n.admittedUpTo);
        var likely = ahead < n.unitsLeft;
        render({ state: 'waiting', place: myPlace, ahead: ahead, waiting: n.waiting, unitsLeft: n.unitsLeft,
          turnLikely: likely, paused: n.paused, odds: likely ? null : odds,
          etaSeconds: likely && !n.paused ? Math.ceil((ahead + 1) / n.admissionsPerSecond) : null });
        later(watch, n.pollAfterSeconds);
      }
    }

    /** The room's public state: from Nginx's cache, never this shopper's. */
    function watch() {
      if (stopped) {
        return;
      }
      fetch(publicState, { headers: { 'Accept': 'application/json' }, credentials: 'omit' })
        .then(parsed).then(function (a) {
          if (stopped) {
            return;
          }
          if (a.status === 200 && a.body) {
            follow(a.body);
            return;
          }
          later(watch, Math.max(a.retry, 3));
        })
        .catch(function () {
          later(watch, 3);
        });
    }

    /** After the shop's answer for this shopper: wait on the public state, or on the admission's own clock. */
    function afterPlace(p) {
      if (p.state === 'in-the-draw' || p.state === 'waiting' || p.state === 'sold-out') {
        later(watch, p.pollAfterSeconds);
      }
    }

    /** The place as the server said it, in words; the button follows it. */
    function render(p) {
      state = p.state;
      if (p.place != null) {
        myPlace = p.place;
      }
      if (p.state === 'in-the-draw') {
        endAdmission();
        show('In the draw: places are drawn at ' + CLOCK.format(new Date(p.drawAt)) + ' (' + NUMBER.format(p.waiting)
          + ' in the room)', 'Everyone who joins before then gets a place by the lottery below, however fast they clicked.',
          p.state);
      } else if (p.state === 'waiting' && afterFailure) {
        // The failed order's unit went to the next place before the turn could be given back: queued again.
        endAdmission();
        show('Your order failed, and its unit went to the next place: you are queued again, ' + ordinal(p.place),
          NUMBER.format(p.ahead) + ' ahead of you · ' + NUMBER.format(p.waiting) + ' in the room', p.state);
      } else if (p.state === 'waiting' && p.paused) {
        endAdmission();
        show('You are ' + ordinal(p.place) + ' · the shop paused the room',
          'Nobody is let in until it resumes; your place stays yours.', p.state);
      } else if (p.state === 'waiting' && p.turnLikely === false) {
        // No time promised where the units run out first: the numbers, the odds, and what could still bring the turn.
        endAdmission();
        if (p.odds != null) {
          odds = p.odds;
        }
        show('You are ' + ordinal(p.place) + ' · units will likely run out before your turn'
          + (odds != null ? ' (about ' + chance(odds) + ' that it comes)' : ''),
          NUMBER.format(p.unitsLeft) + (p.unitsLeft === 1 ? ' unit' : ' units') + ' left for the '
          + NUMBER.format(p.ahead) + ' ahead of you; places move on when a turn goes unused or an order is cancelled',
          p.state);
      } else if (p.state === 'waiting') {
        endAdmission();
        show('You are ' + ordinal(p.place) + (p.etaSeconds != null ? ' · ' + about(p.etaSeconds) : ''),
          NUMBER.format(p.ahead) + ' ahead of you · ' + NUMBER.format(p.waiting) + ' in the room', p.state);
      } else if (p.state === 'admitted') {
        show(afterFailure ? 'Your order failed, and your turn is given back: buy now' : 'Your turn: buy now',
          'You were ' + ordinal(p.place) + ' in the room.', p.state);
        held = p.ticket;
        if (admission) {
          admission.stop();
        }
        timer.hidden = false;
        // Counted on this browser's clock from the server's seconds left, like the payment window.
        admission = window.seckillOrder.countdown(p.ticketExpiresInSeconds, function (left) {
          timer.textContent = 'Your turn ends in ' + left;
        }, function () {
          endAdmission();
          refresh();
          askPlace(0);
        });
      } else if (p.state === 'admission-lapsed') {
        // The button queues the shopper again, behind everyone: a join of a lapsed shopper does that.
        endAdmission();
        show('Your turn came and passed before you bought: you may queue again, behind everyone.',
          'You were ' + ordinal(p.place) + ' in the room.', p.state);
        joined = false;
      } else if (p.state === 'admission-used') {
        // A purchase of this shopper's spent the admission (its answer may have been lost): the order is theirs.
        endAdmission();
        show('Your turn was used: a purchase of yours took a unit.', 'Your order is under My orders.', p.state);
        stopped = true;
      } else if (p.state === 'room-closed') {
        endAdmission();
        show('The shop closed the waiting room: nobody more is let in.',
          p.place ? 'You were ' + ordinal(p.place) + ' in the room.' : '', p.state);
        stopped = true;
      } else if (p.state === 'sold-out') {
        endAdmission();
        show('All units are taken; if an unpaid order expires, places move on',
          p.place ? 'You are ' + ordinal(p.place) + ' of ' + NUMBER.format(p.waiting) + ' in the room.' : '', p.state);
      }
      afterFailure = false;
      refresh();
    }

    function poll() {
      clearTimeout(next);
      if (stopped) {
        return;
      }
      asked = Date.now();
      fetch(base + '/place', { headers: { 'Accept': 'application/json' }, credentials: 'same-origin' })
        .then(parsed).then(function (a) {
          if (stopped) {
            return;
          }
          if (a.status === 200) {
            joined = true;
            render(a.body);
            afterPlace(a.body);
            return;
          }
          var code = a.body && a.body.code;
          if (code === 'not-in-waiting-room') {
            // Not joined (or the room lost this place): the button joins again.
            joined = false;
            state = null;
            endAdmission();
            place.textContent = detail.textContent = '';
            refresh();
            return;
          }
          if (code && code.indexOf('token-') === 0) {
            window.location.assign('/sign-in?expired&next=' + encodeURIComponent(window.location.pathname));
            return;
          }
          ui.say(problemWords(a), code || 'error');
          later(poll, Math.max(a.retry, 5));
        })
        .catch(function () {
          ui.say('No answer from the shop; still trying…', 'error');
          later(poll, 3);
        });
    }

    function join() {
      if (joining || joined || stopped) {
        return;
      }
      // Queuing again after a lapsed turn: the shopper is in the room already, so no second proof of work.
      if (tickets && !ui.solution() && state !== 'admission-lapsed') {
        joining = true;
        refresh();
        ui.say('Checking your browser… you join as soon as that is done.', 'PLACING');
        ui.awaitSolution(function () {
          joining = false;
          join();
        });
        return;
      }
      joining = true;
      refresh();
      ui.say('Joining the waiting room…', 'PLACING');
      var headers = window.seckillCsrfHeaders(true);
      var init = { method: 'POST', headers: headers, credentials: 'same-origin' };
      if (tickets) {
        headers['Content-Type'] = 'application/json';
        init.body = JSON.stringify({ solution: ui.solution() });
      }
      fetch(base, init).then(parsed).then(function (a) {
        joining = false;
        var code = a.body && a.body.code;
        if (a.status === 200) {
          joined = true;
          joinRetries = 0;
          ui.say('', '');
          ui.challengeDone();
          render(a.body);
          afterPlace(a.body);
          return;
        }
        if (code === 'challenge-spent' || code === 'challenge-invalid' || code === 'challenge-required') {
          ui.say(problemWords(a), code);
          ui.solveAgain();
          join();
          return;
        }
        if (code && code.indexOf('token-') === 0) {
          window.location.assign('/sign-in?expired&next=' + encodeURIComponent(window.location.pathname));
          return;
        }
        if (a.status >= 500 && joinAgain(a.retry)) {
          return;
        }
        var words = problemWords(a);
        if (code === 'sale-not-started' && a.body.detail) {
          words += ' ' + a.body.detail + '.';
        }
        ui.say(words, code || 'error');
        if (a.retry) {
          // Refused for now (too early, too many tries): the button comes back when the server said to ask again.
          busyUntil = Date.now() + a.retry * 1000;
        }
        refresh();
      }).catch(function () {
        joining = false;
        if (joinAgain(2)) {
          return;
        }
        ui.say('No answer from the shop. Please try again: joining twice still holds one place.', 'error');
        refresh();
      });
    }

    /**
     * A join the shop could not answer (an instance lost on the way, no answer at all) is sent again by the page, a
     * few times: joining twice still holds one place. False once it has tried enough: the button is the shopper's.
     */
    function joinAgain(afterSeconds) {
      if (joinRetries >= 5) {
        // given up: the shopper's next click tries as many times again
        joinRetries = 0;
        return false;
      }
      joinRetries++;
      joining = true;
      refresh();
      ui.say('The shop did not answer; joining again…', 'PLACING');
      setTimeout(function () {
        joining = false;
        join();
      }, Math.max(1, afterSeconds || 1) * 1000);
      return true;
    }

    /** The button's words and whether it may be clicked, at every tick of the page's clock. */
    function refresh() {
      drawLink();
      if (stopped && state !== 'admission-used' && state !== 'room-closed') {
        return;
      }
      var phase = window.seckillClock.phase(begin, end);
      if (!joined && state === 'admission-lapsed') {
        button.disabled = joining || phase === 'ended';
        button.textContent = phase === 'ended' ? 'Sale ended' : joining ? 'Joining…' : 'Queue again';
        return;
      }
      if (!joined) {
        var open = joinable();
        if (open && phase === 'before' && !joining && !autoJoined && window.seckillClock.now() >= autoJoinAt) {
          autoJoined = true;
          join();
        }
        button.disabled = joining || !open || Date.now() < busyUntil;
        button.textContent = phase === 'ended' ? 'Sale ended' : !open ? 'Not on sale yet'
          : joining ? 'Joining…' : 'Join the waiting room';
        return;
      }
      button.disabled = !(state === 'admitted' && held);
      button.textContent = state === 'admitted' ? 'Buy now' : state === 'in-the-draw' ? 'In the draw'
        : state === 'sold-out' ? 'Sold out' : state === 'admission-used' ? 'Bought'
        : state === 'room-closed' ? 'Room closed'
        : 'Waiting for your turn';
    }

    // A shopper back on the page while the room takes joins may be in it already: their place, not a second join.
    if (joinable()) {
      poll();
    }
    refresh();

    return {
      /** The click: join, or buy once let in. */
      click: function () {
        if (!joined) {
          join();
        } else if (state === 'admitted' && held) {
          ui.buy();
        }
      },
      /** The admission the purchase carries as its Seckill-Ticket. */
      ticket: function () { return held; },
      refresh: refresh,
      /** The purchase was refused: what the room says now (let in still, sold out, turn passed). */
      pollNow: poll,
      /**
       * The order this admission bought was not written (FAILED) and its unit went back on sale: the room gives the
       * admission back whole, and the next look at the place shows it with a fresh ticket.
       */
      orderFailed: function () {
        stopped = false;
        joined = true;
        afterFailure = true;
        askPlace(0);
      },
      /** Bought (or an order is there already): the room has nothing more to say. */
      stop: function () {
        stopped = true;
        clearTimeout(next);
        endAdmission();
        place.textContent = detail.textContent = '';
      }
    };
  }

  window.seckillRoom = { start: start };
  document.addEventListener('DOMContentLoaded', function () {
    section = document.getElementById('room');
    if (!section) {
      return;
    }
    voucher = section.dataset.voucher;
    drawAt = Number(section.dataset.drawAt);
    command(null);
    announce();
    drawLink();
    document.addEventListener('seckill:tick', drawLink);
  });
})();
