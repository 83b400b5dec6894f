// A webpack-shaped CommonJS bundle, written for this suite, of a jUnit
// report built from handleSummary's data the way jslib's k6-summary
// builds one: a test case per threshold, failed when the threshold is
// not ok.
module.exports = (function (modules) {
  var cache = {};
  function load(id) {
    if (cache[id]) return cache[id].exports;
    var module = (cache[id] = { exports: {} });
    modules[id].call(module.exports, module, module.exports, load);
    return module.exports;
  }
  return load(0);
})([
  function (module, exports, load) {
    var escape = load(1).escape;
    exports.jUnit = function (data, options) {
      var name = (options && options.name) || 'k6 thresholds';
      var cases = [];
      var failures = 0;
      Object.keys(data.metrics).sort().forEach(function (metric) {
        var thresholds = data.metrics[metric].thresholds || {};
        Object.keys(thresholds).forEach(function (source) {
          var ok = thresholds[source].ok;
          if (!ok) failures++;
          cases.push('<testcase name="' + escape(metric + ' - ' + source) + '">' +
            (ok ? '' : '<failure message="failed"/>') + '</testcase>');
        });
      });
      return '<?xml version="1.0"?>\n<testsuites tests="' + cases.length + '" failures="' + failures + '">\n' +
        '<testsuite name="' + escape(name) + '" tests="' + cases.length + '" failures="' + failures + '">' +
        cases.join('') + '</testsuite>\n</testsuites>\n';
    };
  },
  function (module, exports) {
    exports.escape = function (s) {
      return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    };
  },
]);
