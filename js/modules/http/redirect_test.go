package k6http_test

import (
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/logline"
)

func TestRedirects(t *testing.T) {
	srv := newServer(t)
	base := srv.URL
	r := mustRun(t, `export default function () {
  let r = http.get(__ENV.BASE + '/redirect/3');
  eq([r.status, r.body, r.url], [200, 'done after GET', __ENV.BASE + '/redirect/0'], 'followed');
  eq(r.request.url, __ENV.BASE + '/redirect/0', 'request of the last hop');
  r = http.get(__ENV.BASE + '/redirect/3', {redirects: 0});
  eq([r.status, r.headers.Location, r.url], [302, '/redirect/2', __ENV.BASE + '/redirect/3'], 'redirects: 0');
  r = http.get(__ENV.BASE + '/redirect/3', {redirects: 2});
  eq([r.status, r.url], [302, __ENV.BASE + '/redirect/1'], 'stops after 2 redirects');
  r = http.post(__ENV.BASE + '/redirect/1', 'payload');
  eq(r.body, 'done after GET', '302 turns a POST into a GET');
  r = http.post(__ENV.BASE + '/redirect307', 'payload');
  eq([r.json('method'), r.json('body')], ['POST', 'payload'], '307 repeats the POST and its body');
}`, map[string]string{"BASE": base})
	// 4 + 1 + 3 + 2 + 2 exchanges, each with its own http_reqs sample.
	reqs := r.of("http_reqs")
	if len(reqs) != 12 {
		t.Fatalf("http_reqs samples = %d, want 12 (one per hop)", len(reqs))
	}
	want := []struct{ url, status string }{
		{"/redirect/3", "302"}, {"/redirect/2", "302"}, {"/redirect/1", "302"}, {"/redirect/0", "200"},
	}
	for i, w := range want {
		tags := reqs[i].Tags
		if tags["url"] != base+w.url || tags["name"] != base+w.url || tags["status"] != w.status ||
			tags["method"] != "GET" || tags["expected_response"] != "true" {
			t.Errorf("hop %d tags = %v, want url and name %s, status %s", i, tags, w.url, w.status)
		}
	}
}

// TestRedirectLimitWarning checks k6's warning for a request that stops at
// the default limit (10 redirects, so 11 requests, k6's count in the
// message) and returns the redirect response; a limit the redirects param
// or the maxRedirects option set is not warned about.
func TestRedirectLimitWarning(t *testing.T) {
	srv := newServer(t)
	env := map[string]string{"BASE": srv.URL}
	r := mustRun(t, `export default function () {
  let r = http.get(__ENV.BASE + '/redirect/11');
  eq([r.status, r.url, r.headers.Location], [302, __ENV.BASE + '/redirect/1', '/redirect/0'], 'stopped after 10 redirects');
  eq(http.get(__ENV.BASE + '/redirect/10').status, 200, '10 redirects are followed');
  eq(http.get(__ENV.BASE + '/redirect/11', {redirects: 10}).status, 302, 'the redirects param');
  eq(http.get(__ENV.BASE + '/redirect/11', {redirects: 0}).status, 302, 'no redirects');
}`, env)
	want := `WARN Stopped after 11 redirects and returned the redirection; pass { redirects: n } in request params or set global maxRedirects to silence this  url="` +
		srv.URL + `/redirect/11"` + "\n"
	if r.log != want {
		t.Fatalf("log %q\nwant %q", r.log, want)
	}
	l, ok := logline.Parse(strings.TrimSuffix(r.log, "\n"))
	if !ok || l.Level != "warning" || !strings.HasSuffix(l.Msg, "to silence this") || len(l.Fields) != 1 || l.Fields[0] != [2]string{"url", srv.URL + "/redirect/11"} {
		t.Errorf("parsed as %+v", l)
	}
	r = mustRun(t, `export default function () {
  eq(http.get(__ENV.BASE + '/redirect/11').status, 302, 'maxRedirects 10');
}`, env, func(run *modules.Run) { run.Options = map[string]any{"maxRedirects": float64(10)} })
	if r.log != "" {
		t.Errorf("a limit the maxRedirects option set was warned about: %q", r.log)
	}
}
