package k6grpc

import (
	"context"
	"strconv"
	"sync/atomic"

	"google.golang.org/grpc/stats"
)

// wireBytes counts the bytes of one call on the wire; the connection's
// wireCounter adds to the counter its call's context carries.
type wireBytes struct {
	sent, received atomic.Int64
}

// wireKey is the context key of a call's wireBytes.
type wireKey struct{}

// withWireBytes returns ctx carrying b.
func withWireBytes(ctx context.Context, b *wireBytes) context.Context {
	return context.WithValue(ctx, wireKey{}, b)
}

// wireCounter is the stats handler of a client's connection: it counts
// the framed messages sent and received and the header and trailer blocks
// received of each call whose context carries a wireBytes.
type wireCounter struct{}

var _ stats.Handler = wireCounter{}

func (wireCounter) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }

func (wireCounter) HandleRPC(ctx context.Context, s stats.RPCStats) {
	b, _ := ctx.Value(wireKey{}).(*wireBytes)
	if b == nil {
		return
	}
	switch s := s.(type) {
	case *stats.OutPayload:
		b.sent.Add(int64(s.WireLength))
	case *stats.InPayload:
		b.received.Add(int64(s.WireLength))
	case *stats.InHeader:
		b.received.Add(int64(s.WireLength))
	case *stats.InTrailer:
		b.received.Add(int64(s.WireLength))
	}
}

func (wireCounter) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context { return ctx }

func (wireCounter) HandleConn(context.Context, stats.ConnStats) {}

// itoa formats a status code for its tag.
func itoa(n int) string { return strconv.Itoa(n) }
