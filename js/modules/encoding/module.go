// Package k6encoding is the "k6/encoding" JavaScript module: base64
// encoding and decoding (RFC 4648) of strings and ArrayBuffers in the four
// alphabets k6 names std, rawstd, url and rawurl. The package is named
// after the module's import path, like k6metrics.
package k6encoding

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/encoding"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newEncoding) }
