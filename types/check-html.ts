// Compiles the k6/html declarations and the html(), submitForm() and
// clickLink() of k6/http responses against typical uses; `make types` runs
// tsc on it.
import html, { Element, Selection, parseHTML } from 'k6/html';
import http from 'k6/http';

const doc: Selection = parseHTML('<dl><dt id="a">x</dt></dl>');
const title: string = html.parseHTML('<title>t</title>').find('title').text();
const ids: string[] = doc.find('dt').map((i, s) => `${i}${s.attr('id') ?? ''}`);
doc.find('dt').each((i, el: Element) => el.nodeName() + el.textContent() + i);
const first: Element | undefined = doc.find('dt').get(0);
const link: string = first?.getAttribute('href') ?? '';
const fields: Record<string, string | string[]> = doc.find('form').serializeObject();
const some: boolean = doc.children().is((i, s) => s.text() === 'x') || doc.find('dt').nextUntil(null, 'dd').size() > 0;

const res = http.get('http://127.0.0.1/');
const heading: string = res.html('h1').text() + res.html().find('a').size();
const sent: number = res.submitForm({ formSelector: '#login', fields: { user: 'ada' }, params: { headers: { 'X-A': '1' } } }).status;
const clicked: string = res.clickLink({ selector: 'a.next' }).url;

export { title, ids, link, fields, some, heading, sent, clicked };
