// vitals.js measures the web vitals of the top-level document it runs in and
// hands them to Go. Go runs it in an isolated world of every new document
// (Page.addScriptToEvaluateOnNewDocument with a worldName), so the page's
// own scripts neither see it nor can change the globals it uses; the DOM,
// its events and the performance timeline are shared with the page.
//
// It is a function of one argument, the name of the Runtime binding that
// carries a report to Go as the JSON text {name, value, url, final}. Each
// vital has at most one final report per document; LCP, CLS and INP are
// also reported, not final, each time their value changes. Values are
// milliseconds from the start of the navigation (from activation for a
// prerendered page), except CLS, a unitless score.
//
//   TTFB  navigation timing's responseStart: when the first byte of the
//         document's response arrived. Reported at once.
//   FCP   the 'paint' entry 'first-contentful-paint': the first frame that
//         showed text, an image or a canvas. Reported at once.
//   FID   the 'first-input' entry: processingStart - startTime, how long the
//         first input waited before its handlers ran. Reported at once.
//         (k6 deprecated FID for INP.)
//   LCP   the last 'largest-contentful-paint' entry: when the largest text
//         block or image seen so far was painted, among the paints before
//         the first keydown or pointerdown (the browser stops looking
//         then). Final when the page is finished (see below).
//   CLS   'layout-shift' entries not caused by recent input, grouped in
//         session windows (a shift joins the open window when it comes
//         less than 1 s after the previous shift and less than 5 s after
//         the window's first); CLS is the largest window's sum. Final when
//         the page is finished; only reported after a contentful paint.
//   INP   'event' entries (and 'first-input') with an interactionId: an
//         interaction's latency is the longest duration among its events,
//         from input to the next paint, in 8 ms steps. INP is the longest
//         latency, except that one of the longest is skipped per 50
//         interactions, which approximates the 98th percentile. Only
//         events of 16 ms or more are observed. Final when the page is
//         finished; none without an interaction.
//
// A page is finished when it is hidden, when it is left (pagehide) or when
// Go calls flushVitals() in this world before it closes the page; the
// latter waits for the first contentful paint (at most 500 ms) when there
// was none yet, and returns the final reports instead of sending them, so
// Go has them before the page is gone. Chromium drops what a document sends while it
// unloads, so for a page that is left Go reports the last value it got,
// when the document's execution context goes away.
//
// Where our figures may differ from the Chrome UX Report (CrUX): CrUX is
// the 75th percentile of real users on real devices and networks over 28
// days, while this is one load in one headless browser, usually close to
// the server and without other tabs. Real users keep pages open longer and
// interact more, so their CLS and INP see more shifts and interactions;
// INP here counts only the interactions the test drives. Back/forward
// cache restores and soft (single-page app) navigations start no new
// measurement here, and iframes' own shifts and paints count only as far
// as the browser attributes them to the top document.
function (binding) {
  'use strict';
  if (window !== window.top || !/^(https?|file):$/.test(location.protocol)) {
    return;
  }
  const send = globalThis[binding];
  if (typeof send !== 'function') {
    return;
  }

  const navigation = performance.getEntriesByType('navigation')[0];
  const activation = (navigation && navigation.activationStart) || 0;
  const sinceStart = (t) => Math.max(t - activation, 0);

  // A report is final, or provisional: the latest value of LCP, CLS or INP
  // while the page may still change it. Go keeps the last provisional value
  // of each and reports it when the document goes away, because the browser
  // drops the messages a document sends while it is being unloaded.
  const finals = new Set();
  const latest = {};
  let collected = null; // during flushVitals, the final reports to return

  function report(name, value, final) {
    if (finals.has(name) || !(value >= 0) || (!final && latest[name] === value)) {
      return;
    }
    latest[name] = value;
    if (final) {
      finals.add(name);
    }
    const r = {name: name, value: value, url: location.href, final: final};
    if (!collected) {
      send(JSON.stringify(r));
    } else if (final) {
      collected.push(r);
    }
  }

  // watching pairs each observer with its entry handler, so that finish
  // can hand the handlers the entries not yet delivered.
  const watching = [];
  function watch(type, handle, options) {
    try {
      const observer = new PerformanceObserver((list) => list.getEntries().forEach(handle));
      observer.observe(Object.assign({type: type, buffered: true}, options));
      watching.push({observer: observer, handle: handle});
    } catch (e) {
      // This browser does not know the entry type: that vital stays unset.
    }
  }
  function drain() {
    for (const w of watching) {
      w.observer.takeRecords().forEach(w.handle);
    }
  }

  function firstByte() {
    const n = performance.getEntriesByType('navigation')[0];
    if (n && n.responseStart > 0) {
      report('TTFB', sinceStart(n.responseStart), true);
    }
  }

  let painted = false;
  let shifts = 0; // CLS: the largest session window's sum so far
  let windowSum = 0;
  let windowFirst = -Infinity;
  let windowLast = -Infinity;

  watch('paint', (e) => {
    if (e.name === 'first-contentful-paint') {
      painted = true;
      report('FCP', sinceStart(e.startTime), true);
      report('CLS', shifts, false);
    }
  });

  let largest = -1;
  let largestFinal = false;
  // inputAt is the first keydown or pointerdown: the browser stops looking
  // for larger paints then, but the entry of a paint before it may still
  // be on its way, so LCP keeps taking entries painted before it.
  let inputAt = Infinity;
  watch('largest-contentful-paint', (e) => {
    if (!largestFinal && e.startTime <= inputAt) {
      largest = sinceStart(e.startTime);
      report('LCP', largest, false);
    }
  });
  function finishLargest() {
    if (largestFinal) {
      return;
    }
    largestFinal = true;
    if (largest >= 0) {
      report('LCP', largest, true);
    }
  }

  watch('layout-shift', (e) => {
    if (e.hadRecentInput) {
      return;
    }
    if (e.startTime - windowLast < 1000 && e.startTime - windowFirst < 5000) {
      windowSum += e.value;
    } else {
      windowSum = e.value;
      windowFirst = e.startTime;
    }
    windowLast = e.startTime;
    shifts = Math.max(shifts, windowSum);
    if (painted) {
      report('CLS', shifts, false);
    }
  });

  const longest = []; // the ten longest interactions, longest first
  const interactions = new Set();
  function interaction(e) {
    if (!e.interactionId) {
      return;
    }
    interactions.add(e.interactionId);
    const known = longest.find((i) => i.id === e.interactionId);
    if (known) {
      known.latency = Math.max(known.latency, e.duration);
    } else if (longest.length < 10 || e.duration > longest[longest.length - 1].latency) {
      longest.push({id: e.interactionId, latency: e.duration});
    }
    longest.sort((a, b) => b.latency - a.latency);
    longest.length = Math.min(longest.length, 10);
    report('INP', responsiveness(), false);
  }
  watch('event', interaction, {durationThreshold: 16});
  watch('first-input', (e) => {
    report('FID', e.processingStart - e.startTime, true);
    interaction(e);
  });
  function responsiveness() {
    const count = typeof performance.interactionCount === 'number'
      ? Math.max(performance.interactionCount, interactions.size)
      : interactions.size;
    return longest[Math.min(longest.length - 1, Math.floor(count / 50))].latency;
  }

  function finish() {
    drain();
    firstByte();
    finishLargest();
    if (painted) {
      report('CLS', shifts, true);
    }
    if (longest.length > 0) {
      report('INP', responsiveness(), true);
    }
  }

  const input = (e) => {
    drain();
    inputAt = Math.min(inputAt, e.timeStamp);
  };
  addEventListener('keydown', input, {capture: true, once: true});
  addEventListener('pointerdown', input, {capture: true, once: true});
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') {
      finish();
    }
  }, true);
  addEventListener('pagehide', finish, true);

  // firstPaint resolves once the page painted its first content, or after
  // at most ms: a page closed right after its load event may not have
  // painted yet, and its FCP, LCP and CLS would be lost.
  function firstPaint(ms) {
    return new Promise((resolve) => {
      const end = performance.now() + ms;
      const poll = () => {
        drain();
        if (painted || performance.now() >= end) {
          resolve();
          return;
        }
        requestAnimationFrame(() => setTimeout(poll, 10));
      };
      poll();
    });
  }

  // frames resolves after n more frames were rendered (at most 200 ms),
  // so that the entries of what the last frames showed (an input's event
  // timing, a late largest paint) are delivered first.
  function frames(n) {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, 200);
      const step = (left) => requestAnimationFrame(() => setTimeout(() => {
        if (left <= 1) {
          clearTimeout(timer);
          resolve();
        } else {
          step(left - 1);
        }
      }, 0));
      step(n);
    });
  }

  globalThis.flushVitals = async () => {
    await firstPaint(500);
    await frames(2);
    collected = [];
    try {
      finish();
      return collected;
    } finally {
      collected = null;
    }
  };

  firstByte();
  if (!finals.has('TTFB')) {
    addEventListener('DOMContentLoaded', firstByte, {once: true});
  }
}
