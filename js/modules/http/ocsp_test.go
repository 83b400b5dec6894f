package k6http_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/js/modules"
	"golang.org/x/crypto/ocsp"
)

// staplingServer starts a TLS server whose self-signed certificate comes
// with an OCSP response of status (and, for a revoked one, reason) stapled
// to the handshake, signed by the certificate itself. It returns the
// server and the staple as the client parses it.
func staplingServer(t *testing.T, status, reason int) (*httptest.Server, *ocsp.Response) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "ocsp.test"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	day := time.Date(2026, 5, 4, 0, 0, 0, 0, time.UTC)
	tr := ocsp.Response{Status: status, SerialNumber: cert.SerialNumber, ThisUpdate: day, NextUpdate: day.Add(24 * time.Hour)}
	if status == ocsp.Revoked {
		tr.RevokedAt, tr.RevocationReason = day.Add(-time.Hour), reason
	}
	staple, err := ocsp.CreateResponse(cert, cert, tr, key)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := ocsp.ParseResponse(staple, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key, OCSPStaple: staple}}}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv, parsed
}

// TestOCSPStaple checks response.ocsp against k6's: the stapled response's
// status, reason and times in Unix seconds (Go's zero time for one it does
// not carry, "unspecified" for the reason of a good certificate); status
// "unknown" over TLS without a staple; zeros and "" without TLS.
func TestOCSPStaple(t *testing.T) {
	revoked, revokedStaple := staplingServer(t, ocsp.Revoked, ocsp.KeyCompromise)
	good, goodStaple := staplingServer(t, ocsp.Good, 0)
	unstapled, plain := newTLSServer(t), newServer(t)
	zero := time.Time{}.Unix()
	if goodStaple.RevokedAt.Unix() != zero {
		t.Fatalf("a good staple's revocation time is %v, want the zero time", goodStaple.RevokedAt)
	}
	env := map[string]string{
		"REVOKED": revoked.URL, "GOOD": good.URL, "UNSTAPLED": unstapled.URL + "/multi", "PLAIN": plain.URL + "/multi",
		"REVOKED_WANT": ocspJSON(revokedStaple, "revoked", "key_compromise"),
		"GOOD_WANT":    ocspJSON(goodStaple, "good", "unspecified"),
	}
	mustRun(t, `export default function () {
  eq(http.get(__ENV.REVOKED).ocsp, JSON.parse(__ENV.REVOKED_WANT), 'revoked');
  eq(http.get(__ENV.REVOKED).ocsp.status, http.OCSP_STATUS_REVOKED, 'the constant');
  eq(http.get(__ENV.REVOKED).ocsp.revocation_reason, http.OCSP_REASON_KEY_COMPROMISE, 'the reason constant');
  eq(http.get(__ENV.GOOD).ocsp, JSON.parse(__ENV.GOOD_WANT), 'good');
  const none = {produced_at: 0, this_update: 0, next_update: 0, revoked_at: 0, revocation_reason: '', status: 'unknown'};
  eq(http.get(__ENV.UNSTAPLED).ocsp, none, 'TLS without a staple');
  eq(http.get(__ENV.PLAIN).ocsp, Object.assign(none, {status: ''}), 'no TLS');
  eq([http.OCSP_STATUS_GOOD, http.OCSP_STATUS_SERVER_FAILED, http.OCSP_STATUS_UNKNOWN, http.OCSP_REASON_AA_COMPROMISE,
      http.OCSP_REASON_REMOVE_FROM_CRL], ['good', 'server_failed', 'unknown', 'aa_compromise', 'remove_from_crl'], 'constants');
}`, env, func(run *modules.Run) { run.InsecureSkipTLSVerify = true })
}

// ocspJSON is the response.ocsp k6 shows for the staple r, its keys in
// k6's order (the test script compares JSON.stringify of both).
func ocspJSON(r *ocsp.Response, status, reason string) string {
	return fmt.Sprintf(`{"produced_at":%d,"this_update":%d,"next_update":%d,"revoked_at":%d,"revocation_reason":%q,"status":%q}`,
		r.ProducedAt.Unix(), r.ThisUpdate.Unix(), r.NextUpdate.Unix(), r.RevokedAt.Unix(), reason, status)
}
