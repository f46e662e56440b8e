// Admin pages: every change goes through the admin JSON API, with the page's CSRF token, so the forms
// check exactly the API's rules and show its problem details next to the fields they name.
(function () {
  'use strict';

  function csrfHeaders() {
    return window.seckillCsrfHeaders(true);
  }

  var NUMBER = new Intl.NumberFormat('en');

  function call(method, url, body) {
    var headers = csrfHeaders();
    var init = { method: method, headers: headers, credentials: 'same-origin' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    // Absolute, from the origin: a page opened as http://user:password@host/... resolves a relative URL with
    // the credentials in it, and fetch refuses such a URL outright (the browser still sends the login it
    // cached for the page).
    return fetch(window.location.origin + url, init).then(function (r) {
      return r.text().then(function (text) {
        var json = null;
        try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
        return { status: r.status, ok: r.ok, body: json };
      });
    });
  }

  function problemText(body) {
    if (!body) {
      return 'No answer from the server.';
    }
    return (body.title || 'Refused') + (body.detail ? ': ' + body.detail : '') + (body.code ? ' (' + body.code + ')' : '');
  }

  // The API names a broken rule by its field; a rule over two fields by its method (endAfterBegin).
  var FIELD_OF = { endAfterBegin: 'endTime', arrivalWindowWithinTheSale: 'arrivalWindow',
    admissionRateForARoom: 'admissionsPerSecond' };

  function showFieldErrors(form, errors) {
    form.querySelectorAll('.error').forEach(function (p) { p.textContent = ''; });
    form.querySelectorAll('[aria-invalid]').forEach(function (el) { el.removeAttribute('aria-invalid'); });
    var first = null;
    (errors || []).forEach(function (e) {
      var field = FIELD_OF[e.field] || e.field;
      var input = form.querySelector('[name="' + field + '"]');
      var slot = document.getElementById(field + '-error');
      if (slot) {
        slot.textContent = (slot.textContent ? slot.textContent + ' ' : '') + field + ' ' + e.message;
      }
      if (input) {
        input.setAttribute('aria-invalid', 'true');
        first = first || input;
      }
    });
    if (first) {
      first.focus();
    }
  }

  function isoOf(localValue) {
    if (!localValue) {
      return null;
    }
    var d = new Date(localValue);
    return isNaN(d.getTime()) ? localValue : d.toISOString();
  }

  function numberOrText(value) {
    if (value === '') {
      return null;
    }
    var n = Number(value);
    return isNaN(n) ? value : n;
  }

  // The API takes an ISO-8601 duration; the form asks whole seconds. Anything else goes as typed, for the API to judge.
  function durationOfSeconds(value) {
    if (value === '') {
      return null;
    }
    return /^-?\d+$/.test(value) ? 'PT' + value + 'S' : value;
  }

  function wireCreateForm(form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var submit = form.querySelector('button[type="submit"]');
      submit.disabled = true;
      var v = function (name) { return form.elements[name].value.trim(); };
      var body = {
        title: v('title'), description: v('description') || null, price: numberOrText(v('price')),
        stock: numberOrText(v('stock')), beginTime: isoOf(v('beginTime')), endTime: isoOf(v('endTime')),
        challengeDifficulty: v('challengeDifficulty') === '' ? null : numberOrText(v('challengeDifficulty')),
        paymentWindow: durationOfSeconds(v('paymentWindow')),
        arrivalWindow: durationOfSeconds(v('arrivalWindow')),
        admissionsPerSecond: numberOrText(v('admissionsPerSecond'))
      };
      call('POST', '/admin/vouchers', body).then(function (a) {
        submit.disabled = false;
        if (a.status === 201) {
          window.location.assign('/admin/ui/vouchers/' + a.body.id);
          return;
        }
        showFieldErrors(form, a.body && a.body.errors);
        document.getElementById('form-error').textContent = problemText(a.body);
      }).catch(function () {
        submit.disabled = false;
        document.getElementById('form-error').textContent = 'No answer from the server; nothing was created.';
      });
    });
  }

  function sentence(audit) {
    var lines = [];
    lines.push(audit.orders + ' orders in MySQL from ' + audit.distinctBuyers + ' shoppers; ' + audit.initialStock
      + ' units were put on sale and ' + audit.dbStock + ' are left in MySQL.');
    lines.push(audit.redisStock === null ? 'Redis holds no stock counter for this voucher: reconcile to rebuild it.'
      : 'Redis says ' + audit.redisStock + ' left' + (audit.redisAgrees ? ', which agrees with MySQL' : ', which does NOT agree with MySQL')
        + ' (after ' + audit.pendingOrders + ' orders on their way and ' + audit.syncUnitsInFlight + ' units held by requests in flight).');
    lines.push(audit.duplicateBuyers === 0 ? 'No shopper bought twice.' : audit.duplicateBuyers + ' shoppers bought twice.');
    lines.push(audit.oversold === 0 ? 'Nothing was oversold.' : audit.oversold + ' units were oversold.');
    lines.push(audit.failedOrders + ' orders were given up, ' + audit.deadLetters + ' dead letters.');
    var l = audit.lifecycle;
    if (l) {
      lines.push(l.paid + ' paid, ' + l.awaitingPayment + ' awaiting payment, ' + l.expired + ' expired, '
        + l.cancelled + ' cancelled, ' + l.refunded + ' refunded after a late payment.');
      lines.push((l.expired + l.cancelled + l.refunded) + ' units came back on sale from orders that ended unpaid; Redis took back '
        + l.unitsReturnedToRedis + (l.returnsOwed ? ' and is still owed ' + l.returnsOwed + '.' : ', none owed.'));
    }
    if (audit.redisDataLost) {
      lines.push('Redis lost its data at ' + audit.redisDataLostAt + ': orders accepted then and not yet in MySQL cannot be counted.');
    }
    return lines;
  }

  function wireVoucherPage(voucherId) {
    var verdict = document.getElementById('audit-verdict');
    var list = document.getElementById('audit-lines');
    function audit() {
      verdict.textContent = 'Reading the audit…';
      call('GET', '/admin/vouchers/' + voucherId + '/audit').then(function (a) {
        if (!a.ok) {
          verdict.textContent = problemText(a.body);
          return;
        }
        verdict.textContent = a.body.consistent ? 'The sale adds up.' : 'The sale does NOT add up yet.';
        verdict.className = a.body.consistent ? 'verdict-ok' : 'verdict-bad';
        list.textContent = '';
        sentence(a.body).forEach(function (line) {
          var li = document.createElement('li');
          li.textContent = line;
          list.appendChild(li);
        });
      });
    }
    document.getElementById('audit-refresh').addEventListener('click', audit);
    audit();

    var reset = document.getElementById('reset-stock');
    reset.addEventListener('submit', function (event) {
      event.preventDefault();
      var units = reset.elements.stock.value.trim();
      var body = { stock: numberOrText(units), deleteOrders: reset.elements.deleteOrders.checked };
      call('PUT', '/admin/vouchers/' + voucherId + '/stock', body).then(function (a) {
        var out = document.getElementById('reset-result');
        showFieldErrors(reset, a.body && a.body.errors);
        if (a.ok) {
          out.textContent = 'Stock reset: ' + a.body.stock + ' of ' + a.body.initialStock + ' units for sale.';
          audit();
        } else {
          out.textContent = problemText(a.body);
          var slot = document.getElementById('reset-units-error');
          if (a.body && a.body.errors && a.body.errors.length) {
            slot.textContent = a.body.errors.map(function (e) { return e.field + ' ' + e.message; }).join('; ');
          }
        }
      });
    });

    var room = document.getElementById('room-controls');
    if (room) {
      var roomPath = '/admin/vouchers/' + voucherId + '/room';
      var showRoom = function (a) {
        var out = document.getElementById('room-state');
        if (!a.ok) {
          out.textContent = problemText(a.body);
          return;
        }
        var c = a.body;
        var rate = NUMBER.format(c.admissionsPerSecond) + ' a second'
          + (c.admissionsPerSecond !== c.voucherRate ? ' (created with ' + NUMBER.format(c.voucherRate) + ')' : '');
        out.textContent = c.closed ? 'Closed: nobody more joins or is let in.'
          : c.paused ? 'Paused: nobody more is let in until you resume; then ' + rate + '.'
          : 'Letting places in, ' + rate + '.';
        document.getElementById('room-pause').disabled = c.paused || c.closed;
        document.getElementById('room-resume').disabled = !c.paused || c.closed;
        document.getElementById('room-close').disabled = c.closed;
        room.querySelector('#room-rate button').disabled = c.closed;
      };
      var control = function (body) {
        return call('PUT', roomPath, body).then(function (a) {
          var rateForm = document.getElementById('room-rate');
          showFieldErrors(rateForm, a.body && a.body.errors);
          document.getElementById('room-rate-error').textContent = a.body && a.body.errors && a.body.errors.length
            ? a.body.errors.map(function (e) { return e.field + ' ' + e.message; }).join('; ') : '';
          showRoom(a);
        });
      };
      call('GET', roomPath).then(showRoom);
      document.getElementById('room-pause').addEventListener('click', function () { control({ paused: true }); });
      document.getElementById('room-resume').addEventListener('click', function () { control({ paused: false }); });
      document.getElementById('room-rate').addEventListener('submit', function (event) {
        event.preventDefault();
        control({ admissionsPerSecond: numberOrText(document.getElementById('room-rate-value').value.trim()) });
      });
      document.getElementById('room-close').addEventListener('click', function () {
        if (window.confirm('Close the waiting room for good? Nobody more joins or is let in.')) {
          control({ closed: true });
        }
      });
    }

    document.getElementById('reconcile').addEventListener('click', function () {
      var out = document.getElementById('reconcile-result');
      out.textContent = 'Reconciling…';
      call('POST', '/admin/vouchers/' + voucherId + '/reconcile').then(function (a) {
        out.textContent = a.ok ? 'Rebuilt: ' + a.body.redisStock + ' units left in Redis, ' + a.body.buyers + ' buyers, '
          + a.body.pendingOrders + ' orders on their way.' + (a.body.unknowable ? ' ' + a.body.unknowable : '')
          : problemText(a.body);
        audit();
      });
    });
  }

  window.seckillAdmin = { call: call };
  document.addEventListener('DOMContentLoaded', function () {
    var create = document.getElementById('new-voucher');
    if (create) {
      wireCreateForm(create);
    }
    var voucherId = document.body.dataset.voucher;
    if (voucherId && document.getElementById('audit-verdict')) {
      wireVoucherPage(voucherId);
    }
  });
})();
