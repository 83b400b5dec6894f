package webcrypto_test

import (
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"math/big"
	"strings"
	"testing"
)

// TestECDSAVector verifies the RFC 6979 A.2.5 signature of "sample" with
// P-256 and SHA-256, its key imported as JWK, and checks that a changed
// message or signature does not verify.
func TestECDSAVector(t *testing.T) {
	jwk := `{ kty: 'EC', crv: 'P-256', x: '` + b64url("60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6") +
		`', y: '` + b64url("7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299") + `' }`
	sig := "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"
	got := runScript(t, `
		const k = await subtle.importKey('jwk', `+jwk+`, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
		const p = { name: 'ECDSA', hash: 'SHA-256' };
		const bad = unhex('`+sig+`'); bad[5] ^= 1;
		return [await subtle.verify(p, k, unhex('`+sig+`'), utf8('sample')), await subtle.verify(p, k, unhex('`+sig+`'), utf8('samplE')),
			await subtle.verify(p, k, bad, utf8('sample')), await subtle.verify(p, k, unhex('`+sig+`').subarray(1), utf8('sample'))].join();`)
	if got != "true,false,false,false" {
		t.Errorf("verify (vector, changed message, changed signature, short signature) = %s, want true,false,false,false", got)
	}
}

// TestECDSARoundTrip generates a pair on each curve, checks the keys,
// exports the public key raw, as spki and JWK and the private key as pkcs8
// and JWK, imports them back and checks that signatures made with either
// private key verify with every public key.
func TestECDSARoundTrip(t *testing.T) {
	got := lines(t, `await (async () => {
		const out = [];
		for (const [namedCurve, hash, size] of [['P-256', 'SHA-256', 64], ['P-384', 'SHA-384', 96], ['P-521', 'SHA-512', 132]]) {
			const alg = { name: 'ECDSA', namedCurve };
			const pair = await subtle.generateKey(alg, false, ['sign', 'verify']);
			const { publicKey, privateKey } = pair;
			out.push([publicKey.type, publicKey.extractable, publicKey.usages.join(), privateKey.type, privateKey.extractable,
				privateKey.usages.join(), privateKey.algorithm.name, privateKey.algorithm.namedCurve].join(' '));
			const privs = [privateKey];
			const pubs = [publicKey];
			for (const format of ['raw', 'spki', 'jwk']) {
				pubs.push(await subtle.importKey(format, await subtle.exportKey(format, publicKey), alg, true, ['verify']));
			}
			const extractable = await subtle.generateKey(alg, true, ['sign', 'verify']);
			for (const format of ['pkcs8', 'jwk']) {
				privs.push(await subtle.importKey(format, await subtle.exportKey(format, extractable.privateKey), alg, false, ['sign']));
				pubs.push(extractable.publicKey);
			}
			const ok = [];
			for (let i = 0; i < privs.length; i++) {
				const sig = await subtle.sign({ name: 'ECDSA', hash }, privs[i], utf8('data'));
				const verifiers = i === 0 ? pubs.slice(0, 4) : [extractable.publicKey];
				for (const pub of verifiers) ok.push(sig.byteLength === size && await subtle.verify({ name: 'ECDSA', hash }, pub, sig, utf8('data')));
			}
			out.push(ok.join());
			const jwk = await subtle.exportKey('jwk', extractable.privateKey);
			out.push([jwk.kty, jwk.crv, jwk.d !== undefined, jwk.key_ops.join()].join(' '));
		}
		return out;
	})()`)
	want := []string{}
	for _, c := range []string{"P-256", "P-384", "P-521"} {
		want = append(want, "public true verify private false sign ECDSA "+c, "true,true,true,true,true,true", "EC "+c+" true sign")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestECDSACrossGo checks that a P-384 signature made in JavaScript with
// a key from Go verifies in Go, one made in Go verifies in JavaScript, and
// the JWK crypto.subtle exports is Go's key.
func TestECDSACrossGo(t *testing.T) {
	priv, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(priv)
	spki, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	digest := sha512.Sum384([]byte("cross"))
	r, s, _ := ecdsa.Sign(rand.Reader, priv, digest[:])
	goSig := append(r.FillBytes(make([]byte, 48)), s.FillBytes(make([]byte, 48))...)
	got := lines(t, `await (async () => {
		const alg = { name: 'ECDSA', namedCurve: 'P-384' };
		const p = { name: 'ECDSA', hash: 'SHA-384' };
		const priv = await subtle.importKey('pkcs8', `+jsHex(pkcs8)+`, alg, true, ['sign']);
		const pub = await subtle.importKey('spki', `+jsHex(spki)+`, alg, true, ['verify']);
		const jwk = await subtle.exportKey('jwk', priv);
		return [hex(await subtle.sign(p, priv, utf8('cross'))), String(await subtle.verify(p, pub, `+jsHex(goSig)+`, utf8('cross'))),
			jwk.x, jwk.y, jwk.d];
	})()`)
	sig, _ := hex.DecodeString(got[0])
	if len(sig) != 96 || !ecdsa.Verify(&priv.PublicKey, digest[:], new(big.Int).SetBytes(sig[:48]), new(big.Int).SetBytes(sig[48:])) {
		t.Errorf("Go does not verify the JavaScript signature %s", got[0])
	}
	if got[1] != "true" {
		t.Errorf("JavaScript does not verify Go's signature")
	}
	point, _ := priv.PublicKey.Bytes()
	d, _ := priv.Bytes()
	enc := base64.RawURLEncoding.EncodeToString
	if want := []string{enc(point[1:49]), enc(point[49:]), enc(d)}; strings.Join(got[2:], " ") != strings.Join(want, " ") {
		t.Errorf("JWK x y d = %v, want Go's %v", got[2:], want)
	}
}

// TestECDHDeriveBits checks that both sides of a generated exchange derive
// the same secret on each curve, that length truncates it (clearing the
// unused bits), that the secret of keys from Go is Go's and that deriveKey
// makes an AES key of the secret's first bits.
func TestECDHDeriveBits(t *testing.T) {
	a, _ := ecdh.P256().GenerateKey(rand.Reader)
	b, _ := ecdh.P256().GenerateKey(rand.Reader)
	aPKCS8, _ := x509.MarshalPKCS8PrivateKey(a)
	goSecret, _ := a.ECDH(b.PublicKey())
	got := lines(t, `await (async () => {
		const out = [];
		for (const namedCurve of ['P-256', 'P-384', 'P-521']) {
			const alg = { name: 'ECDH', namedCurve };
			const x = await subtle.generateKey(alg, true, ['deriveBits']);
			const y = await subtle.generateKey(alg, true, ['deriveBits']);
			const xy = await subtle.deriveBits({ name: 'ECDH', public: y.publicKey }, x.privateKey, null);
			const yx = await subtle.deriveBits({ name: 'ECDH', public: x.publicKey }, y.privateKey);
			const short = await subtle.deriveBits({ name: 'ECDH', public: y.publicKey }, x.privateKey, 100);
			out.push([x.publicKey.usages.length, x.privateKey.usages.join(), xy.byteLength, hex(xy) === hex(yx),
				short.byteLength, hex(short).slice(0, 24) === hex(xy).slice(0, 24), new Uint8Array(short)[12] & 0x0f].join(' '));
		}
		const alg = { name: 'ECDH', namedCurve: 'P-256' };
		const a = await subtle.importKey('pkcs8', `+jsHex(aPKCS8)+`, alg, false, ['deriveBits']);
		const b = await subtle.importKey('raw', `+jsHex(b.PublicKey().Bytes())+`, alg, false, []);
		out.push(hex(await subtle.deriveBits({ name: 'ECDH', public: b }, a, 256)));
		const x = await subtle.generateKey(alg, true, ['deriveKey', 'deriveBits']);
		const aes = await subtle.deriveKey({ name: 'ECDH', public: x.publicKey }, x.privateKey, { name: 'AES-GCM', length: 128 }, true, ['encrypt']);
		out.push(String(hex(await subtle.exportKey('raw', aes)) === hex(await subtle.deriveBits({ name: 'ECDH', public: x.publicKey }, x.privateKey, 128))));
		return out;
	})()`)
	want := []string{"0 deriveBits 32 true 13 true 0", "0 deriveBits 48 true 13 true 0", "0 deriveBits 66 true 13 true 0", hex.EncodeToString(goSecret), "true"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestECJWKOnItsOwnCurve checks that a JWK is read on its crv, as k6 reads
// it, even when the algorithm names another namedCurve: a P-384 key
// imported with namedCurve P-256 verifies what the P-384 key signed. An
// unknown crv is a DataError.
func TestECJWKOnItsOwnCurve(t *testing.T) {
	got := runScript(t, `const pair = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign', 'verify']);
const data = utf8('signed');
const sig = await subtle.sign({ name: 'ECDSA', hash: 'SHA-384' }, pair.privateKey, data);
const jwk = await subtle.exportKey('jwk', pair.publicKey);
const pub = await subtle.importKey('jwk', jwk, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
const ok = await subtle.verify({ name: 'ECDSA', hash: 'SHA-384' }, pub, sig, data);
let unknown = 'imported';
try {
  await subtle.importKey('jwk', { ...jwk, crv: 'P-192' }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
} catch (e) { unknown = e.name; }
return ok + ' ' + unknown;`)
	if got != "true DataError" {
		t.Errorf("got %q, want %q", got, "true DataError")
	}
}
