package webcrypto_test

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// TestRSARoundTrip generates a 1024-bit pair for each RSA algorithm,
// checks the keys' algorithm, exports the public key as spki and JWK and
// the private key as pkcs8 and JWK, imports them back and signs and
// verifies (or encrypts and decrypts) across the original and imported
// keys.
func TestRSARoundTrip(t *testing.T) {
	got := lines(t, `await (async () => {
		const out = [];
		const ops = {
			'RSASSA-PKCS1-v1_5': [['sign', 'verify'], { name: 'RSASSA-PKCS1-v1_5' }],
			'RSA-PSS': [['sign', 'verify'], { name: 'RSA-PSS', saltLength: 32 }],
			'RSA-OAEP': [['encrypt', 'decrypt'], { name: 'RSA-OAEP', label: utf8('label') }],
		};
		for (const name of Object.keys(ops)) {
			const [usages, p] = ops[name];
			const alg = { name, modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
			const { publicKey, privateKey } = await subtle.generateKey(alg, true, usages);
			const a = privateKey.algorithm;
			out.push([a.name, a.modulusLength, hex(a.publicExponent), a.hash.name, publicKey.usages.join(), privateKey.usages.join()].join(' '));
			const imp = { name, hash: 'SHA-256' };
			const pubs = [publicKey, await subtle.importKey('spki', await subtle.exportKey('spki', publicKey), imp, true, [usages[1] === 'verify' ? 'verify' : 'encrypt']),
				await subtle.importKey('jwk', await subtle.exportKey('jwk', publicKey), imp, true, [usages[1] === 'verify' ? 'verify' : 'encrypt'])];
			const privUsage = usages[0] === 'sign' ? 'sign' : 'decrypt';
			const privs = [privateKey, await subtle.importKey('pkcs8', await subtle.exportKey('pkcs8', privateKey), imp, true, [privUsage]),
				await subtle.importKey('jwk', await subtle.exportKey('jwk', privateKey), imp, true, [privUsage])];
			const ok = [];
			for (let i = 0; i < 3; i++) {
				if (usages[0] === 'sign') {
					const sig = await subtle.sign(p, privs[i], utf8('data'));
					ok.push(await subtle.verify(p, pubs[(i + 1) % 3], sig, utf8('data')) && !(await subtle.verify(p, pubs[i], sig, utf8('datA'))));
				} else {
					const ct = await subtle.encrypt(p, pubs[i], utf8('secret'));
					ok.push(new TextDecoder().decode(await subtle.decrypt(p, privs[(i + 1) % 3], ct)) === 'secret');
				}
			}
			const jwk = await subtle.exportKey('jwk', privateKey);
			out.push(ok.join() + ' ' + [jwk.kty, jwk.alg, jwk.e, ['n', 'd', 'p', 'q', 'dp', 'dq', 'qi'].every((m) => typeof jwk[m] === 'string')].join(' '));
		}
		return out;
	})()`)
	want := []string{
		"RSASSA-PKCS1-v1_5 1024 010001 SHA-256 verify sign", "true,true,true RSA RS256 AQAB true",
		"RSA-PSS 1024 010001 SHA-256 verify sign", "true,true,true RSA PS256 AQAB true",
		"RSA-OAEP 1024 010001 SHA-256 encrypt decrypt", "true,true,true RSA RSA-OAEP-256 AQAB true",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestRSACrossGo checks crypto.subtle against Go with one 2048-bit key
// from Go: the PKCS #1 v1.5 signature (deterministic) is Go's, Go verifies
// the PSS signature and decrypts the OAEP ciphertext made in JavaScript,
// JavaScript verifies Go's PSS signature and decrypts Go's ciphertext, and
// the exported JWK's n is Go's modulus.
func TestRSACrossGo(t *testing.T) {
	priv, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(priv)
	spki, _ := x509.MarshalPKIXPublicKey(&priv.PublicKey)
	digest := sha256.Sum256([]byte("go"))
	pkcsSig, _ := rsa.SignPKCS1v15(nil, priv, crypto.SHA256, digest[:])
	pssSig, _ := rsa.SignPSS(rand.Reader, priv, crypto.SHA256, digest[:], &rsa.PSSOptions{SaltLength: 20})
	oaep, _ := rsa.EncryptOAEP(sha256.New(), rand.Reader, &priv.PublicKey, []byte("from Go"), nil)
	got := lines(t, `await (async () => {
		const key = (format, data, name, usage) => subtle.importKey(format, data, { name, hash: 'SHA-256' }, true, [usage]);
		const pkcs8 = `+jsHex(pkcs8)+`, spki = `+jsHex(spki)+`;
		const pkcs = await key('pkcs8', pkcs8, 'RSASSA-PKCS1-v1_5', 'sign');
		const pss = await key('pkcs8', pkcs8, 'RSA-PSS', 'sign');
		const pssPub = await key('spki', spki, 'RSA-PSS', 'verify');
		const oaepPriv = await key('pkcs8', pkcs8, 'RSA-OAEP', 'decrypt');
		const oaepPub = await key('spki', spki, 'RSA-OAEP', 'encrypt');
		return [hex(await subtle.sign('RSASSA-PKCS1-v1_5', pkcs, utf8('go'))),
			hex(await subtle.sign({ name: 'RSA-PSS', saltLength: 32 }, pss, utf8('go'))),
			String(await subtle.verify({ name: 'RSA-PSS', saltLength: 20 }, pssPub, `+jsHex(pssSig)+`, utf8('go'))),
			hex(await subtle.encrypt({ name: 'RSA-OAEP' }, oaepPub, utf8('from JS'))),
			new TextDecoder().decode(await subtle.decrypt({ name: 'RSA-OAEP' }, oaepPriv, `+jsHex(oaep)+`)),
			(await subtle.exportKey('jwk', pkcs)).n];
	})()`)
	if got[0] != hex.EncodeToString(pkcsSig) {
		t.Errorf("PKCS #1 v1.5 signature differs from Go's")
	}
	pss, _ := hex.DecodeString(got[1])
	if err := rsa.VerifyPSS(&priv.PublicKey, crypto.SHA256, digest[:], pss, &rsa.PSSOptions{SaltLength: 32}); err != nil {
		t.Errorf("Go does not verify the PSS signature: %v", err)
	}
	if got[2] != "true" {
		t.Errorf("JavaScript does not verify Go's PSS signature")
	}
	ct, _ := hex.DecodeString(got[3])
	if plain, err := rsa.DecryptOAEP(sha256.New(), nil, priv, ct, nil); err != nil || string(plain) != "from JS" {
		t.Errorf("Go decrypted %q (%v), want %q", plain, err, "from JS")
	}
	if got[4] != "from Go" {
		t.Errorf("JavaScript decrypted %q, want %q", got[4], "from Go")
	}
	if got[5] != base64.RawURLEncoding.EncodeToString(priv.N.Bytes()) {
		t.Errorf("JWK n is not Go's modulus")
	}
}
