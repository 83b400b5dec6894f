package reactor

import (
	"net/http"
	"testing"
)

// TestAddr checks the address a plain-HTTP request connects to.
func TestAddr(t *testing.T) {
	for in, want := range map[string]string{
		"http://example.test/x":      "example.test:80",
		"http://example.test:8080/x": "example.test:8080",
		"http://[::1]/x":             "[::1]:80",
		"http://[::1]:81/x":          "[::1]:81",
	} {
		hreq, err := http.NewRequest(http.MethodGet, in, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := Addr(hreq); got != want {
			t.Errorf("Addr(%s) = %s, want %s", in, got, want)
		}
	}
}
