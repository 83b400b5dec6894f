package k6websockets

import (
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

// Params are the params of a WebSocket constructor or of ws.connect:
// headers, tags, jar, compression and this build's maxMessageSize.
type Params struct {
	Header http.Header
	// Jar is the jar param's (null: none); JarSet says whether the
	// params set one. Without, the handshake uses the VU's jar.
	Jar    http.CookieJar
	JarSet bool
	// Tags are the params' own tags, added to the VU's.
	Tags metrics.Tags
	// Compression offers permessage-deflate ('deflate').
	Compression bool
	// MaxMessageSize, in bytes; 0 is wsconn.DefaultMaxMessageSize.
	MaxMessageSize int64
}

// paramKeys are the params a script may set.
var paramKeys = []string{"headers", "tags", "jar", "compression", "maxMessageSize"}

// ParseParams reads a params object (undefined and null are none) on
// vu's goroutine. module names the module in errors. An unknown param or
// a bad value is an error naming it.
func ParseParams(vu modules.VU, module string, v sobek.Value) (Params, error) {
	rt := vu.Runtime()
	p := Params{Header: http.Header{}, Tags: metrics.Tags{}}
	if isNullish(v) {
		return p, nil
	}
	obj := v.ToObject(rt)
	keys := obj.Keys()
	sort.Strings(keys)
	for _, k := range keys {
		val := obj.Get(k)
		if k == "jar" {
			if err := p.setJar(vu.State(), val); err != nil {
				return p, fmt.Errorf("%s: params.jar: %w", module, err)
			}
			continue
		}
		if isNullish(val) {
			continue
		}
		if err := p.apply(rt, k, val); err != nil {
			return p, fmt.Errorf("%s: params.%s: %w", module, k, err)
		}
	}
	return p, nil
}

// apply reads one param.
func (p *Params) apply(rt *sobek.Runtime, key string, v sobek.Value) error {
	switch key {
	case "headers":
		return eachString(rt, v, func(k, val string) { p.Header.Set(k, val) })
	case "tags":
		p.Tags = modules.MergeTags(rt, p.Tags, []sobek.Value{v})
	case "compression":
		switch c := strings.TrimSpace(v.String()); c {
		case "deflate":
			p.Compression = true
		case "":
		default:
			return fmt.Errorf("unsupported compression %q: only 'deflate' is", c)
		}
	case "maxMessageSize":
		n, err := sse.ParseByteSize(v.String())
		if err != nil || n <= 0 {
			return fmt.Errorf("want a positive size like '16MiB' or a number of bytes, got %s", v.String())
		}
		p.MaxMessageSize = int64(n)
	default:
		return fmt.Errorf("unknown param: want one of %s", strings.Join(paramKeys, ", "))
	}
	return nil
}

// setJar reads the jar param: a CookieJar of k6/http, or null for none.
func (p *Params) setJar(st *modules.State, v sobek.Value) error {
	if v == nil || sobek.IsUndefined(v) {
		return nil
	}
	p.JarSet = true
	if sobek.IsNull(v) {
		return nil
	}
	if st.CookieJarOf != nil {
		if j, ok := st.CookieJarOf(v.Export()); ok {
			p.Jar = j
			return nil
		}
	}
	return errors.New("want a CookieJar of k6/http (http.cookieJar() or new http.CookieJar()) or null")
}

// eachString calls set with every property of the object v, values read
// as strings.
func eachString(rt *sobek.Runtime, v sobek.Value, set func(k, v string)) error {
	if _, ok := v.Export().(map[string]any); !ok {
		return fmt.Errorf("want an object, got %s", v.String())
	}
	obj := v.ToObject(rt)
	for _, k := range obj.Keys() {
		set(k, obj.Get(k).String())
	}
	return nil
}

// isNullish reports undefined and null (and a missing value).
func isNullish(v sobek.Value) bool {
	return v == nil || sobek.IsUndefined(v) || sobek.IsNull(v)
}
