package k6browser_test

import (
	"strings"
	"testing"
	"time"
)

// TestDocsShapedScript runs the login script of k6's documentation: a
// page, a form typed into and submitted with a waitForNavigation raced
// against the click, checks on the result page, the page closed in a
// finally.
func TestDocsShapedScript(t *testing.T) {
	srv := newSite(t)
	s := newSession(t, script(`
export default async function () {
	const page = await browser.newPage();
	try {
		const res = await page.goto('{{url}}');
		expect('goto status', res.status(), 200);
		await page.locator('input[name="login"]').type('admin');
		await page.locator('input[name="password"]').type('123');
		await page.locator('#remember').check();
		await page.locator('select[name="plan"]').selectOption('pro');
		await Promise.all([
			page.waitForNavigation(),
			page.locator('input[type="submit"]').click(),
		]);
		const header = await page.locator('h2').textContent();
		check(header, { header: (h) => h === 'Welcome, admin!' });
		const fields = await page.locator('#fields').textContent();
		check(fields, { fields: (f) => f === 'password=123 remember=on plan=pro note=' });
		expect('title', await page.title(), 'Result');
		expect('url', page.url(), '{{url}}/result');
	} finally {
		await page.close();
	}
}`, srv.URL), "chromium", nil)
	s.mustIterate("default")
	if pass, fail := s.checks(); pass != 2 || fail != 0 {
		t.Fatalf("checks: %d passed, %d failed\n%s", pass, fail, s.log)
	}
}

// TestScenarioRequirement checks that the browser is refused outside a
// scenario whose options.browser.type is 'chromium': another scenario,
// the init context.
func TestScenarioRequirement(t *testing.T) {
	s := newSession(t, `
export default async function () {
	await browser.newPage();
}
export function sync() {
	browser.context();
}`, "", nil)
	err := s.iterate("default", time.Minute)
	want := `browser.newPage: the scenario "ui" has no browser type: set options.scenarios.ui.options.browser.type to 'chromium'`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("newPage without a browser scenario: %v", err)
	}
	err = s.iterate("sync", time.Minute)
	if err == nil || !strings.Contains(err.Error(), "browser.context: the scenario \"ui\" has no browser") {
		t.Fatalf("context() without a browser scenario: %v", err)
	}
	init := newSession(t, `
let failure = '';
try { browser.context(); } catch (e) { failure = e.message; }
export default function () { expect('init failure', failure.includes('cannot be used in the init context'), true); }
`, "chromium", nil)
	init.mustIterate("default")
}
