// compat: k6/browser — page.keyboard types and presses keys into the focused element, page.mouse clicks at page coordinates, page.screenshot returns the PNG and writes its path, a context's cookies are added, listed and cleared
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
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${__ENV.ECHO}/site/form.html`);
    await page.locator('#text1').focus();
    await page.keyboard.type('abc');
    await page.keyboard.press('Enter');
    check(await page.locator('#text1').inputValue(), { 'typed': (v) => v === 'abc' });
    check(await page.locator('#keys').textContent(), { 'key events': (k) => k === '[a][b][c][Enter]' });

    await page.mouse.click(40, 610);
    check(await page.locator('#mouse-target').textContent(), { 'mouse click': (t) => t === 'Clicked at 40,610' });

    const png = await page.screenshot({ path: `${__ENV.SHOTS || '/tmp'}/compat-browser.png` });
    check(new Uint8Array(png), { 'PNG': (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 });

    await context.addCookies([{ name: 'flavour', value: 'mint', url: __ENV.ECHO }]);
    const cookies = await context.cookies();
    check(cookies, { 'cookie added': (c) => c.length === 1 && c[0].name === 'flavour' && c[0].value === 'mint' });
    await context.clearCookies();
    check(await context.cookies(), { 'cookies cleared': (c) => c.length === 0 });
    completed.add(1);
  } finally {
    await page.close();
    await context.close();
  }
}
