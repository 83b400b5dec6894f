package k6ws

import (
	"errors"
	"strings"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/wsconn"
	"github.com/usefullatency/usefullatency/js/modules"
	k6websockets "github.com/usefullatency/usefullatency/js/modules/websockets"
)

var errInit = errors.New("k6/ws: connections can't be opened in the init context: connect inside an exported function")

// ws is the module in one VU.
type ws struct {
	vu     modules.VU
	dialer *k6websockets.Dialer
}

var _ modules.Instance = (*ws)(nil)

func newWS(vu modules.VU) modules.Instance {
	return &ws{vu: vu, dialer: k6websockets.NewDialer(vu)}
}

// Exports returns connect, as the default export's method and by name.
func (m *ws) Exports() modules.Exports {
	named := map[string]any{"connect": m.connect}
	return modules.Exports{Default: named, Named: named}
}

// connect is ws.connect(url, [params], callback): it opens the
// connection, calls callback(socket), dispatches open, then runs the
// socket's events and timers until the connection is closed, and returns
// the handshake's response {url, status, headers, body, error}. A failed
// handshake is a response with status 0 (or the server's status) and
// error set, the callback not called; with the throw option it throws.
func (m *ws) connect(url string, args ...sobek.Value) (sobek.Value, error) {
	rt := m.vu.Runtime()
	if m.vu.InInit() {
		return nil, errInit
	}
	params, callback, err := connectArgs(args)
	if err != nil {
		return nil, err
	}
	p, err := k6websockets.ParseParams(m.vu, "k6/ws", params)
	if err != nil {
		return nil, err
	}
	t, err := m.dialer.Prepare(url, nil, p)
	if err != nil {
		return nil, errors.New("k6/ws: connect: " + err.Error())
	}
	var (
		sess *k6websockets.Session
		hs   *wsconn.Handshake
	)
	modules.Blocking(m.vu, func() { sess, hs, err = t.Dial(m.vu.Context()) })
	if err != nil {
		if m.throws() {
			return nil, errors.New("k6/ws: connect " + url + ": " + err.Error())
		}
		return response(rt, url, hs, err.Error()), nil
	}
	s := newSocket(m.vu, sess)
	if _, err := callback(sobek.Undefined(), s.value()); err != nil {
		sess.Conn.Abort()
		sess.Cut()
		return nil, err
	}
	closeErr, err := s.run()
	if err != nil {
		return nil, err
	}
	return response(rt, url, hs, closeErr), nil
}

// throws reports the throw option.
func (m *ws) throws() bool {
	run := m.vu.State().Run
	if run == nil {
		return false
	}
	throw, _ := run.Options["throw"].(bool)
	return throw
}

// connectArgs splits (params, callback) or (callback).
func connectArgs(args []sobek.Value) (sobek.Value, sobek.Callable, error) {
	var params, cb sobek.Value
	switch len(args) {
	case 1:
		params, cb = sobek.Undefined(), args[0]
	case 2:
		params, cb = args[0], args[1]
	default:
		return nil, nil, errors.New("k6/ws: connect(url, [params], callback): wrong number of arguments")
	}
	fn, ok := sobek.AssertFunction(cb)
	if !ok {
		return nil, nil, errors.New("k6/ws: connect: the callback must be a function")
	}
	return params, fn, nil
}

// response is the handshake's response: {url, status, headers, body,
// error}; status 0 and empty headers without an HTTP answer.
func response(rt *sobek.Runtime, url string, hs *wsconn.Handshake, errMsg string) sobek.Value {
	out := map[string]any{"url": url, "status": 0, "headers": map[string]any{}, "body": "", "error": errMsg}
	if hs != nil {
		headers := make(map[string]any, len(hs.Header))
		for k, v := range hs.Header {
			headers[k] = strings.Join(v, ", ")
		}
		out["status"], out["headers"], out["body"] = hs.Status, headers, hs.Body
	}
	return rt.ToValue(out)
}
