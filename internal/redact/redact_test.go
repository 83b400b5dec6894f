package redact

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://localhost:9090/api/v1/write", "http://localhost:9090/api/v1/write"},
		{"https://alice:hunter2@prom.example/api/v1/write", "https://alice:REDACTED@prom.example/api/v1/write"},
		{"https://alice@prom.example/x", "https://alice@prom.example/x"},
		{"http://h/v1?api_key=s3cr3t&model=gpt&token=t0k", "http://h/v1?api_key=REDACTED&model=gpt&token=REDACTED"},
		{"http://h/x?apiKey=a&X-Amz-Signature=b&keyword=c&key=d", "http://h/x?apiKey=REDACTED&X-Amz-Signature=REDACTED&keyword=c&key=REDACTED"},
		{"http://h/x?q=a+b&access_token=z#frag", "http://h/x?q=a+b&access_token=REDACTED#frag"},
		{"http://u:p@h/x?key=1", "http://u:REDACTED@h/x?key=REDACTED"},
		{"::not a url//bob:pw@host/x", "::not a url//bob:REDACTED@host/x"},
		{"", ""},
		// The names of issue 22 and OAuth's.
		{"http://h/cb?code=c0de&state=st&session=s&jwt=j&pass=p&zip_code=75001",
			"http://h/cb?code=REDACTED&state=st&session=REDACTED&jwt=REDACTED&pass=REDACTED&zip_code=75001"},
		{"http://h/cb#access_token=at&token_type=bearer&expires_in=3600", "http://h/cb#access_token=REDACTED&token_type=bearer&expires_in=3600"},
		{"http://h/x?a=1;token=t;b=2", "http://h/x?a=1;token=REDACTED;b=2"},
		{"http://h/x?api%5Fkey=k&api_key", "http://h/x?api%5Fkey=REDACTED&api_key"},
		// Malformed URLs, as url.Parse's errors quote them: a port out of
		// range or not a number, a bad escape, a missing ']', a space or a
		// control character.
		{"http://h:99999/x?api_key=S1", "http://h:99999/x?api_key=REDACTED"},
		{"http://u:pw@h:12ab/x?api_key=S2", "http://u:REDACTED@h:12ab/x?api_key=REDACTED"},
		{"http://h/%zz?token=S3", "http://h/%zz?token=REDACTED"},
		{"http://[::1/x?token=S4&x=1", "http://[::1/x?token=REDACTED&x=1"},
		{"http://h/x y?token=S5\x7f", "http://h/x y?token=REDACTED"},
		{"redis://:pw@h:6379/0", "redis://:REDACTED@h:6379/0"},
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSecretParam decides which names are secret: the suffix rule for long
// words, the last-word rule for short ones (key, pass, session, otp), code
// only as the whole name; and the innocent names that contain them.
func TestSecretParam(t *testing.T) {
	secret := []string{
		"api_key", "apiKey", "APIKEY", "X-Api-Key", "key", "Key", "KEY", "subscription-key", "Ocp-Apim-Subscription-Key",
		"access_token", "accessToken", "token", "id_token", "refresh_token", "X-Amz-Security-Token", "client_secret",
		"secret", "password", "passwd", "pwd", "pass", "db_pass", "passphrase", "jwt", "JWT", "id_jwt", "code",
		"auth_code", "authorization_code", "session", "user-session", "sessionid", "session_id", "JSESSIONID", "PHPSESSID",
		"sig", "signature", "X-Amz-Signature", "X-Amz-Credential", "auth", "Authorization", "apikey", "private_key",
		"otp", "mfa_otp", "sortKey", "api_key[]", "hmac",
	}
	innocent := []string{
		"", "monkey", "hockey", "turkey", "keyword", "keys", "zipcode", "zip_code", "country_code", "statusCode",
		"limit", "model", "q", "passage", "compass", "bypass", "session_count", "sessions", "state", "token_type",
		"expires_in", "name", "url", "author", "keyboard",
	}
	for _, n := range secret {
		if !SecretParam(n) {
			t.Errorf("SecretParam(%q) = false, want true", n)
		}
	}
	for _, n := range innocent {
		if SecretParam(n) {
			t.Errorf("SecretParam(%q) = true, want false", n)
		}
	}
}

func TestText(t *testing.T) {
	in := `3 of 3 pushes to https://alice:hunter2@prom.example/api/v1/write failed, the last with: Post "http://bob:pw2@h/w?api_key=k3y": dial tcp: refused`
	got := Text(in)
	for _, secret := range []string{"hunter2", "pw2", "k3y"} {
		if strings.Contains(got, secret) {
			t.Errorf("Text kept %q: %s", secret, got)
		}
	}
	if want := `Post "http://bob:REDACTED@h/w?api_key=REDACTED": dial tcp: refused`; !strings.HasSuffix(got, want) {
		t.Errorf("Text = %s", got)
	}
	for _, c := range []struct{ name, in, want string }{
		{"no secret", "no url here: a:b@c", "no url here: a:b@c"},
		{"url.Error of a bad port",
			`k6/http: invalid url "http://h:12ab/x?api_key=S2": parse "http://h:12ab/x?api_key=S2": invalid port ":12ab" after host`,
			`k6/http: invalid url "http://h:12ab/x?api_key=REDACTED": parse "http://h:12ab/x?api_key=REDACTED": invalid port ":12ab" after host`},
		{"query cut from its URL by a space", `parse "http://h/x y?token=S5\x7f": net/url: invalid control character in URL`,
			`parse "http://h/x y?token=REDACTED": net/url: invalid control character in URL`},
		{"form body", "password=hunter2&user=bob&jwt=eyJ.x.y", "password=REDACTED&user=bob&jwt=REDACTED"},
		{"OAuth code in a query, gRPC status in an error", "GET /cb?code=abc123 failed: rpc error: code = Canceled desc = context canceled",
			"GET /cb?code=REDACTED failed: rpc error: code = Canceled desc = context canceled"},
		{"JSON echo", `{"headers":{"Authorization":["Basic YWxpY2U6aHVudGVyMg=="],"X-Api-Key":["k3y"]},"token": "t0k","n":1}`,
			`{"headers":{"Authorization":["Basic REDACTED"],"X-Api-Key":["REDACTED"]},"token": "REDACTED","n":1}`},
		{"escaped JSON in a string", `"body":"{\"password\":\"hunter2\",\"x\":1}"`, `"body":"{\"password\":\"REDACTED\",\"x\":1}"`},
		{"header dump", "POST /w HTTP/1.1\nAuthorization: Basic YWxpY2U6aHVudGVyMg==\nCookie: a=b; sid=xyz\nX-Api-Key: k3y\nContent-Type: text/plain",
			"POST /w HTTP/1.1\nAuthorization: Basic REDACTED\nCookie: REDACTED; sid=xyz\nX-Api-Key: REDACTED\nContent-Type: text/plain"},
		{"Go header map", "map[Authorization:[Bearer abc.def] X-Api-Key:[k3y] Accept:[*/*]]",
			"map[Authorization:[Bearer REDACTED] X-Api-Key:[REDACTED] Accept:[*/*]]"},
		{"bare bearer", "401: invalid credentials Bearer eyJhbGciOi.eyJzdWIi.c2ln sent", "401: invalid credentials Bearer REDACTED sent"},
		{"auth-param stays", `WWW-Authenticate: Basic realm="prom"`, `WWW-Authenticate: Basic realm="prom"`},
		{"colon in prose stays", "error: token: expired; key: not found", "error: token: expired; key: REDACTED"},
		{"DSN", "dial postgres://app:s3cr3t@db:5432/x failed", "dial postgres://app:REDACTED@db:5432/x failed"},
		{"idempotent", "api_key=REDACTED Bearer REDACTED", "api_key=REDACTED Bearer REDACTED"},
		{"innocent pairs", "limit=2 monkey=1 zip_code=75001 basic tier", "limit=2 monkey=1 zip_code=75001 basic tier"},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("%s:\nText(%q)\n = %q\nwant %q", c.name, c.in, got, c.want)
		}
	}
}

// TestBody checks what an endpoint's answer becomes in a message: cut, on
// one line, redacted, with the configured secrets and their Basic form
// masked.
func TestBody(t *testing.T) {
	echo := []byte("bad request; you sent:\nAuthorization: Basic YWxpY2U6aHVudGVyMg==\nX-Token: tok-s3cret\n\nlogin alice / hunter2 " +
		strings.Repeat("x", 2000))
	got := Body(echo, 512, "alice:hunter2", "hunter2", "tok-s3cret")
	for _, secret := range []string{"hunter2", "YWxpY2U6aHVudGVyMg", "tok-s3cret"} {
		if strings.Contains(got, secret) {
			t.Errorf("Body kept %q: %s", secret, got)
		}
	}
	if len(got) > 520 || !strings.HasSuffix(got, "…") || strings.Contains(got, "\n") {
		t.Errorf("Body is %d bytes, not cut to one line of 512: %q", len(got), got)
	}
	if !strings.HasPrefix(got, "bad request; you sent: Authorization: Basic REDACTED") {
		t.Errorf("Body = %q", got)
	}
	if got := Body([]byte("short é"), 7); got != "short…" {
		t.Errorf("cut inside a rune: %q", got)
	}
	if got := Body([]byte("id=abc, x abc"), 100, "abc"); got != "id=abc, x abc" {
		t.Errorf("a 3-byte secret is left to Text: %q", got)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"http://u:p@h/x?token=t", `{"password":"x"}`, "Authorization: Basic x\n", "a=b&key=c", `\"`, "Bearer ", "://@"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := Text(s)
		if Text(once) != once {
			t.Errorf("Text is not idempotent on %q: %q then %q", s, once, Text(once))
		}
		_ = URL(s)
	})
}

// TestError checks that an url.Error of a malformed URL loses its secrets
// and stays an url.Error for errors.As.
func TestError(t *testing.T) {
	_, perr := url.Parse(strings.Join([]string{"http://u:pw-s3cret@h:12ab", "/x?api_key=k-s3cret"}, ""))
	err := Error(fmt.Errorf("k6/http: %w", perr))
	if strings.Contains(err.Error(), "s3cret") {
		t.Errorf("Error kept a secret: %v", err)
	}
	var ue *url.Error
	if !errors.As(err, &ue) || Error(nil) != nil {
		t.Errorf("Error(%v) hides the url.Error or turns nil into an error", perr)
	}
}

// TestBodyHeaderLines checks that an echoed header of no configured secret
// is masked by its name, the lines being redacted before they are joined.
func TestBodyHeaderLines(t *testing.T) {
	got := Body([]byte("you sent:\nX-Api-Key: k3y-s3cret\nAccept: */*\n"), 512)
	if got != "you sent: X-Api-Key: REDACTED Accept: */*" {
		t.Errorf("Body = %q", got)
	}
}
