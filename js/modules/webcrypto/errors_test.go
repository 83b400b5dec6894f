package webcrypto_test

import (
	"strings"
	"testing"
)

// TestSubtleErrors checks that bad input rejects the promise (never
// throws) with the error the Web Crypto API names: NotSupportedError for
// unknown algorithms, curves and formats a family lacks, SyntaxError for
// usages a key can't have, InvalidAccessError for a key used against its
// algorithm, usages or type, DataError for bad key material,
// OperationError for bad operation parameters and failed decryption,
// TypeError for arguments of the wrong shape.
func TestSubtleErrors(t *testing.T) {
	cases := []struct{ name, expr, want string }{
		{"unknown digest", `subtle.digest('MD5', new Uint8Array(1))`, `NotSupportedError: crypto.subtle.digest: unknown algorithm "MD5"`},
		{"digest of HMAC", `subtle.digest('HMAC', new Uint8Array(1))`, `NotSupportedError: crypto.subtle.digest: HMAC is not a digest algorithm`},
		{"digest of a string", `subtle.digest('SHA-256', 'text')`, `TypeError: crypto.subtle.digest: data must be an ArrayBuffer, a TypedArray or a DataView, not string`},
		{"no algorithm name", `subtle.digest({}, new Uint8Array(1))`, `TypeError: crypto.subtle.digest: the algorithm has no name`},
		{"HMAC without hash", `subtle.generateKey({ name: 'HMAC' }, true, ['sign'])`, `TypeError: crypto.subtle.generateKey: HMAC: the member "hash" is required`},
		{"HMAC with an unknown hash", `subtle.generateKey({ name: 'HMAC', hash: 'SHA-3' }, true, ['sign'])`, `NotSupportedError: crypto.subtle.generateKey: unknown algorithm "SHA-3"`},
		{"HMAC to encrypt", `subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['encrypt'])`, `SyntaxError: crypto.subtle.generateKey: HMAC keys can't be used to encrypt`},
		{"no usages", `subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, [])`, `SyntaxError: crypto.subtle.generateKey: a secret key needs at least one usage`},
		{"no usages argument", `subtle.generateKey({ name: 'AES-GCM', length: 128 }, true)`, `TypeError: crypto.subtle.generateKey: keyUsages must be an array of strings`},
		{"unknown usage", `subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, ['fly'])`, `TypeError: crypto.subtle.generateKey: unknown key usage "fly"`},
		{"AES length", `subtle.generateKey({ name: 'AES-CBC', length: 100 }, true, ['encrypt'])`, `OperationError: crypto.subtle.generateKey: AES-CBC: length must be 128, 192 or 256, not 100`},
		{"AES length not a number", `subtle.generateKey({ name: 'AES-CBC', length: 'long' }, true, ['encrypt'])`, `TypeError: crypto.subtle.generateKey: AES-CBC: "length" must be an unsigned integer, not long`},
		{"AES length negative", `subtle.generateKey({ name: 'AES-CBC', length: -128 }, true, ['encrypt'])`, `TypeError: crypto.subtle.generateKey: AES-CBC: "length" must be an unsigned integer, not -128`},
		{"generate PBKDF2", `subtle.generateKey('PBKDF2', false, ['deriveBits'])`, `NotSupportedError: crypto.subtle.generateKey: PBKDF2 keys are imported, not generated`},
		{"unknown curve", `subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-192' }, true, ['sign'])`, `NotSupportedError: crypto.subtle.generateKey: ECDSA: unknown namedCurve "P-192"`},
		{"RSA exponent 3", `subtle.generateKey({ name: 'RSA-PSS', modulusLength: 1024, publicExponent: new Uint8Array([3]), hash: 'SHA-256' }, true, ['sign'])`,
			`NotSupportedError: crypto.subtle.generateKey: RSA-PSS: only the publicExponent 65537`},
		{"unknown format", `subtle.importKey('pem', new Uint8Array(16), 'AES-GCM', true, ['encrypt'])`, `TypeError: crypto.subtle.importKey: unknown key format "pem"`},
		{"AES as spki", `subtle.importKey('spki', new Uint8Array(16), 'AES-GCM', true, ['encrypt'])`, `NotSupportedError: crypto.subtle.importKey: AES-GCM keys are imported as raw or jwk, not spki`},
		{"AES key of 10 bytes", `subtle.importKey('raw', new Uint8Array(10), 'AES-GCM', true, ['encrypt'])`, `DataError: crypto.subtle.importKey: AES-GCM: a key has 16, 24 or 32 bytes, not 10`},
		{"empty HMAC key", `subtle.importKey('raw', new Uint8Array(0), { name: 'HMAC', hash: 'SHA-1' }, true, ['sign'])`, `DataError: crypto.subtle.importKey: HMAC: the key is empty`},
		{"JWK of another kty", `subtle.importKey('jwk', { kty: 'EC', k: 'AAAA' }, { name: 'HMAC', hash: 'SHA-1' }, true, ['sign'])`, `DataError: crypto.subtle.importKey: the JWK's kty is "EC", want "oct"`},
		{"JWK of another alg", `subtle.importKey('jwk', { kty: 'oct', k: 'AAAA', alg: 'HS512' }, { name: 'HMAC', hash: 'SHA-1' }, true, ['sign'])`, `DataError: crypto.subtle.importKey: the JWK's alg is "HS512", want "HS1"`},
		{"JWK not extractable", `subtle.importKey('jwk', { kty: 'oct', k: 'AAAA', ext: false }, { name: 'HMAC', hash: 'SHA-1' }, true, ['sign'])`, `DataError: crypto.subtle.importKey: the JWK is not extractable`},
		{"JWK key_ops", `subtle.importKey('jwk', { kty: 'oct', k: 'AAAA', key_ops: ['verify'] }, { name: 'HMAC', hash: 'SHA-1' }, true, ['sign'])`, `DataError: crypto.subtle.importKey: the JWK's key_ops [verify] do not allow sign`},
		{"spki garbage", `subtle.importKey('spki', new Uint8Array(30), { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify'])`, `DataError: crypto.subtle.importKey: ECDSA: the spki key is not valid`},
		{"raw point on another curve", `subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, ['sign']).then((p) => subtle.exportKey('spki', p.publicKey))
			.then((spki) => subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']))`, `DataError: crypto.subtle.importKey: ECDSA: the key is on P-384, not P-256`},
		{"public ECDSA key to sign", `subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']).then((p) => subtle.exportKey('raw', p.publicKey))
			.then((raw) => subtle.importKey('raw', raw, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']))`, `SyntaxError: crypto.subtle.importKey: ECDSA keys can't be used to sign`},
		{"PBKDF2 extractable", `subtle.importKey('raw', utf8('pw'), 'PBKDF2', true, ['deriveBits'])`, `SyntaxError: crypto.subtle.importKey: PBKDF2 keys can't be extractable`},
		{"export not extractable", `subtle.generateKey({ name: 'AES-CTR', length: 128 }, false, ['encrypt']).then((k) => subtle.exportKey('raw', k))`, `InvalidAccessError: crypto.subtle.exportKey: the key is not extractable`},
		{"export private raw", `subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']).then((p) => subtle.exportKey('raw', p.privateKey))`, `InvalidAccessError: crypto.subtle.exportKey: a private ECDH key can't be exported as raw`},
		{"export something else", `subtle.exportKey('raw', {})`, `TypeError: crypto.subtle.exportKey: the key must be a CryptoKey`},
		{"sign without the usage", `subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, true, ['verify']).then((k) => subtle.sign('HMAC', k, new Uint8Array(1)))`, `InvalidAccessError: crypto.subtle.sign: the key's usages [verify] do not allow sign`},
		{"key of another algorithm", `subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, ['encrypt']).then((k) => subtle.encrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, k, new Uint8Array(1)))`,
			`InvalidAccessError: crypto.subtle.encrypt: the key is a AES-GCM key, not AES-CBC`},
		{"sign with an unknown algorithm", `subtle.sign('FOO', {}, new Uint8Array(1))`, `NotSupportedError: crypto.subtle.sign: unknown algorithm "FOO"`},
		{"CBC iv of 8 bytes", `subtle.generateKey({ name: 'AES-CBC', length: 128 }, true, ['encrypt']).then((k) => subtle.encrypt({ name: 'AES-CBC', iv: new Uint8Array(8) }, k, new Uint8Array(1)))`,
			`OperationError: crypto.subtle.encrypt: AES-CBC: iv must have 16 bytes, not 8`},
		{"CBC without iv", `subtle.generateKey({ name: 'AES-CBC', length: 128 }, true, ['encrypt']).then((k) => subtle.encrypt({ name: 'AES-CBC' }, k, new Uint8Array(1)))`,
			`TypeError: crypto.subtle.encrypt: AES-CBC: the member "iv" is required`},
		{"CTR length 0", `subtle.generateKey({ name: 'AES-CTR', length: 128 }, true, ['encrypt']).then((k) => subtle.encrypt({ name: 'AES-CTR', counter: new Uint8Array(16), length: 0 }, k, new Uint8Array(1)))`,
			`OperationError: crypto.subtle.encrypt: AES-CTR: length must be 1 to 128, not 0`},
		{"CTR counter would repeat", `subtle.generateKey({ name: 'AES-CTR', length: 128 }, true, ['encrypt']).then((k) => subtle.encrypt({ name: 'AES-CTR', counter: new Uint8Array(16), length: 1 }, k, new Uint8Array(33)))`,
			`OperationError: crypto.subtle.encrypt: AES-CTR: 3 blocks would repeat a 1-bit counter`},
		{"GCM tag length", `subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, ['encrypt']).then((k) => subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12), tagLength: 100 }, k, new Uint8Array(1)))`,
			`OperationError: crypto.subtle.encrypt: AES-GCM: tagLength must be 32, 64, 96, 104, 112, 120 or 128, not 100`},
		{"GCM tampered", `subtle.generateKey({ name: 'AES-GCM', length: 128 }, true, ['encrypt', 'decrypt']).then(async (k) => {
			const p = { name: 'AES-GCM', iv: new Uint8Array(12) };
			const ct = new Uint8Array(await subtle.encrypt(p, k, utf8('data'))); ct[0] ^= 1;
			return subtle.decrypt(p, k, ct); })`, `OperationError: crypto.subtle.decrypt: AES-GCM: the ciphertext or its tag is not authentic`},
		{"CBC bad padding", `subtle.importKey('raw', new Uint8Array(16), 'AES-CBC', false, ['decrypt']).then((k) => subtle.decrypt({ name: 'AES-CBC', iv: new Uint8Array(16) }, k, new Uint8Array(16)))`,
			`OperationError: crypto.subtle.decrypt: AES-CBC: bad padding`},
		{"ECDH with an ECDSA public key", `Promise.all([subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']), subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])])
			.then(([a, b]) => subtle.deriveBits({ name: 'ECDH', public: b.publicKey }, a.privateKey, 256))`, `InvalidAccessError: crypto.subtle.deriveBits: ECDH: public is a ECDSA key, not an ECDH one`},
		{"ECDH across curves", `Promise.all([subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits']), subtle.generateKey({ name: 'ECDH', namedCurve: 'P-384' }, true, ['deriveBits'])])
			.then(([a, b]) => subtle.deriveBits({ name: 'ECDH', public: b.publicKey }, a.privateKey, 256))`, `InvalidAccessError: crypto.subtle.deriveBits: ECDH: public is on P-384, the base key on P-256`},
		{"ECDH too many bits", `subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])
			.then((a) => subtle.deriveBits({ name: 'ECDH', public: a.publicKey }, a.privateKey, 264))`, `OperationError: crypto.subtle.deriveBits: length 264 is more than the 256 bits there are`},
		{"PBKDF2 null length", `subtle.importKey('raw', utf8('pw'), 'PBKDF2', false, ['deriveBits'])
			.then((k) => subtle.deriveBits({ name: 'PBKDF2', salt: new Uint8Array(8), iterations: 1, hash: 'SHA-256' }, k, null))`, `OperationError: crypto.subtle.deriveBits: PBKDF2: length must be a multiple of 8`},
		{"PBKDF2 0 iterations", `subtle.importKey('raw', utf8('pw'), 'PBKDF2', false, ['deriveBits'])
			.then((k) => subtle.deriveBits({ name: 'PBKDF2', salt: new Uint8Array(8), iterations: 0, hash: 'SHA-256' }, k, 128))`, `OperationError: crypto.subtle.deriveBits: PBKDF2: iterations must not be 0`},
		{"deriveKey into ECDSA", `subtle.importKey('raw', utf8('pw'), 'PBKDF2', false, ['deriveKey'])
			.then((k) => subtle.deriveKey({ name: 'PBKDF2', salt: new Uint8Array(8), iterations: 1, hash: 'SHA-256' }, k, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']))`,
			`NotSupportedError: crypto.subtle.deriveKey: ECDSA does not support deriveKey as the derived key type`},
		{"encrypt with RSA-PSS", `subtle.encrypt('RSA-PSS', {}, new Uint8Array(1))`, `TypeError: crypto.subtle.encrypt: the key must be a CryptoKey`},
		{"OAEP message too long", `subtle.generateKey({ name: 'RSA-OAEP', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['encrypt', 'decrypt'])
			.then((p) => subtle.encrypt('RSA-OAEP', p.publicKey, new Uint8Array(100)))`, `OperationError: crypto.subtle.encrypt: RSA-OAEP: crypto/rsa: message too long`},
	}
	exprs := make([]string, len(cases))
	for i, c := range cases {
		exprs[i] = "await rejection(" + c.expr + ")"
	}
	got := lines(t, "["+strings.Join(exprs, ",\n")+"]")
	for i, c := range cases {
		if !strings.HasPrefix(got[i], c.want) {
			t.Errorf("%s: got %q, want %q…", c.name, got[i], c.want)
		}
	}
}

// TestSubtleErrorsAreErrors checks that a rejection is an Error object a
// script can inspect as it would a DOMException (name and message), and
// that methods reject rather than throw.
func TestSubtleErrorsAreErrors(t *testing.T) {
	got := runScript(t, `
		let threw = false, e;
		let p;
		try { p = subtle.importKey('raw', new Uint8Array(3), 'AES-GCM', true, ['encrypt']); } catch (_) { threw = true; }
		try { await p; } catch (err) { e = err; }
		return [threw, e instanceof Error, e.name, e.message].join();`)
	if want := "false,true,DataError,crypto.subtle.importKey: AES-GCM: a key has 16, 24 or 32 bytes, not 3"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestImportGarbage imports bytes that are no key (empty, short, random,
// and an spki of another family or curve) and JWKs with wrong members in every
// format of every family: each rejects with DataError, or
// NotSupportedError for a format the family lacks (SyntaxError for raw
// secrets, which are valid but imported without usages); none resolves or
// panics.
func TestImportGarbage(t *testing.T) {
	got := lines(t, `await (async () => {
		const algs = [{ name: 'HMAC', hash: 'SHA-256' }, { name: 'AES-GCM' }, { name: 'AES-CBC' }, { name: 'AES-CTR' },
			{ name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDH', namedCurve: 'P-384' }, { name: 'Ed25519' }, { name: 'X25519' },
			{ name: 'RSA-PSS', hash: 'SHA-256' }, { name: 'RSA-OAEP', hash: 'SHA-1' }, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-512' },
			{ name: 'PBKDF2' }, { name: 'HKDF' }];
		const ed = await subtle.generateKey({ name: 'Ed25519' }, true, ['sign']);
		const ec = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-521' }, true, ['sign']);
		const edSPKI = new Uint8Array(await subtle.exportKey('spki', ed.publicKey));
		const ecSPKI = new Uint8Array(await subtle.exportKey('spki', ec.publicKey));
		const jwks = [{}, { kty: 'oct', k: '!!' }, { kty: 'EC', crv: 'P-256', x: 'AA', y: 'AA' }, { kty: 'RSA', n: 'AQAB', e: 'AQAB', d: 'AQ' },
			{ kty: 'OKP', crv: 'Ed25519', x: 'AAAA' }, { kty: 'oct', k: 5 }];
		const out = [];
		for (const alg of algs) {
			for (const format of ['raw', 'spki', 'pkcs8', 'jwk']) {
				const foreign = alg.name === 'Ed25519' ? ecSPKI : edSPKI; // a key of another family
				const inputs = [new Uint8Array(0), new Uint8Array(7), crypto.getRandomValues(new Uint8Array(200)), foreign];
				for (const data of format === 'jwk' ? jwks : inputs) {
					// Any raw bytes are an HMAC secret or a password: those keys fail for want of usages (SyntaxError).
					const extractable = !/PBKDF2|HKDF/.test(alg.name);
					const r = await rejection(subtle.importKey(format, data, alg, extractable, []));
					if (!/^(DataError|NotSupportedError|SyntaxError): /.test(r) || (r.startsWith('SyntaxError') && format !== 'raw')) {
						out.push(alg.name + ' ' + format + ' ' + JSON.stringify(data).slice(0, 40) + ': ' + r);
					}
				}
			}
		}
		return out.length ? out : ['none'];
	})()`)
	if len(got) != 1 || got[0] != "none" {
		t.Errorf("imports that did not reject with DataError or NotSupportedError:\n%q", got)
	}
}
