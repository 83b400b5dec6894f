package k6grpc

import (
	"context"
	"fmt"
	"time"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/internal/grpcdesc"
	"github.com/usefullatency/usefullatency/metrics"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/usefullatency/usefullatency/js/modules"
)

// unaryCall is one unary call, read on the VU's goroutine so that it can
// be sent from another.
type unaryCall struct {
	conn   *grpc.ClientConn
	method string
	req    *dynamicpb.Message
	out    protoreflect.MessageDescriptor
	params callParams
	types  *dynamicpb.Types
	rec    *recorder
}

// outcome is what a unary call got.
type outcome struct {
	resp            *dynamicpb.Message
	header, trailer metadata.MD
	st              *status.Status
}

// invoke is client.invoke(method, request, params): it sends a unary call
// and waits for its response. A status other than OK is a response, not
// an exception; bad arguments and a missing connection throw.
func (c *client) invoke(method string, req, params sobek.Value) (sobek.Value, error) {
	call, err := c.prepare(method, req, params, "unary")
	if err != nil {
		return nil, err
	}
	var o outcome
	modules.Blocking(c.m.vu, func() { o = call.send(c.m.vu.Context()) })
	return c.response(call, o)
}

// asyncInvoke is client.asyncInvoke(method, request, params): the call of
// invoke sent without blocking the VU; the promise is resolved on the
// VU's event loop with the response. Bad arguments reject it.
func (c *client) asyncInvoke(method string, req, params sobek.Value) *sobek.Promise {
	promise, resolve, reject := c.m.vu.Runtime().NewPromise()
	call, err := c.prepare(method, req, params, "unary")
	if err != nil {
		_ = reject(err)
		return promise
	}
	ctx, done := c.m.vu.Context(), c.m.vu.RegisterCallback()
	go func() {
		o := call.send(ctx)
		done(func() error {
			v, err := c.response(call, o)
			if err != nil {
				return reject(err)
			}
			return resolve(v)
		})
	}()
	return promise
}

// prepare reads a call's arguments: the method must be known and the
// client connected.
func (c *client) prepare(method string, req, params sobek.Value, rpcType string) (*unaryCall, error) {
	if c.m.vu.InInit() {
		return nil, fmt.Errorf("invoking %s in the init context is not supported", method)
	}
	if c.conn == nil {
		return nil, errNotConnected
	}
	md, err := c.methods.Find(method)
	if err != nil {
		return nil, err
	}
	p, err := parseCallParams(c.m.vu.Runtime(), params)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	types := c.methods.Types()
	msg, err := c.m.codec.message(md.Input(), req, types)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", method, err)
	}
	full := grpcdesc.FullMethod(md)
	return &unaryCall{conn: c.conn, method: full, req: msg, out: md.Output(), params: p, types: types,
		rec: c.recorder(full, rpcType, p.tags)}, nil
}

// recorder returns the recorder of a call of method: the VU's tags, the
// params' tags, then k6's url, name (unless the params name the call),
// method and rpc_type.
func (c *client) recorder(method, rpcType string, extra metrics.Tags) *recorder {
	st := c.m.vu.State()
	tags := make(metrics.Tags, len(st.Tags)+len(extra)+5)
	for k, v := range st.Tags {
		tags[k] = v
	}
	for k, v := range extra {
		tags[k] = v
	}
	url := c.addr + method
	tags["url"] = url
	if tags["name"] == "" {
		tags["name"] = url
	}
	tags["method"] = method
	tags["rpc_type"] = rpcType
	return &recorder{m: c.m.metrics, run: st.Run, tags: tags, meta: st.Metadata}
}

// send sends the call, bounded by ctx and the params' timeout, records
// its samples and returns what it got.
func (u *unaryCall) send(ctx context.Context) outcome {
	ctx, cancel := context.WithTimeout(ctx, u.params.timeout)
	defer cancel()
	wire := &wireBytes{}
	ctx = withWireBytes(metadata.NewOutgoingContext(ctx, u.params.metadata), wire)
	o := outcome{resp: dynamicpb.NewMessage(u.out)}
	start := time.Now()
	err := u.conn.Invoke(ctx, u.method, u.req, o.resp, grpc.Header(&o.header), grpc.Trailer(&o.trailer))
	o.st = status.Convert(err)
	u.rec.done(int(o.st.Code()), start, time.Now(), wire.sent.Load(), wire.received.Load())
	return o
}

// response builds k6's Response object on the VU's goroutine: status,
// message (null unless OK, or when discardResponseMessage), headers,
// trailers and error (null when OK).
func (c *client) response(u *unaryCall, o outcome) (sobek.Value, error) {
	rt := c.m.vu.Runtime()
	obj := rt.NewObject()
	_ = obj.Set("status", int(o.st.Code()))
	_ = obj.Set("headers", c.m.codec.metadata(o.header))
	_ = obj.Set("trailers", c.m.codec.metadata(o.trailer))
	msg, errv := sobek.Null(), sobek.Null()
	if o.st.Code() != 0 {
		errv = c.m.codec.statusError(o.st, u.types)
	} else if !u.params.discard {
		v, err := c.m.codec.value(o.resp, u.types)
		if err != nil {
			return nil, fmt.Errorf("%s: the response: %w", u.method, err)
		}
		msg = v
	}
	_ = obj.Set("message", msg)
	_ = obj.Set("error", errv)
	return obj, nil
}
