package k6http

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"golang.org/x/net/http2"
)

// TestHTTP2CodesFromText checks that HTTP/2 errors are mapped by their
// text, as k6 maps them, whatever their type: golang.org/x/net/http2's
// (where Go's own HTTP/2 is headed), net/http's unexported copies, a
// wrapper of either, or a plain error with Go's words (the GOAWAY rows:
// x/net deprecates its GoAwayError type).
func TestHTTP2CodesFromText(t *testing.T) {
	goAway := errors.New(`http2: server sent GOAWAY and closed the connection; LastStreamID=4, ErrCode=INADEQUATE_SECURITY, debug="whatever"`)
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"GOAWAY", goAway, 1623},
		{"GOAWAY wrapped", fmt.Errorf("read body: %w", goAway), 1623},
		{"GOAWAY NO_ERROR", errors.New(`http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=NO_ERROR, debug=""`), 1611},
		{"GOAWAY unknown code", fmt.Errorf("http2: server sent GOAWAY and closed the connection; LastStreamID=1, ErrCode=%v, debug=\"\"", http2.ErrCode(0xe)), 1610},
		{"stream reset", http2.StreamError{StreamID: 3, Code: http2.ErrCodeRefusedStream}, 1638},
		{"stream reset with a cause", http2.StreamError{StreamID: 1, Code: http2.ErrCodeInternal, Cause: errors.New("EOF")}, 1633},
		{"stream reset unknown code", errors.New("stream error: stream ID 1; unknown error code 0xe; received from peer"), 1630},
		{"connection error", http2.ConnectionError(http2.ErrCodeProtocol), 1652},
		{"connection error HTTP_1_1_REQUIRED", http2.ConnectionError(http2.ErrCodeHTTP11Required), 1664},
		{"GOAWAY before the server took the request", errors.New("http2: Transport received GOAWAY from server ErrCode:ENHANCE_YOUR_CALM"), 1000},
		{"an unknown name", errors.New("connection error: SOMETHING_ELSE"), 1000},
		{"not HTTP/2", errors.New("unexpected EOF"), 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code, msg := classify(context.Background(), tc.err); code != tc.want || msg != tc.err.Error() {
				t.Errorf("classify(%q) = %d %q, want %d", tc.err, code, msg, tc.want)
			}
		})
	}
}
