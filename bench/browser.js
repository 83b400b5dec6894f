// Browser VUs for the memory and CPU benchmark (bench/browser.sh): VUS
// VUs, each with its own Chromium, ask the built-in assistant's chat page
// (SUT_URL, set by --mock) a question and watch the answer with
// usefulsse.watch, PAGES pages open at once per VU, for DURATION.
import { browser } from 'k6/browser';
import usefulsse from 'k6/x/usefulsse';

const pages = Number(__ENV.PAGES || 1);

export const options = {
  scenarios: {
    ui: {
      executor: 'constant-vus', vus: Number(__ENV.VUS || 1), duration: __ENV.DURATION || '20s',
      options: { browser: { type: 'chromium' } },
    },
  },
};

export default async function () {
  const context = await browser.newContext();
  const open = [];
  for (let i = 0; i < pages; i++) {
    const page = await context.newPage();
    await page.goto(`${__ENV.SUT_URL}/chat?bucket=qa`);
    open.push(page);
  }
  await usefulsse.watch(open[0], '.answer', {
    action: () => open[0].locator('#send').click(),
    done: '[data-done]',
    tags: { bucket: 'qa' },
  });
  await context.close();
}
