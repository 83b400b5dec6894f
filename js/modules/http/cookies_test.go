package k6http_test

import (
	"strings"
	"testing"
)

func TestCookies(t *testing.T) {
	srv := newServer(t)
	mustRun(t, `export default function () {
  const B = __ENV.BASE;
  let r = http.get(B + '/setcookie?k=v');
  eq([r.cookies.k[0].value, r.cookies.k[0].path], ['v', '/'], 'response.cookies');
  r = http.get(B + '/cookies');
  eq(r.json(), {k: 'v'}, 'the jar sends what a response set');
  eq(r.request.cookies.k[0].value, 'v', 'request.cookies');
  const jar = http.cookieJar();
  eq(jar.cookiesForURL(B + '/x'), {k: ['v']}, 'cookiesForURL');
  jar.set(B, 'm', 'n');
  eq(http.get(B + '/cookies').json(), {k: 'v', m: 'n'}, 'cookieJar.set');
  r = http.get(B + '/cookies', {cookies: {k: {value: 'x', replace: true}, extra: 'e'}});
  eq(r.json(), {extra: 'e', k: 'x', m: 'n'}, 'cookies param, replace');
  eq(jar.cookiesForURL(B), {k: ['v'], m: ['n']}, 'the cookies param does not enter the jar');
  jar.delete(B, 'k');
  eq(jar.cookiesForURL(B), {m: ['n']}, 'delete');
  jar.clear(B);
  eq(jar.cookiesForURL(B), {}, 'clear');
  eq(http.get(B + '/cookieredirect').json(), {hop: '1'}, 'a cookie set by a redirect is sent to the next hop');
  const own = new http.CookieJar();
  http.get(B + '/setcookie?z=1', {jar: own});
  eq([own.cookiesForURL(B), jar.cookiesForURL(B)], [{z: ['1']}, {hop: ['1']}], 'a jar of its own');
  eq(http.get(B + '/cookies', {jar: null}).json(), {}, 'jar: null sends none');
}`, map[string]string{"BASE": srv.URL})
}

// The VU's jar starts empty at each iteration, as in k6.
func TestCookieJarResetsEachIteration(t *testing.T) {
	srv := newServer(t)
	res := runIterations(t, 2, `export default function () {
  if (__ITER === 0) http.get(__ENV.BASE + '/setcookie?a=1');
  else eq(http.get(__ENV.BASE + '/cookies').json(), {}, 'second iteration');
}`, map[string]string{"BASE": srv.URL})
	if res.err != nil {
		t.Fatal(res.err)
	}
}

func TestCookieJarBadArguments(t *testing.T) {
	srv := newServer(t)
	for _, c := range []struct{ call, want string }{
		{`http.cookieJar().set('nope', 'a', 'b')`, `invalid url "nope"`},
		{`http.cookieJar().set(__ENV.BASE, 'a', 'b', {colour: 1})`, `unknown option "colour"`},
		{`http.cookieJar().set(__ENV.BASE, 'a', 'b', {expires: 'soon'})`, `option expires`},
	} {
		r := runScript(t, `export default function () { `+c.call+`; }`, map[string]string{"BASE": srv.URL})
		if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.call, r.err, c.want)
		}
	}
}
