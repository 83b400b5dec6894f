package webcrypto_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// TestHMACVectors checks sign against RFC 2202 (SHA-1) and RFC 4231
// (SHA-2) answers, keys imported raw and as JWK.
func TestHMACVectors(t *testing.T) {
	jefe := func(hash, format string) string {
		key := `utf8('Jefe')`
		if format == "jwk" {
			key = `{ kty: 'oct', k: 'SmVmZQ' }`
		}
		return `subtle.importKey('` + format + `', ` + key + `, { name: 'HMAC', hash: '` + hash + `' }, false, ['sign'])
			.then((k) => subtle.sign('HMAC', k, utf8('what do ya want for nothing?')))`
	}
	checkVectors(t, []vector{
		{"RFC 2202 2", jefe("SHA-1", "raw"), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"},
		{"RFC 4231 2 SHA-256", jefe("SHA-256", "raw"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{"RFC 4231 2 SHA-384", jefe("SHA-384", "jwk"),
			"af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"},
		{"RFC 4231 2 SHA-512", jefe("SHA-512", "raw"),
			"164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"},
		{"RFC 4231 6 SHA-256 (key longer than a block)", `subtle.importKey('raw', new Uint8Array(131).fill(0xaa), { name: 'HMAC', hash: { name: 'SHA-256' } }, false, ['sign'])
			.then((k) => subtle.sign({ name: 'hmac' }, k, utf8('Test Using Larger Than Block-Size Key - Hash Key First')))`,
			"60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
	})
}

// TestHMACRoundTrip generates keys, checks their algorithm and usages,
// exports them raw and as JWK, imports them back and verifies signatures
// of the first key with the imported ones; a changed message does not
// verify.
func TestHMACRoundTrip(t *testing.T) {
	got := lines(t, `await (async () => {
		const out = [];
		for (const [hash, bits] of [['SHA-1', 512], ['SHA-256', 512], ['SHA-384', 1024], ['SHA-512', 1024]]) {
			const key = await subtle.generateKey({ name: 'HMAC', hash }, true, ['verify', 'sign', 'sign']);
			const a = key.algorithm;
			out.push([key.type, key.extractable, a.name, a.hash.name, a.length === bits, key.usages.join('+')].join(' '));
			const raw = await subtle.exportKey('raw', key);
			const jwk = await subtle.exportKey('jwk', key);
			out.push([raw.byteLength * 8 === bits, jwk.kty, jwk.alg, jwk.ext, jwk.key_ops.join('+')].join(' '));
			const sig = await subtle.sign('HMAC', key, utf8('message'));
			for (const [format, data] of [['raw', raw], ['jwk', jwk]]) {
				const k = await subtle.importKey(format, data, { name: 'HMAC', hash }, false, ['verify']);
				out.push(format + ' ' + await subtle.verify('HMAC', k, sig, utf8('message')) + ' ' + await subtle.verify('HMAC', k, sig, utf8('messagE')));
			}
		}
		const short = await subtle.generateKey({ name: 'HMAC', hash: 'SHA-256', length: 100 }, true, ['sign']);
		out.push(short.algorithm.length + ' ' + (await subtle.exportKey('raw', short)).byteLength);
		return out;
	})()`)
	want := []string{}
	for _, c := range []struct{ hash, alg string }{{"SHA-1", "HS1"}, {"SHA-256", "HS256"}, {"SHA-384", "HS384"}, {"SHA-512", "HS512"}} {
		want = append(want, "secret true HMAC "+c.hash+" true sign+verify", "true oct "+c.alg+" true sign+verify",
			"raw true false", "jwk true false")
	}
	want = append(want, "100 13")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestHMACCrossGo checks that a key and a MAC made in Go agree with
// crypto.subtle: JS verifies Go's MAC, and its own MAC and JWK are Go's.
func TestHMACCrossGo(t *testing.T) {
	key := []byte("a key shared with Go, 32 bytes..")
	m := hmac.New(sha256.New, key)
	m.Write([]byte("payload"))
	goMAC := hex.EncodeToString(m.Sum(nil))
	got := lines(t, `await (async () => {
		const k = await subtle.importKey('raw', `+jsHex(key)+`, { name: 'HMAC', hash: 'SHA-256' }, true, ['sign', 'verify']);
		return [String(await subtle.verify('HMAC', k, unhex('`+goMAC+`'), utf8('payload'))),
			hex(await subtle.sign('HMAC', k, utf8('payload'))), (await subtle.exportKey('jwk', k)).k];
	})()`)
	want := []string{"true", goMAC, base64.RawURLEncoding.EncodeToString(key)}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}
