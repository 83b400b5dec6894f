package redact

import (
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
	} {
		if got := URL(c.in); got != c.want {
			t.Errorf("URL(%q) = %q, want %q", c.in, got, c.want)
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
	if s := "no url here: a:b@c"; Text(s) != s {
		t.Errorf("Text changed %q", s)
	}
}
