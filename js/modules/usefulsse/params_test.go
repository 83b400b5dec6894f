package usefulsse

import (
	"strings"
	"testing"

	"github.com/grafana/sobek"
)

// TestSafetyParams reads the params of the limits and the redirect policy
// into the request, and refuses bad values naming the param.
func TestSafetyParams(t *testing.T) {
	rt := sobek.New()
	params, err := rt.RunString(`({maxRedirects: 0, sensitiveHeaders: ['X-Mine'], allowInsecureRedirect: true,
  maxResponseSize: '2MiB', maxHeaderSize: 4096})`)
	if err != nil {
		t.Fatal(err)
	}
	built, err := buildRequest(rt, "GET", "http://127.0.0.1/", sobek.Undefined(), params, direct)
	if err != nil {
		t.Fatal(err)
	}
	req := built.req
	if req.MaxRedirects != -1 || len(req.SensitiveHeaders) != 1 || !req.AllowInsecureRedirect ||
		req.MaxResponseSize != 2<<20 || req.MaxHeaderSize != 4096 {
		t.Errorf("request %+v", req)
	}
	for src, want := range map[string]string{
		`({maxRedirects: -1})`:             "params.maxRedirects: want a whole number from 0",
		`({maxRedirects: 1.5})`:            "params.maxRedirects: want a whole number from 0",
		`({allowInsecureRedirect: 'yes'})`: "params.allowInsecureRedirect: want true or false",
		`({sensitiveHeaders: 'X-A'})`:      "params.sensitiveHeaders: want an array of strings",
		`({maxHeaderSize: '20MiB'})`:       "maxHeaderSize 20971520 is outside 0..10485760 bytes",
		`({maxResponseSize: -5})`:          "maxResponseSize must not be negative",
	} {
		p, _ := rt.RunString(src)
		if _, err := buildRequest(rt, "GET", "http://127.0.0.1/", sobek.Undefined(), p, direct); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}
