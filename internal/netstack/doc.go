// Package netstack is the network layer both HTTP clients share, k6/http
// and the streaming probe: a Dialer that applies k6's hosts,
// blockHostnames, blacklistIPs, dns and localIPs options, the caching
// Resolver behind it, and the TLS configuration of the tlsVersion,
// tlsCipherSuites, tlsAuth and insecureSkipTLSVerify options.
//
// It takes plain Go values: the callers read the run's options and convert
// them (js/modules.NetStack does it for both modules).
package netstack
