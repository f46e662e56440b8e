// My orders: the payment window of each order awaiting payment counts down, and its Pay and Cancel buttons work
// without leaving the page (Pay goes on to the provider's checkout). When a window runs out, the row reads its
// order again and says how it ended.
(function () {
  'use strict';
  var order = window.seckillOrder;
  var status;

  function say(text, kind) {
    status.textContent = text;
    status.dataset.kind = kind || '';
  }

  function buttons(row, enabled) {
    row.querySelectorAll('.order-actions button').forEach(function (b) { b.disabled = !enabled; });
  }

  function show(row, view) {
    if (row.clock) {
      row.clock.stop();
      row.clock = null;
    }
    row.dataset.status = view.status;
    var cell = row.querySelector('.order-state');
    if (view.status !== 'AWAITING_PAYMENT' || view.secondsLeft === undefined) {
      cell.textContent = order.words(view.status);
      row.querySelector('.order-actions').textContent = '';
      return;
    }
    row.clock = order.countdown(view.secondsLeft, function (left) {
      cell.textContent = order.words('AWAITING_PAYMENT') + ' — ' + left + ' left';
    }, function () {
      buttons(row, false);
      order.afterWindow(view.orderId, function (ended) { show(row, ended); });
    });
  }

  function reread(row) {
    order.read(row.dataset.order).then(function (a) {
      if (a.ok) {
        show(row, a.body);
      }
    });
  }

  function act(row, action) {
    buttons(row, false);
    order[action](row.dataset.order).then(function (a) {
      if (a.ok && action === 'pay') {
        window.location.assign(a.body.checkoutUrl);
      } else if (a.ok) {
        show(row, a.body);
        say('Order ' + row.dataset.order + ': ' + order.words(a.body.status), a.body.status);
      } else if (order.moved(a.body)) {
        reread(row);
      } else {
        say(order.refusal(a.body), 'error');
        buttons(row, true);
      }
    }).catch(function () {
      say('No answer from the shop. Please try again.', 'error');
      buttons(row, true);
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    status = document.getElementById('orders-status');
    document.querySelectorAll('#orders tr[data-order]').forEach(function (row) {
      if (row.dataset.status !== 'AWAITING_PAYMENT' || row.dataset.secondsLeft === undefined) {
        return;
      }
      show(row, { orderId: row.dataset.order, status: 'AWAITING_PAYMENT', secondsLeft: Number(row.dataset.secondsLeft) });
      row.querySelector('.pay').addEventListener('click', function () { act(row, 'pay'); });
      row.querySelector('.cancel').addEventListener('click', function () { act(row, 'cancel'); });
    });
  });
})();
