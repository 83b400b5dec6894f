package webcrypto_test

import (
	"crypto/aes"
	gocipher "crypto/cipher"
	"encoding/hex"
	"strings"
	"testing"
)

// aesKey is the key of the NIST SP 800-38A examples.
const aesKey = "2b7e151628aed2a6abf7158809cf4f3c"

// TestAESVectors checks encryption against NIST answers: SP 800-38A
// F.2.1 (CBC, followed by the padding block WebCrypto adds) and F.5.1
// (CTR), the GCM specification's test cases 2 and 4 (with additional data)
// and a 96-bit tag, and decryption back to the plaintext.
func TestAESVectors(t *testing.T) {
	imp := func(alg, key string) string {
		return `(await subtle.importKey('raw', unhex('` + key + `'), '` + alg + `', false, ['encrypt', 'decrypt']))`
	}
	const gcm4Key = "feffe9928665731c6d6a8f9467308308"
	const gcm4Plain = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
	const gcm4 = "{ name: 'AES-GCM', iv: unhex('cafebabefacedbaddecaf888'), additionalData: unhex('feedfacedeadbeeffeedfacedeadbeefabaddad2') }"
	const gcm4Cipher = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091"
	ctr := "{ name: 'AES-CTR', counter: unhex('f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff'), length: 64 }"
	checkVectors(t, []vector{
		{"CBC F.2.1", `subtle.encrypt({ name: 'AES-CBC', iv: unhex('000102030405060708090a0b0c0d0e0f') }, ` + imp("AES-CBC", aesKey) +
			`, unhex('6bc1bee22e409f96e93d7e117393172a'))`, "7649abac8119b246cee98e9b12e9197d8964e0b149c10b7b682e6e39aaeb731c"},
		{"CBC F.2.1 decrypt", `subtle.decrypt({ name: 'AES-CBC', iv: unhex('000102030405060708090a0b0c0d0e0f') }, ` + imp("AES-CBC", aesKey) +
			`, unhex('7649abac8119b246cee98e9b12e9197d8964e0b149c10b7b682e6e39aaeb731c'))`, "6bc1bee22e409f96e93d7e117393172a"},
		{"CTR F.5.1", `subtle.encrypt(` + ctr + `, ` + imp("AES-CTR", aesKey) +
			`, unhex('6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51'))`,
			"874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff"},
		{"CTR F.5.1 decrypt", `subtle.decrypt(` + ctr + `, ` + imp("AES-CTR", aesKey) +
			`, unhex('874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff'))`,
			"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"},
		{"GCM 2", `subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12) }, ` + imp("AES-GCM", strings.Repeat("00", 16)) +
			`, new Uint8Array(16))`, "0388dace60b6a392f328c2b971b2fe78ab6e47d42cec13bdf53a67b21257bddf"},
		{"GCM 4", `subtle.encrypt(` + gcm4 + `, ` + imp("AES-GCM", gcm4Key) + `, unhex('` + gcm4Plain + `'))`,
			gcm4Cipher + "5bc94fbc3221a5db94fae95ae7121a47"},
		{"GCM 4 decrypt", `subtle.decrypt(` + gcm4 + `, ` + imp("AES-GCM", gcm4Key) + `, unhex('` + gcm4Cipher + `5bc94fbc3221a5db94fae95ae7121a47'))`,
			gcm4Plain},
		{"GCM 4, 96-bit tag", `subtle.encrypt({ ...` + gcm4 + `, tagLength: 96 }, ` + imp("AES-GCM", gcm4Key) + `, unhex('` + gcm4Plain + `'))`,
			gcm4Cipher + "5bc94fbc3221a5db94fae95a"},
	})
}

// TestAESCounterWraps checks that AES-CTR counts only in the rightmost
// length bits of the counter block: with 8 bits and a counter ending in
// 0xff, the second block's counter ends in 0x00 and the bits above stay.
func TestAESCounterWraps(t *testing.T) {
	key, _ := hex.DecodeString(aesKey)
	block, _ := aes.NewCipher(key)
	want := make([]byte, 32)
	for i, last := range []byte{0xff, 0x00} {
		counter := []byte{0xf0, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa, 0xfb, 0xfc, 0xfd, 0xfe, last}
		block.Encrypt(want[16*i:], counter) // the key stream of a zero plaintext
	}
	checkVectors(t, []vector{{"CTR length 8",
		`subtle.importKey('raw', unhex('` + aesKey + `'), 'AES-CTR', false, ['encrypt']).then((k) => subtle.encrypt(
			{ name: 'AES-CTR', counter: unhex('f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff'), length: 8 }, k, new Uint8Array(32)))`,
		hex.EncodeToString(want)}})
}

// TestAESRoundTrip generates a key of each length for each mode, checks
// the key, exports it raw and as JWK, imports both back and decrypts with
// them what the generated key encrypted (17 bytes: a partial block).
func TestAESRoundTrip(t *testing.T) {
	got := lines(t, `await (async () => {
		const out = [];
		const params = {
			'AES-GCM': { name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)), additionalData: utf8('aad') },
			'AES-CBC': { name: 'AES-CBC', iv: crypto.getRandomValues(new Uint8Array(16)) },
			'AES-CTR': { name: 'AES-CTR', counter: crypto.getRandomValues(new Uint8Array(16)), length: 64 },
		};
		for (const name of ['AES-GCM', 'AES-CBC', 'AES-CTR']) {
			for (const length of [128, 192, 256]) {
				const key = await subtle.generateKey({ name, length }, true, ['encrypt', 'decrypt']);
				const ct = await subtle.encrypt(params[name], key, utf8('seventeen bytes!!'));
				const raw = await subtle.exportKey('raw', key);
				const jwk = await subtle.exportKey('jwk', key);
				const line = [name, key.algorithm.name, key.algorithm.length, raw.byteLength, jwk.alg];
				for (const [format, data] of [['raw', raw], ['jwk', jwk]]) {
					const k = await subtle.importKey(format, data, { name }, false, ['decrypt']);
					line.push(new TextDecoder().decode(await subtle.decrypt(params[name], k, ct)));
				}
				out.push(line.join(' '));
			}
		}
		return out;
	})()`)
	want := []string{}
	for _, m := range []string{"GCM", "CBC", "CTR"} {
		for _, l := range []string{"128 16", "192 24", "256 32"} {
			want = append(want, "AES-"+m+" AES-"+m+" "+l+" A"+strings.Fields(l)[0]+m+" seventeen bytes!! seventeen bytes!!")
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestAESGCMCrossGo checks that Go's GCM opens what crypto.subtle sealed
// with a 16-byte iv, and crypto.subtle opens what Go sealed.
func TestAESGCMCrossGo(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	iv := []byte("sixteen byte iv!")
	block, _ := aes.NewCipher(key)
	aead, _ := gocipher.NewGCMWithNonceSize(block, len(iv))
	sealed := aead.Seal(nil, iv, []byte("from Go"), []byte("ad"))
	got := lines(t, `await (async () => {
		const k = await subtle.importKey('raw', `+jsHex(key)+`, 'AES-GCM', false, ['encrypt', 'decrypt']);
		const p = { name: 'AES-GCM', iv: `+jsHex(iv)+`, additionalData: utf8('ad') };
		return [new TextDecoder().decode(await subtle.decrypt(p, k, `+jsHex(sealed)+`)), hex(await subtle.encrypt(p, k, utf8('from JS')))];
	})()`)
	if got[0] != "from Go" {
		t.Errorf("JS decrypted %q, want %q", got[0], "from Go")
	}
	ct, _ := hex.DecodeString(got[1])
	if plain, err := aead.Open(nil, iv, ct, []byte("ad")); err != nil || string(plain) != "from JS" {
		t.Errorf("Go opened %q (%v), want %q", plain, err, "from JS")
	}
}

// TestAESLengthConversion checks WebIDL's [EnforceRange] conversion of the
// length member, as k6 and browsers apply it: a numeric string is its
// number and a fraction is cut to its integer part.
func TestAESLengthConversion(t *testing.T) {
	got := runScript(t, `const lengths = [];
for (const length of ['256', 192.9, '128']) {
  const k = await subtle.generateKey({ name: 'AES-GCM', length }, true, ['encrypt']);
  lengths.push(k.algorithm.length);
}
return lengths.join(',');`)
	if got != "256,192,128" {
		t.Errorf("key lengths %s, want 256,192,128", got)
	}
}
