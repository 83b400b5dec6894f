package k6http_test

import (
	"testing"
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
