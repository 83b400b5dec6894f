package modules

import (
	"crypto/tls"
	"encoding/json"

	"github.com/usefullatency/usefullatency/internal/netstack"
	"github.com/usefullatency/usefullatency/options"
)

// Network is what both HTTP clients of a VU, k6/http and the streaming
// probe, take from the run's options: one dialer, one TLS configuration,
// one User-Agent and the run's rps limit.
type Network struct {
	// Dialer applies hosts, blockHostnames, blacklistIPs, dns (through the
	// run's shared resolver) and the VU's localIPs address.
	Dialer *netstack.Dialer
	// TLS applies insecureSkipTLSVerify, tlsVersion, tlsCipherSuites and
	// tlsAuth; the clients put the request's host in its context with
	// netstack.WithServerName.
	TLS *tls.Config
	// UserAgent is the userAgent option; UserAgentSet says whether the
	// options hold one ("" then means no User-Agent).
	UserAgent    string
	UserAgentSet bool
	// RateLimit is the run's rps limit, shared by its VUs; nil for none.
	RateLimit *netstack.RateLimit
	// HTTPDebug is the httpDebug option: "", "headers" or "full".
	HTTPDebug string
	// NoConnectionReuse closes each connection after its request
	// (noConnectionReuse); NoVUConnectionReuse closes the VU's idle
	// connections at each iteration's first request (noVUConnectionReuse).
	NoConnectionReuse, NoVUConnectionReuse bool
}

// Network returns the network settings of VU vuID (from 1) from the run's
// consolidated options; a nil run gives the defaults. The options package
// validated the options, so values that do not convert are skipped.
func (r *Run) Network(vuID int64) Network {
	if r == nil {
		return Network{Dialer: netstack.NewDialer(netstack.Config{}, nil), TLS: netstack.TLS{}.Config()}
	}
	n := Network{Dialer: netstack.NewDialer(r.dialConfig(vuID), r.resolver()), TLS: r.tlsSettings().Config()}
	n.UserAgent, n.UserAgentSet = r.Options["userAgent"].(string)
	n.HTTPDebug, _ = r.Options["httpDebug"].(string)
	n.NoConnectionReuse, _ = r.Options["noConnectionReuse"].(bool)
	n.NoVUConnectionReuse, _ = r.Options["noVUConnectionReuse"].(bool)
	n.RateLimit = r.rateLimit()
	return n
}

// dialConfig reads hosts, blockHostnames, blacklistIPs and localIPs.
func (r *Run) dialConfig(vuID int64) netstack.Config {
	var c netstack.Config
	var blacklist []string
	var local string
	DecodeOption(r.Options, "hosts", &c.Hosts)
	DecodeOption(r.Options, "blockHostnames", &c.BlockHostnames)
	DecodeOption(r.Options, "blacklistIPs", &blacklist)
	DecodeOption(r.Options, "localIPs", &local)
	c.BlacklistIPs, _ = netstack.ParseBlacklist(blacklist)
	if ips, err := netstack.ParseLocalIPs(local); err == nil {
		c.LocalAddr = ips.ForVU(vuID)
	}
	return c
}

// resolver returns the run's resolver of the dns option, built on first
// use and shared by every VU (and both clients), as k6 shares its cache.
func (r *Run) resolver() *netstack.Resolver {
	v, _ := r.Shared.GetOrBuild("netstack.resolver", func() (any, error) {
		var o options.DNS
		DecodeOption(r.Options, "dns", &o)
		dns, err := netstack.ParseDNS(o.TTL, o.Select, o.Policy)
		if err != nil {
			dns = netstack.DefaultDNS
		}
		return netstack.NewResolver(dns, nil), nil
	})
	return v.(*netstack.Resolver)
}

// rateLimit returns the run's rps limit, shared by every VU; nil for none.
func (r *Run) rateLimit() *netstack.RateLimit {
	rps, ok := r.IntOption("rps")
	if !ok || rps <= 0 {
		return nil
	}
	v, _ := r.Shared.GetOrBuild("netstack.rps", func() (any, error) {
		return netstack.NewRateLimit(float64(rps)), nil
	})
	return v.(*netstack.RateLimit)
}

// tlsSettings reads insecureSkipTLSVerify, tlsVersion, tlsCipherSuites
// and tlsAuth.
func (r *Run) tlsSettings() netstack.TLS {
	t := netstack.TLS{InsecureSkipVerify: r.InsecureSkipTLSVerify}
	var versions *options.TLSVersions
	var suites []string
	var auth []options.TLSAuth
	DecodeOption(r.Options, "tlsVersion", &versions)
	DecodeOption(r.Options, "tlsCipherSuites", &suites)
	DecodeOption(r.Options, "tlsAuth", &auth)
	if versions != nil {
		t.MinVersion, _ = options.TLSVersionID(versions.Min)
		t.MaxVersion, _ = options.TLSVersionID(versions.Max)
	}
	for _, name := range suites {
		if id, err := options.CipherSuiteID(name); err == nil {
			t.CipherSuites = append(t.CipherSuites, id)
		}
	}
	for _, a := range auth {
		if cert, err := tls.X509KeyPair([]byte(a.Cert), []byte(a.Key)); err == nil {
			t.ClientCerts = append(t.ClientCerts, netstack.ClientCert{Cert: cert, Domains: a.Domains})
		}
	}
	return t
}

// DecodeOption reads the option opts holds under name, in its JSON form,
// into dst; an absent option leaves dst alone.
func DecodeOption[T any](opts map[string]any, name string, dst *T) {
	v, ok := opts[name]
	if !ok || v == nil {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		_ = json.Unmarshal(b, dst)
	}
}
