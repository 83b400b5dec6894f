// compat: k6/browser — Locator actions wait for their element and act as a user: check, click, fill, selectOption, hover; textContent, inputValue, getAttribute, isChecked, isVisible, isHidden, isEnabled, isDisabled; waitFor an element that appears later; page.waitForSelector
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

    const box = page.locator('#checkbox1');
    await box.check();
    check(await box.isChecked(), { 'checked': (c) => c === true });
    check(await page.locator('#checkbox-info-display').textContent(), {
      'change event ran': (t) => t === 'Thanks for checking the box',
    });
    await box.uncheck();
    check(await box.isChecked(), { 'unchecked': (c) => c === false });

    const button = page.locator('#counter-button');
    await button.click();
    await button.click();
    check(await page.locator('#counter-info-display').textContent(), { 'two clicks': (t) => t === 'Counter: 2' });

    const text = page.locator('#text1');
    await text.fill('hello world!');
    check(await text.inputValue(), { 'filled': (v) => v === 'hello world!' });
    check(await page.locator('#text-info-display').textContent(), { 'input event ran': (t) => t === 'hello world!' });

    await page.locator('#numbers-options').selectOption('two');
    check(await page.locator('#select-info-display').textContent(), { 'selected': (t) => t === 'two' });

    await page.locator('#hover-target').hover();
    check(await page.locator('#hover-target').textContent(), { 'hovered': (t) => t === 'Hovered' });
    check(await page.locator('#hover-target').getAttribute('data-kind'), { 'attribute': (a) => a === 'target' });

    check(await page.locator('#input-text-hidden').isHidden(), { 'display:none is hidden': (h) => h === true });
    check(await page.locator('#text1').isVisible(), { 'visible': (v) => v === true });
    check(await page.locator('#input-disabled').isDisabled(), { 'disabled': (d) => d === true });
    check(await page.locator('#text1').isEnabled(), { 'enabled': (e) => e === true });

    await page.locator('#delayed').waitFor({ state: 'visible', timeout: 5000 });
    check(await page.locator('#delayed').textContent(), { 'late element': (t) => t === 'Arrived late' });
    await page.waitForSelector('#delayed', { state: 'attached' });
    completed.add(1);
  } finally {
    await page.close();
    await context.close();
  }
}
