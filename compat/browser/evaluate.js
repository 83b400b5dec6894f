// compat: k6/browser — page.evaluate runs a function in the page with arguments and returns its (awaited) value; waitForFunction waits until it is truthy; title, url, content; setContent, then $ and $$ element handles
import { browser } from 'k6/browser';
import { check } from 'k6';
import { Counter } from 'k6/metrics';

// completed counts the iterations that reached their end: an exception
// part-way fails the threshold.
const completed = new Counter('completed');

export const options = {
  scenarios: {
    ui: {
      executor: 'shared-iterations',
      options: { browser: { type: 'chromium' } },
    },
  },
  thresholds: { checks: ['rate==1.0'], completed: ['count==1'] },
};

export default async function () {
  const page = await browser.newPage();
  try {
    await page.goto(`${__ENV.ECHO}/site/form.html`, { waitUntil: 'load' });
    check(await page.title(), { 'title': (t) => t === 'Form elements' });
    check(page.url(), { 'url': (u) => u === `${__ENV.ECHO}/site/form.html` });
    check(await page.content(), { 'content': (c) => c.includes('id="counter-button"') });

    const sum = await page.evaluate(([a, b]) => a + b, [2, 3]);
    check(sum, { 'arguments': (s) => s === 5 });
    const dims = await page.evaluate(() => {
      return { width: document.documentElement.clientWidth, ok: true };
    });
    check(dims, { 'object result': (d) => d.ok === true && d.width > 0 });
    const later = await page.evaluate(() => new Promise((resolve) => setTimeout(() => resolve('done'), 50)));
    check(later, { 'awaited promise': (v) => v === 'done' });

    await page.waitForFunction(() => document.querySelector('#delayed') !== null, { polling: 'mutation', timeout: 5000 });
    check(await page.locator('#delayed').textContent(), { 'waitForFunction': (t) => t === 'Arrived late' });

    await page.setContent('<ul><li class="item">one</li><li class="item">two</li></ul><p id="p">para</p>');
    const items = await page.$$('li.item');
    check(items.length, { '$$ finds all': (n) => n === 2 });
    const p = await page.$('#p');
    check(await p.textContent(), { '$ finds one': (t) => t === 'para' });
    check(await page.$('#missing'), { '$ of nothing is null': (v) => v === null });
    completed.add(1);
  } finally {
    await page.close();
  }
}
