// compat: k6/browser — the documentation's login flow: browser.newPage, page.goto, a link clicked with Promise.all([page.waitForNavigation(), locator.click()]), locator.type into inputs, a form submitted, locator.textContent of the result, page.close in finally
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
    await page.goto(`${__ENV.ECHO}/site/`);
    await Promise.all([page.waitForNavigation(), page.locator('a[href="/site/my_messages"]').click()]);
    await page.locator('input[name="login"]').type('admin');
    await page.locator('input[name="password"]').type('123');
    await Promise.all([page.waitForNavigation(), page.locator('input[type="submit"]').click()]);
    const heading = await page.locator('h2').textContent();
    check(heading, { 'logged in': (h) => h === 'Welcome, admin!' });
    check(page, { 'title': (p) => p.url().endsWith('/site/my_messages') });
    completed.add(1);
  } finally {
    await page.close();
  }
}
