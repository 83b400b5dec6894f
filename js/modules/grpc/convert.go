package k6grpc

import (
	"fmt"

	"github.com/grafana/sobek"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// codec turns JavaScript values into messages and messages into
// JavaScript values through proto3's JSON mapping, as k6 documents: field
// names in lowerCamelCase (the proto names are accepted too), 64-bit
// integers as strings, bytes as base64, enums by name, Timestamps as RFC
// 3339 strings. It is used on the VU's goroutine.
type codec struct {
	rt               *sobek.Runtime
	stringify, parse sobek.Callable
}

// newCodec takes JSON.stringify and JSON.parse of rt as they are now.
func newCodec(rt *sobek.Runtime) *codec {
	json := rt.Get("JSON").ToObject(rt)
	stringify, _ := sobek.AssertFunction(json.Get("stringify"))
	parse, _ := sobek.AssertFunction(json.Get("parse"))
	return &codec{rt: rt, stringify: stringify, parse: parse}
}

// message converts v (an object; undefined and null are the empty
// message) to a message of md; an unknown field or a value of the wrong
// type is an error naming it.
func (c *codec) message(md protoreflect.MessageDescriptor, v sobek.Value, types *dynamicpb.Types) (*dynamicpb.Message, error) {
	msg := dynamicpb.NewMessage(md)
	if isNullish(v) {
		return msg, nil
	}
	if _, ok := v.(*sobek.Object); !ok {
		return nil, fmt.Errorf("a %s message must be an object, got %s", md.FullName(), v.String())
	}
	s, err := c.stringify(sobek.Undefined(), v)
	if err != nil {
		return nil, err
	}
	if err := (protojson.UnmarshalOptions{Resolver: types}).Unmarshal([]byte(s.String()), msg); err != nil {
		return nil, fmt.Errorf("the object is not a %s message: %w", md.FullName(), err)
	}
	return msg, nil
}

// value converts msg to a plain JavaScript object, fields at their
// default values included.
func (c *codec) value(msg proto.Message, types *dynamicpb.Types) (sobek.Value, error) {
	b, err := (protojson.MarshalOptions{EmitUnpopulated: true, Resolver: types}).Marshal(msg)
	if err != nil {
		return nil, err
	}
	return c.parse(sobek.Undefined(), c.rt.ToValue(string(b)))
}

// metadata converts md to an object of arrays of strings.
func (c *codec) metadata(md metadata.MD) *sobek.Object {
	obj := c.rt.NewObject()
	for k, vals := range md {
		list := make([]any, len(vals))
		for i, v := range vals {
			list[i] = v
		}
		_ = obj.Set(k, c.rt.NewArray(list...))
	}
	return obj
}

// statusError converts a status that is not OK to k6's error object:
// code, message and details (each a JSON object, or its type URL alone
// when the type is unknown).
func (c *codec) statusError(st *status.Status, types *dynamicpb.Types) sobek.Value {
	obj := c.rt.NewObject()
	_ = obj.Set("code", int(st.Code()))
	_ = obj.Set("message", st.Message())
	details := make([]any, 0, len(st.Proto().GetDetails()))
	for _, d := range st.Proto().GetDetails() {
		if v, err := c.value(d, types); err == nil {
			details = append(details, v)
		} else {
			details = append(details, map[string]any{"@type": d.GetTypeUrl()})
		}
	}
	_ = obj.Set("details", c.rt.NewArray(details...))
	return obj
}
