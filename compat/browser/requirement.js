// compat: k6/browser — a scenario without options.browser.type set to 'chromium' cannot use the browser: browser.newPage() rejects with an error that says so, and the test goes on
import { browser } from 'k6/browser';
import { check } from 'k6';
import { Counter } from 'k6/metrics';

// completed counts the iterations that reached their end: an exception
// part-way fails the threshold.
const completed = new Counter('completed');

export const options = {
  scenarios: {
    protocol: { executor: 'shared-iterations' },
  },
  thresholds: { checks: ['rate==1.0'], completed: ['count==1'] },
};

export default async function () {
  let error = '';
  try {
    const page = await browser.newPage();
    await page.close();
  } catch (e) {
    error = String(e);
  }
  check(error, { 'newPage rejects, naming the browser type option': (m) => m.includes('browser type') });
  completed.add(1);
}
