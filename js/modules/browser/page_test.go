package k6browser_test

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPageNavigationAndContent covers goto's waitUntil and Response,
// reload, waitForLoadState, title, url, content, setContent and the
// selector shortcuts of Page.
func TestPageNavigationAndContent(t *testing.T) {
	srv := newSite(t)
	s := newSession(t, script(`
export default async function () {
	const page = await browser.newPage();
	let res = await page.goto('{{url}}', { waitUntil: 'networkidle' });
	expect('status', res.status(), 200);
	expect('ok', res.ok(), true);
	expect('response url', res.url(), '{{url}}/');
	expect('header', res.headers()['x-site'], 'login');
	expect('headerValue', await res.headerValue('X-Site'), 'login');
	expect('serverAddr', (await res.serverAddr()).ipAddress, '127.0.0.1');
	res = await page.goto('{{url}}/missing', { waitUntil: 'domcontentloaded' });
	expect('404', [res.status(), res.ok()], [404, false]);
	expect('fragment', await page.goto('{{url}}/missing#top'), null);
	expect('url with fragment', page.url(), '{{url}}/missing#top');

	await page.goto('{{url}}');
	expect('title', await page.title(), 'Login');
	expect('content', (await page.content()).startsWith('<!DOCTYPE html><html><head><title>Login</title>'), true);
	res = await page.reload();
	expect('reload', res.status(), 200);
	await page.waitForLoadState('load');

	await page.fill('input[name="login"]', 'shortcut');
	await page.type('input[name="password"]', 'pw');
	await page.check('#remember');
	expect('selectOption', await page.selectOption('select', 'Professional'), ['pro']);
	expect('inputValue', await page.inputValue('input[name="login"]'), 'shortcut');
	expect('isChecked', await page.isChecked('#remember'), true);
	expect('first of several', await page.textContent('.item'), 'alpha');
	await rejects('strict option', page.textContent('.item', { strict: true }), 'strict mode violation');
	expect('innerText', await page.innerText('#next'), 'to the second page');
	expect('getAttribute', await page.getAttribute('#next', 'href'), '/second');
	expect('isVisible', await page.isVisible('#hidden'), false);
	expect('isHidden', await page.isHidden('#hidden'), true);
	expect('isEnabled', await page.isEnabled('#disabled'), false);
	await page.click('#counter');
	await page.dispatchEvent('#counter', 'click');
	expect('clicked twice', await page.getAttribute('#counter', 'data-n'), '2');
	await page.press('#keys', 'Enter');
	expect('press', await page.getAttribute('#keys', 'data-last'), 'Enter');
	await page.uncheck('#remember');
	await Promise.all([page.waitForNavigation(), page.click('input[type="submit"]')]);
	expect('submitted', await page.textContent('#fields'), 'password=pw remember= plan=pro note=');

	await page.setContent('<title>set</title><p id="p">from setContent</p>');
	expect('setContent', await page.textContent('#p'), 'from setContent');
	expect('setContent title', await page.title(), 'set');
	await page.close();
	expect('isClosed', page.isClosed(), true);
}`, srv.URL), "chromium", nil)
	s.mustIterate("default")
}

// TestPageEvaluateAndWaits covers evaluate, evaluateHandle, JSHandle and
// ElementHandle, $ and $$, waitForFunction's pollings, waitForSelector's
// states and waitForTimeout.
func TestPageEvaluateAndWaits(t *testing.T) {
	srv := newSite(t)
	s := newSession(t, script(`
export default async function () {
	const page = await browser.newPage();
	await page.goto('{{url}}');
	expect('evaluate function', await page.evaluate((a, b) => ({ sum: a + b, list: [a, b] }), 2, 3), { sum: 5, list: [2, 3] });
	expect('evaluate string', await page.evaluate('document.title'), 'Login');
	expect('evaluate async', await page.evaluate(async () => 7), 7);
	expect('evaluate undefined', await page.evaluate(() => undefined), undefined);
	await rejects('page exception', page.evaluate(() => { throw new Error('boom'); }), 'boom');

	const h = await page.evaluateHandle(() => ({ a: 1 }));
	expect('jsonValue', await h.jsonValue(), { a: 1 });
	expect('handle evaluate', await h.evaluate((o, n) => o.a + n, 41), 42);
	expect('asElement of object', h.asElement(), null);
	await h.dispose();

	const link = await page.$('#next');
	expect('$ text', await link.textContent(), 'to the second page');
	expect('$ attribute', await link.getAttribute('href'), '/second');
	expect('$ visible', await link.isVisible(), true);
	expect('element as argument', await page.evaluate((el) => el.id, link), 'next');
	expect('$ missing', await page.$('#absent'), null);
	const items = await page.$$('.item');
	expect('$$', await Promise.all(items.map((i) => i.textContent())), ['alpha', 'beta', 'gamma']);
	const counter = await page.$('#counter');
	await counter.click();
	expect('handle click', await counter.getAttribute('data-n'), '1');

	const late = await page.waitForSelector('#late');
	expect('waitForSelector', await late.textContent(), 'arrived late');
	expect('detached', await page.waitForSelector('#vanish', { state: 'detached' }), null);
	expect('hidden', await page.waitForSelector('#hidden', { state: 'hidden' }), null);
	expect('attached', (await page.waitForSelector('#hidden', { state: 'attached' })) !== null, true);
	await rejects('waitForSelector timeout', page.waitForSelector('#never', { timeout: 250 }),
		'page.waitForSelector: timed out after 250ms waiting for "#never" to be visible');

	// Deliberate pace of the page: the flags are set 150 ms from now.
	await page.evaluate(() => { setTimeout(() => { window.ready = 'yes'; document.body.dataset.flag = 'on'; }, 150); });
	const ready = await page.waitForFunction(() => window.ready);
	expect('raf polling', await ready.jsonValue(), 'yes');
	await page.waitForFunction('document.body.dataset.flag === "on"', { polling: 'mutation' });
	const sum = await page.waitForFunction((a, b) => a + b, { polling: 50 }, 20, 22);
	expect('interval polling with args', await sum.jsonValue(), 42);
	await rejects('waitForFunction timeout', page.waitForFunction(() => false, { timeout: 200 }),
		'page.waitForFunction: timed out after 200ms waiting for the function to be truthy');

	const start = Date.now();
	await page.waitForTimeout(100);
	expect('waitForTimeout', Date.now() - start >= 100, true);
	await page.close();
}`, srv.URL), "chromium", nil)
	s.mustIterate("default")
}

// TestPageDevices covers the keyboard, the mouse, the viewport, the
// console event and screenshots.
func TestPageDevices(t *testing.T) {
	srv := newSite(t)
	shot := filepath.Join(t.TempDir(), "shots", "page.png")
	s := newSession(t, script(`
export default async function () {
	const page = await browser.newPage();
	await page.goto('{{url}}');
	const messages = [];
	page.on('console', (msg) => messages.push(msg.type() + ':' + msg.text()));

	await page.locator('input[name="login"]').focus();
	await page.keyboard.type('héllo');
	await page.keyboard.down('Shift');
	await page.keyboard.press('ArrowLeft');
	await page.keyboard.press('ArrowLeft');
	await page.keyboard.up('Shift');
	await page.keyboard.insertText('XY');
	expect('keyboard', await page.inputValue('input[name="login"]'), 'hélXY');
	await page.keyboard.press('Control+A');
	await page.keyboard.press('Delete');
	expect('select all and delete', await page.inputValue('input[name="login"]'), '');

	const box = await page.locator('#counter').boundingBox();
	const scrollY = await page.evaluate(() => window.scrollY);
	const x = box.x + box.width / 2, y = box.y - scrollY + box.height / 2;
	await page.mouse.click(x, y);
	await page.mouse.move(x, y);
	await page.mouse.down();
	await page.mouse.up();
	await page.mouse.dblclick(x, y);
	expect('mouse clicks', await page.getAttribute('#counter', 'data-n'), '4');
	// The console events travel apart from the clicks' replies: wait for
	// the fourth (bounded), then check them all.
	for (let i = 0; i < 500 && messages.length < 4; i++) await page.waitForTimeout(10);
	expect('console', messages, ['log:clicked 1', 'log:clicked 2', 'log:clicked 3', 'log:clicked 4']);

	await page.setViewportSize({ width: 640, height: 480 });
	expect('viewportSize', page.viewportSize(), { width: 640, height: 480 });
	expect('innerWidth', await page.evaluate(() => [innerWidth, innerHeight]), [640, 480]);
	await page.bringToFront();

	const png = await page.screenshot({ path: '`+filepath.ToSlash(shot)+`', fullPage: true });
	expect('ArrayBuffer', png instanceof ArrayBuffer, true);
	const bytes = new Uint8Array(png);
	expect('png signature', Array.from(bytes.slice(1, 4)), [80, 78, 71]);
	const jpeg = new Uint8Array(await page.screenshot({ type: 'jpeg', quality: 50 }));
	expect('jpeg signature', [jpeg[0], jpeg[1]], [0xff, 0xd8]);
	await page.close();
}`, srv.URL), "chromium", nil)
	s.mustIterate("default")
	data, err := os.ReadFile(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the screenshot file is not a PNG: %v", err)
	}
	// The full page of a 640 px wide viewport is 640 px wide and at least
	// as tall as the viewport.
	if b := img.Bounds(); b.Dx() != 640 || b.Dy() < 480 {
		t.Fatalf("screenshot of %v", b)
	}
	if strings.Contains(s.log.String(), "Error") {
		t.Fatalf("log: %s", s.log)
	}
}
