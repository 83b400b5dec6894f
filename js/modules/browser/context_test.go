package k6browser_test

import (
	"strings"
	"testing"
)

// TestBrowserContext covers the browser object and BrowserContext: one
// context at a time, its settings reaching the pages and the server,
// cookies, default timeouts and init scripts.
func TestBrowserContext(t *testing.T) {
	srv := newSite(t)
	s := newSession(t, script(`
export default async function () {
	expect('no context yet', browser.context(), null);
	expect('connected', browser.isConnected(), true);
	expect('version', /^(Headless)?Chrome\/\d+/.test(browser.version()), true);
	expect('userAgent', (await browser.userAgent()).includes('Chrome/'), true);

	const ctx = await browser.newContext({
		viewport: { width: 800, height: 600 },
		userAgent: 'k6-test-agent/1.0',
		locale: 'de-DE',
		extraHTTPHeaders: { 'X-Extra': 'from-context' },
	});
	expect('current context', browser.context() === ctx, true);
	await rejects('second context', browser.newContext(), 'a browser context is already open');
	await rejects('newPage while a context is open', browser.newPage(), 'a browser context is already open');

	const page = await ctx.newPage();
	await page.goto('{{url}}/headers');
	expect('user agent sent', await page.textContent('#ua'), 'k6-test-agent/1.0');
	expect('locale sent', (await page.textContent('#lang')).startsWith('de-DE'), true);
	expect('extra header sent', await page.textContent('#extra'), 'from-context');
	expect('viewport', await page.evaluate(() => [innerWidth, innerHeight, navigator.language]), [800, 600, 'de-DE']);
	expect('page context', page.context() === ctx, true);

	const other = await ctx.newPage();
	expect('pages', ctx.pages().length, 2);
	await other.close();
	expect('pages after close', ctx.pages().length, 1);

	await page.goto('{{url}}/cookie');
	let cookies = await ctx.cookies();
	expect('cookie set by the server', cookies.map((c) => [c.name, c.value, c.path]), [['session', 'abc123', '/']]);
	expect('cookies of another URL', (await ctx.cookies('http://example.com/')).length, 0);
	expect('cookies of the site', (await ctx.cookies('{{url}}/any')).length, 1);
	await ctx.addCookies([{ name: 'added', value: 'yes', url: '{{url}}' }]);
	await page.goto('{{url}}/cookie');
	expect('cookies sent', (await page.textContent('#seen')).split('; ').sort(), ['added=yes', 'session=abc123']);
	await rejects('cookie without a place', ctx.addCookies([{ name: 'x', value: 'y' }]), 'set either url, or domain and path');
	await ctx.clearCookies();
	expect('cleared', (await ctx.cookies()).length, 0);

	ctx.setDefaultTimeout(150);
	await rejects('context default timeout', page.locator('#never').click(), 'timed out after 150ms');
	ctx.setDefaultNavigationTimeout(200);
	await rejects('context navigation timeout', page.goto('{{url}}/hang'), 'page.goto: timed out after 200ms navigating to {{url}}/hang');
	ctx.setDefaultTimeout(30000);
	ctx.setDefaultNavigationTimeout(30000);

	await ctx.addInitScript(() => { window.initialised = 'by init script'; });
	await page.goto('{{url}}/second');
	expect('init script', await page.evaluate(() => window.initialised), 'by init script');
	const third = await ctx.newPage();
	await third.goto('{{url}}/second');
	expect('init script in a new page', await third.evaluate(() => window.initialised), 'by init script');

	await browser.closeContext();
	expect('closed context', browser.context(), null);
	expect('page closed with its context', page.isClosed(), true);
	await rejects('closeContext twice', browser.closeContext(), 'there is no browser context to close');

	const next = await browser.newPage();
	expect('newPage opens a context', browser.context() !== null && browser.context() !== ctx, true);
	expect('default viewport', await next.evaluate(() => [innerWidth, innerHeight]), [1280, 720]);
	await next.close();
}`, srv.URL), "chromium", nil)
	s.mustIterate("default")
}

// TestBrowserErrors checks the errors of a navigation to a refused port,
// of options of the wrong type and of a bad K6_BROWSER_* setting.
func TestBrowserErrors(t *testing.T) {
	closed := closedURL(t)
	s := newSession(t, script(`
export default async function () {
	const page = await browser.newPage();
	await rejects('refused', page.goto('{{url}}'), 'page.goto: navigating to {{url}}: net::ERR_CONNECTION_REFUSED');
	let thrown = '';
	try { page.locator('a').click({ timeout: 'soon' }); } catch (e) { thrown = e.message; }
	expect('bad timeout', thrown, 'locator.click: option timeout: expected a number, got soon');
	try { await page.goto('{{url}}', { waitUntil: 'never' }); } catch (e) { thrown = e.message; }
	expect('bad waitUntil', thrown, 'page.goto: waitUntil "never": want load, domcontentloaded, networkidle or commit');
	try { page.locator('a').waitFor({ state: 'gone' }); } catch (e) { thrown = e.message; }
	expect('bad state', thrown.includes('option state: "gone" is not one of'), true);
	await page.close();
}`, strings.TrimSuffix(closed, "/")), "chromium", nil)
	s.mustIterate("default")

	bad := newSession(t, `export default async function () { await browser.newPage(); }`, "chromium",
		map[string]string{"K6_BROWSER_TIMEOUT": "soon"})
	err := bad.iterate("default", 2*60e9)
	if err == nil || !strings.Contains(err.Error(), `browser.newPage: K6_BROWSER_TIMEOUT="soon": not a positive duration`) {
		t.Fatalf("bad K6_BROWSER_TIMEOUT: %v", err)
	}
}
