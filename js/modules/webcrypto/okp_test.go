package webcrypto_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// b64url returns the base64url form of the bytes of hex text h.
func b64url(h string) string {
	b, _ := hex.DecodeString(h)
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestEd25519Vector signs the empty message of RFC 8032 7.1 test 1 (the
// signature is deterministic) with the key imported as JWK and verifies
// it with the public key imported raw.
func TestEd25519Vector(t *testing.T) {
	const sig = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
	const x = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
	got := lines(t, `await (async () => {
		const x = '`+x+`';
		const priv = await subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: '`+b64url(x)+`',
			d: '`+b64url("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")+`' }, 'Ed25519', false, ['sign']);
		const pub = await subtle.importKey('raw', unhex(x), { name: 'Ed25519' }, false, ['verify']);
		return [hex(await subtle.sign('Ed25519', priv, new Uint8Array(0))), String(await subtle.verify('Ed25519', pub, unhex('`+sig+`'), new Uint8Array(0))),
			String(await subtle.verify('Ed25519', pub, unhex('`+sig+`'), new Uint8Array(1)))];
	})()`)
	if want := []string{sig, "true", "false"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestEd25519RoundTrip generates a pair, exports it in every format,
// imports it back and cross-checks with Go: Go verifies the JavaScript
// signature made with a key from Go, the exported pkcs8 is Go's, and a JWK
// whose d is the 64-byte private key (k6 accepts it) imports and exports
// the 32-byte seed.
func TestEd25519RoundTrip(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(priv)
	got := lines(t, `await (async () => {
		const { publicKey, privateKey } = await subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify']);
		const ok = [];
		const sig = await subtle.sign('Ed25519', privateKey, utf8('data'));
		for (const format of ['raw', 'spki', 'jwk']) {
			const k = await subtle.importKey(format, await subtle.exportKey(format, publicKey), 'Ed25519', true, ['verify']);
			ok.push(await subtle.verify('Ed25519', k, sig, utf8('data')));
		}
		for (const format of ['pkcs8', 'jwk']) {
			const k = await subtle.importKey(format, await subtle.exportKey(format, privateKey), 'Ed25519', true, ['sign']);
			ok.push(await subtle.verify('Ed25519', publicKey, await subtle.sign('Ed25519', k, utf8('data')), utf8('data')));
		}
		const fromGo = await subtle.importKey('pkcs8', `+jsHex(pkcs8)+`, 'Ed25519', true, ['sign']);
		const long = await subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x: '`+b64url(hex.EncodeToString(pub))+`',
			d: '`+b64url(hex.EncodeToString(priv))+`' }, 'Ed25519', true, ['sign']);
		return [[publicKey.algorithm.name, publicKey.usages.join(), privateKey.usages.join(), ok.join()].join(' '),
			hex(await subtle.sign('Ed25519', fromGo, utf8('go'))), hex(await subtle.exportKey('pkcs8', fromGo)),
			hex(await subtle.sign('Ed25519', long, utf8('go'))), (await subtle.exportKey('jwk', long)).d];
	})()`)
	if got[0] != "Ed25519 verify sign true,true,true,true,true" {
		t.Errorf("round trip: %s", got[0])
	}
	if sig, _ := hex.DecodeString(got[1]); !ed25519.Verify(pub, []byte("go"), sig) {
		t.Errorf("Go does not verify the JavaScript signature")
	}
	if got[2] != hex.EncodeToString(pkcs8) {
		t.Errorf("exported pkcs8 %s, want Go's %x", got[2], pkcs8)
	}
	if sig, _ := hex.DecodeString(got[3]); !ed25519.Verify(pub, []byte("go"), sig) {
		t.Errorf("a JWK whose d has 64 bytes (seed and public key) does not sign for its key")
	}
	if got[4] != base64.RawURLEncoding.EncodeToString(priv.Seed()) {
		t.Errorf("exported d %s, want the 32-byte seed", got[4])
	}
}

// TestX25519 checks the shared secret of RFC 7748 6.1 (keys imported as
// pkcs8 from Go and raw), and that both sides of a generated exchange
// agree.
func TestX25519(t *testing.T) {
	got := lines(t, `await (async () => {
		const alice = await subtle.importKey('jwk', { kty: 'OKP', crv: 'X25519',
			x: '`+b64url("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")+`',
			d: '`+b64url("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")+`' }, 'X25519', false, ['deriveBits']);
		const bob = await subtle.importKey('raw', unhex('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f'), 'X25519', true, []);
		const a = await subtle.generateKey({ name: 'X25519' }, true, ['deriveKey', 'deriveBits']);
		const b = await subtle.generateKey({ name: 'X25519' }, true, ['deriveBits']);
		const ab = await subtle.deriveBits({ name: 'X25519', public: b.publicKey }, a.privateKey, 256);
		const ba = await subtle.deriveBits({ name: 'X25519', public: a.publicKey }, b.privateKey, null);
		return [hex(await subtle.deriveBits({ name: 'X25519', public: bob }, alice, 256)), String(hex(ab) === hex(ba)),
			a.publicKey.usages.length + ' ' + a.privateKey.usages.join()];
	})()`)
	want := []string{"4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742", "true", "0 deriveKey,deriveBits"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}
