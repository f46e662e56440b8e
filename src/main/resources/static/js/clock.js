// The server's clock, not the visitor's: a page carries the server's time when it was rendered
// (data-server-now on <body>), and every countdown runs on that offset. A visitor whose clock is
// wrong by an hour still sees the sale open when the server opens it (and the server refuses
// early clicks all the same).
(function () {
  'use strict';
  var body = document.body;
  var rendered = Number(body && body.dataset.serverNow);
  var offset = rendered ? rendered - Date.now() : 0;

  function serverNow() {
    return Date.now() + offset;
  }

  function two(n) {
    return (n < 10 ? '0' : '') + n;
  }

  function span(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var d = Math.floor(s / 86400);
    var text = two(Math.floor(s / 3600) % 24) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60);
    return d > 0 ? d + 'd ' + text : text;
  }

  /** 'before', 'open' or 'ended' for a sale window at the server's time now. */
  function phase(begin, end) {
    var now = serverNow();
    return now < begin ? 'before' : now < end ? 'open' : 'ended';
  }

  function tick() {
    document.querySelectorAll('.countdown').forEach(function (el) {
      var begin = Number(el.dataset.begin);
      var end = Number(el.dataset.end);
      var p = phase(begin, end);
      el.dataset.phase = p;
      // A sold-out sale's words come from the server, which alone knows whether unpaid orders may give units back.
      el.textContent = p === 'before' ? 'Starts in ' + span(begin - serverNow())
        : p === 'ended' ? 'Sale ended' : el.dataset.soldOut || 'On sale · ends in ' + span(end - serverNow());
    });
    document.dispatchEvent(new CustomEvent('seckill:tick'));
  }

  window.seckillClock = { now: serverNow, phase: phase };
  document.addEventListener('DOMContentLoaded', function () {
    tick();
    setInterval(tick, 250);
  });
})();
