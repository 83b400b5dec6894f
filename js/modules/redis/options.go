package k6redis

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math"
	"net"
	"strconv"
	"time"

	"github.com/grafana/sobek"
	"github.com/redis/go-redis/v9"
)

// errNotSingleNode is the error of options that name a cluster or a
// sentinel: this build connects to one server only.
var errNotSingleNode = errors.New("only single-node servers are supported: cluster and sentinel options (cluster, masterName, sentinelUsername, sentinelPassword, several addrs) are not")

// config is what new Client() read: go-redis options without a dialer
// (the VU's network settings are known at the first command only) and the
// TLS material of socket.tls.
type config struct {
	opts *redis.Options
	// tls says whether the connection uses TLS (rediss:// or socket.tls).
	tls bool
	// rootCAs are socket.tls.ca's certificates; nil for the VU's defaults.
	rootCAs *x509.CertPool
	// certs is socket.tls's client certificate, if any.
	certs []tls.Certificate
}

// parseConfig reads the constructor's argument: a URL string
// redis[s]://[[user][:password]@][host][:port][/db] or an options object
// (exported to Go).
func parseConfig(spec any) (*config, error) {
	switch s := spec.(type) {
	case string:
		o, err := redis.ParseURL(s)
		if err != nil {
			return nil, err
		}
		c := &config{opts: o, tls: o.TLSConfig != nil}
		o.TLSConfig = nil
		return c, nil
	case map[string]any:
		return parseOptions(s)
	}
	return nil, errors.New("the argument must be a redis[s]:// URL string or an options object")
}

// parseOptions reads an options object: socket {host, port, tls,
// timeouts, pool sizes}, username, password, clientName and database.
// Timeouts are in milliseconds.
func parseOptions(m map[string]any) (*config, error) {
	for _, k := range []string{"cluster", "masterName", "sentinelUsername", "sentinelPassword"} {
		if v, ok := m[k]; ok && v != nil {
			return nil, errNotSingleNode
		}
	}
	o := &redis.Options{}
	c := &config{opts: o}
	var err error
	if o.Username, err = str(m, "username"); err != nil {
		return nil, err
	}
	if o.Password, err = str(m, "password"); err != nil {
		return nil, err
	}
	if o.ClientName, err = str(m, "clientName"); err != nil {
		return nil, err
	}
	if o.DB, err = integer(m, "database"); err != nil {
		return nil, err
	}
	if addrs, ok := m["addrs"].([]any); ok { // k6 0.47's option
		if len(addrs) != 1 {
			return nil, errNotSingleNode
		}
		a, ok := addrs[0].(string)
		if !ok {
			return nil, errors.New("addrs must hold host:port strings")
		}
		o.Addr = a
		return c, nil
	}
	sock, ok := m["socket"].(map[string]any)
	if !ok {
		return nil, errors.New("options.socket must be an object with a host")
	}
	return c, c.socket(sock)
}

// socket reads options.socket.
func (c *config) socket(m map[string]any) error {
	o := c.opts
	host, err := str(m, "host")
	if err != nil {
		return err
	}
	if host == "" {
		return errors.New("options.socket.host is required")
	}
	port, err := integer(m, "port")
	if err != nil {
		return err
	}
	if port == 0 {
		port = 6379
	}
	o.Addr = net.JoinHostPort(host, strconv.Itoa(port))
	for name, d := range map[string]*time.Duration{
		"dialTimeout": &o.DialTimeout, "readTimeout": &o.ReadTimeout, "writeTimeout": &o.WriteTimeout,
		"poolTimeout": &o.PoolTimeout, "idleTimeout": &o.ConnMaxIdleTime, "maxConnAge": &o.ConnMaxLifetime,
	} {
		ms, err := integer(m, name)
		if err != nil {
			return err
		}
		if ms != 0 {
			*d = time.Duration(ms) * time.Millisecond
		}
	}
	if o.PoolSize, err = integer(m, "poolSize"); err != nil {
		return err
	}
	if o.MinIdleConns, err = integer(m, "minIdleConns"); err != nil {
		return err
	}
	if t, ok := m["tls"].(map[string]any); ok {
		return c.tlsOptions(t)
	}
	return nil
}

// tlsOptions reads socket.tls: ca (an array of PEM certificates), cert and
// key (a PEM client certificate and its key), each a string or an
// ArrayBuffer.
func (c *config) tlsOptions(m map[string]any) error {
	c.tls = true
	if cas, ok := m["ca"].([]any); ok && len(cas) > 0 {
		c.rootCAs = x509.NewCertPool()
		for _, ca := range cas {
			pem, ok := pemBytes(ca)
			if !ok || !c.rootCAs.AppendCertsFromPEM(pem) {
				return errors.New("socket.tls.ca must hold PEM certificates")
			}
		}
	}
	cert, hasCert := pemBytes(m["cert"])
	key, hasKey := pemBytes(m["key"])
	if hasCert != hasKey {
		return errors.New("socket.tls.cert and socket.tls.key go together")
	}
	if hasCert {
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return fmt.Errorf("socket.tls: %w", err)
		}
		c.certs = []tls.Certificate{pair}
	}
	return nil
}

// pemBytes returns a string's or an ArrayBuffer's bytes.
func pemBytes(v any) ([]byte, bool) {
	switch b := v.(type) {
	case string:
		return []byte(b), true
	case sobek.ArrayBuffer:
		return b.Bytes(), true
	case []byte:
		return b, true
	}
	return nil, false
}

// str returns m[k] as a string; "" when absent.
func str(m map[string]any, k string) (string, error) {
	switch v := m[k].(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	}
	return "", fmt.Errorf("%s must be a string", k)
}

// integer returns m[k] as a non-negative integer; 0 when absent.
func integer(m map[string]any, k string) (int, error) {
	var f float64
	switch v := m[k].(type) {
	case nil:
		return 0, nil
	case int64:
		f = float64(v)
	case float64:
		f = v
	default:
		return 0, fmt.Errorf("%s must be a number", k)
	}
	if f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, fmt.Errorf("%s must be a non-negative integer, got %v", k, f)
	}
	return int(f), nil
}
