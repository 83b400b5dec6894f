package k6http_test

import (
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js/modules"
)

// Three requests that the server answers only once all three are in flight
// together: a batch that sent them one after the other would get 504s.
func TestBatchIsParallel(t *testing.T) {
	srv := newServer(t)
	r := mustRun(t, `export default function () {
  const b = __ENV.BASE + '/barrier/3?g=';
  let rs = http.batch([b + 'a&id=1', ['GET', b + 'a&id=2', null, {tags: {name: 'two'}}], {method: 'GET', url: b + 'a&id=3'}]);
  eq(rs.map((r) => [r.status, r.body]), [[200, '1'], [200, '2'], [200, '3']], 'array form, in order');
  rs = http.batch({x: b + 'o&id=x', y: ['POST', b + 'o&id=y', 'body'], z: {url: b + 'o&id=z'}});
  eq([rs.x.body, rs.y.body, rs.z.body, rs.y.request.method], ['x', 'y', 'z', 'POST'], 'object form');
}`, map[string]string{"BASE": srv.URL})
	reqs := r.of("http_reqs")
	if len(reqs) != 6 {
		t.Fatalf("http_reqs = %d samples, want 6", len(reqs))
	}
	named := 0
	for _, s := range reqs {
		if s.Tags["name"] == "two" {
			named++
		}
	}
	if named != 1 {
		t.Errorf("%d samples named by their params, want 1", named)
	}
}

func TestBatchLimit(t *testing.T) {
	srv := newServer(t)
	mustRun(t, `export default function () {
  const rs = http.batch(Array.from({length: 8}, () => __ENV.BASE + '/inflight'));
  for (const r of rs) eq(r.body, '1', 'at most one request in flight');
}`, map[string]string{"BASE": srv.URL}, func(run *modules.Run) { run.Options = map[string]any{"batch": float64(1)} })
}

func TestBatchChecksEveryRequestFirst(t *testing.T) {
	srv := newServer(t)
	r := runScript(t, `export default function () {
  http.batch([__ENV.BASE + '/echo', ['GET', __ENV.BASE + '/echo', null, {bogus: 1}]]);
}`, map[string]string{"BASE": srv.URL})
	if r.err == nil || !strings.Contains(r.err.Error(), `batch request 1: k6/http: unknown param "bogus"`) {
		t.Fatalf("error = %v", r.err)
	}
	if n := len(r.of("http_reqs")); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// Two async requests answered only once both are in flight: the promise
// API does not block the VU.
func TestAsyncRequest(t *testing.T) {
	srv := newServer(t)
	mustRun(t, `export default async function () {
  const b = __ENV.BASE + '/barrier/2?g=async';
  const [one, two] = await Promise.all([http.asyncRequest('GET', b + '&id=1'), http.asyncRequest('POST', b + '&id=2', 'x')]);
  eq([one.status, one.body, two.body, two.request.method], [200, '1', '2', 'POST'], 'responses');
  let msg = '';
  await http.asyncRequest('GET', b, null, {nope: 1}).catch((e) => { msg = String(e); });
  if (!msg.includes('unknown param "nope"')) throw new Error('rejection: ' + msg);
}`, map[string]string{"BASE": srv.URL})
}

func TestExpectedStatuses(t *testing.T) {
	srv := newServer(t)
	r := mustRun(t, `http.setResponseCallback(http.expectedStatuses(404, {min: 200, max: 204}));
export default function () {
  http.get(__ENV.BASE + '/status/404');
  http.get(__ENV.BASE + '/status/302', {redirects: 0});
  http.get(__ENV.BASE + '/status/500', {responseCallback: http.expectedStatuses(500)});
  http.get(__ENV.BASE + '/status/200', {responseCallback: null});
}`, map[string]string{"BASE": srv.URL})
	failed := r.of("http_req_failed")
	if len(failed) != 3 {
		t.Fatalf("http_req_failed = %d samples, want 3 (none without a callback)", len(failed))
	}
	for i, want := range []float64{0, 1, 0} {
		if failed[i].Value != want {
			t.Errorf("request %d: http_req_failed = %v, want %v (tags %v)", i, failed[i].Value, want, failed[i].Tags)
		}
	}
	if last := r.of("http_reqs")[3].Tags; last["expected_response"] != "" {
		t.Errorf("without a callback: expected_response tag = %q, want none", last["expected_response"])
	}
	for _, c := range []struct{ call, want string }{
		{`http.expectedStatuses()`, `needs at least one status`},
		{`http.expectedStatuses(200, {min: 'a', max: 300})`, `argument 2: want {min, max} with whole numbers, got {"min":"a","max":300}`},
		{`http.expectedStatuses(200.5)`, `argument 1: want a whole number or {min, max}`},
		{`http.setResponseCallback((r) => true)`, `want the result of http.expectedStatuses() or null`},
		{`http.get(__ENV.BASE + '/echo', {responseCallback: 5})`, `params.responseCallback: want the result`},
	} {
		r := runScript(t, `export default function () { `+c.call+`; }`, map[string]string{"BASE": srv.URL})
		if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.call, r.err, c.want)
		}
	}
}
