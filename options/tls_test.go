package options

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"testing"
	"time"
)

// testKeyPair returns a self-signed certificate and its key, PEM encoded.
func testKeyPair(t *testing.T) (string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "client"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}))
}

func TestFromScriptTLSOptions(t *testing.T) {
	cert, key := testKeyPair(t)
	o, err := FromScript(map[string]any{
		"tlsVersion":      map[string]any{"min": "tls1.2", "max": "tls1.3"},
		"tlsCipherSuites": []any{"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"},
		"tlsAuth":         []any{map[string]any{"cert": cert, "key": key, "domains": []any{"*.example.com"}}},
	})
	checkErrors(t, err)
	if *o.TLSVersion != (TLSVersions{"tls1.2", "tls1.3"}) || len(o.TLSCipherSuites) != 1 ||
		len(o.TLSAuth) != 1 || o.TLSAuth[0].Domains[0] != "*.example.com" || len(o.Warnings) != 0 {
		t.Fatalf("got %+v %v %+v %v", o.TLSVersion, o.TLSCipherSuites, o.TLSAuth, o.Warnings)
	}
	o, err = FromScript(map[string]any{"tlsVersion": "tls1.3"})
	checkErrors(t, err)
	if *o.TLSVersion != (TLSVersions{"tls1.3", "tls1.3"}) {
		t.Fatalf("one version: %+v", o.TLSVersion)
	}
}

func TestFromScriptTLSErrors(t *testing.T) {
	cert, key := testKeyPair(t)
	tests := []struct {
		name string
		raw  map[string]any
		want string
	}{
		{"unknown version", map[string]any{"tlsVersion": "ssl3"}, `tlsVersion: unknown TLS version "ssl3"`},
		{"min above max", map[string]any{"tlsVersion": map[string]any{"min": "tls1.3", "max": "tls1.2"}}, "tlsVersion: min tls1.3 is above max tls1.2"},
		{"version field", map[string]any{"tlsVersion": map[string]any{"lowest": "tls1.2"}}, `tlsVersion: unknown field "lowest"`},
		{"unknown suite", map[string]any{"tlsCipherSuites": []any{"TLS_FAST"}}, `tlsCipherSuites: unknown cipher suite "TLS_FAST"`},
		{"auth not a list", map[string]any{"tlsAuth": map[string]any{}}, "tlsAuth: want a list"},
		{"bad pair", map[string]any{"tlsAuth": []any{map[string]any{"cert": cert, "key": "nope"}}}, "tlsAuth: [0]: cert and key:"},
		{"password", map[string]any{"tlsAuth": []any{map[string]any{"cert": cert, "key": key, "password": "x"}}}, "tlsAuth: [0]: password: encrypted private keys are not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromScript(tt.raw)
			checkErrors(t, err, tt.want)
		})
	}
}

func TestValidateBlacklistIPs(t *testing.T) {
	o := Options{BlacklistIPs: []string{"10.0.0.0/8", "::1", "10.0.0.0/33", "nope"}}
	checkErrors(t, joinErrs(o.validateSettings()), `blacklistIPs: invalid IP range "10.0.0.0/33", "nope"`)
}
