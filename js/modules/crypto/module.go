// Package k6crypto is the "k6/crypto" JavaScript module: one-shot hashes
// (md4, md5, sha1, the SHA-2 family, ripemd160), hmac, incremental hashers
// (createHash, createHMAC) and randomBytes. The package is named after the
// module's import path, like k6metrics.
package k6crypto

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/crypto"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newCrypto) }
