package k6http_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// shopPage is the page the site serves at /shop/: links (a relative one
// first), a login form posting to a relative action and a search form
// sent with GET.
const shopPage = `<!DOCTYPE html><html><head><title>Shop</title></head><body>
<h1>Welcome</h1>
<nav><a href="items?page=2" class="first">Items</a> <a class="second" href="/about">About</a> <a name="nohref">x</a></nav>
<form id="login" action="login" method="post">
  <input type="hidden" name="csrf" value="token-1">
  <input name="user" value="">
  <input type="checkbox" name="remember" checked>
  <input type="checkbox" name="news" value="yes">
  <select name="lang"><option>en</option><option selected>fr</option></select>
  <input type="submit" name="go" value="Log in">
</form>
<form id="search" action="/find?stale=1"><input name="q" value="shoes"><input name="size" value="42"></form>
<form id="self" method="POST"><input name="a" value="1"></form>
</body></html>`

// site is a test server that serves shopPage and records the requests it
// receives: method, path, query, form and headers. Other requests than
// the GET of /shop/ are answered "METHOD /path".
type site struct {
	*httptest.Server
	mu       sync.Mutex
	received []*received
}

// received is one request a site recorded.
type received struct {
	method, path, query, contentType, header string
	form                                     url.Values
}

// newSite starts a site on 127.0.0.1.
func newSite(t *testing.T) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		s.mu.Lock()
		s.received = append(s.received, &received{
			method: r.Method, path: r.URL.Path, query: r.URL.RawQuery, form: form,
			contentType: r.Header.Get("Content-Type"), header: r.Header.Get("X-Test"),
		})
		s.mu.Unlock()
		if r.URL.Path == "/shop/" && r.Method == http.MethodGet {
			fmt.Fprint(w, shopPage)
			return
		}
		fmt.Fprintf(w, "%s %s", r.Method, r.URL.Path)
	}))
	t.Cleanup(s.Close)
	return s
}

// requests returns the requests the site received for path.
func (s *site) requests(path string) []*received {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*received
	for _, r := range s.received {
		if r.path == path {
			out = append(out, r)
		}
	}
	return out
}

// TestResponseHTML parses a response as HTML: html() is the document's
// Selection, html(selector) finds in it, and links resolve against the
// response URL.
func TestResponseHTML(t *testing.T) {
	s := newSite(t)
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE + '/shop/');
  eq(r.html().find('title').text(), 'Shop', 'title');
  eq(r.html('h1').text(), 'Welcome', 'html(selector)');
  eq(r.html('nav a').size(), 3, 'links');
  eq(r.html('a.first').get(0).pathname(), '/shop/items', 'relative href resolved against the response URL');
  eq(r.html('a.first').get(0).search(), '?page=2', 'query of the href');
  eq(r.html('a.first').get(0).hostname(), '127.0.0.1', 'host of the response');
  eq(r.html('#login').serializeObject(), {csrf: 'token-1', user: '', remember: 'on', lang: 'fr'}, 'form fields');
  eq(http.get(__ENV.BASE + '/shop/', {responseType: 'binary'}).html('h1').text(), 'Welcome', 'binary body');
}`, map[string]string{"BASE": s.URL})
	r := runScript(t, `export default function () { http.get(__ENV.BASE + '/shop/', {responseType: 'none'}).html(); }`,
		map[string]string{"BASE": s.URL})
	if r.err == nil || !strings.Contains(r.err.Error(), "html(): the response has no body") {
		t.Errorf("html() of a response without body: error = %v", r.err)
	}
}

// TestSubmitForm submits the page's forms to the site and checks what it
// received: the POST form's fields with the overrides, the submit button
// and the params' header; the GET form's fields in the query of its
// action; a form without action posted to the page itself.
func TestSubmitForm(t *testing.T) {
	s := newSite(t)
	mustRun(t, `export default function () {
  const page = http.get(__ENV.BASE + '/shop/');
  let r = page.submitForm({fields: {user: 'ada', extra: 'x'}, params: {headers: {'X-Test': 'login'}}});
  eq([r.status, r.body, r.url], [200, 'POST /shop/login', __ENV.BASE + '/shop/login'], 'login response');
  r = page.submitForm({formSelector: '#search', fields: {size: ['41', '43']}, params: {tags: {name: 'search'}}});
  eq(r.body, 'GET /find', 'search response');
  r = page.submitForm({formSelector: 'form#self'});
  eq(r.body, 'POST /shop/', 'form without action');
}`, map[string]string{"BASE": s.URL})
	login := s.requests("/shop/login")
	if len(login) != 1 {
		t.Fatalf("the site received %d login requests, want 1", len(login))
	}
	got := login[0]
	want := url.Values{"csrf": {"token-1"}, "user": {"ada"}, "remember": {"on"}, "lang": {"fr"}, "go": {"Log in"}, "extra": {"x"}}
	if got.method != http.MethodPost || got.contentType != "application/x-www-form-urlencoded" || got.header != "login" {
		t.Errorf("login request: %s, Content-Type %q, X-Test %q", got.method, got.contentType, got.header)
	}
	if got.form.Encode() != want.Encode() {
		t.Errorf("login form = %s, want %s", got.form.Encode(), want.Encode())
	}
	search := s.requests("/find")
	if len(search) != 1 || search[0].method != http.MethodGet || search[0].query != "q=shoes&size=41&size=43" {
		t.Errorf("search requests = %+v, want one GET with q=shoes&size=41&size=43", search)
	}
	if self := s.requests("/shop/"); len(self) != 2 || self[1].method != http.MethodPost || self[1].form.Get("a") != "1" {
		t.Errorf("requests to the page = %+v, want the GET and a POST of a=1", self)
	}
}

// TestClickLink clicks the page's links: the first a[href] by default, a
// chosen one with selector, with params; the site counts the GETs.
func TestClickLink(t *testing.T) {
	s := newSite(t)
	mustRun(t, `export default function () {
  const page = http.get(__ENV.BASE + '/shop/');
  let r = page.clickLink();
  eq([r.status, r.body, r.url], [200, 'GET /shop/items', __ENV.BASE + '/shop/items?page=2'], 'first link');
  r = page.clickLink({selector: 'a.second', params: {headers: {'X-Test': 'about'}}});
  eq(r.body, 'GET /about', 'chosen link');
  eq(typeof r.clickLink, 'function', 'every response has clickLink');
  r = page.clickLink({selector: 'nav a:nth-child(2)'});
  eq(r.body, 'GET /about', 'nth-child');
}`, map[string]string{"BASE": s.URL})
	items, about := s.requests("/shop/items"), s.requests("/about")
	if len(items) != 1 || items[0].method != http.MethodGet || items[0].query != "page=2" {
		t.Errorf("items requests = %+v, want one GET with page=2", items)
	}
	if len(about) != 2 || about[0].header != "about" || about[1].header != "" {
		t.Errorf("about requests = %+v, want two GETs, the first with X-Test", about)
	}
}

// TestPageErrors checks the exceptions of submitForm and clickLink: no
// match, arguments of the wrong type, an invalid selector.
func TestPageErrors(t *testing.T) {
	s := newSite(t)
	for _, c := range []struct{ call, want string }{
		{`submitForm({formSelector: '#nope'})`, `submitForm(): no form matches "#nope"`},
		{`clickLink({selector: 'a.nope'})`, `clickLink(): no element matches "a.nope"`},
		{`clickLink({selector: 'a[name]'})`, `clickLink(): the element that matches "a[name]" has no href`},
		{`submitForm({formSelector: 1})`, `submitForm: formSelector must be a string, not number`},
		{`submitForm({fields: 'x'})`, `submitForm: fields must be an object, not string`},
		{`submitForm('form')`, `submitForm: the argument must be an object, not string`},
		{`clickLink({selector: '['})`, `clickLink: selector "[" is not a valid selector`},
	} {
		r := runScript(t, `export default function () { http.get(__ENV.BASE + '/shop/').`+c.call+`; }`,
			map[string]string{"BASE": s.URL})
		if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.call, r.err, c.want)
		}
	}
}

// TestPageMethodsNeedAResponse checks that the response methods, shared by
// every response of the VU, throw a TypeError when called on anything but
// a response, and that each response reads its own body.
func TestPageMethodsNeedAResponse(t *testing.T) {
	s := newSite(t)
	mustRun(t, `export default function () {
  const a = http.get(__ENV.BASE + '/shop/'), b = http.get(__ENV.BASE + '/about');
  eq([a.html('h1').text(), b.body], ['Welcome', 'GET /about'], 'each response its own body');
  const keys = [];
  for (const k in a) keys.push(k);
  eq(keys.filter((k) => ['json', 'html', 'submitForm', 'clickLink'].includes(k)), [], 'methods are not enumerable');
  let err = '';
  try { a.html.call({}); } catch (e) { err = (e instanceof TypeError) + ' ' + e.message; }
  eq(err, 'true Response.html: called on Object, not a response', 'html on a plain object');
  try { const { json } = a; json(); } catch (e) { err = e.message; }
  eq(err, 'Response.json: called on undefined, not a response', 'json detached');
}`, map[string]string{"BASE": s.URL})
}
