package k6crypto_test

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
)

// Messages of the published test vectors.
const (
	alpha    = "abcdefghijklmnopqrstuvwxyz"
	alnum    = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	digits80 = "12345678901234567890123456789012345678901234567890123456789012345678901234567890"
	msg448   = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
	msg896   = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
)

// hashVectors are known answers: RFC 1320 (MD4) and RFC 1321 (MD5)
// appendices A.5, the FIPS 180 examples published by NIST (SHA-1, SHA-2),
// and the RIPEMD-160 paper's table.
var hashVectors = []struct{ alg, msg, hex string }{
	{"md4", "", "31d6cfe0d16ae931b73c59d7e0c089c0"},
	{"md4", "a", "bde52cb31de33e46245e05fbdbd6fb24"},
	{"md4", "abc", "a448017aaf21d8525fc10ae87aa6729d"},
	{"md4", "message digest", "d9130a8164549fe818874806e1c7014b"},
	{"md4", alpha, "d79e1c308aa5bbcdeea8ed63df412da9"},
	{"md4", alnum, "043f8582f241db351ce627e153e7f0e4"},
	{"md4", digits80, "e33b4ddc9c38f2199c3e7b164fcc0536"},
	{"md5", "", "d41d8cd98f00b204e9800998ecf8427e"},
	{"md5", "a", "0cc175b9c0f1b6a831c399e269772661"},
	{"md5", "abc", "900150983cd24fb0d6963f7d28e17f72"},
	{"md5", "message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
	{"md5", alpha, "c3fcd3d76192e4007dfb496cca67e13b"},
	{"md5", alnum, "d174ab98d277d9f5a5611c2c9f419d9f"},
	{"md5", digits80, "57edf4a22be3c955ac49da2e2107b67a"},
	{"sha1", "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
	{"sha1", msg448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
	{"sha256", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{"sha256", msg448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	{"sha384", "abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"},
	{"sha384", msg896, "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039"},
	{"sha512", "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
	{"sha512", msg896, "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"},
	{"sha512_224", "abc", "4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa"},
	{"sha512_224", msg896, "23fec5bb94d60b23308192640b0c453335d664734fe40e7268674af9"},
	{"sha512_256", "abc", "53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23"},
	{"sha512_256", msg896, "3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a"},
	{"ripemd160", "", "9c1185a5c5e9fc54612808977ee8f548b2258d31"},
	{"ripemd160", "a", "0bdc9d2d256b3ee9daae347be6f4dc835a467ffe"},
	{"ripemd160", "abc", "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"},
	{"ripemd160", "message digest", "5d0689ef49d2fae572b881b123a85ffa21595f36"},
	{"ripemd160", alpha, "f71c27109c692c1b56bbdceb5b9d2865b3708dbc"},
	{"ripemd160", msg448, "12a053384a9c0c88e405a06c27dcf49ada62eb2b"},
	{"ripemd160", alnum, "b0e20b6e3116640286ed3a87a5713079b21f5189"},
	{"ripemd160", digits80, "9b752e45573d4b39f4dbd3323cab82bf63326bfb"},
}

// TestHashVectors computes every known answer four ways: the one-shot
// function on a string and on an ArrayBuffer, the named export, and a
// Hasher fed in two chained updates.
func TestHashVectors(t *testing.T) {
	rt := newVU(t)
	for _, v := range hashVectors {
		_ = rt.Set("M", v.msg)
		_ = rt.Set("A", v.msg[:len(v.msg)/2])
		_ = rt.Set("B", v.msg[len(v.msg)/2:])
		alg := v.alg
		eval(t, rt, []struct{ expr, want string }{
			{"k6crypto." + alg + "(M, 'hex')", v.hex},
			{"k6crypto." + alg + "(ascii(M), 'hex')", v.hex},
			{"named." + alg + "(M, 'hex')", v.hex},
			{"k6crypto.createHash('" + alg + "').update(A).update(ascii(B)).digest('hex')", v.hex},
		})
	}
}

// hmacVectors are the known answers of RFC 2202 (HMAC-MD5, HMAC-SHA-1)
// and RFC 4231 (HMAC-SHA-2), test cases 1, 2, 3 and 6 (a key longer than
// the block); key and data are JavaScript expressions.
var hmacVectors = []struct{ name, alg, key, data, hex string }{
	{"RFC 2202 MD5 1", "md5", "rep(0x0b, 16)", "'Hi There'", "9294727a3638bb1c13f48ef8158bfc9d"},
	{"RFC 2202 MD5 2", "md5", "'Jefe'", "'what do ya want for nothing?'", "750c783e6ab0b503eaa86e310a5db738"},
	{"RFC 2202 MD5 3", "md5", "rep(0xaa, 16)", "rep(0xdd, 50)", "56be34521d144c88dbb8c733f0e8b3f6"},
	{"RFC 2202 MD5 6", "md5", "rep(0xaa, 80)", "'" + bigKey + "'", "6b1ab7fe4bd7bf8f0b62e6ce61b9d0cd"},
	{"RFC 2202 SHA1 1", "sha1", "rep(0x0b, 20)", "'Hi There'", "b617318655057264e28bc0b6fb378c8ef146be00"},
	{"RFC 2202 SHA1 2", "sha1", "'Jefe'", "'what do ya want for nothing?'", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"},
	{"RFC 2202 SHA1 3", "sha1", "rep(0xaa, 20)", "rep(0xdd, 50)", "125d7342b9ac11cd91a39af48aa17b4f63f175d3"},
	{"RFC 2202 SHA1 6", "sha1", "rep(0xaa, 80)", "'" + bigKey + "'", "aa4ae5e15272d00e95705637ce8a3b55ed402112"},
	{"RFC 4231 SHA256 1", "sha256", "rep(0x0b, 20)", "'Hi There'", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
	{"RFC 4231 SHA384 1", "sha384", "rep(0x0b, 20)", "'Hi There'", "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"},
	{"RFC 4231 SHA512 1", "sha512", "rep(0x0b, 20)", "'Hi There'", "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854"},
	{"RFC 4231 SHA256 2", "sha256", "'Jefe'", "'what do ya want for nothing?'", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
	{"RFC 4231 SHA384 2", "sha384", "'Jefe'", "'what do ya want for nothing?'", "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"},
	{"RFC 4231 SHA512 2", "sha512", "'Jefe'", "'what do ya want for nothing?'", "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737"},
	{"RFC 4231 SHA256 3", "sha256", "rep(0xaa, 20)", "rep(0xdd, 50)", "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
	{"RFC 4231 SHA512 3", "sha512", "rep(0xaa, 20)", "rep(0xdd, 50)", "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb"},
	{"RFC 4231 SHA256 6", "sha256", "rep(0xaa, 131)", "'" + bigKey + "'", "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
	{"RFC 4231 SHA512 6", "sha512", "rep(0xaa, 131)", "'" + bigKey + "'", "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598"},
}

// bigKey is the data of the test cases with a key larger than the block.
const bigKey = "Test Using Larger Than Block-Size Key - Hash Key First"

// TestHMACVectors computes every known answer with hmac and with a
// Hasher from createHMAC.
func TestHMACVectors(t *testing.T) {
	rt := newVU(t)
	for _, v := range hmacVectors {
		eval(t, rt, []struct{ expr, want string }{
			{"k6crypto.hmac('" + v.alg + "', " + v.key + ", " + v.data + ", 'hex')", v.hex},
			{"k6crypto.createHMAC('" + v.alg + "', " + v.key + ").update(" + v.data + ").digest('hex')", v.hex},
		})
	}
}

// TestOutputEncodings checks each output encoding of one digest, chosen so
// that its base64 text holds both + and /, against the standard library.
func TestOutputEncodings(t *testing.T) {
	rt := newVU(t)
	sum, _ := hex.DecodeString("7509e5bda0c762d2bac7f90d758b5b2263fa01ccbc542ab5e3df163be08e6ca9") // sha256('hello world!')
	std := base64.StdEncoding.EncodeToString(sum)
	if !strings.ContainsAny(std, "+/") || !strings.HasSuffix(std, "=") {
		t.Fatalf("the digest does not tell the alphabets apart: %s", std)
	}
	bin := make([]string, len(sum))
	for i, b := range sum {
		bin[i] = strconv.Itoa(int(b))
	}
	eval(t, rt, []struct{ expr, want string }{
		{"k6crypto.sha256('hello world!', 'hex')", hex.EncodeToString(sum)},
		{"k6crypto.sha256('hello world!', 'base64')", std},
		{"k6crypto.sha256('hello world!', 'base64url')", base64.URLEncoding.EncodeToString(sum)},
		{"k6crypto.sha256('hello world!', 'base64rawurl')", base64.RawURLEncoding.EncodeToString(sum)},
		{"k6crypto.sha256('hello world!', 'binary') instanceof ArrayBuffer", "true"},
		{"list(k6crypto.sha256('hello world!', 'binary'))", strings.Join(bin, ",")},
		{"k6crypto.sha256(new Uint8Array(ascii('>hello world!<')).subarray(1, 13), 'hex')", hex.EncodeToString(sum)},
		{"k6crypto.sha256('é', 'hex') === k6crypto.sha256(new Uint8Array([0xc3, 0xa9]).buffer, 'hex')", "true"},
	})
}

// TestHasherDigestsAlongTheWay checks that digest does not reset a
// Hasher: the digest after more updates covers all the data.
func TestHasherDigestsAlongTheWay(t *testing.T) {
	rt := newVU(t)
	eval(t, rt, []struct{ expr, want string }{
		{`(() => { const h = k6crypto.createHash('sha256'); h.update('hello '); const a = h.digest('hex');
			h.update('world!'); return [a === k6crypto.sha256('hello ', 'hex'), h.digest('hex') === h.digest('hex'),
			h.digest('base64') === k6crypto.sha256('hello world!', 'base64')].join(); })()`, "true,true,true"},
		{`(() => { const h = k6crypto.createHMAC('sha1', 'Jefe'); h.update('what do ya '); h.digest('hex');
			h.update('want for nothing?'); return h.digest('hex'); })()`, "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"},
	})
}

// TestRandomBytes checks the size and type of randomBytes and that two
// calls differ (equal 32-byte draws have probability 2^-256).
func TestRandomBytes(t *testing.T) {
	rt := newVU(t)
	eval(t, rt, []struct{ expr, want string }{
		{"k6crypto.randomBytes(32) instanceof ArrayBuffer", "true"},
		{"k6crypto.randomBytes(32).byteLength", "32"},
		{"k6crypto.randomBytes(0).byteLength", "0"},
		{"list(k6crypto.randomBytes(32)) !== list(k6crypto.randomBytes(32))", "true"},
		{"named.randomBytes(3).byteLength", "3"},
	})
}

// TestErrors checks that bad arguments throw a TypeError whose message
// names the function, the parameter and the bad value.
func TestErrors(t *testing.T) {
	rt := newVU(t)
	cases := []struct{ expr, want string }{
		{"k6crypto.sha256('x', 'base32')", `TypeError: sha256: unknown output encoding "base32": use "base64", "base64rawurl", "base64url", "binary" or "hex"`},
		{"k6crypto.md5('x')", "md5: unknown output encoding undefined"},
		{"k6crypto.sha1(42, 'hex')", "TypeError: sha1: input must be a string or an ArrayBuffer, not number"},
		{"k6crypto.ripemd160({}, 'hex')", "ripemd160: input must be a string or an ArrayBuffer, not Object"},
		{"k6crypto.hmac('sha3', 'k', 'd', 'hex')", `TypeError: hmac: unknown algorithm "sha3": use "md4", "md5", "ripemd160", "sha1", "sha256", "sha384", "sha512", "sha512_224" or "sha512_256"`},
		{"k6crypto.hmac('sha256', null, 'd', 'hex')", "hmac: secret must be a string or an ArrayBuffer, not null"},
		{"k6crypto.hmac('sha256', 'k', [1], 'hex')", "hmac: data must be a string or an ArrayBuffer, not Array"},
		{"k6crypto.hmac('sha256', 'k', 'd', 'HEX')", `hmac: unknown output encoding "HEX"`},
		{"k6crypto.createHash('SHA-256')", `createHash: unknown algorithm "SHA-256"`},
		{"k6crypto.createHash()", "createHash: unknown algorithm undefined"},
		{"k6crypto.createHMAC('sha256')", "createHMAC: secret must be a string or an ArrayBuffer, not undefined"},
		{"k6crypto.createHash('md5').update(7)", "createHash(…).update: input must be a string or an ArrayBuffer, not number"},
		{"k6crypto.createHMAC('md5', 'k').digest('b64')", `createHMAC(…).digest: unknown output encoding "b64"`},
		{"k6crypto.randomBytes(-1)", "TypeError: randomBytes: size must be an integer from 0 to 67108864, not -1"},
		{"k6crypto.randomBytes(1.5)", "not 1.5"},
		{"k6crypto.randomBytes('8')", `not "8"`},
		{"k6crypto.randomBytes(1e12)", "not 1000000000000"},
	}
	for _, c := range cases {
		_, err := rt.RunString(c.expr)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want it to contain %q", c.expr, err, c.want)
		}
	}
}
