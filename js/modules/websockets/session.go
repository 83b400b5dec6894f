package k6websockets

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/internal/wsconn"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
)

// defaultUserAgent is the User-Agent of handshakes when the userAgent
// option is unset, as k6/http sends it.
const defaultUserAgent = "usefullatency"

// Dialer opens the WebSocket connections of one VU through its network
// settings (hosts, blockHostnames, blacklistIPs, dns, localIPs and the TLS
// options) and records their ws_* samples. k6/ws uses it too.
type Dialer struct {
	vu      modules.VU
	metrics *Metrics
	once    sync.Once
	network modules.Network
}

// NewDialer returns the dialer of vu and registers the WebSocket metrics
// in its run's registry.
func NewDialer(vu modules.VU) *Dialer {
	d := &Dialer{vu: vu}
	if run := vu.State().Run; run != nil {
		d.metrics = RegisterMetrics(run.Registry)
	}
	return d
}

// Target is a connection to open: the URL, the config of the handshake and
// the tags and metadata of its samples, read on the VU's goroutine so that
// it can be dialed from another.
type Target struct {
	URL    string
	config wsconn.Config
	tags   metrics.Tags
	meta   metrics.Tags
	d      *Dialer
}

// Prepare checks rawURL (ws:// or wss://) and reads the VU's state and
// network settings. The handshake sends the cookies of the params' jar,
// or else of the VU's (k6/http's jar of the iteration), and stores the
// cookies its response sets there. It runs on the VU's goroutine.
func (d *Dialer) Prepare(rawURL string, protocols []string, p Params) (*Target, error) {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return nil, fmt.Errorf("invalid URL %q: want ws://host/path or wss://host/path", redact.URL(rawURL))
	}
	st := d.vu.State()
	d.once.Do(func() { d.network = st.Run.Network(st.VUID) })
	header := p.Header.Clone()
	if header.Get("User-Agent") == "" {
		ua := defaultUserAgent
		if d.network.UserAgentSet {
			ua = d.network.UserAgent
		}
		if ua != "" {
			header.Set("User-Agent", ua)
		}
	}
	tags := make(metrics.Tags, len(st.Tags)+len(p.Tags)+3)
	for k, v := range st.Tags {
		tags[k] = v
	}
	for k, v := range p.Tags {
		tags[k] = v
	}
	tags["url"] = redact.URL(rawURL)
	jar := p.Jar
	if !p.JarSet && st.CookieJar != nil {
		jar = st.CookieJar()
	}
	cfg := wsconn.Config{
		Dial: d.network.Dialer.DialContext, TLS: d.network.TLS, Header: header, Protocols: protocols, Jar: jar,
		Compression: p.Compression, MaxMessageSize: p.MaxMessageSize,
	}
	return &Target{URL: rawURL, config: cfg, tags: tags, meta: st.Metadata, d: d}, nil
}

// Dial opens the connection; ctx bounds the handshake. On success the
// session has recorded ws_sessions and ws_connecting.
func (t *Target) Dial(ctx context.Context) (*Session, *wsconn.Handshake, error) {
	conn, hs, err := wsconn.Dial(ctx, t.URL, t.config)
	if err != nil {
		return nil, hs, err
	}
	tags := t.tags.With("status", strconv.Itoa(hs.Status))
	if hs.Protocol != "" {
		tags = tags.With("subproto", hs.Protocol)
	}
	s := &Session{Conn: conn, tags: tags, meta: t.meta, d: t.d}
	now := time.Now()
	s.push(
		metrics.Sample{Metric: s.m().sessions, Time: now, Value: 1},
		metrics.Sample{Metric: s.m().connecting, Time: now, Value: ms(conn.Connecting())},
	)
	return s, hs, nil
}

// Session is an open connection and the tags of its samples.
type Session struct {
	Conn *wsconn.Conn
	tags metrics.Tags
	meta metrics.Tags
	d    *Dialer
}

// m returns the metrics; nil outside a run.
func (s *Session) m() *Metrics { return s.d.metrics }

// Sent records one message sent (ws_msgs_sent).
func (s *Session) Sent() {
	s.push(metrics.Sample{Metric: s.m().msgsSent, Time: time.Now(), Value: 1})
}

// Record records the samples of an event the connection delivered: a
// message (ws_msgs_received), the pong of our ping (ws_ping), the close
// (ws_session_duration, data_sent, data_received).
func (s *Session) Record(ev wsconn.Event) {
	switch ev.Kind {
	case wsconn.Message:
		s.push(metrics.Sample{Metric: s.m().msgsReceived, Time: ev.At, Value: 1})
	case wsconn.Pong:
		if ev.RTT > 0 {
			s.push(metrics.Sample{Metric: s.m().ping, Time: ev.At, Value: ms(ev.RTT)})
		}
	case wsconn.Close:
		sent, received := s.Conn.Bytes()
		s.push(
			metrics.Sample{Metric: s.m().duration, Time: ev.At, Value: ms(ev.At.Sub(s.Conn.Started()))},
			metrics.Sample{Metric: s.m().dataSent, Time: ev.At, Value: float64(sent)},
			metrics.Sample{Metric: s.m().dataReceived, Time: ev.At, Value: float64(received)},
		)
	}
}

// Cut records the end of a session that was cut without a close event
// (its iteration ended, or a handler threw): ws_session_duration,
// data_sent and data_received, as at a close.
func (s *Session) Cut() { s.Record(wsconn.Event{Kind: wsconn.Close, At: time.Now()}) }

// push sends samples with the session's tags and metadata; nothing
// outside a run.
func (s *Session) push(samples ...metrics.Sample) {
	if s.m() == nil {
		return
	}
	for i := range samples {
		samples[i].Tags = s.tags
	}
	s.d.vu.State().Run.Engine.Push(modules.WithMetadata(samples, s.meta)...)
}

// ms converts a duration to milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
