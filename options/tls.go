package options

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// TLSVersions is k6's tlsVersion option: the oldest and newest TLS
// versions a client offers, by k6's names ("tls1.2"). A script gives one
// name (both ends) or {min, max}; an empty end is Go's default.
type TLSVersions struct {
	Min string `json:"min,omitempty"`
	Max string `json:"max,omitempty"`
}

// UnmarshalJSON reads {min, max} or one version name, as scripts give it.
func (v *TLSVersions) UnmarshalJSON(b []byte) error {
	var name string
	if json.Unmarshal(b, &name) == nil {
		*v = TLSVersions{Min: name, Max: name}
		return nil
	}
	type fields TLSVersions
	return json.Unmarshal(b, (*fields)(v))
}

// TLSAuth is one entry of k6's tlsAuth option: a client certificate and
// its key, PEM encoded, and the host names it is presented to (wildcards
// such as "*.example.com" allowed; none means every host).
type TLSAuth struct {
	Cert    string   `json:"cert"`
	Key     string   `json:"key"`
	Domains []string `json:"domains,omitempty"`
}

// tlsVersionIDs maps k6's TLS version names to Go's.
var tlsVersionIDs = map[string]uint16{
	"tls1.0": tls.VersionTLS10, "tls1.1": tls.VersionTLS11, "tls1.2": tls.VersionTLS12, "tls1.3": tls.VersionTLS13,
}

// TLSVersionID returns Go's number of a TLS version name, 0 for "".
func TLSVersionID(name string) (uint16, error) {
	if name == "" {
		return 0, nil
	}
	id, ok := tlsVersionIDs[name]
	if !ok {
		return 0, fmt.Errorf("unknown TLS version %q: want tls1.0, tls1.1, tls1.2 or tls1.3", name)
	}
	return id, nil
}

// CipherSuiteID returns Go's number of a cipher suite name
// ("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256").
func CipherSuiteID(name string) (uint16, error) {
	for _, s := range slices.Concat(tls.CipherSuites(), tls.InsecureCipherSuites()) {
		if s.Name == name {
			return s.ID, nil
		}
	}
	return 0, fmt.Errorf("unknown cipher suite %q", name)
}

// parseTLSVersion reads tlsVersion: a name or {min, max}.
func parseTLSVersion(v any) (*TLSVersions, error) {
	var out TLSVersions
	if s, ok := v.(string); ok {
		out = TLSVersions{Min: s, Max: s}
	} else {
		obj, err := toObject(v)
		if err != nil {
			return nil, errors.New("want a TLS version such as \"tls1.2\" or {min, max}")
		}
		for k, x := range obj {
			s, err := toString(x)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			switch k {
			case "min":
				out.Min = s
			case "max":
				out.Max = s
			default:
				return nil, fmt.Errorf("unknown field %q: want min or max", k)
			}
		}
	}
	lo, err := TLSVersionID(out.Min)
	if err != nil {
		return nil, err
	}
	hi, err := TLSVersionID(out.Max)
	if err != nil {
		return nil, err
	}
	if lo != 0 && hi != 0 && lo > hi {
		return nil, fmt.Errorf("min %s is above max %s", out.Min, out.Max)
	}
	return &out, nil
}

// parseCipherSuites reads tlsCipherSuites: a list of Go's suite names.
func parseCipherSuites(v any) ([]string, error) {
	list, err := toStringList(v)
	if err != nil {
		return nil, err
	}
	for _, name := range list {
		if _, err := CipherSuiteID(name); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// parseTLSAuth reads tlsAuth: a list of {cert, key, domains}, each pair
// checked to load. Encrypted keys (password) are refused.
func parseTLSAuth(v any) ([]TLSAuth, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("want a list of {cert, key, domains}")
	}
	out := make([]TLSAuth, 0, len(list))
	for i, x := range list {
		a, err := parseTLSAuthEntry(x)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// parseTLSAuthEntry reads one {cert, key, domains}.
func parseTLSAuthEntry(v any) (TLSAuth, error) {
	obj, err := toObject(v)
	if err != nil {
		return TLSAuth{}, err
	}
	var a TLSAuth
	for k, x := range obj {
		switch k {
		case "cert":
			a.Cert, err = toString(x)
		case "key":
			a.Key, err = toString(x)
		case "domains":
			a.Domains, err = toStringList(x)
		case "password":
			err = errors.New("encrypted private keys are not supported: give the key unencrypted")
		default:
			err = fmt.Errorf("unknown field %q: want cert, key or domains", k)
		}
		if err != nil {
			return TLSAuth{}, fmt.Errorf("%s: %w", k, err)
		}
	}
	if _, err := tls.X509KeyPair([]byte(a.Cert), []byte(a.Key)); err != nil {
		return TLSAuth{}, fmt.Errorf("cert and key: %s", strings.TrimPrefix(err.Error(), "tls: "))
	}
	return a, nil
}
