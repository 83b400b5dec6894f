package k6grpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/grpcdesc"
	"github.com/usefullatency/usefullatency/metrics"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// streamEvents are the events a Stream dispatches.
var streamEvents = map[string]bool{"data": true, "error": true, "end": true}

// stream is one Stream. Its fields are used on the VU's goroutine, but
// pending, which belongs to the goroutine reading the stream.
type stream struct {
	m       *instance
	rt      *sobek.Runtime
	obj     *sobek.Object
	method  string
	cs      grpc.ClientStream
	in, out protoreflect.MessageDescriptor
	types   *dynamicpb.Types
	rec     *recorder
	// start is when the stream opened; wire counts its bytes.
	start    time.Time
	wire     *wireBytes
	handlers map[string][]sobek.Callable
	// vuCtx is the context of the call that opened the stream: when it
	// ends, events are no longer dispatched; cancel ends the stream.
	vuCtx  context.Context
	cancel context.CancelFunc
	// ended says whether end() was called, closed whether the stream ended.
	ended, closed bool
	// pending is the event-loop slot the reader holds for its next event.
	pending func(func() error)
}

// newStream is the constructor new Stream(client, method, params): it
// opens the stream at once and returns; the stream holds a slot of the
// VU's event loop until it ends, so the call that opened it (an
// iteration) waits for its end event.
func (m *instance) newStream(call sobek.ConstructorCall) *sobek.Object {
	rt := m.vu.Runtime()
	s, err := m.openStream(call.Argument(0), call.Argument(1).String(), call.Argument(2))
	if err != nil {
		panic(rt.NewGoError(err))
	}
	s.rt, s.obj = rt, call.This
	for name, fn := range map[string]any{"on": s.on, "write": s.write, "end": s.end} {
		_ = s.obj.DefineDataProperty(name, rt.ToValue(fn), sobek.FLAG_TRUE, sobek.FLAG_FALSE, sobek.FLAG_TRUE)
	}
	s.pending = m.vu.RegisterCallback()
	go s.read()
	return nil
}

// openStream checks the arguments and opens the stream.
func (m *instance) openStream(clientValue sobek.Value, method string, params sobek.Value) (*stream, error) {
	if m.vu.InInit() {
		return nil, errors.New("opening a gRPC stream in the init context is not supported")
	}
	c, ok := m.clientOf(clientValue)
	if !ok {
		return nil, errors.New("new Stream(client, method): client must be a grpc.Client")
	}
	if c.conn == nil {
		return nil, errNotConnected
	}
	md, err := c.methods.Find(method)
	if err != nil {
		return nil, err
	}
	p, err := parseCallParams(m.vu.Runtime(), params)
	if err != nil {
		return nil, fmt.Errorf("new Stream(client, %q): %w", method, err)
	}
	full := grpcdesc.FullMethod(md)
	s := &stream{m: m, method: full, in: md.Input(), out: md.Output(), types: c.methods.Types(),
		rec: c.recorder(full, "stream", p.tags), handlers: map[string][]sobek.Callable{}, vuCtx: m.vu.Context()}
	ctx, cancel := streamContext(s.vuCtx, p)
	s.cancel = cancel
	wire := &wireBytes{}
	desc := &grpc.StreamDesc{StreamName: string(md.Name()), ServerStreams: md.IsStreamingServer(), ClientStreams: md.IsStreamingClient()}
	start := time.Now()
	s.cs, err = c.conn.NewStream(withWireBytes(metadata.NewOutgoingContext(ctx, p.metadata), wire), desc, full)
	if err != nil {
		cancel()
		return nil, fmt.Errorf("new Stream(client, %q): %w", method, err)
	}
	s.rec.count(func(m *Metrics) *metrics.Metric { return m.streams }, start)
	s.start, s.wire = start, wire
	return s, nil
}

// streamContext is the context of a stream: it ends with the call that
// opened it, after the params' timeout when they set one, or at cancel.
func streamContext(parent context.Context, p callParams) (context.Context, context.CancelFunc) {
	if p.timeoutSet {
		return context.WithTimeout(parent, p.timeout)
	}
	return context.WithCancel(parent)
}

// on is stream.on(event, handler): handlers of data, error and end run in
// the order they were added.
func (s *stream) on(event string, fn sobek.Value) error {
	if !streamEvents[event] {
		return fmt.Errorf("stream.on: unknown event %q: want data, error or end", event)
	}
	f, ok := sobek.AssertFunction(fn)
	if !ok {
		return fmt.Errorf("stream.on(%q, handler): handler must be a function", event)
	}
	s.handlers[event] = append(s.handlers[event], f)
	return nil
}

// write is stream.write(message): it sends a message (proto3's JSON
// mapping of the method's input); a stream that ended ignores it.
func (s *stream) write(v sobek.Value) error {
	if s.ended {
		return fmt.Errorf("%s: stream.write after stream.end", s.method)
	}
	if s.closed {
		return nil
	}
	msg, err := s.m.codec.message(s.in, v, s.types)
	if err != nil {
		return fmt.Errorf("%s: stream.write: %w", s.method, err)
	}
	if err := s.cs.SendMsg(msg); err != nil {
		if errors.Is(err, io.EOF) {
			return nil // the stream ended: its status comes with the end event
		}
		return fmt.Errorf("%s: stream.write: %w", s.method, err)
	}
	s.rec.count(func(m *Metrics) *metrics.Metric { return m.msgsSent }, time.Now())
	return nil
}

// end is stream.end(): the client has finished sending.
func (s *stream) end() {
	if s.ended || s.closed {
		return
	}
	s.ended = true
	_ = s.cs.CloseSend()
}

// read runs on its own goroutine: it reads the stream's messages and its
// status, each handed to the event loop in order, and records the
// stream's samples.
func (s *stream) read() {
	defer s.cancel()
	for {
		msg := dynamicpb.NewMessage(s.out)
		err := s.cs.RecvMsg(msg)
		at := time.Now()
		if err == nil {
			s.rec.count(func(m *Metrics) *metrics.Metric { return m.msgsReceived }, at)
			if !s.deliver(func() error { return s.data(msg, at) }, false) {
				s.cancel()
			}
			continue
		}
		st := status.New(codes.OK, "")
		if !errors.Is(err, io.EOF) {
			st = status.Convert(err)
		}
		s.rec.done(int(st.Code()), s.start, at, s.wire.sent.Load(), s.wire.received.Load())
		s.deliver(func() error { return s.finish(st) }, true)
		return
	}
}

// deliver hands fn to the event loop in the slot held for it, reserving
// the next one first unless it is the last, and waits until it ran: the
// reader reads no further meanwhile. It reports false when the call that
// opened the stream has ended (fn then does not run).
func (s *stream) deliver(fn func() error, last bool) bool {
	cur := s.pending
	s.pending = nil
	if !last {
		s.pending = s.m.vu.RegisterCallback()
	}
	done := make(chan struct{})
	cur(func() error {
		defer close(done)
		if s.vuCtx.Err() != nil {
			return nil
		}
		return fn()
	})
	select {
	case <-done:
		return true
	case <-s.vuCtx.Done():
		return false
	}
}

// data dispatches a message: the data handlers get its value and the
// message's metadata, {ts} (milliseconds since the epoch).
func (s *stream) data(msg *dynamicpb.Message, at time.Time) error {
	v, err := s.m.codec.value(msg, s.types)
	if err != nil {
		return fmt.Errorf("%s: a streamed message: %w", s.method, err)
	}
	meta := s.rt.NewObject()
	_ = meta.Set("ts", float64(at.UnixNano())/1e6)
	return s.emit("data", v, meta)
}

// finish dispatches the stream's end: an error event when its status is
// not OK, then the end event.
func (s *stream) finish(st *status.Status) error {
	s.closed = true
	if st.Code() != codes.OK {
		if err := s.emit("error", s.m.codec.statusError(st, s.types)); err != nil {
			return err
		}
	}
	return s.emit("end")
}

// emit calls the handlers of event, with this the stream; a handler's
// exception stops the dispatch and fails the call that opened the stream.
func (s *stream) emit(event string, args ...sobek.Value) error {
	for _, fn := range append([]sobek.Callable(nil), s.handlers[event]...) {
		if _, err := fn(s.obj, args...); err != nil {
			return err
		}
	}
	return nil
}
