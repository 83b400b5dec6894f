// Records every uncaught exception, failed resource load, rejected promise,
// Content-Security-Policy violation, console.error and alert() (the report
// never calls it: a call is an injection) of the page in
// the #errors element, shown when not empty, so that a reader and a headless
// browser test both see them.
(function () {
  "use strict";
  var pending = [];
  function record(msg) {
    var el = document.getElementById("errors");
    if (!el) { pending.push(msg); return; }
    while (pending.length) { el.textContent += pending.shift() + "\n"; }
    el.textContent += msg + "\n";
    el.hidden = false;
  }
  window.addEventListener("error", function (e) {
    if (e.error || e.message) {
      record("uncaught: " + (e.message || e.error) + " at " + (e.filename || "?") + ":" + (e.lineno || 0));
    } else if (e.target && e.target !== window) {
      record("resource failed to load: <" + (e.target.tagName || "?").toLowerCase() + "> " + (e.target.src || e.target.href || ""));
    }
  }, true);
  window.addEventListener("unhandledrejection", function (e) { record("unhandled rejection: " + e.reason); });
  document.addEventListener("securitypolicyviolation", function (e) {
    record("blocked by the Content-Security-Policy: " + e.violatedDirective + " " + (e.blockedURI || ""));
  });
  var consoleError = console.error;
  console.error = function () {
    record("console.error: " + Array.prototype.join.call(arguments, " "));
    return consoleError.apply(console, arguments);
  };
  window.alert = function (msg) { record("alert() called: " + msg); };
  document.addEventListener("DOMContentLoaded", function () { if (pending.length) { record("(page errors before it loaded)"); } });
})();
