package k6crypto

import (
	"hash"

	"github.com/grafana/sobek"
)

// hasher returns a Hasher object over h, made by the function fn:
// update(input) adds a string or an ArrayBuffer to the data and returns the
// Hasher (so calls chain), digest(outputEncoding) encodes the digest of
// the data so far and leaves the Hasher usable, so digests can be taken
// along the way.
func (m *module) hasher(fn string, h hash.Hash) *sobek.Object {
	obj := m.rt.NewObject()
	update := func(call sobek.FunctionCall) sobek.Value {
		h.Write(m.bytes(fn+"(…).update", "input", call.Argument(0)))
		return obj
	}
	digest := func(call sobek.FunctionCall) sobek.Value {
		out := m.output(fn+"(…).digest", call.Argument(0))
		return out(m.rt, h.Sum(nil))
	}
	_ = obj.Set("update", update)
	_ = obj.Set("digest", digest)
	return obj
}
