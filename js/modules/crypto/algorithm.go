package k6crypto

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"sort"
	"strings"

	//lint:ignore SA1019 k6/crypto offers MD4 for compatibility with k6 scripts, not for security.
	"golang.org/x/crypto/md4"
	//lint:ignore SA1019 k6/crypto offers RIPEMD-160 for compatibility with k6 scripts, not for security.
	"golang.org/x/crypto/ripemd160"
)

// algorithms are the hash functions by their k6 names. Each name is also a
// one-shot function of the module: md5(input, outputEncoding).
var algorithms = map[string]func() hash.Hash{
	"md4":        md4.New,
	"md5":        md5.New,
	"sha1":       sha1.New,
	"sha256":     sha256.New,
	"sha384":     sha512.New384,
	"sha512":     sha512.New,
	"sha512_224": sha512.New512_224,
	"sha512_256": sha512.New512_256,
	"ripemd160":  ripemd160.New,
}

// algorithmNames lists the names of algorithms for error messages.
var algorithmNames = quotedList(algorithms)

// quotedList returns the keys of m, quoted and sorted, as an English list:
// `"a", "b" or "c"`.
func quotedList[V any](m map[string]V) string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, `"`+n+`"`)
	}
	sort.Strings(names)
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
