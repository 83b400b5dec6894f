package k6http_test

import (
	"crypto/md5"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// digestServer starts a server that demands digest authentication of user
// "ada", password "s3cret", with the algorithm of the query (MD5 by
// default), and answers "hello ada" once the answer checks out.
func digestServer(t *testing.T) *httptest.Server {
	t.Helper()
	const realm, nonce, opaque = "test@usefullatency", "6f2b1c", "op4que"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		alg := r.URL.Query().Get("alg")
		newHash := map[string]func() hash.Hash{"": md5.New, "MD5": md5.New, "SHA-256": sha256.New}[alg]
		h := func(parts ...string) string {
			d := newHash()
			d.Write([]byte(strings.Join(parts, ":")))
			return hex.EncodeToString(d.Sum(nil))
		}
		p := map[string]string{}
		if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Digest "); ok {
			for _, kv := range strings.Split(auth, ", ") {
				k, v, _ := strings.Cut(kv, "=")
				p[k] = strings.Trim(v, `"`)
			}
		}
		want := h(h("ada", realm, "s3cret"), nonce, p["nc"], p["cnonce"], "auth", h(r.Method, r.URL.RequestURI()))
		if p["response"] == "" || p["response"] != want || p["opaque"] != opaque || p["uri"] != r.URL.RequestURI() {
			algParam := ""
			if alg != "" {
				algParam = ", algorithm=" + alg
			}
			w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Digest realm="%s", qop="auth", nonce="%s", opaque="%s"%s`, realm, nonce, opaque, algParam))
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		fmt.Fprintf(w, "hello %s %s", p["username"], r.Method)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestDigestAuth(t *testing.T) {
	srv := digestServer(t)
	r := mustRun(t, `export default function () {
  const base = __ENV.BASE.replace('http://', 'http://ada:s3cret@');
  let r = http.get(base + '/private?alg=MD5', {auth: 'digest'});
  eq([r.status, r.body], [200, 'hello ada GET'], 'MD5');
  r = http.post(base + '/private?alg=SHA-256', 'data', {auth: 'digest'});
  eq([r.status, r.body], [200, 'hello ada POST'], 'SHA-256');
  r = http.get(base.replace('s3cret', 'wrong') + '/private', {auth: 'digest'});
  eq(r.status, 401, 'wrong password');
  r = http.get(base + '/private');
  eq(r.status, 401, 'basic is not digest');
  let threw = '';
  try { http.get(base, {auth: 'ntlm'}); } catch (e) { threw = String(e); }
  if (!threw.includes('params.auth: "ntlm" is not supported')) throw new Error(threw);
}`, map[string]string{"BASE": srv.URL})
	// Each digest request is two exchanges; the challenge's 401 is an
	// expected response, the final 401 of the wrong password is not.
	var got []string
	for _, s := range r.of("http_req_failed") {
		got = append(got, fmt.Sprintf("%s:%v", s.Tags["status"], s.Value))
	}
	want := "401:0 200:0 401:0 200:0 401:0 401:1 401:1"
	if strings.Join(got, " ") != want {
		t.Fatalf("http_req_failed %v, want %s", got, want)
	}
}
