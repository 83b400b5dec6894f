package k6browser_test

import "testing"

// TestLocatorActionsAndReads drives every Locator method on the login
// page and reads the state it left, in the page and on the result page.
func TestLocatorActionsAndReads(t *testing.T) {
	srv := newSite(t)
	s := newSession(t, script(`
export default async function () {
	const page = await browser.newPage();
	await page.goto('{{url}}');
	const login = page.locator('input[name="login"]');
	await login.fill('first');
	await login.fill('second');
	expect('fill replaces', await login.inputValue(), 'second');
	await login.clear();
	expect('clear', await login.inputValue(), '');
	await login.type('ab');
	await login.press('Backspace');
	await login.press('Shift+C');
	expect('type and press', await login.inputValue(), 'aC');

	const note = page.locator('//textarea[@name="note"]');
	await note.fill('line one\nline two');
	expect('xpath fill', await note.inputValue(), 'line one\nline two');

	const remember = page.locator('#remember');
	expect('unchecked', await remember.isChecked(), false);
	await remember.check();
	expect('checked', await remember.isChecked(), true);
	await remember.uncheck();
	expect('unchecked again', await remember.isChecked(), false);

	const plan = page.locator('select');
	expect('select by label', await plan.selectOption({ label: 'Professional' }), ['pro']);
	expect('select by value', await plan.selectOption(['free']), ['free']);
	expect('select value', await plan.inputValue(), 'free');

	const items = page.locator('.item');
	expect('count', await items.count(), 3);
	expect('first', await items.first().textContent(), 'alpha');
	expect('nth', await items.nth(1).innerText(), 'beta');
	expect('last', await items.last().innerHTML(), 'gamma');
	expect('hasText', await page.locator('li', { hasText: 'BET' }).textContent(), 'beta');
	expect('hasText regexp', await page.locator('li', { hasText: /^g/ }).textContent(), 'gamma');
	expect('hasNotText', await page.locator('li', { hasNotText: 'a' }).count(), 0);
	expect('chained', await page.locator('ul').locator('li').nth(2).textContent(), 'gamma');
	expect('text selector', await page.locator('text=to the second').getAttribute('href'), '/second');
	expect('missing attribute', await page.locator('#next').getAttribute('target'), null);
	expect('all', (await items.all()).length, 3);
	await rejects('strict', items.textContent(), 'strict mode violation: ".item" selects 3 elements');

	expect('visible', await page.locator('#next').isVisible(), true);
	expect('hidden is not visible', await page.locator('#hidden').isVisible(), false);
	expect('hidden', await page.locator('#hidden').isHidden(), true);
	expect('absent is hidden', await page.locator('#absent').isHidden(), true);
	expect('enabled', await login.isEnabled(), true);
	expect('disabled', await page.locator('#disabled').isDisabled(), true);
	expect('editable', await login.isEditable(), true);
	expect('read-only', await page.locator('[name="locked"]').isEditable(), false);

	const counter = page.locator('#counter');
	await counter.click();
	await counter.click({ clickCount: 2 });
	expect('clicks', await counter.getAttribute('data-n'), '3');
	await page.locator('#dbl').dblclick();
	expect('dblclick', await page.locator('#dbl').textContent(), 'double-clicked');
	await page.locator('#hover').hover();
	expect('hover', await page.locator('#hover').textContent(), 'hovered');
	await page.locator('#keys').focus();
	await page.keyboard.press('ArrowLeft');
	expect('focus', await page.locator('#keys').getAttribute('data-last'), 'ArrowLeft');
	const box = await page.locator('#next').boundingBox();
	expect('box', box.width > 0 && box.height > 0, true);

	await page.locator('#late').waitFor();
	expect('late', await page.locator('#late').textContent(), 'arrived late');
	await page.locator('#vanish').waitFor({ state: 'detached' });
	expect('vanished', await page.locator('#vanish').count(), 0);

	await Promise.all([page.waitForNavigation(), page.locator('#next').click()]);
	expect('navigated', await page.locator('#second').textContent(), 'the second page');
	await page.close();
}`, srv.URL), "chromium", nil)
	s.mustIterate("default")
}

// TestLocatorTimeouts checks that a wait that runs out names the selector,
// what it waited for and the timeout, and that a locator's default
// timeout comes from the page and its context.
func TestLocatorTimeouts(t *testing.T) {
	srv := newSite(t)
	s := newSession(t, script(`
export default async function () {
	const page = await browser.newPage();
	await page.goto('{{url}}');
	let msg = await rejects('click on hidden', page.locator('#hidden').click({ timeout: 300 }),
		'locator.click: timed out after 300ms waiting for "#hidden" to be visible, enabled and stable');
	expect('reason', msg.includes('the element is not visible'), true);
	page.setDefaultTimeout(200);
	await rejects('default timeout', page.locator('#never').textContent(),
		'locator.textContent: timed out after 200ms waiting for "#never" to be attached (no element matches the selector)');
	await rejects('fill a checkbox', page.locator('#remember').fill('x'), 'cannot be filled');
	await rejects('bad selector', page.locator('##').count(), 'invalid selector');
	await rejects('disabled button', page.locator('#disabled').click({ timeout: 200 }), 'the element is not enabled');
	await page.close();
}`, srv.URL), "chromium", nil)
	s.mustIterate("default")
}
