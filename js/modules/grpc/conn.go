package k6grpc

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"

	"github.com/usefullatency/usefullatency/internal/netstack"
	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
)

// dial opens a connection to addr (host:port) through the VU's network
// stack and waits until it is ready, or failed, or ctx ended. The
// connection's calls are limited to p's message sizes and counted by
// wireCounter.
func (m *instance) dial(ctx context.Context, addr string, p connectParams) (*grpc.ClientConn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("invalid address %q: want host:port", addr)
	}
	network := m.net()
	last := &lastError{}
	creds := insecure.NewCredentials()
	if !p.plaintext {
		cfg := network.TLS.Clone()
		cfg.NextProtos = []string{"h2"}
		if p.tls != nil {
			if err := p.tls.apply(cfg); err != nil {
				return nil, err
			}
		}
		creds = &hostCreds{TransportCredentials: credentials.NewTLS(cfg), cfg: cfg, host: host, last: last}
	}
	opts := []grpc.DialOption{
		grpc.WithTransportCredentials(creds),
		grpc.WithContextDialer(func(ctx context.Context, a string) (net.Conn, error) {
			c, err := network.Dialer.DialContext(ctx, "tcp", a)
			last.set(err)
			return c, err
		}),
		grpc.WithStatsHandler(wireCounter{}),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(p.maxReceiveSize)),
	}
	if p.maxSendSize > 0 {
		opts = append(opts, grpc.WithDefaultCallOptions(grpc.MaxCallSendMsgSize(p.maxSendSize)))
	}
	if network.UserAgentSet && network.UserAgent != "" {
		opts = append(opts, grpc.WithUserAgent(network.UserAgent))
	}
	if p.authority != "" {
		opts = append(opts, grpc.WithAuthority(p.authority))
	}
	conn, err := grpc.NewClient("passthrough:///"+addr, opts...)
	if err != nil {
		return nil, err
	}
	if err := waitReady(ctx, conn, last); err != nil {
		_ = conn.Close()
		return nil, err
	}
	return conn, nil
}

// waitReady connects conn and waits until it is ready. A failed attempt
// is an error with its cause; the end of ctx one with ctx's error.
func waitReady(ctx context.Context, conn *grpc.ClientConn, last *lastError) error {
	conn.Connect()
	for {
		switch s := conn.GetState(); s {
		case connectivity.Ready:
			return nil
		case connectivity.TransientFailure, connectivity.Shutdown:
			if err := last.get(); err != nil {
				return err
			}
			return errors.New("the connection failed")
		default:
			if !conn.WaitForStateChange(ctx, s) {
				if err := last.get(); err != nil {
					return fmt.Errorf("%w (last attempt: %v)", ctx.Err(), err)
				}
				return ctx.Err()
			}
		}
	}
}

// lastError keeps the error of a connection's last dial or handshake.
type lastError struct {
	mu  sync.Mutex
	err error
}

func (l *lastError) set(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.err = err
}

func (l *lastError) get() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// hostCreds are TLS credentials whose handshakes name the host they go
// to (netstack.WithServerName: the tlsAuth option's certificate for it is
// chosen, which grpc-go's own handshake, run without a context, cannot
// do), insist on HTTP/2 through ALPN and record their failure. Info,
// Clone's base and OverrideServerName are grpc-go's.
type hostCreds struct {
	credentials.TransportCredentials
	cfg  *tls.Config
	host string
	last *lastError
}

func (c *hostCreds) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	cfg := c.cfg.Clone()
	if cfg.ServerName == "" {
		cfg.ServerName = authority
		if h, _, err := net.SplitHostPort(authority); err == nil {
			cfg.ServerName = h
		}
	}
	conn := tls.Client(raw, cfg)
	err := conn.HandshakeContext(netstack.WithServerName(ctx, c.host))
	if err == nil && conn.ConnectionState().NegotiatedProtocol != "h2" {
		err = errors.New("the server did not choose HTTP/2 through ALPN")
	}
	if err != nil {
		_ = conn.Close()
		c.last.set(fmt.Errorf("TLS handshake: %w", err))
		return nil, nil, err
	}
	info := credentials.TLSInfo{State: conn.ConnectionState(), CommonAuthInfo: credentials.CommonAuthInfo{SecurityLevel: credentials.PrivacyAndIntegrity}}
	return conn, info, nil
}

func (c *hostCreds) Clone() credentials.TransportCredentials {
	return &hostCreds{TransportCredentials: c.TransportCredentials.Clone(), cfg: c.cfg.Clone(), host: c.host, last: c.last}
}
