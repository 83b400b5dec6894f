// Shaped like a webpack bundle of a k6 script (CommonJS output): the
// default function and options are exports.default and exports.options,
// k6 and a helper come through require, and a UMD wrapper guards it.
(function (root, factory) {
  if (typeof module === 'object' && module.exports) {
    factory(module.exports, require('k6'), require('./lib/counter.js'));
  } else {
    factory((root.script = {}), root.k6, root.counter);
  }
})(this, function (exports, k6, counter) {
  'use strict';
  Object.defineProperty(exports, '__esModule', { value: true });
  exports.options = { iterations: 2, thresholds: { checks: ['rate==1'] } };
  exports.default = function () {
    counter.checked('helper required');
    k6.check(1, { 'k6 required': function (x) { return x === 1; } });
  };
});
