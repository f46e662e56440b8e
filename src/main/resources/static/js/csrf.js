// Every page's calls to its own API carry the page's CSRF token (the meta tags the layout writes), written once here.
(function () {
  'use strict';
  /** The headers of a call from this page: the CSRF header when the page has one, and Accept: JSON when asked. */
  window.seckillCsrfHeaders = function (acceptJson) {
    var header = document.querySelector('meta[name="csrf-header"]');
    var token = document.querySelector('meta[name="csrf-token"]');
    var h = acceptJson ? { 'Accept': 'application/json' } : {};
    if (header && token) {
      h[header.content] = token.content;
    }
    return h;
  };
}());
