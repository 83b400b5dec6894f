// compat: k6/html — parseHTML and Response.html() give k6's Selection (find, attr, text, children, each, map, filter, next/prev/parents, eq, slice, serialize, val) and Element (nodeName, id, textContent, getAttribute); submitForm posts a page's form with fields overridden, clickLink follows a page's link
import { check } from 'k6';
import http from 'k6/http';
import { parseHTML } from 'k6/html';

const ECHO = __ENV.ECHO;

export const options = {
  iterations: 1,
  thresholds: {
    checks: ['rate==1'],
    // the form page, its submission, the links page and the click
    http_reqs: ['count==4'],
  },
};

const content = `
<dl>
  <dt id="term-1">term 1</dt>
  <dd>definition 1-a</dd>
  <dd>definition 1-b</dd>
  <dt id="term-2">term 2</dt>
  <dd>definition 2-a</dd>
  <dt id="term-3">term 3</dt>
  <dd>definition 3-a</dd>
</dl>
<ul><li>list item 1</li><li>list item 2</li><li class="third-item">list item 3</li><li>list item 4</li></ul>
<form><input name="username"></form>
<select id="select_one"><option value="not this option">no</option><option value="yes this option" selected>yes</option></select>`;

export default function () {
  const doc = parseHTML(content);
  check(doc, {
    'children and filters by selector': (d) => d.find('dl').children().size() === 7 && d.find('dl').children('dt').size() === 3,
    'text of a selection': (d) => d.find('dt').first().text() === 'term 1' && d.find('dt').eq(2).text() === 'term 3',
    'attr': (d) => d.find('dt').last().attr('id') === 'term-3',
    'filter with a function gets selections': (d) => d.find('dl').children().filter((i, el) => el.text() === 'definition 3-a').size() === 1,
    'map collects return values': (d) => d.find('dt').map((i, el) => el.text()).join(',') === 'term 1,term 2,term 3',
    'next, prev and parent': (d) => d.find('li.third-item').next().text() === 'list item 4'
      && d.find('li.third-item').prev().text() === 'list item 2' && d.find('li.third-item').parent().children().size() === 4,
    'nextUntil with a filter': (d) => d.find('#term-1').nextUntil('#term-3', 'dd').size() === 3,
    'slice': (d) => d.find('dl').children().slice(2, 4).text() === 'definition 1-bterm 2',
    'serialize a form': (d) => d.find('form').serialize() === 'username=',
    'serializeArray': (d) => JSON.stringify(d.find('form').serializeArray()) === '[{"name":"username","value":""}]',
    'val of a select': (d) => d.find('#select_one').val() === 'yes this option',
  });
  const ids = [];
  doc.find('dt').each((i, el) => ids.push(`${i}:${el.nodeName()}#${el.id()}=${el.textContent()}`));
  check(ids, { 'each gets Elements': (l) => l.join(' ') === '0:dt#term-1=term 1 1:dt#term-2=term 2 2:dt#term-3=term 3' });
  check(doc.find('dt').get(1), { 'get returns an Element': (el) => el.getAttribute('id') === 'term-2' && el.nextElementSibling().textContent() === 'definition 2-a' });

  const page = http.get(`${ECHO}/forms/post`);
  check(page, {
    'html() is the page': (r) => r.html().find('title').text() === 'Order',
    'html(selector) finds': (r) => r.html('input[name=custname]').size() === 1,
  });
  const sent = page.submitForm({ formSelector: 'form', fields: { custname: 'test', extradata: 'test2' } });
  check(sent, {
    'the form is posted to its action': (r) => r.status === 200 && r.json('method') === 'POST' && r.url === `${ECHO}/anything`,
    'fields are set and added': (r) => r.json('form.custname') === 'test' && r.json('form.extradata') === 'test2',
    'the form keeps its own values': (r) => r.json('form.custtel') === '555' && r.json('form.comments') === 'ring twice',
    'checked boxes only': (r) => r.json('form.size') === 'medium' && r.json('form.topping') === 'cheese',
    'the submit button is sent': (r) => r.json('form.order') === 'now',
  });

  const links = http.get(`${ECHO}/links/10/0`);
  const clicked = links.clickLink({ selector: 'a:nth-child(4)' });
  check(clicked, { 'clickLink requests the 4th link': (r) => r.status === 200 && r.url === `${ECHO}/links/10/4` });
}
