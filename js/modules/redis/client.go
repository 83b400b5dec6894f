package k6redis

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/grafana/sobek"
	"github.com/redis/go-redis/v9"
)

// errInit is the error of a command sent from the init context: as in k6,
// the client connects from the VU code only.
var errInit = errors.New("commands cannot be sent from the init context: call the client's methods in the VU code")

// errBadArg is the error of an argument Redis cannot take.
var errBadArg = errors.New("arguments must be strings, numbers or booleans, or arrays of them")

// client is one Client of one VU. Its go-redis client, and so its
// connection pool, is made on the first command.
type client struct {
	m    *instance
	cfg  *config
	once sync.Once
	rdb  *redis.Client
}

// conn returns the go-redis client, made on first use with the VU's
// dialer (hosts, blacklistIPs, …) and TLS settings under the options'.
func (c *client) conn() *redis.Client {
	c.once.Do(func() {
		o := *c.cfg.opts
		network := c.m.net()
		var tlsCfg *tls.Config
		if c.cfg.tls {
			tlsCfg = network.TLS.Clone()
			if c.cfg.rootCAs != nil {
				tlsCfg.RootCAs = c.cfg.rootCAs
			}
			if c.cfg.certs != nil {
				tlsCfg.Certificates = c.cfg.certs
			}
		}
		o.Protocol = 2
		o.Dialer = func(ctx context.Context, nw, addr string) (net.Conn, error) {
			conn, err := network.Dialer.DialContext(ctx, nw, addr)
			if err != nil || tlsCfg == nil {
				return conn, err
			}
			cfg := tlsCfg.Clone()
			if cfg.ServerName == "" {
				cfg.ServerName, _, _ = net.SplitHostPort(addr)
			}
			tc := tls.Client(conn, cfg)
			if err := tc.HandshakeContext(ctx); err != nil {
				_ = conn.Close()
				return nil, err
			}
			return tc, nil
		}
		c.rdb = redis.NewClient(&o)
	})
	return c.rdb
}

// method returns the JavaScript method of cmd: it reads the arguments on
// the VU's goroutine, sends the command on a goroutine of its own under
// the VU's context (an interrupted iteration stops waiting) and settles
// the promise on the VU's event loop.
func (c *client) method(cmd command) func(sobek.FunctionCall) sobek.Value {
	return func(call sobek.FunctionCall) sobek.Value {
		rt := c.m.vu.Runtime()
		promise, resolve, reject := rt.NewPromise()
		args, err := c.args(cmd, call.Arguments)
		if err == nil && c.m.vu.InInit() {
			err = errInit
		}
		if err != nil {
			_ = reject(rt.NewGoError(fmt.Errorf("redis %s: %w", cmd.method, err)))
			return rt.ToValue(promise)
		}
		rdb, ctx := c.conn(), c.m.vu.Context()
		done := c.m.vu.RegisterCallback()
		go func() {
			res, err := send(ctx, rdb, args)
			done(func() error {
				v, err := toJS(rt, cmd.reply, res, err)
				if err != nil {
					return reject(rt.NewGoError(err))
				}
				return resolve(v)
			})
		}()
		return rt.ToValue(promise)
	}
}

// args returns the command and its arguments: the method's JavaScript
// arguments in order, arrays spread. set's third argument is an expiry in
// seconds (EX; 0 or less, none); sendCommand's first is the command.
func (c *client) args(cmd command, in []sobek.Value) ([]any, error) {
	if len(in) < cmd.min {
		return nil, fmt.Errorf("takes at least %d argument(s), got %d", cmd.min, len(in))
	}
	var out []any
	if cmd.redis != "" {
		out = append(out, cmd.redis)
	}
	var ex int64
	if cmd.method == "set" && len(in) > 2 {
		ex = in[2].ToInteger()
		in = in[:2]
	}
	for _, v := range in {
		var err error
		if out, err = appendArg(out, v.Export()); err != nil {
			return nil, err
		}
	}
	if ex > 0 {
		out = append(out, "EX", ex)
	}
	return out, nil
}

// appendArg appends a string, number or boolean, or the elements of an
// array of them.
func appendArg(out []any, v any) ([]any, error) {
	switch a := v.(type) {
	case string, int64, float64:
		return append(out, a), nil
	case bool:
		if a {
			return append(out, 1), nil
		}
		return append(out, 0), nil
	case []any:
		var err error
		for _, e := range a {
			if _, nested := e.([]any); nested {
				return nil, errBadArg
			}
			if out, err = appendArg(out, e); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, errBadArg
}

// send sends one command and waits for its reply or for ctx to end,
// whichever comes first: go-redis notices a cancellation only between
// commands, so a blocking command (BLPOP) would hold the iteration. A
// reply that comes after ctx ended is dropped with its connection's turn.
func send(ctx context.Context, rdb *redis.Client, args []any) (any, error) {
	type outcome struct {
		res any
		err error
	}
	ch := make(chan outcome, 1)
	go func() {
		res, err := rdb.Do(ctx, args...).Result()
		ch <- outcome{res, err}
	}()
	select {
	case o := <-ch:
		return o.res, o.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
