package k6http_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/usefullatency/usefullatency/js/modules"
)

func TestNetworkErrorsAreResponses(t *testing.T) {
	srv := newServer(t)
	r := mustRun(t, `export default function () {
  let r = http.get(__ENV.BASE + '/hang', {timeout: '200ms'});
  eq([r.status, r.error_code, r.error, r.body], [0, 1050, 'request timeout', null], 'timeout');
  r = http.get(__ENV.BASE + '/hang', {timeout: 150});
  eq(r.error_code, 1050, 'timeout in ms');
  r = http.get(__ENV.CLOSED);
  eq([r.status, r.error_code], [0, 1212], 'refused');
  if (!r.error.includes('connection refused')) throw new Error('refused error: ' + r.error);
  r = http.get('http://no-such-host.invalid/');
  eq([r.status, r.error_code], [0, 1101], 'no such host');
}`, map[string]string{"BASE": srv.URL, "CLOSED": closedURL(t)})
	codes := []string{}
	for _, s := range r.of("http_req_failed") {
		if s.Value != 1 || s.Tags["status"] != "0" || s.Tags["expected_response"] != "false" {
			t.Errorf("failed sample = %v %v", s.Value, s.Tags)
		}
		codes = append(codes, s.Tags["error_code"])
	}
	if got := strings.Join(codes, ","); got != "1050,1050,1212,1101" {
		t.Errorf("error_code tags = %s", got)
	}
}

func TestTLS(t *testing.T) {
	srv := newTLSServer(t)
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE + '/multi');
  eq([r.status, r.error_code], [0, 1310], 'self-signed certificate refused');
}`, map[string]string{"BASE": srv.URL})
	r := mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE + '/multi');
  eq([r.status, r.tls_version, r.proto], [200, 'tls1.3', 'HTTP/2.0'], 'insecureSkipTLSVerify');
  if (r.timings.tls_handshaking <= 0) throw new Error('tls_handshaking = ' + r.timings.tls_handshaking);
}`, map[string]string{"BASE": srv.URL}, func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
	s := r.of("http_req_tls_handshaking")
	if len(s) != 1 || s[0].Value <= 0 || s[0].Tags["tls_version"] != "tls1.3" || s[0].Tags["proto"] != "HTTP/2.0" {
		t.Errorf("tls samples = %+v", s)
	}
}

func TestBadArgumentsThrowBeforeSending(t *testing.T) {
	srv := newServer(t)
	cases := []struct{ name, call, want string }{
		{"unknown param", `http.get(U, {timeuot: '1s'})`, `unknown param "timeuot"`},
		{"unknown compression", `http.post(U, "x", {compression: "gzip, lz4"})`, `params.compression: unknown compression algorithm "lz4"`},
		{"bad jar", `http.get(U, {jar: {}})`, `params.jar: want a CookieJar`},
		{"bad cookies", `http.get(U, {cookies: 'a=b'})`, `params.cookies: want an object`},
		{"bad timeout", `http.get(U, {timeout: 'soon'})`, `params.timeout`},
		{"negative timeout", `http.get(U, {timeout: -5})`, `params.timeout: must be positive`},
		{"bad redirects", `http.get(U, {redirects: 1.5})`, `params.redirects`},
		{"bad responseType", `http.get(U, {responseType: 'blob'})`, `params.responseType: want "text", "binary" or "none", got "blob"`},
		{"headers not an object", `http.get(U, {headers: 'x'})`, `params.headers: want an object`},
		{"unknown auth", `http.get(U, {auth: 'kerberos'})`, `params.auth: "kerberos" is not supported`},
		{"missing url", `http.get()`, `the url argument is missing`},
		{"bad body", `http.post(U, 42)`, `the body must be`},
		{"empty method", `http.request('', U)`, `invalid method ""`},
		{"bad method", `http.request('GE T', U)`, `invalid method "GE T"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runScript(t, `export default function () { const U = __ENV.BASE + '/echo'; `+c.call+`; }`,
				map[string]string{"BASE": srv.URL})
			if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
				t.Fatalf("error = %v, want it to contain %q", r.err, c.want)
			}
			if n := len(r.of("http_reqs")); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}

// TestURLWithoutScheme checks that a URL http can't send (no scheme,
// another scheme, no host) gives a failed response as in k6 — status 0,
// error_code 1000, Go's reason — counted as a failed request, not an
// exception.
func TestURLWithoutScheme(t *testing.T) {
	r := mustRun(t, `export default function () {
		const want = ['0 1000 unsupported protocol scheme ""', '0 1000 unsupported protocol scheme ""',
			'0 1000 unsupported protocol scheme "ftp"', '0 1000 http: no Host in request URL'];
		['/echo', 'example.invalid/x', 'ftp://example.invalid/x', 'http:///nohost'].forEach((u, i) => {
			const res = http.get(u);
			const got = res.status + ' ' + res.error_code + ' ' + res.error;
			if (got !== want[i]) throw new Error(u + ': ' + got);
		});
	}`, nil)
	if n := len(r.of("http_reqs")); n != 4 {
		t.Errorf("%d http_reqs, want 4", n)
	}
	if n := strings.Count(r.log, "Request Failed"); n != 4 {
		t.Errorf("%d Request Failed warnings, want 4:\n%s", n, r.log)
	}
}

func TestInitContext(t *testing.T) {
	srv := newServer(t)
	r := runScript(t, `http.get(__ENV.BASE + '/echo'); export default function () {}`, map[string]string{"BASE": srv.URL})
	if r.err == nil || !strings.Contains(r.err.Error(), "init context") {
		t.Fatalf("error = %v, want the init context refused", r.err)
	}
}

// The run's throw and maxRedirects options, under their k6 names.
func TestThrowAndMaxRedirectsOptions(t *testing.T) {
	srv := newServer(t)
	withOptions := func(run *modules.Run) { run.Options = map[string]any{"throw": true, "maxRedirects": float64(1)} }
	r := mustRun(t, `export default function () {
  eq(http.get(__ENV.BASE + '/redirect/2').status, 302, 'maxRedirects 1');
  eq(http.get(__ENV.BASE + '/redirect/2', {redirects: 5}).status, 200, 'the param wins');
  eq(http.get(__ENV.BASE + '/status/500').status, 500, 'an HTTP error does not throw');
  let threw = '';
  try { http.get(__ENV.CLOSED); } catch (e) { threw = String(e); }
  if (!threw.includes('error_code 1212')) throw new Error('throw option: ' + threw);
}`, map[string]string{"BASE": srv.URL, "CLOSED": closedURL(t)}, withOptions)
	if n := len(r.of("http_reqs")); n != 2+3+1+1 {
		t.Errorf("http_reqs = %d, want 7 (the refused request still counts)", n)
	}
}

// A request cut short because the iteration was interrupted (the VU's
// context ended) is not a failed request: it emits no samples.
func TestInterruptedRequestEmitsNothing(t *testing.T) {
	arrived := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	r := runIterationsCtx(ctx, t, 1, `export default function () { http.get(__ENV.BASE); }`, map[string]string{"BASE": srv.URL})
	if n := len(r.of("http_reqs")) + len(r.of("http_req_failed")); n != 0 {
		t.Errorf("%d samples of an interrupted request, want none", n)
	}
}
