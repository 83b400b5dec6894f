// The in-page half of the selectors and element actions of k6/browser.
//
// Go evaluates this file as a function expression, in one of two ways:
//   (ENGINE)(request)                                       on the page, for a selector
//   function (request) { return (ENGINE)(request, this) }   on an element handle
//
// The request names the elements (selector steps, or the handle), the
// state to wait for (req.state) and what to do once they are in it
// (req.op, req.arg). A wait that outlives its budget (req.budget, in ms)
// throws an Error whose message is RETRY followed by the reason the
// elements are not ready: Go asks again while the caller's timeout lasts,
// and names that reason when it runs out. Any other Error is final.
(function (req, handle) {
  'use strict';
  const RETRY = 'k6browser:retry:';
  const NONE = 'no element matches the selector';

  const fail = (message) => { throw new Error(message); };
  const normalize = (s) => String(s).replace(/\s+/g, ' ').trim();

  // ---- selectors ------------------------------------------------------

  // split cuts a selector at its top-level ">>" separators (outside
  // quotes, brackets and parentheses).
  function split(selector) {
    const parts = [];
    let quote = '', depth = 0, start = 0;
    for (let i = 0; i < selector.length; i++) {
      const c = selector[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '[' || c === '(') depth++;
      else if (c === ']' || c === ')') depth--;
      else if (depth === 0 && c === '>' && selector[i + 1] === '>') {
        parts.push(selector.slice(start, i));
        start = i + 2;
        i++;
      }
    }
    parts.push(selector.slice(start));
    return parts.map((s) => s.trim());
  }

  // kind returns the engine of one selector part and its body: an explicit
  // "css=", "xpath=" or "text=" prefix; else XPath for a part that starts
  // with "/", "(/" or "..", text for a quoted part, CSS for the rest.
  function kind(part) {
    const m = /^(css|xpath|text)\s*=\s*/.exec(part);
    if (m) return [m[1], part.slice(m[0].length)];
    if (part.startsWith('/') || part.startsWith('(/') || part.startsWith('..')) return ['xpath', part];
    if (part.length > 1 && (part[0] === '"' || part[0] === "'") && part.endsWith(part[0])) return ['text', part];
    return ['css', part];
  }

  function byCSS(root, body) {
    try {
      return Array.from(root.querySelectorAll(body));
    } catch (e) {
      fail(`invalid selector ${JSON.stringify(body)}: ${e.message}`);
    }
  }

  // byXPath evaluates an XPath expression; under an element, one that
  // starts at the root ("//x") is made relative to it (".//x").
  function byXPath(root, body) {
    const expr = root !== document && body.startsWith('/') ? '.' + body : body;
    let snap;
    try {
      snap = document.evaluate(expr, root, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    } catch (e) {
      fail(`invalid XPath ${JSON.stringify(body)}: ${e.message}`);
    }
    const out = [];
    for (let i = 0; i < snap.snapshotLength; i++) {
      const n = snap.snapshotItem(i);
      if (n.nodeType === Node.ELEMENT_NODE) out.push(n);
    }
    return out;
  }

  // textTest returns a test of an element's text: a quoted body matches
  // the whole text, case-sensitively; a bare body a part of it, in any
  // case. Whitespace is collapsed on both sides.
  function textTest(body) {
    const q = body[0];
    if (body.length > 1 && (q === '"' || q === "'") && body.endsWith(q)) {
      const want = normalize(body.slice(1, -1));
      return (el) => normalize(el.textContent || '') === want;
    }
    const want = normalize(body).toLowerCase();
    return (el) => normalize(el.textContent || '').toLowerCase().includes(want);
  }

  // byText returns the deepest elements whose text matches: an element
  // whose child element matches on its own is left out.
  function byText(root, body) {
    const test = textTest(body);
    const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'HEAD', 'TEMPLATE']);
    const out = [];
    const visit = (el) => {
      if (skip.has(el.tagName)) return false;
      let inner = false;
      for (const c of el.children) if (visit(c)) inner = true;
      if (inner) return true;
      if (!test(el)) return false;
      out.push(el);
      return true;
    };
    const top = root === document ? [document.documentElement].filter(Boolean) : Array.from(root.children);
    top.forEach(visit);
    return out;
  }

  const engines = { css: byCSS, xpath: byXPath, text: byText };

  const order = (a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1);

  // query returns the elements a selector part selects under any of roots,
  // once each, in document order.
  function query(roots, part) {
    if (!part) fail(`empty selector part in ${JSON.stringify(req.name)}`);
    const [engine, body] = kind(part);
    const seen = new Set();
    for (const root of roots) for (const el of engines[engine](root, body)) seen.add(el);
    const out = Array.from(seen);
    if (roots.length > 1) out.sort(order);
    return out;
  }

  // filterTest returns the test of a hasText or hasNotText filter: a
  // string (part of the text, in any case) or a regular expression.
  function filterTest(f) {
    if (f.regexp) {
      const re = new RegExp(f.text, f.flags || '');
      return (el) => re.test(el.textContent || '');
    }
    const want = normalize(f.text || '').toLowerCase();
    return (el) => normalize(el.textContent || '').toLowerCase().includes(want);
  }

  // select returns what the locator's steps select: each step's selector
  // under the elements of the step before, then its filters and index.
  function select(steps) {
    let els = [document];
    for (const step of steps) {
      for (const part of split(step.selector)) els = query(els, part);
      if (step.hasText) els = els.filter(filterTest(step.hasText));
      if (step.hasNotText) {
        const t = filterTest(step.hasNotText);
        els = els.filter((el) => !t(el));
      }
      if (step.nth !== undefined && step.nth !== null) {
        const i = step.nth < 0 ? els.length + step.nth : step.nth;
        els = i >= 0 && i < els.length ? [els[i]] : [];
      }
    }
    return els;
  }

  // elements returns the request's elements now: the handle while it is in
  // the document, or what the selector selects.
  function elements() {
    if (handle === undefined) return select(req.steps);
    if (!(handle instanceof Element)) fail('the handle does not refer to an element');
    if (!handle.isConnected) fail('the element is no longer attached to the document');
    return [handle];
  }

  // one returns the element an action applies to, or null; a strict
  // request that selects several throws.
  function one() {
    const els = elements();
    if (req.strict && els.length > 1) {
      fail(`strict mode violation: ${JSON.stringify(req.name)} selects ${els.length} elements`);
    }
    return els[0] || null;
  }

  // ---- element states -------------------------------------------------

  function visible(el) {
    if (!el.isConnected) return false;
    if (getComputedStyle(el).visibility !== 'visible') return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  }

  function enabled(el) {
    return !el.matches(':disabled') && el.getAttribute('aria-disabled') !== 'true';
  }

  // editable reports whether the element takes typed text; an element that
  // never does throws.
  function editable(el) {
    if (el.isContentEditable) return true;
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) return enabled(el) && !el.readOnly;
    if (el instanceof HTMLSelectElement) return enabled(el);
    fail(`the element <${el.tagName.toLowerCase()}> is not an <input>, <textarea>, <select> or [contenteditable] element`);
  }

  function checked(el) {
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
    const role = el.getAttribute('role');
    if (role === 'checkbox' || role === 'radio' || role === 'switch') return el.getAttribute('aria-checked') === 'true';
    fail(`the element <${el.tagName.toLowerCase()}> is not a checkbox or a radio button`);
  }

  // frame resolves after the next animation frame, or after 50 ms in a
  // page that gets no frames (a hidden tab).
  const frame = () => new Promise((resolve) => {
    requestAnimationFrame(() => resolve());
    setTimeout(resolve, 50);
  });

  // stable reports whether the element's box stays put for a frame.
  async function stable(el) {
    const a = el.getBoundingClientRect();
    await frame();
    const b = el.getBoundingClientRect();
    return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  }

  function describe(el) {
    let s = '<' + el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (typeof el.className === 'string' && el.className.trim()) s += '.' + el.className.trim().split(/\s+/).join('.');
    return s + '>';
  }

  // inView scrolls the element into the viewport when it is not fully in
  // it, and returns the point an action aims at: req.arg.position
  // (relative to the element's top-left corner) or the centre of its box.
  function inView(el) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth) {
      el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    }
    const box = Array.from(el.getClientRects()).find((b) => b.width > 0 && b.height > 0) || el.getBoundingClientRect();
    const pos = req.arg && req.arg.position;
    if (pos) return { x: box.left + pos.x, y: box.top + pos.y };
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }

  // hits reports whether a pointer event at pt reaches el (or a node in
  // it), across shadow roots; else why not.
  function hits(el, pt) {
    let hit = document.elementFromPoint(pt.x, pt.y);
    const first = hit;
    while (hit) {
      if (hit === el) return null;
      hit = hit.parentNode instanceof ShadowRoot ? hit.parentNode.host : hit.parentNode;
    }
    return first ? `${describe(first)} would receive the click instead` : 'the point to click is outside the viewport';
  }

  // unmet returns why el is not in state, or null when it is. "actionable"
  // is visible, enabled, stable and reached by the pointer; "editable" is
  // visible, enabled and editable; "none" always holds.
  async function unmet(el, state) {
    switch (state) {
      case 'none': return null;
      case 'attached': return el ? null : NONE;
      case 'detached': return el ? 'an element still matches the selector' : null;
      case 'hidden': return el && visible(el) ? 'the element is visible' : null;
    }
    if (!el) return NONE;
    if (!visible(el)) return 'the element is not visible';
    if (state === 'visible') return null;
    if (!enabled(el)) return 'the element is not enabled';
    if (state === 'enabled') return null;
    if (state === 'editable') return editable(el) ? null : 'the element is not editable';
    if (!(await stable(el))) return 'the element is not stable (it moves)';
    return null;
  }

  // change resolves at the next change of the document, or after ms.
  const change = (ms) => new Promise((resolve) => {
    let timer = 0;
    const obs = new MutationObserver(() => done());
    const done = () => { obs.disconnect(); clearTimeout(timer); resolve(); };
    obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    timer = setTimeout(done, ms);
  });

  // until calls check until it returns {value} and returns the value; when
  // it keeps returning {reason} past the budget, it throws the reason for
  // Go to try again.
  async function until(check) {
    const deadline = performance.now() + req.budget;
    for (;;) {
      const r = await check();
      if (r.reason === undefined) return r.value;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(RETRY + r.reason);
      await change(Math.min(left, 100));
    }
  }

  // ---- actions --------------------------------------------------------

  // point returns where to click el, once it is actionable and the
  // pointer reaches it there.
  async function point(el) {
    const pt = inView(el);
    if (req.arg && req.arg.force) return { value: pt };
    const reason = hits(el, pt);
    return reason ? { reason } : { value: pt };
  }

  // prepareFill focuses the element and selects its content, so that
  // Go's inserted text replaces it. An input whose value cannot be typed
  // (a date, a colour, a range) gets the value set at once.
  function prepareFill(el, value) {
    if (el instanceof HTMLInputElement) {
      const type = el.type.toLowerCase();
      const direct = ['color', 'date', 'time', 'datetime-local', 'month', 'range', 'week'];
      const refused = ['checkbox', 'radio', 'file', 'button', 'submit', 'reset', 'image'];
      if (refused.includes(type)) fail(`an input of type "${type}" cannot be filled`);
      if (direct.includes(type)) {
        el.focus();
        el.value = value;
        if (el.value !== value) fail(`the value ${JSON.stringify(value)} is malformed for an input of type "${type}"`);
        el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
        el.dispatchEvent(new Event('change', { bubbles: true }));
        return 'done';
      }
    }
    if (el instanceof HTMLSelectElement) fail('a <select> cannot be filled: use selectOption');
    el.focus();
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      el.select();
    } else {
      const range = document.createRange();
      range.selectNodeContents(el);
      const sel = getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
    }
    return 'type';
  }

  // chooseOptions selects the options of a <select> that match the specs
  // ({value}, {label} or {index}) and returns their values; none matching
  // waits.
  function chooseOptions(el, specs) {
    if (!(el instanceof HTMLSelectElement)) fail(`the element ${describe(el)} is not a <select> element`);
    const options = Array.from(el.options);
    const picked = [];
    for (const spec of specs) {
      const o = options.find((o, i) =>
        (spec.value !== undefined && o.value === spec.value) ||
        (spec.label !== undefined && o.label === spec.label) ||
        (spec.index !== undefined && i === spec.index));
      if (o && !picked.includes(o)) picked.push(o);
      if (picked.length && !el.multiple) break;
    }
    if (specs.length && !picked.length) return { reason: 'no option of the <select> matches' };
    for (const o of options) o.selected = picked.includes(o);
    el.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
    return { value: picked.map((o) => o.value) };
  }

  // read returns a property of the element (or null when it has none).
  function read(el, what) {
    switch (what) {
      case 'textContent': return el.textContent;
      case 'innerText': return el instanceof HTMLElement ? el.innerText : el.textContent;
      case 'innerHTML': return el.innerHTML;
      case 'inputValue':
        if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return el.value;
        fail(`the element ${describe(el)} is not an <input>, <textarea> or <select> element`);
        break;
      case 'checked': return checked(el);
      case 'enabled': return enabled(el);
      case 'editable': return editable(el);
      case 'box': {
        const r = el.getBoundingClientRect();
        return { x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
      }
    }
    if (what.startsWith('attribute:')) return el.getAttribute(what.slice('attribute:'.length));
    fail(`unknown property ${what}`);
  }

  // dispatch fires a DOM event of the type the argument names at el.
  function dispatch(el, arg) {
    const init = Object.assign({ bubbles: true, cancelable: true, composed: true }, arg.init || {});
    const mouse = /^(click|dblclick|mouse|pointer|contextmenu)/.test(arg.type);
    const ev = mouse ? new MouseEvent(arg.type, init) : new Event(arg.type, init);
    el.dispatchEvent(ev);
  }

  // act does the request's operation on el, once el is in the state.
  async function act(el) {
    switch (req.op) {
      case 'element': return { value: el };
      case 'point': return point(el);
      case 'focus': el.focus(); return { value: null };
      case 'blur': el.blur(); return { value: null };
      case 'fill': return { value: prepareFill(el, req.arg) };
      case 'select': return chooseOptions(el, req.arg);
      case 'dispatch': dispatch(el, req.arg); return { value: null };
      case 'scroll': el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' }); return { value: null };
      case 'read': return { value: read(el, req.arg) };
      case 'visible': return { value: !!el && visible(el) };
    }
    fail(`unknown operation ${req.op}`);
  }

  async function main() {
    if (req.op === 'count') return elements().length;
    if (req.op === 'elements') return elements();
    return until(async () => {
      const el = one();
      const reason = await unmet(el, req.state);
      if (reason) return { reason };
      if (!el && req.op !== 'visible') return { value: null };
      return act(el);
    });
  }

  return main();
})
