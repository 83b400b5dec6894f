package k6crypto

import (
	"crypto/hmac"
	"crypto/rand"
	"hash"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
)

// maxRandomBytes is the largest size randomBytes accepts: 64 MiB, far
// more than a script needs and small enough that a typo cannot exhaust
// memory.
const maxRandomBytes = 64 << 20

// module is the "k6/crypto" module of one VU.
type module struct{ rt *sobek.Runtime }

// newCrypto instantiates the "k6/crypto" module in vu.
func newCrypto(vu modules.VU) modules.Instance {
	m := &module{rt: vu.Runtime()}
	named := map[string]any{
		"createHash":  m.createHash,
		"createHMAC":  m.createHMAC,
		"hmac":        m.hmac,
		"randomBytes": m.randomBytes,
	}
	for name, alg := range algorithms {
		named[name] = m.oneShot(name, alg)
	}
	return modules.Static{Default: named, Named: named}
}

// oneShot returns the function name(input, outputEncoding): the digest of
// input by the algorithm alg.
func (m *module) oneShot(name string, alg func() hash.Hash) func(sobek.FunctionCall) sobek.Value {
	return func(call sobek.FunctionCall) sobek.Value {
		data := m.bytes(name, "input", call.Argument(0))
		out := m.output(name, call.Argument(1))
		h := alg()
		h.Write(data)
		return out(m.rt, h.Sum(nil))
	}
}

// hmac is hmac(algorithm, secret, data, outputEncoding): the HMAC (RFC
// 2104) of data keyed by secret.
func (m *module) hmac(call sobek.FunctionCall) sobek.Value {
	alg := m.algorithm("hmac", call.Argument(0))
	secret := m.bytes("hmac", "secret", call.Argument(1))
	data := m.bytes("hmac", "data", call.Argument(2))
	out := m.output("hmac", call.Argument(3))
	h := hmac.New(alg, secret)
	h.Write(data)
	return out(m.rt, h.Sum(nil))
}

// createHash is createHash(algorithm): a Hasher of the algorithm.
func (m *module) createHash(call sobek.FunctionCall) sobek.Value {
	return m.hasher("createHash", m.algorithm("createHash", call.Argument(0))())
}

// createHMAC is createHMAC(algorithm, secret): a Hasher of the HMAC of the
// algorithm keyed by secret.
func (m *module) createHMAC(call sobek.FunctionCall) sobek.Value {
	alg := m.algorithm("createHMAC", call.Argument(0))
	secret := m.bytes("createHMAC", "secret", call.Argument(1))
	return m.hasher("createHMAC", hmac.New(alg, secret))
}

// randomBytes is randomBytes(size): an ArrayBuffer of size bytes from the
// operating system's cryptographically secure random source.
func (m *module) randomBytes(call sobek.FunctionCall) sobek.Value {
	arg := call.Argument(0)
	n := arg.ToFloat()
	if !sobek.IsNumber(arg) || n != float64(int64(n)) || n < 0 || n > maxRandomBytes {
		panic(m.rt.NewTypeError("randomBytes: size must be an integer from 0 to %d, not %s", maxRandomBytes, describe(arg)))
	}
	buf := make([]byte, int(n))
	_, _ = rand.Read(buf) // never fails (crypto/rand)
	return m.rt.ToValue(m.rt.NewArrayBuffer(buf))
}
