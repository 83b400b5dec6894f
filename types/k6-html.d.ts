/**
 * Type declarations for `k6/html` as usefullatency implements it: parseHTML,
 * the jQuery-like read-only Selection and the DOM-like Element, whose
 * members are methods (el.nodeName(), not el.nodeName), as in k6.
 */
declare module 'k6/html' {
  /** A selector string, a Selection, or a test called with (index, selection of one node). */
  export type SelectionTest = string | Selection | ((index: number, selection: Selection) => unknown);

  /** A set of nodes of one parsed document, in document order. */
  export interface Selection {
    attr(name: string): string | undefined;
    children(selector?: string): Selection;
    closest(selector: string | Selection): Selection;
    contents(): Selection;
    /** data-* attributes, keys in camelCase, values converted as jQuery converts them. */
    data(): Record<string, unknown> | undefined;
    data(key: string): unknown;
    /** this is the Element too; returning false stops the loop. */
    each(fn: (this: Element, index: number, element: Element) => unknown): Selection;
    eq(index: number): Selection;
    filter(test: SelectionTest): Selection;
    find(selector: string | Selection): Selection;
    first(): Selection;
    get(): Element[];
    get(index: number): Element | undefined;
    has(selector: string | Selection): Selection;
    html(): string | undefined;
    is(test: SelectionTest): boolean;
    last(): Selection;
    map<T>(fn: (this: Selection, index: number, selection: Selection) => T): T[];
    next(selector?: string): Selection;
    nextAll(selector?: string): Selection;
    nextUntil(until?: string | Selection | null, filter?: string | null): Selection;
    not(test: SelectionTest): Selection;
    parent(selector?: string): Selection;
    parents(selector?: string): Selection;
    parentsUntil(until?: string | Selection | null, filter?: string | null): Selection;
    prev(selector?: string): Selection;
    prevAll(selector?: string): Selection;
    prevUntil(until?: string | Selection | null, filter?: string | null): Selection;
    serialize(): string;
    serializeArray(): Array<{ name: string; value: string }>;
    /** A name that repeats has the array of its values. */
    serializeObject(): Record<string, string | string[]>;
    single(selector: string): Selection;
    size(): number;
    slice(start: number, end?: number): Selection;
    text(): string;
    toArray(): Selection[];
    /** An array for a multiple select. */
    val(): string | string[] | undefined;
  }

  /** An attribute of an Element, from attributes() or getAttributeNode(). */
  export interface Attribute {
    name: string;
    value: string;
    ownerElement: Element;
    localName(): string;
    namespaceURI(): string;
    prefix(): string;
  }

  /**
   * A node of a parsed document. The methods of links (a, area), forms and
   * their controls, options, tables and the other tags k6 lists exist on the
   * Elements of those tags only.
   */
  export interface Element {
    selection(): Selection;
    /** The tag name in lower case; "#text", "#comment", "#document" for other nodes. */
    nodeName(): string;
    /** 1 element, 3 text, 8 comment, 9 document, 10 doctype. */
    nodeType(): number | undefined;
    nodeValue(): string | undefined;
    id(): string;
    innerHTML(): string;
    textContent(): string;
    ownerDocument(): Element | undefined;
    attributes(): Record<string, Attribute>;
    firstChild(): Element | undefined;
    lastChild(): Element | undefined;
    childElementCount(): number;
    firstElementChild(): Element | undefined;
    lastElementChild(): Element | undefined;
    previousSibling(): Element | undefined;
    nextSibling(): Element | undefined;
    previousElementSibling(): Element | undefined;
    nextElementSibling(): Element | undefined;
    parentElement(): Element | undefined;
    parentNode(): Element | undefined;
    childNodes(): Element[];
    children(): Element[];
    classList(): string[];
    className(): string | undefined;
    lang(): string | undefined;
    toString(): string;
    hasAttribute(name: string): boolean;
    getAttribute(name: string): string | undefined;
    getAttributeNode(name: string): Attribute | undefined;
    hasAttributes(): boolean;
    hasChildNodes(): boolean;
    isSameNode(other: Element): boolean;
    isEqualNode(other: Element): boolean;
    getElementsByClassName(names: string): Element[];
    getElementsByTagName(name: string): Element[];
    querySelector(selector: string): Element | undefined;
    querySelectorAll(selector: string): Element[];
    contains(other: Element): boolean;
    matches(selector: string): boolean;
    namespaceURI(): string | undefined;
    isDefaultNamespace(namespaceURI?: string): boolean;

    // Links (a, area).
    hash?(): string;
    host?(): string;
    hostname?(): string;
    port?(): string;
    username?(): string;
    password?(): string;
    origin?(): string;
    pathname?(): string;
    protocol?(): string;
    search?(): string;
    relList?(): string[];
    // Forms, fieldsets and their controls.
    elements?(): Element[];
    method?(): string;
    form?(): Element | undefined;
    formAction?(): string;
    formEnctype?(): string;
    formMethod?(): string;
    formNoValidate?(): boolean;
    formTarget?(): string;
    labels?(): Element[];
    name?(): string;
    control?(): Element | undefined;
    // select, option, datalist.
    options?(): Element[];
    selectedIndex?(): number;
    selectedOptions?(): Element[];
    index?(): number;
    label?(): string;
    disabled?(): boolean;
    // Tables.
    caption?(): Element | undefined;
    tHead?(): Element | undefined;
    tFoot?(): Element | undefined;
    tBodies?(): Element[];
    rows?(): Element[];
    cells?(): Element[];
    rowIndex?(): number;
    sectionRowIndex?(): number;
    cellIndex?(): number;
    colSpan?(): number;
    rowSpan?(): number;
    headers?(): string;
    // map.
    areas?(): Element[];
    images?(): Element[];
    // Media, canvas, progress.
    textTracks?(): Element[];
    width?(): number;
    height?(): number;
    max?(): number;
    position?(): number;
    /** The text of a, option, title, script and style. */
    text?(): string;
    /** value of button, select, option, output (strings) and progress (a number). */
    value?(): string | number;
    /** length of form (controls), select (options) and textarea (bytes). */
    length?(): number;
    /** type of select ("select-one", "select-multiple"), fieldset and style. */
    type?(): string | undefined;
    size?(): number;
    span?(): number;
    defaultValue?(): string;
  }

  /** Parses src as an HTML document and returns the Selection of the document. */
  export function parseHTML(src: string): Selection;

  const html: { parseHTML: typeof parseHTML };
  export default html;
}
