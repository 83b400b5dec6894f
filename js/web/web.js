// The web-platform globals of a VU, built on the Go functions in `native`
// (see web.go). This file evaluates to a function that returns them.
(function (native) {
  'use strict';

  const describe = (v) => (typeof v === 'string' ? JSON.stringify(v) : v === null ? 'null' : typeof v === 'object' ? Object.prototype.toString.call(v) : String(v));

  // ---- TextEncoder / TextDecoder (utf-8 only, as in k6) ----

  function utf8Bytes(cp) {
    if (cp < 0x80) return [cp];
    if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 0x3f)];
    if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
    return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)];
  }

  class TextEncoder {
    get encoding() { return 'utf-8'; }

    encode(input = '') {
      return new Uint8Array(native.encodeUTF8(String(input)));
    }

    encodeInto(source, destination) {
      if (!(destination instanceof Uint8Array)) {
        throw new TypeError('TextEncoder.encodeInto: destination must be a Uint8Array, got ' + describe(destination));
      }
      let read = 0;
      let written = 0;
      for (const ch of String(source)) {
        let cp = ch.codePointAt(0);
        if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd; // a lone surrogate
        const bytes = utf8Bytes(cp);
        if (written + bytes.length > destination.length) break;
        destination.set(bytes, written);
        written += bytes.length;
        read += ch.length;
      }
      return { read, written };
    }

    get [Symbol.toStringTag]() { return 'TextEncoder'; }
  }

  const utf8Labels = ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8'];

  class TextDecoder {
    #fatal;
    #ignoreBOM;
    #decode;

    constructor(label = 'utf-8', options = {}) {
      if (!utf8Labels.includes(String(label).trim().toLowerCase())) {
        throw new RangeError(`TextDecoder: the encoding ${describe(String(label))} is not supported; only utf-8 is`);
      }
      this.#fatal = Boolean(options?.fatal);
      this.#ignoreBOM = Boolean(options?.ignoreBOM);
      this.#decode = native.newDecoder(this.#fatal, this.#ignoreBOM);
    }

    get encoding() { return 'utf-8'; }
    get fatal() { return this.#fatal; }
    get ignoreBOM() { return this.#ignoreBOM; }

    decode(input, options = {}) {
      const stream = Boolean(options?.stream);
      if (input === undefined) return this.#decode(new ArrayBuffer(0), 0, 0, stream);
      if (input instanceof ArrayBuffer) return this.#decode(input, 0, input.byteLength, stream);
      if (ArrayBuffer.isView(input)) return this.#decode(input.buffer, input.byteOffset, input.byteLength, stream);
      throw new TypeError('TextDecoder.decode: input must be an ArrayBuffer, a TypedArray or a DataView, got ' + describe(input));
    }

    get [Symbol.toStringTag]() { return 'TextDecoder'; }
  }

  // ---- URLSearchParams ----

  function parseForm(s) {
    if (s.startsWith('?')) s = s.slice(1);
    const list = [];
    for (const part of s.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      const value = eq < 0 ? '' : part.slice(eq + 1);
      list.push([native.formDecode(name), native.formDecode(value)]);
    }
    return list;
  }

  function needArgs(method, args, n) {
    if (args.length < n) {
      throw new TypeError(`URLSearchParams.${method}: ${n} argument${n > 1 ? 's' : ''} required, but only ${args.length} present`);
    }
  }

  let linkParams; // (params, onChange) ties a URL's searchParams to it
  let resetParams; // (params, query) reparses after the URL's query changed

  class URLSearchParams {
    #list = [];
    #onChange = null;

    constructor(init = '') {
      if (init instanceof URLSearchParams) {
        this.#list = init.#list.map(([k, v]) => [k, v]);
      } else if ((typeof init === 'object' && init !== null) || typeof init === 'function') {
        if (typeof init[Symbol.iterator] === 'function') {
          for (const pair of init) {
            if (pair === null || typeof pair !== 'object' || typeof pair[Symbol.iterator] !== 'function') {
              throw new TypeError('URLSearchParams: each pair must be an iterable [name, value], got ' + describe(pair));
            }
            const p = Array.from(pair);
            if (p.length !== 2) throw new TypeError(`URLSearchParams: each pair must have exactly two items, got ${p.length}`);
            this.#list.push([String(p[0]), String(p[1])]);
          }
        } else {
          for (const k of Object.keys(init)) this.#list.push([k, String(init[k])]);
        }
      } else {
        this.#list = parseForm(String(init));
      }
    }

    static {
      linkParams = (p, onChange) => { p.#onChange = onChange; };
      resetParams = (p, query) => { p.#list = parseForm(query); };
    }

    #changed() {
      if (this.#onChange) this.#onChange(this.toString());
    }

    get size() { return this.#list.length; }

    append(name, value) {
      needArgs('append', arguments, 2);
      this.#list.push([String(name), String(value)]);
      this.#changed();
    }

    delete(name, value) {
      needArgs('delete', arguments, 1);
      name = String(name);
      const any = value === undefined;
      value = String(value);
      this.#list = this.#list.filter(([k, v]) => !(k === name && (any || v === value)));
      this.#changed();
    }

    get(name) {
      needArgs('get', arguments, 1);
      const hit = this.#list.find(([k]) => k === String(name));
      return hit ? hit[1] : null;
    }

    getAll(name) {
      needArgs('getAll', arguments, 1);
      return this.#list.filter(([k]) => k === String(name)).map(([, v]) => v);
    }

    has(name, value) {
      needArgs('has', arguments, 1);
      name = String(name);
      const any = value === undefined;
      value = String(value);
      return this.#list.some(([k, v]) => k === name && (any || v === value));
    }

    set(name, value) {
      needArgs('set', arguments, 2);
      name = String(name);
      value = String(value);
      const i = this.#list.findIndex(([k]) => k === name);
      if (i < 0) {
        this.#list.push([name, value]);
      } else {
        this.#list[i][1] = value;
        this.#list = this.#list.filter(([k], j) => j <= i || k !== name);
      }
      this.#changed();
    }

    sort() {
      // Array.prototype.sort is stable; < compares UTF-16 code units.
      this.#list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      this.#changed();
    }

    forEach(callback, thisArg) {
      if (typeof callback !== 'function') throw new TypeError('URLSearchParams.forEach: callback must be a function, got ' + describe(callback));
      for (let i = 0; i < this.#list.length; i++) {
        const [k, v] = this.#list[i];
        callback.call(thisArg, v, k, this);
      }
    }

    *entries() {
      for (let i = 0; i < this.#list.length; i++) yield [this.#list[i][0], this.#list[i][1]];
    }

    *keys() {
      for (let i = 0; i < this.#list.length; i++) yield this.#list[i][0];
    }

    *values() {
      for (let i = 0; i < this.#list.length; i++) yield this.#list[i][1];
    }

    [Symbol.iterator]() { return this.entries(); }

    toString() {
      return this.#list.map(([k, v]) => native.formEncode(k) + '=' + native.formEncode(v)).join('&');
    }

    get [Symbol.toStringTag]() { return 'URLSearchParams'; }
  }

  // ---- URL ----

  const special = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:', 'file:']);

  // userinfoChars are the characters a username or password setter encodes
  // besides controls, space and non-ASCII.
  const userinfoChars = '"#<>?`{}/:;=@[\\]^|';

  function encodeChars(s, chars) {
    let out = '';
    for (const ch of s) {
      out += ch <= ' ' || ch > '~' || chars.includes(ch) ? encodeURIComponent(ch) : ch;
    }
    return out;
  }

  function parse(input, base) {
    return base === undefined ? { ...native.parseURL(input, '', false) } : { ...native.parseURL(input, base, true) };
  }

  function serialize(p) {
    let s = p.protocol;
    if (!p.opaque && (p.hostname !== '' || p.protocol === 'file:')) {
      s += '//';
      if (p.username !== '' || p.password !== '') {
        s += p.username + (p.password !== '' ? ':' + p.password : '') + '@';
      }
      s += p.hostname + (p.port !== '' ? ':' + p.port : '');
    }
    s += p.pathname;
    if (p.query !== null) s += '?' + p.query;
    if (p.fragment !== null) s += '#' + p.fragment;
    return s;
  }

  class URL {
    #p;
    #params;

    constructor(url, base) {
      if (arguments.length < 1) throw new TypeError('URL: 1 argument required, but only 0 present');
      this.#p = parse(String(url), base === undefined ? undefined : String(base));
      this.#params = new URLSearchParams(this.#p.query ?? '');
      linkParams(this.#params, (q) => { this.#p.query = q === '' ? null : q; });
    }

    static canParse(url, base) {
      try {
        parse(String(url), base === undefined ? undefined : String(base));
        return true;
      } catch (e) {
        return false;
      }
    }

    // #update sets the parts that edit returns for a copy of the current
    // ones, if they serialise to a URL that parses; setters ignore bad
    // values, as in browsers.
    #update(edit) {
      const next = edit({ ...this.#p });
      if (next === null) return;
      try {
        this.#p = parse(serialize(next));
      } catch (e) {
        return;
      }
      resetParams(this.#params, this.#p.query ?? '');
    }

    get href() { return serialize(this.#p); }

    set href(v) {
      this.#p = parse(String(v));
      resetParams(this.#params, this.#p.query ?? '');
    }

    get origin() {
      const p = this.#p;
      return special.has(p.protocol) && p.protocol !== 'file:' ? p.protocol + '//' + this.host : 'null';
    }

    get protocol() { return this.#p.protocol; }

    set protocol(v) {
      const scheme = String(v).split(':')[0].toLowerCase() + ':';
      this.#update((p) => (special.has(scheme) === special.has(p.protocol) ? { ...p, protocol: scheme } : null));
    }

    get username() { return this.#p.username; }

    set username(v) {
      this.#update((p) => (p.hostname === '' ? null : { ...p, username: encodeChars(String(v), userinfoChars) }));
    }

    get password() { return this.#p.password; }

    set password(v) {
      this.#update((p) => (p.hostname === '' ? null : { ...p, password: encodeChars(String(v), userinfoChars) }));
    }

    get host() { return this.#p.hostname + (this.#p.port !== '' ? ':' + this.#p.port : ''); }

    set host(v) {
      const s = String(v);
      const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?/.exec(s);
      this.#update((p) => (p.opaque || m[1] === '' ? null : { ...p, hostname: m[1], port: m[2] === undefined ? p.port : m[2] }));
    }

    get hostname() { return this.#p.hostname; }

    set hostname(v) {
      this.#update((p) => (p.opaque || String(v) === '' ? null : { ...p, hostname: String(v) }));
    }

    get port() { return this.#p.port; }

    set port(v) {
      const digits = /^\d*/.exec(String(v))[0];
      this.#update((p) => (p.hostname === '' || (digits === '' && String(v) !== '') ? null : { ...p, port: digits }));
    }

    get pathname() { return this.#p.pathname; }

    set pathname(v) {
      let path = encodeChars(String(v), '?#"<>`{}^');
      this.#update((p) => {
        if (p.opaque) return null;
        if (!path.startsWith('/') && (special.has(p.protocol) || p.hostname !== '')) path = '/' + path;
        return { ...p, pathname: path };
      });
    }

    get search() { return this.#p.query ? '?' + this.#p.query : ''; }

    set search(v) {
      const q = String(v).replace(/^\?/, '');
      this.#update((p) => ({ ...p, query: q === '' ? null : q.replace(/#/g, '%23') }));
    }

    get searchParams() { return this.#params; }

    get hash() { return this.#p.fragment ? '#' + this.#p.fragment : ''; }

    set hash(v) {
      const f = String(v).replace(/^#/, '');
      this.#update((p) => ({ ...p, fragment: f === '' ? null : f }));
    }

    toString() { return this.href; }
    toJSON() { return this.href; }

    get [Symbol.toStringTag]() { return 'URL'; }
  }

  // ---- structuredClone (plain data, as the HTML structured clone does) ----

  function cloneError(what) {
    const e = new TypeError(`structuredClone: ${what} could not be cloned`);
    e.name = 'DataCloneError';
    return e;
  }

  function structuredClone(value) {
    const seen = new Map();
    const clone = (v) => {
      if (typeof v === 'function' || typeof v === 'symbol') throw cloneError(`a ${typeof v}`);
      if (v === null || typeof v !== 'object') return v;
      if (seen.has(v)) return seen.get(v);
      let out;
      const fill = (o, f) => { seen.set(v, o); f(o); return o; };
      if (Array.isArray(v)) {
        out = fill(new Array(v.length), (o) => { for (const k of Object.keys(v)) o[k] = clone(v[k]); });
      } else if (v instanceof Date) {
        out = new Date(v.getTime());
      } else if (v instanceof RegExp) {
        out = new RegExp(v.source, v.flags);
      } else if (v instanceof ArrayBuffer) {
        out = v.slice(0);
      } else if (ArrayBuffer.isView(v)) {
        const buf = clone(v.buffer);
        out = v instanceof DataView ? new DataView(buf, v.byteOffset, v.byteLength) : new v.constructor(buf, v.byteOffset, v.length);
      } else if (v instanceof Map) {
        out = fill(new Map(), (o) => { for (const [k, x] of v) o.set(clone(k), clone(x)); });
      } else if (v instanceof Set) {
        out = fill(new Set(), (o) => { for (const x of v) o.add(clone(x)); });
      } else if (v instanceof Boolean || v instanceof Number || v instanceof String) {
        out = Object(v.valueOf());
      } else if (v instanceof Error) {
        out = new Error(v.message);
        out.name = v.name;
      } else if (v instanceof Promise || v instanceof WeakMap || v instanceof WeakSet) {
        throw cloneError(Object.prototype.toString.call(v));
      } else {
        out = fill({}, (o) => { for (const k of Object.keys(v)) o[k] = clone(v[k]); });
      }
      seen.set(v, out);
      return out;
    };
    if (arguments.length < 1) throw new TypeError('structuredClone: 1 argument required, but only 0 present');
    return clone(value);
  }

  return { TextEncoder, TextDecoder, URL, URLSearchParams, structuredClone };
})
