// The live sale dashboard: polls the voucher's live numbers every second and draws, instance by
// instance, accepted and refused orders per second, and the backlog against MySQL's write rate.
// Counters arrive cumulative (since each instance started); rates are the difference of two polls.
(function () {
  'use strict';
  var POLL_MS = 1000;
  var KEEP = 180;
  var voucherId, previous = null, ordersChart = null, backlogChart = null, seriesKey = '';
  var times = [], perInstance = {}, pending = [], writes = [];

  function sum(values) {
    return values.reduce(function (a, b) { return a + b; }, 0);
  }

  function refusedOf(instance) {
    return sum(Object.keys(instance.refused || {}).map(function (k) { return instance.refused[k]; }));
  }

  function text(id, value) {
    document.getElementById(id).textContent = value;
  }

  function width(el) {
    return Math.max(280, el.clientWidth || 600);
  }

  function palette(i) {
    return ['#0b57d0', '#b3261e', '#1e6b34', '#6b4e00', '#5b2c83', '#00636b'][i % 6];
  }

  function rebuildOrdersChart(names) {
    var el = document.getElementById('chart-orders');
    el.textContent = '';
    var series = [{ label: 'time' }];
    names.forEach(function (name, i) {
      series.push({ label: name + ' accepted/s', stroke: palette(i), width: 2 });
      series.push({ label: name + ' refused/s', stroke: palette(i), width: 1, dash: [6, 4] });
    });
    ordersChart = new uPlot({ width: width(el), height: 240, series: series, axes: [{}, { label: 'per second' }] },
      ordersData(names), el);
  }

  function ordersData(names) {
    return [times].concat(names.reduce(function (acc, name) {
      return acc.concat([perInstance[name].accepted, perInstance[name].refused]);
    }, []));
  }

  function push(arr, value) {
    arr.push(value);
    if (arr.length > KEEP) {
      arr.shift();
    }
  }

  function render(live) {
    var now = Date.parse(live.at) / 1000;
    var names = live.instances.map(function (i) { return i.instance; }).sort();
    var byName = {};
    live.instances.forEach(function (i) { byName[i.instance] = i; });
    var seconds = previous ? Math.max(0.001, now - previous.now) : 0;

    push(times, now);
    names.forEach(function (name) {
      if (!perInstance[name]) {
        perInstance[name] = { accepted: times.slice(1).map(function () { return null; }), refused: times.slice(1).map(function () { return null; }) };
      }
    });
    Object.keys(perInstance).forEach(function (name) {
      var cur = byName[name];
      var prev = previous && previous.byName[name];
      push(perInstance[name].accepted, cur && prev ? Math.max(0, (cur.accepted - prev.accepted) / seconds) : null);
      push(perInstance[name].refused, cur && prev ? Math.max(0, (refusedOf(cur) - refusedOf(prev)) / seconds) : null);
    });
    var written = sum(live.instances.map(function (i) { return i.written; }));
    var writeRate = previous ? Math.max(0, (written - previous.written) / seconds) : null;
    push(pending, live.pending);
    push(writes, writeRate);

    text('n-accepted', sum(live.instances.map(function (i) { return i.accepted; })));
    text('n-refused', sum(live.instances.map(refusedOf)));
    text('n-stock-redis', live.stockInRedis === null ? 'not cached' : live.stockInRedis);
    text('n-stock-mysql', live.stockInMySql);
    text('n-pending', live.pending);
    text('n-pending-age', live.oldestPendingAgeMillis + ' ms');
    text('n-writes', writeRate === null ? '–' : Math.round(writeRate));
    text('n-dead', live.deadLetters);
    // After the click: units held (awaiting + paid) and units that came back (expired, cancelled, refunded)
    text('n-awaiting', live.lifecycle.awaitingPayment);
    text('n-paid', live.lifecycle.paid);
    text('n-expired', live.lifecycle.expired);
    text('n-cancelled', live.lifecycle.cancelled);
    text('n-refunded', live.lifecycle.refunded);

    var tbody = document.querySelector('#instances tbody');
    tbody.textContent = '';
    live.instances.forEach(function (i) {
      var tr = document.createElement('tr');
      var refused = Object.keys(i.refused || {}).sort().map(function (k) { return k + ' ' + i.refused[k]; }).join(', ') || 'none';
      [i.instance, i.accepted, refused, i.written, i.givenUp].forEach(function (v) {
        var td = document.createElement('td');
        td.textContent = v;
        tr.appendChild(td);
      });
      tr.dataset.instance = i.instance;
      tbody.appendChild(tr);
    });
    text('live-updated', 'Updated ' + new Date().toLocaleTimeString() + ' from ' + live.instances.length + ' instance(s).');

    if (window.uPlot) {
      var all = Object.keys(perInstance).sort();
      if (all.join('|') !== seriesKey || !ordersChart) {
        seriesKey = all.join('|');
        rebuildOrdersChart(all);
      } else {
        ordersChart.setData(ordersData(all));
      }
      if (!backlogChart) {
        var el = document.getElementById('chart-backlog');
        backlogChart = new uPlot({ width: width(el), height: 200, series: [{ label: 'time' },
          { label: 'pending orders', stroke: '#6b4e00', width: 2 }, { label: 'MySQL writes/s', stroke: '#1e6b34', width: 2 }] },
          [times, pending, writes], el);
      } else {
        backlogChart.setData([times, pending, writes]);
      }
    }
    previous = { now: now, byName: byName, written: written };
  }

  function poll() {
    window.seckillAdmin.call('GET', '/admin/vouchers/' + voucherId + '/live').then(function (a) {
      if (a.ok) {
        render(a.body);
      } else {
        text('live-updated', 'Live numbers unavailable: ' + ((a.body && a.body.title) || a.status));
      }
    }).catch(function () {
      text('live-updated', 'Live numbers unavailable: no answer.');
    }).then(function () {
      setTimeout(poll, POLL_MS);
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    voucherId = document.body.dataset.voucher;
    if (voucherId && document.getElementById('live-numbers') && window.seckillAdmin) {
      poll();
    }
  });
})();
