package output

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"net/http"

	"github.com/golang/snappy"
)

// writeRequest encodes a Prometheus remote-write request (version 0.1.0)
// as protobuf, by hand:
//
//	WriteRequest { repeated TimeSeries timeseries = 1; }
//	TimeSeries   { repeated Label labels = 1; repeated Sample samples = 2; }
//	Label        { string name = 1; string value = 2; }
//	Sample       { double value = 1; int64 timestamp = 2; } // timestamp in ms
//
// A field is a key varint (field number << 3 | wire type) then its value;
// wire type 2 (length-delimited: a varint length, then the bytes) carries
// strings and messages, 1 a little-endian 64-bit double, 0 a varint.
type writeRequest struct {
	buf, ts []byte
}

// Protobuf wire types.
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
)

// Protobuf keys of the fields above: field number << 3 | wire type.
const (
	keyMessage1 = 1<<3 | wireBytes   // timeseries, labels, name: field 1
	keyMessage2 = 2<<3 | wireBytes   // samples, value (Label): field 2
	keyDouble1  = 1<<3 | wireFixed64 // Sample.value: field 1
	keyVarint2  = 2<<3 | wireVarint  // Sample.timestamp: field 2
)

// reset empties the request.
func (w *writeRequest) reset() { w.buf = w.buf[:0] }

// bytes returns the encoded request, valid until the next reset.
func (w *writeRequest) bytes() []byte { return w.buf }

// series adds one time series with one sample.
func (w *writeRequest) series(labels []promLabel, value float64, ms int64) {
	ts := w.ts[:0]
	for _, l := range labels {
		ts = append(ts, keyMessage1)
		ts = binary.AppendUvarint(ts, uint64(fieldLen(len(l.name))+fieldLen(len(l.value))))
		ts = appendString(ts, keyMessage1, l.name)
		ts = appendString(ts, keyMessage2, l.value)
	}
	ts = append(ts, keyMessage2)
	ts = binary.AppendUvarint(ts, uint64(1+8+1+uvarintLen(uint64(ms))))
	ts = append(ts, keyDouble1)
	ts = binary.LittleEndian.AppendUint64(ts, math.Float64bits(value))
	ts = append(ts, keyVarint2)
	ts = binary.AppendUvarint(ts, uint64(ms))
	w.ts = ts
	w.buf = append(w.buf, keyMessage1)
	w.buf = binary.AppendUvarint(w.buf, uint64(len(ts)))
	w.buf = append(w.buf, ts...)
}

// appendString appends a length-delimited field.
func appendString(b []byte, key byte, s string) []byte {
	b = append(b, key)
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// fieldLen is the encoded size of a length-delimited field of n bytes
// with a one-byte key.
func fieldLen(n int) int { return 1 + uvarintLen(uint64(n)) + n }

// uvarintLen is the size of v as a varint: 7 bits a byte.
func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// promClient sends encoded write requests.
type promClient struct {
	url                string
	username, password string
	headers            map[string]string
	creds              secrets
	http               *http.Client
}

func newPromClient(cfg promConfig) *promClient {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if cfg.insecure {
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} //nolint:gosec // asked for by the user
	}
	return &promClient{
		url: cfg.url, username: cfg.username, password: cfg.password, headers: cfg.headers,
		creds: newSecrets(cfg.username, cfg.password, cfg.headers), http: &http.Client{Transport: tr},
	}
}

// push POSTs a request, snappy-compressed (block format), with the
// remote-write headers. Anything but a 2xx answer is an error quoting the
// start of the answer's body, cut and redacted (secrets.answer): an
// endpoint may echo the request, its Authorization header included.
func (c *promClient) push(ctx context.Context, req []byte) error {
	r, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(snappy.Encode(nil, req)))
	if err != nil {
		return err
	}
	for k, v := range c.headers {
		r.Header.Set(k, v)
	}
	r.Header.Set("Content-Encoding", "snappy")
	r.Header.Set("Content-Type", "application/x-protobuf")
	r.Header.Set("User-Agent", "usefullatency")
	r.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	if c.username != "" || c.password != "" {
		r.SetBasicAuth(c.username, c.password)
	}
	resp, err := c.http.Do(r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, shownAnswer+1))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s", resp.Status, c.creds.answer(body))
	}
	return nil
}
