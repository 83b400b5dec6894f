package webcrypto_test

import "testing"

// TestDigest checks the FIPS 180 answers for "abc" and the empty message,
// with the input as an ArrayBuffer, a typed array, a subarray and a
// DataView, and the algorithm as a string or an object in any letter case.
func TestDigest(t *testing.T) {
	checkVectors(t, []vector{
		{"SHA-1 abc", `subtle.digest('SHA-1', utf8('abc'))`, "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"SHA-256 abc", `subtle.digest({ name: 'sha-256' }, utf8('abc').buffer)`,
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"SHA-384 abc", `subtle.digest('SHA-384', new DataView(utf8('xabcx').buffer, 1, 3))`,
			"cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"},
		{"SHA-512 abc", `subtle.digest('SHA-512', utf8('xxabc').subarray(2))`,
			"ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
		{"SHA-256 empty", `subtle.digest('SHA-256', new ArrayBuffer(0))`,
			"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	})
}
