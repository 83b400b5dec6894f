package options

import (
	"fmt"
	"maps"
	"slices"

	"github.com/usefullatency/usefullatency/internal/netstack"
)

// DNS is k6's dns option: how long resolved addresses are cached (TTL:
// "inf", "0" or a duration), which of several addresses is used (Select:
// first, random or roundRobin) and which IP versions (Policy: preferIPv4,
// preferIPv6, onlyIPv4, onlyIPv6 or any). Empty fields are unset.
type DNS struct {
	TTL    string `json:"ttl,omitempty"`
	Select string `json:"select,omitempty"`
	Policy string `json:"policy,omitempty"`
}

// dnsChoices lists the values each DNS field accepts; nil accepts any.
var dnsChoices = map[string][]string{
	"ttl":    nil,
	"select": {"first", "random", "roundRobin"},
	"policy": {"preferIPv4", "preferIPv6", "onlyIPv4", "onlyIPv6", "any"},
}

// parseDNS reads the fields of a dns option, by name.
func parseDNS(fields map[string]string) (*DNS, error) {
	d := &DNS{}
	for _, k := range sortedKeys(fields) {
		v := fields[k]
		choices, ok := dnsChoices[k]
		if !ok {
			return nil, fmt.Errorf("unknown field %q: want ttl, select or policy", k)
		}
		if choices != nil && !slices.Contains(choices, v) {
			return nil, fmt.Errorf("%s: invalid value %q: want %s", k, v, quoteAll(choices))
		}
		switch k {
		case "ttl":
			if _, err := netstack.ParseTTL(v); err != nil {
				return nil, fmt.Errorf("ttl: invalid value %q: want \"inf\", milliseconds or a duration such as \"5m\"", v)
			}
			d.TTL = v
		case "select":
			d.Select = v
		case "policy":
			d.Policy = v
		}
	}
	return d, nil
}

// dnsOption reads dns from "ttl=1m,select=random,policy=any" or from a
// script object {ttl, select, policy}; ttl may be a number of
// milliseconds in a script.
func dnsOption() k6Option {
	return k6Option{
		name: "dns", env: "K6_DNS",
		text: func(o *Options, s string) error {
			fields, err := pairs(s)
			if err == nil {
				o.DNS, err = parseDNS(fields)
			}
			return err
		},
		js: func(o *Options, v any) error {
			obj, err := toObject(v)
			if err != nil {
				return err
			}
			fields := make(map[string]string, len(obj))
			for k, x := range obj {
				fields[k] = fmt.Sprint(x)
			}
			o.DNS, err = parseDNS(fields)
			return err
		},
		merge: func(o *Options, h Options) {
			if h.DNS != nil {
				o.DNS = h.DNS
			}
		},
	}
}

// hostsOption reads hosts, overrides of name resolution, from
// "name=address,..." or a script object {name: address}. Higher layers
// merge name by name.
func hostsOption() k6Option {
	return k6Option{
		name: "hosts", env: "K6_HOSTS",
		text: func(o *Options, s string) (err error) { o.Hosts, err = pairs(s); return err },
		js:   func(o *Options, v any) (err error) { o.Hosts, err = toStringMap(v); return err },
		merge: func(o *Options, h Options) {
			if len(h.Hosts) > 0 {
				merged := maps.Clone(o.Hosts)
				if merged == nil {
					merged = map[string]string{}
				}
				maps.Copy(merged, h.Hosts)
				o.Hosts = merged
			}
		},
	}
}
