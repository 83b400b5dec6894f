package webcrypto_test

import (
	"strings"
	"testing"
)

// TestKDFVectors checks deriveBits against RFC 6070 (PBKDF2-HMAC-SHA1),
// RFC 7914 section 11 (PBKDF2-HMAC-SHA256) and RFC 5869 A.1 and A.3 (HKDF
// with SHA-256).
func TestKDFVectors(t *testing.T) {
	pbkdf2 := func(password, salt, hash string, iterations, bits string) string {
		return `subtle.importKey('raw', utf8('` + password + `'), 'PBKDF2', false, ['deriveBits']).then((k) => subtle.deriveBits(
			{ name: 'PBKDF2', salt: utf8('` + salt + `'), iterations: ` + iterations + `, hash: '` + hash + `' }, k, ` + bits + `))`
	}
	hkdf := func(ikm, salt, info, bits string) string {
		return `subtle.importKey('raw', unhex('` + ikm + `'), 'HKDF', false, ['deriveBits']).then((k) => subtle.deriveBits(
			{ name: 'HKDF', hash: 'SHA-256', salt: unhex('` + salt + `'), info: unhex('` + info + `') }, k, ` + bits + `))`
	}
	checkVectors(t, []vector{
		{"RFC 6070 c=1", pbkdf2("password", "salt", "SHA-1", "1", "160"), "0c60c80f961f0e71f3a9b524af6012062fe037a6"},
		{"RFC 6070 c=2", pbkdf2("password", "salt", "SHA-1", "2", "160"), "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"},
		{"RFC 6070 c=4096", pbkdf2("password", "salt", "SHA-1", "4096", "160"), "4b007901b765489abead49d926f721d065a429c1"},
		{"RFC 6070 long", pbkdf2("passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", "SHA-1", "4096", "200"),
			"3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"},
		{"RFC 7914 11", pbkdf2("passwd", "salt", "SHA-256", "1", "512"),
			"55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"},
		{"RFC 5869 A.1", hkdf(strings.Repeat("0b", 22), "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", "336"),
			"3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
		{"RFC 5869 A.3 (no salt, no info)", hkdf(strings.Repeat("0b", 22), "", "", "336"),
			"8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
	})
}

// TestDeriveKey checks deriveKey: a PBKDF2 password makes an AES-GCM key
// whose raw bytes are deriveBits' and that encrypts, and an HKDF secret
// makes HMAC keys of the hash's block size or of the asked length.
func TestDeriveKey(t *testing.T) {
	got := lines(t, `await (async () => {
		const password = await subtle.importKey('raw', utf8('hello world password!'), 'pbkdf2', false, ['deriveBits', 'deriveKey']);
		const p = { name: 'PBKDF2', salt: utf8('0123456789abcdef'), iterations: 1000, hash: 'SHA-256' };
		const aes = await subtle.deriveKey(p, password, { name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
		const same = hex(await subtle.exportKey('raw', aes)) === hex(await subtle.deriveBits(p, password, 256));
		const iv = new Uint8Array(12);
		const ct = await subtle.encrypt({ name: 'AES-GCM', iv }, aes, utf8('derived'));
		const pt = new TextDecoder().decode(await subtle.decrypt({ name: 'AES-GCM', iv }, aes, ct));
		const secret = await subtle.importKey('raw', utf8('input key material'), 'HKDF', false, ['deriveKey']);
		const h = { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: utf8('ctx') };
		const mac = await subtle.deriveKey(h, secret, { name: 'HMAC', hash: 'SHA-512' }, false, ['sign']);
		const mac2 = await subtle.deriveKey(h, secret, { name: 'HMAC', hash: 'SHA-256', length: 128 }, false, ['sign']);
		return [[aes.type, aes.algorithm.name, aes.algorithm.length, aes.usages.join(), same, pt].join(' '),
			[mac.algorithm.name, mac.algorithm.hash.name, mac.algorithm.length, mac2.algorithm.length, password.extractable, password.type].join(' ')];
	})()`)
	want := []string{"secret AES-GCM 256 encrypt,decrypt true derived", "HMAC SHA-512 1024 128 false secret"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
