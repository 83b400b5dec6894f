package k6browser_test

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// loginPage is a form with text inputs, a checkbox, a select and a
// submit that posts to /result; a link to /second; an element a script
// adds after a delay; a hidden element; an element a script removes. The
// late changes happen at the end of the page, so that they move no
// element a test clicks.
const loginPage = `<!doctype html>
<html><head><title>Login</title></head><body>
<h1>Sign in</h1>
<form action="/result" method="post">
  <label>Login <input type="text" name="login"></label>
  <label>Password <input type="password" name="password"></label>
  <label><input type="checkbox" name="remember" id="remember"> remember me</label>
  <select name="plan"><option value="free">Free</option><option value="pro">Professional</option></select>
  <textarea name="note"></textarea>
  <input type="text" name="locked" value="fixed" readonly>
  <button type="button" id="disabled" disabled>Disabled</button>
  <input type="submit" value="Go">
</form>
<ul><li class="item">alpha</li><li class="item">beta</li><li class="item">gamma</li></ul>
<a id="next" href="/second">to the second page</a>
<div id="hidden" style="display:none">hidden text</div>
<button id="counter" type="button" onclick="this.dataset.n = String(Number(this.dataset.n || 0) + 1); console.log('clicked', this.dataset.n)">count</button>
<button id="dbl" type="button" ondblclick="this.textContent = 'double-clicked'">dbl</button>
<div id="hover" onmouseover="this.textContent = 'hovered'">hover me</div>
<input id="keys" onkeydown="this.dataset.last = event.key">
<div id="vanish">going away</div>
<script>
  // Deliberate pace of the page under test: #late appears 300 ms after
  // load and #vanish goes away after 300 ms.
  setTimeout(() => {
    const d = document.createElement('div');
    d.id = 'late';
    d.textContent = 'arrived late';
    document.body.append(d);
    document.getElementById('vanish').remove();
  }, 300);
</script>
</body></html>`

// newSite serves loginPage at /, the fields it posts echoed at /result,
// a second page, a page that sets a cookie, the request headers echoed as
// JSON at /headers, and a page that never answers at /hang.
func newSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("X-Site", "login")
		fmt.Fprint(w, loginPage)
	})
	mux.HandleFunc("/result", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>Result</title><h2>Welcome, %s!</h2><pre id="fields">password=%s remember=%s plan=%s note=%s</pre>`,
			html.EscapeString(r.PostFormValue("login")), html.EscapeString(r.PostFormValue("password")),
			html.EscapeString(r.PostFormValue("remember")), html.EscapeString(r.PostFormValue("plan")),
			html.EscapeString(r.PostFormValue("note")))
	})
	mux.HandleFunc("/second", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Second</title><h1 id="second">the second page</h1><a id="back" href="/">back</a>`)
	})
	mux.HandleFunc("/cookie", func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "abc123", Path: "/"})
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<title>Cookie</title><p id="seen">`+html.EscapeString(r.Header.Get("Cookie"))+`</p>`)
	})
	mux.HandleFunc("/headers", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<title>Headers</title><p id="ua">%s</p><p id="lang">%s</p><p id="extra">%s</p>`,
			html.EscapeString(r.UserAgent()), html.EscapeString(r.Header.Get("Accept-Language")),
			html.EscapeString(r.Header.Get("X-Extra")))
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// closedURL returns the URL of a loopback port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}
