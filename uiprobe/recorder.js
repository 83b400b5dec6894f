// The UI probe's recorder: installed in the page by uiprobe.Start, before
// the user's action. It is one function of the watch's options. It returns
// the page's clock origin (performance.timeOrigin) and the moment it was
// installed, and leaves under window[opts.key] an object whose `done`
// promise resolves with the log of the answer; stop() ends it early. Every
// time is the page's performance.now(), in milliseconds.
//
// The answer element is the last element matching opts.selector (in
// document order) that was not in the document at install; while none has
// appeared, the last one present at install whose visible text has changed
// since. On each batch of mutations the recorder snapshots that element's
// visible text (innerText: CSS-hidden text does not count; "" when the
// element itself is not rendered) and its state (the text of the JSON
// island opts.state inside it, or its attribute opts.stateAttribute), and
// logs the snapshot when either changed. The answer ends at the done
// marker (the element matches opts.done or contains a match; for an
// element present at install, only after the marker was seen absent), or
// after opts.quietMS without a change once visible text appeared, or at
// opts.timeoutMS after install, or when the log outgrows its limits.
(opts) => {
  const t0 = performance.now();
  const invalid = (sel, name) => {
    try {
      document.createDocumentFragment().querySelector(sel);
      return '';
    } catch (e) {
      return `${name} ${JSON.stringify(sel)} is not a valid CSS selector`;
    }
  };
  const error = invalid(opts.selector, 'selector') || (opts.done && invalid(opts.done, 'done')) ||
    (opts.state && invalid(opts.state, 'state'));
  if (error) return {error};

  const visibleText = (el) => {
    if (el.checkVisibility && !el.checkVisibility({visibilityProperty: true})) return '';
    return el.innerText;
  };
  const stateOf = (el) => {
    if (opts.stateAttribute) return el.getAttribute(opts.stateAttribute);
    if (!opts.state) return null;
    const island = el.querySelector(opts.state);
    return island ? island.textContent : null;
  };
  const isDone = (el) => !!opts.done && (el.matches(opts.done) || el.querySelector(opts.done) !== null);

  // Elements present at install, with their visible text then.
  const before = new Map();
  for (const el of document.querySelectorAll(opts.selector)) before.set(el, visibleText(el));
  const changed = new Set(); // old elements whose text changed since install
  const doneAbsent = new Set(); // old elements seen without the done marker

  const target = () => {
    const all = document.querySelectorAll(opts.selector);
    for (let i = all.length - 1; i >= 0; i--) {
      if (!before.has(all[i])) return [all[i], null];
    }
    for (let i = all.length - 1; i >= 0; i--) {
      const el = all[i];
      if (changed.has(el)) return [el, null];
      const text = visibleText(el);
      if (text !== before.get(el)) {
        changed.add(el);
        return [el, text];
      }
    }
    return [null, null];
  };

  const log = {origin: performance.timeOrigin, start: t0, action: null, changes: [], end: null, error: ''};
  let lastText = '', lastState = null, lastChange = -1, stored = 0, seenText = false;
  let quietTimer = 0, timeoutTimer = 0, resolve;
  const done = new Promise((r) => { resolve = r; });

  const inputs = ['pointerdown', 'mousedown', 'touchstart', 'click', 'keydown', 'submit'];
  const onInput = (e) => {
    if (log.action || !e.isTrusted) return;
    if (e.type === 'keydown' && e.key !== 'Enter') return;
    log.action = {t: e.timeStamp, type: e.type};
  };

  const finish = (t, reason, error) => {
    if (log.end) return;
    observer.disconnect();
    clearTimeout(quietTimer);
    clearTimeout(timeoutTimer);
    for (const type of inputs) window.removeEventListener(type, onInput, true);
    log.end = {t, reason, at: performance.now()};
    log.error = error || '';
    resolve(log);
  };

  const record = (t, text, state) => {
    const entry = {t};
    if (text !== lastText) {
      if (text.startsWith(lastText)) entry.append = text.slice(lastText.length);
      else entry.text = text;
      stored += text.length - (entry.append !== undefined ? lastText.length : 0);
    }
    if (state !== lastState) {
      entry.state = state;
      stored += state ? state.length : 0;
    }
    log.changes.push(entry);
    lastText = text;
    lastState = state;
    lastChange = t;
    if (log.changes.length > opts.maxChanges) {
      finish(t, 'limit', `more than ${opts.maxChanges} changes of the answer`);
    } else if (stored > opts.maxLog) {
      finish(t, 'limit', `the answer's changes hold more than ${opts.maxLog} characters`);
    }
  };

  const armQuiet = () => {
    if (!(opts.quietMS > 0)) return;
    clearTimeout(quietTimer);
    quietTimer = setTimeout(() => finish(lastChange, 'quiet'), opts.quietMS);
  };

  const observe = () => {
    if (log.end) return;
    const t = performance.now();
    let [el, text] = target();
    if (!el) return;
    if (text === null) text = visibleText(el);
    if (text.length > opts.maxText) {
      finish(t, 'limit', `the answer's visible text is longer than ${opts.maxText} characters`);
      return;
    }
    const state = stateOf(el);
    if (text !== lastText || state !== lastState) {
      record(t, text, state);
      seenText = seenText || text.trim() !== '';
      if (seenText) armQuiet();
    }
    const markerDone = isDone(el);
    if (!markerDone) doneAbsent.add(el);
    else if (!before.has(el) || doneAbsent.has(el)) finish(t, 'done');
  };

  const observer = new MutationObserver(observe);
  observer.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  for (const type of inputs) window.addEventListener(type, onInput, true);
  if (opts.timeoutMS > 0) timeoutTimer = setTimeout(() => finish(performance.now(), 'timeout'), opts.timeoutMS);

  Object.defineProperty(window, opts.key, {
    configurable: true, enumerable: false,
    value: {done, stop: () => finish(performance.now(), 'stopped')},
  });
  return {origin: log.origin, start: t0};
}
