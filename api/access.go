package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// access decides which requests reach the routes: those naming the API's
// own address in Host, sent by no web page of another origin, and, when a
// token is set, carrying it. It defends the run against the web pages its
// operator opens (CSRF, DNS rebinding) and, with a token, against anyone
// else who can reach the port.
type access struct {
	// anyHost is set when the API listens on an unspecified address
	// (0.0.0.0, ::): it is reached by names it cannot know (a pod's IP, a
	// Service), so Host is not checked.
	anyHost bool
	// loopback is set when it listens on a loopback address: Host may be
	// localhost or any loopback IP.
	loopback bool
	// ip is the address it listens on; name the host name of --address
	// when it was a name ("" for an IP); port its port.
	ip   netip.Addr
	name string
	port string
	// tokenSum is the SHA-256 of the token; nil when no token is set.
	tokenSum []byte
	log      *refusalLog
}

// newAccess returns the rules of an API listening on bound (the listener's
// address) after being asked for addr (--address, which may name a host),
// with token ("" for none); refusals are noted in log.
func newAccess(addr string, bound net.Addr, token string, log *refusalLog) *access {
	a := &access{log: log}
	tcp, _ := bound.(*net.TCPAddr)
	if tcp != nil {
		a.ip, _ = netip.AddrFromSlice(tcp.IP)
		a.ip = a.ip.Unmap()
		a.port = fmt.Sprint(tcp.Port)
	}
	a.anyHost = !a.ip.IsValid() || a.ip.IsUnspecified()
	a.loopback = a.ip.IsLoopback()
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if _, err := netip.ParseAddr(host); err != nil {
			a.name = strings.ToLower(strings.TrimSuffix(host, "."))
		}
	}
	if token != "" {
		sum := sha256.Sum256([]byte(token))
		a.tokenSum = sum[:]
	}
	return a
}

// warnings returns, for an API listening on addr beyond this machine (not
// on a loopback address) without a token, the warning that anyone who
// reaches it may steer the run.
func (a *access) warnings(addr string) []string {
	if a.loopback || a.tokenSum != nil {
		return nil
	}
	return []string{"the REST API on " + addr + " is reachable beyond this machine and takes no token: " +
		"anyone who reaches it can stop the test or read the setup data; set K6_API_TOKEN (or --api-token), or listen on 127.0.0.1"}
}

// wrap returns next behind the checks: a Host the API does not answer to
// and a request from another web origin are refused with 403, a request
// without the token (when one is set) with 401; GET /ping needs no token.
func (a *access) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := a.checkHost(r.Host); err != nil {
			a.refuse(w, r, http.StatusForbidden, "Forbidden", err.Error())
			return
		}
		if err := checkOrigin(r); err != nil {
			a.refuse(w, r, http.StatusForbidden, "Forbidden", err.Error())
			return
		}
		if a.tokenSum != nil && !isPing(r) && !a.authorized(r.Header.Get("Authorization")) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="usefullatency"`)
			a.refuse(w, r, http.StatusUnauthorized, "Unauthorized",
				"this REST API needs the header Authorization: Bearer <token> (--api-token, K6_API_TOKEN)")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refuse answers a refused request and notes it.
func (a *access) refuse(w http.ResponseWriter, r *http.Request, status int, title, detail string) {
	a.log.note(r, status, detail)
	writeError(w, status, title, detail)
}

// checkHost accepts a Host header that names the API: any when it listens
// on an unspecified address; else its port (80 when Host has none) and
// its IP, the host name it was given, or, on loopback, localhost and the
// loopback IPs.
func (a *access) checkHost(hostport string) error {
	if a.anyHost {
		return nil
	}
	host, port := hostport, "80"
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		host, port = h, p
	}
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if port == a.port && a.namesAPI(host) {
		return nil
	}
	return fmt.Errorf("the Host header %q does not name the address this REST API listens on (%s)", hostport,
		net.JoinHostPort(a.ip.String(), a.port))
}

// namesAPI reports whether host, lower case without brackets, names the
// API's address.
func (a *access) namesAPI(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		ip = ip.Unmap()
		return ip == a.ip || (a.loopback && ip.IsLoopback())
	}
	return host != "" && (host == a.name || (a.loopback && host == "localhost"))
}

// checkOrigin refuses a request a web page of another origin sent: a
// Sec-Fetch-Site other than same-origin or none (the user's own
// navigation), or an Origin other than http://<Host> ("null" included).
// Requests without either header come from programs, not pages.
func checkOrigin(r *http.Request) error {
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return fmt.Errorf("a %s request from a web page (Sec-Fetch-Site %q) is not accepted", r.Method, site)
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || !strings.EqualFold(u.Host, r.Host) {
		return fmt.Errorf("a %s request from the web page of origin %q is not accepted", r.Method, origin)
	}
	return nil
}

// isPing reports whether r is GET or HEAD /ping, the liveness probe, which
// needs no token.
func isPing(r *http.Request) bool {
	return r.URL.Path == "/ping" && (r.Method == http.MethodGet || r.Method == http.MethodHead)
}

// authorized compares the bearer token of header with the API's in
// constant time (both hashed, so neither length shows).
func (a *access) authorized(header string) bool {
	scheme, token, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(token)))
	return subtle.ConstantTimeCompare(sum[:], a.tokenSum) == 1
}
