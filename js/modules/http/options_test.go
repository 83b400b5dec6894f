package k6http_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js/modules"
)

// withOptions sets the run's consolidated options, in their JSON form.
func withOptions(o map[string]any) func(*modules.Run) {
	return func(run *modules.Run) { run.Options = o }
}

func TestUserAgentAndDiscardOptions(t *testing.T) {
	srv := newServer(t)
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE + '/echo');
  eq(r.body, null, 'discarded body');
  eq(r.status, 200, 'status');
  const kept = http.get(__ENV.BASE + '/echo', {responseType: 'text'});
  eq(kept.json('headers.User-Agent'), ['k6-like/1.0'], 'userAgent option');
  eq(http.get(__ENV.BASE + '/echo', {responseType: 'text', headers: {'User-Agent': 'own'}}).json('headers.User-Agent'), ['own'], 'header wins');
}`, map[string]string{"BASE": srv.URL}, withOptions(map[string]any{"userAgent": "k6-like/1.0", "discardResponseBodies": true}))
	mustRun(t, `export default function () {
  eq(http.get(__ENV.BASE + '/echo').json('headers.User-Agent'), undefined, 'empty userAgent sends none');
}`, map[string]string{"BASE": srv.URL}, withOptions(map[string]any{"userAgent": ""}))
}

func TestConnectionReuseOptions(t *testing.T) {
	srv := newServer(t)
	// Each iteration makes two requests and records whether each dialed.
	src := `const dialed = [];
export default function () {
  const a = http.get(__ENV.BASE + '/multi'), b = http.get(__ENV.BASE + '/multi');
  dialed.push(a.timings.connecting > 0, b.timings.connecting > 0);
  if (dialed.length === 4) eq(dialed.join(' '), __ENV.WANT, 'dialed');
}`
	tests := []struct {
		name string
		opts map[string]any
		want string
	}{
		{"reuse", map[string]any{}, "true false false false"},
		{"noConnectionReuse", map[string]any{"noConnectionReuse": true}, "true true true true"},
		{"noVUConnectionReuse", map[string]any{"noVUConnectionReuse": true}, "true false true false"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIterations(t, 2, src, map[string]string{"BASE": srv.URL, "WANT": tt.want}, withOptions(tt.opts))
			if r.err != nil {
				t.Fatal(r.err)
			}
		})
	}
}

func TestHostsBlockHostnamesBlacklistIPs(t *testing.T) {
	srv := newServer(t)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	env := map[string]string{"PORT": port}
	opts := withOptions(map[string]any{
		"hosts":          map[string]any{"api.test": "127.0.0.1:" + port, "*.wild.test": "127.0.0.1", "other.test:81": "127.0.0.1:" + port, "alias.test": "localhost:" + port},
		"blockHostnames": []any{"*.blocked.test", "exact.test"},
	})
	mustRun(t, `export default function () {
  let r = http.get('http://api.test/host');
  eq([r.status, r.body, r.url], [200, 'api.test', 'http://api.test/host'], 'mapped host and port, Host header kept');
  eq(r.remote_ip, '127.0.0.1', 'remote_ip');
  r = http.get('http://a.wild.test:' + __ENV.PORT + '/echo');
  eq(r.status, 200, 'wildcard, port kept');
  eq(http.get('http://other.test:81/echo').status, 200, 'host:port entry');
  eq(http.get('http://alias.test/echo').status, 200, 'a name as the target');
  for (const u of ['http://x.blocked.test/', 'http://EXACT.test/']) {
    r = http.get(u);
    eq([r.status, r.error_code, r.error], [0, 1111, 'hostname is blocked'], u);
  }
}`, env, opts)
	mustRun(t, `export default function () {
  const r = http.get('http://127.0.0.1:' + __ENV.PORT + '/echo');
  eq([r.status, r.error_code, r.error], [0, 1110, 'ip is blacklisted'], 'blacklisted');
}`, env, withOptions(map[string]any{"blacklistIPs": []any{"10.0.0.0/8", "127.0.0.0/8"}}))
	mustRun(t, `export default function () {
  eq(http.get('http://127.0.0.1:' + __ENV.PORT + '/echo').status, 200, 'other ranges');
}`, env, withOptions(map[string]any{"blacklistIPs": []any{"10.0.0.0/8"}}))
}

// clientCertServer starts a TLS server (TLS 1.2 at most) that asks for a
// client certificate and answers with its common name.
func clientCertServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.TLS.PeerCertificates) == 0 {
			fmt.Fprint(w, "none")
			return
		}
		fmt.Fprint(w, r.TLS.PeerCertificates[0].Subject.CommonName)
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequestClientCert, MaxVersion: tls.VersionTLS12}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv
}

// clientKeyPair returns a self-signed client certificate for cn and its
// key, PEM encoded.
func clientKeyPair(t *testing.T, cn string) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}))
}

func TestTLSOptions(t *testing.T) {
	srv := clientCertServer(t)
	h2 := newTLSServer(t)
	certA, keyA := clientKeyPair(t, "client-a")
	certB, keyB := clientKeyPair(t, "client-b")
	insecure := func(o map[string]any) func(*modules.Run) {
		return func(run *modules.Run) { run.Options, run.InsecureSkipTLSVerify = o, true }
	}
	env := map[string]string{"BASE": srv.URL, "H2": h2.URL}
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE);
  eq([r.status, r.body, r.tls_version], [200, 'none', 'tls1.2'], 'no tlsAuth');
}`, env, insecure(map[string]any{}))
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE);
  eq([r.status, r.body], [200, 'client-b'], 'the entry whose domains match');
}`, env, insecure(map[string]any{"tlsAuth": []any{
		map[string]any{"cert": certA, "key": keyA, "domains": []any{"example.com"}},
		map[string]any{"cert": certB, "key": keyB, "domains": []any{"127.0.0.1"}},
	}}))
	mustRun(t, `export default function () {
  eq(http.get(__ENV.BASE).body, 'client-a', 'an entry without domains fits every host');
}`, env, insecure(map[string]any{"tlsAuth": []any{map[string]any{"cert": certA, "key": keyA}}}))
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE);
  eq([r.status, r.tls_cipher_suite], [200, 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'], 'tlsCipherSuites');
  const h2 = http.get(__ENV.H2 + '/multi');
  eq([h2.status, h2.tls_version], [200, 'tls1.2'], 'tlsVersion max');
}`, env, insecure(map[string]any{
		"tlsCipherSuites": []any{"TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384"},
		"tlsVersion":      map[string]any{"min": "tls1.2", "max": "tls1.2"},
	}))
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE);
  eq([r.status, r.error_code], [0, 1300], 'tlsVersion min above the server');
}`, env, insecure(map[string]any{"tlsVersion": "tls1.3"}))
}
