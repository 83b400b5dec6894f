package k6grpc

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"google.golang.org/grpc/metadata"
)

// Defaults of the params, as k6 documents them, and this build's limit of
// a received message.
const (
	// DefaultConnectTimeout bounds connect() when params.timeout is unset.
	DefaultConnectTimeout = 60 * time.Second
	// DefaultCallTimeout bounds a call or a stream when params.timeout is
	// unset.
	DefaultCallTimeout = 2 * time.Minute
	// DefaultMaxReceiveSize is the largest message a client accepts when
	// params.maxReceiveSize is unset or 0: grpc-go's 4 MiB. A larger
	// message fails its call with RESOURCE_EXHAUSTED.
	DefaultMaxReceiveSize = 4 << 20
)

// connectParams are the params of client.connect.
type connectParams struct {
	plaintext                   bool
	timeout                     time.Duration
	reflect                     bool
	reflectMetadata             metadata.MD
	maxReceiveSize, maxSendSize int
	authority                   string
	tls                         *tlsParams
}

// tlsParams are connect's tls param: a client certificate and key (PEM)
// and the CAs (PEM) that replace the system's.
type tlsParams struct {
	cert, key string
	cacerts   []string
}

// connectKeys are the params connect accepts.
var connectKeys = []string{"plaintext", "timeout", "reflect", "reflectMetadata", "maxReceiveSize", "maxSendSize", "authority", "tls"}

// parseConnectParams reads connect's params object; an unknown param or a
// bad value is an error naming it.
func parseConnectParams(rt *sobek.Runtime, v sobek.Value) (connectParams, error) {
	p := connectParams{timeout: DefaultConnectTimeout, maxReceiveSize: DefaultMaxReceiveSize}
	err := eachParam(rt, v, func(k string, val sobek.Value) error {
		var err error
		switch k {
		case "plaintext":
			p.plaintext = val.ToBoolean()
		case "reflect":
			p.reflect = val.ToBoolean()
		case "timeout":
			p.timeout, err = modules.PositiveDuration(val)
		case "reflectMetadata":
			p.reflectMetadata, err = parseMetadata(rt, val)
		case "maxReceiveSize":
			p.maxReceiveSize, err = size(val, DefaultMaxReceiveSize)
		case "maxSendSize":
			p.maxSendSize, err = size(val, 0)
		case "authority":
			p.authority = val.String()
		case "tls":
			p.tls, err = parseTLS(rt, val)
		default:
			return fmt.Errorf("unknown param: want one of %s", strings.Join(connectKeys, ", "))
		}
		return err
	})
	return p, err
}

// callParams are the params of invoke, asyncInvoke and Stream.
type callParams struct {
	metadata metadata.MD
	tags     metrics.Tags
	timeout  time.Duration
	// timeoutSet says whether the params set timeout: a stream has no
	// timeout unless they do.
	timeoutSet bool
	discard    bool
}

// callKeys are the params a call accepts.
var callKeys = []string{"metadata", "tags", "timeout", "discardResponseMessage"}

// parseCallParams reads a call's params object.
func parseCallParams(rt *sobek.Runtime, v sobek.Value) (callParams, error) {
	p := callParams{metadata: metadata.MD{}, timeout: DefaultCallTimeout}
	err := eachParam(rt, v, func(k string, val sobek.Value) error {
		var err error
		switch k {
		case "metadata":
			p.metadata, err = parseMetadata(rt, val)
		case "tags":
			p.tags = modules.MergeTags(rt, nil, []sobek.Value{val})
		case "timeout":
			p.timeout, err = modules.PositiveDuration(val)
			p.timeoutSet = true
		case "discardResponseMessage":
			p.discard = val.ToBoolean()
		default:
			return fmt.Errorf("unknown param: want one of %s", strings.Join(callKeys, ", "))
		}
		return err
	})
	return p, err
}

// eachParam calls set with every property of the params object v, sorted
// by name; undefined and null values are skipped, as is a nullish v. Its
// error names the param.
func eachParam(rt *sobek.Runtime, v sobek.Value, set func(k string, v sobek.Value) error) error {
	if isNullish(v) {
		return nil
	}
	if _, ok := v.(*sobek.Object); !ok {
		return fmt.Errorf("params must be an object, got %s", modules.TypeName(v))
	}
	obj := v.ToObject(rt)
	keys := obj.Keys()
	sort.Strings(keys)
	for _, k := range keys {
		val := obj.Get(k)
		if isNullish(val) {
			continue
		}
		if err := set(k, val); err != nil {
			return fmt.Errorf("params.%s: %w", k, err)
		}
	}
	return nil
}

// parseMetadata reads a metadata object: string values (an array of
// strings sends the key once per value); a key ending in "-bin" also takes
// an ArrayBuffer or a typed array, sent as binary (base64 on the wire).
// Keys are lowercased, as gRPC sends them.
func parseMetadata(rt *sobek.Runtime, v sobek.Value) (metadata.MD, error) {
	md := metadata.MD{}
	if _, ok := v.(*sobek.Object); !ok {
		return nil, fmt.Errorf("want an object, got %s", modules.TypeName(v))
	}
	obj := v.ToObject(rt)
	for _, k := range obj.Keys() {
		val := obj.Get(k)
		if strings.HasSuffix(strings.ToLower(k), "-bin") {
			if b, ok := modules.Bytes(rt, val); ok {
				md.Append(k, string(b))
				continue
			}
		}
		var list []string
		if _, isArr := val.Export().([]any); isArr && rt.ExportTo(val, &list) == nil {
			md.Append(k, list...)
			continue
		}
		md.Append(k, val.String())
	}
	return md, nil
}

// size reads a message size in bytes; 0 is def.
func size(v sobek.Value, def int) (int, error) {
	n := v.ToFloat()
	if math.IsNaN(n) || n < 0 || n > math.MaxInt32 || n != math.Trunc(n) {
		return 0, fmt.Errorf("want a whole number of bytes from 0 to %d, got %s", math.MaxInt32, v.String())
	}
	if n == 0 {
		return def, nil
	}
	return int(n), nil
}

// parseTLS reads connect's tls param: cert and key (PEM strings, both or
// neither) and cacerts (a PEM string or an array of them).
func parseTLS(rt *sobek.Runtime, v sobek.Value) (*tlsParams, error) {
	p := &tlsParams{}
	err := eachParam(rt, v, func(k string, val sobek.Value) error {
		switch k {
		case "cert":
			p.cert = val.String()
		case "key":
			p.key = val.String()
		case "cacerts":
			var list []string
			if rt.ExportTo(val, &list) != nil || sobek.IsString(val) {
				list = []string{val.String()}
			}
			p.cacerts = list
		case "password":
			return errors.New("encrypted keys are not supported: give the key decrypted")
		default:
			return errors.New("unknown param: want one of cert, key, cacerts")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if (p.cert == "") != (p.key == "") {
		return nil, errors.New("tls: cert and key go together")
	}
	return p, nil
}

// apply sets the client certificate and the CAs of p on cfg.
func (p *tlsParams) apply(cfg *tls.Config) error {
	if p.cert != "" {
		pair, err := tls.X509KeyPair([]byte(p.cert), []byte(p.key))
		if err != nil {
			return fmt.Errorf("tls: cert and key: %w", err)
		}
		cfg.Certificates = []tls.Certificate{pair}
		cfg.GetClientCertificate = nil
	}
	if len(p.cacerts) > 0 {
		pool := x509.NewCertPool()
		for _, pem := range p.cacerts {
			if !pool.AppendCertsFromPEM([]byte(pem)) {
				return errors.New("tls: cacerts holds no PEM certificate")
			}
		}
		cfg.RootCAs = pool
	}
	return nil
}

// isNullish reports undefined and null (and a missing value).
func isNullish(v sobek.Value) bool {
	return v == nil || sobek.IsUndefined(v) || sobek.IsNull(v)
}
