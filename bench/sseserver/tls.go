package main

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
	"time"
)

// serveTLS configures srv for TLS with a self-signed certificate for
// 127.0.0.1: mode "h1" offers HTTP/1.1 only, "h2" HTTP/2 and HTTP/1.1
// through ALPN. Clients must skip verification (--insecure-skip-tls-verify).
func serveTLS(srv *http.Server, mode string) error {
	cert, err := selfSigned()
	if err != nil {
		return err
	}
	srv.TLSConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	switch mode {
	case "h1":
		srv.TLSNextProto = map[string]func(*http.Server, *tls.Conn, http.Handler){}
		srv.TLSConfig.NextProtos = []string{"http/1.1"}
	case "h2":
		srv.TLSConfig.NextProtos = []string{"h2", "http/1.1"}
	default:
		return fmt.Errorf("-tls %q: want h1 or h2", mode)
	}
	return nil
}

// selfSigned makes a P-256 certificate for 127.0.0.1 and ::1, valid a day.
func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "sseserver"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}
