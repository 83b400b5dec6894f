package k6http_test

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// encodingServer answers /encoded?ce=gzip,br with a body encoded in those
// codings, /broken with a body that claims gzip and is not, and /decode by
// decoding the request body as its Content-Encoding says and echoing it.
func encodingServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/encoded", func(w http.ResponseWriter, r *http.Request) {
		ce := r.URL.Query().Get("ce")
		body := []byte(strings.Repeat("hello compressed world ", 50))
		for _, c := range strings.Split(ce, ",") {
			body = encode(t, c, body)
		}
		w.Header().Set("Content-Encoding", strings.ReplaceAll(ce, ",", ", "))
		_, _ = w.Write(body)
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		fmt.Fprint(w, "this is not gzip")
	})
	mux.HandleFunc("/decode", func(w http.ResponseWriter, r *http.Request) {
		var rd io.Reader = r.Body
		ces := strings.Split(r.Header.Get("Content-Encoding"), ",")
		for i := len(ces) - 1; i >= 0; i-- {
			switch strings.TrimSpace(ces[i]) {
			case "gzip":
				rd, _ = gzip.NewReader(rd)
			case "deflate":
				rd, _ = zlib.NewReader(rd)
			case "br":
				rd = brotli.NewReader(rd)
			}
		}
		b, err := io.ReadAll(rd)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fmt.Fprintf(w, "%s|%s|%d", r.Header.Get("Content-Encoding"), b, r.ContentLength)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// encode compresses b with one coding, as a server would.
func encode(t *testing.T, coding string, b []byte) []byte {
	var buf bytes.Buffer
	var w io.WriteCloser
	switch coding {
	case "gzip":
		w = gzip.NewWriter(&buf)
	case "deflate":
		w = zlib.NewWriter(&buf)
	case "br":
		w = brotli.NewWriter(&buf)
	default:
		t.Errorf("unknown coding %q", coding)
		return b
	}
	_, _ = w.Write(b)
	_ = w.Close()
	return buf.Bytes()
}

func TestResponseDecompression(t *testing.T) {
	srv := encodingServer(t)
	r := mustRun(t, `export default function () {
  const want = 'hello compressed world '.repeat(50);
  for (const ce of ['gzip', 'deflate', 'br', 'gzip,br', 'br,deflate']) {
    const r = http.get(__ENV.BASE + '/encoded?ce=' + ce);
    eq([r.status, r.error_code, r.body === want], [200, 0, true], ce);
    eq(r.headers['Content-Encoding'], ce.replace(',', ', '), ce + ' header kept');
  }
  const b = http.get(__ENV.BASE + '/encoded?ce=gzip', {responseType: 'binary'});
  eq(b.body.byteLength, want.length, 'binary body decoded');
  const bad = http.get(__ENV.BASE + '/broken');
  eq([bad.status, bad.error_code], [200, 1701], 'broken gzip');
  if (!bad.error.startsWith('error decompressing response body')) throw new Error(bad.error);
  const five = http.get(__ENV.BASE + '/encoded?ce=gzip,br,deflate,gzip,gzip');
  eq([five.status, five.error_code, five.body === want], [200, 0, true], 'five stacked codings');
  const six = http.get(__ENV.BASE + '/encoded?ce=gzip,br,deflate,gzip,gzip,gzip');
  eq([six.status, six.error_code, six.error, six.body], [200, 1701,
    'error decompressing response body (Content-Encoding stacks 6 content codings, more than 5)', ''], 'six stacked codings');
}`, map[string]string{"BASE": srv.URL})
	// As in k6, the request is tagged with the error code and counts as
	// failed or not by its status alone.
	var codes []string
	for _, s := range r.of("http_reqs") {
		if c := s.Tags["error_code"]; c != "" {
			codes = append(codes, c)
		}
	}
	if len(codes) != 2 || codes[0] != "1701" || codes[1] != "1701" {
		t.Fatalf("error_code tags %v, want [1701 1701]", codes)
	}
	for _, s := range r.of("http_req_failed") {
		if s.Value != 0 {
			t.Fatalf("a request failed: %v", s.Tags)
		}
	}
}

func TestRequestCompression(t *testing.T) {
	srv := encodingServer(t)
	mustRun(t, `export default function () {
  const body = 'a body worth compressing '.repeat(40);
  for (const c of ['gzip', 'deflate', 'br', 'gzip, br', ' br ,gzip ']) {
    const r = http.post(__ENV.BASE + '/decode', body, {compression: c});
    const [enc, got, length] = r.body.split('|');
    const want = c.split(',').map((s) => s.trim()).join(', ');
    eq([r.status, enc, got === body], [200, want, true], c);
    if (Number(length) >= body.length) throw new Error(c + ': not smaller: ' + length);
    eq(r.request.body, body, c + ': request.body is the plain body');
    eq(r.request.headers['Content-Encoding'], [want], c + ': request header');
  }
  const r = http.post(__ENV.BASE + '/decode', body, {compression: 'gzip', headers: {'Content-Encoding': 'gzip'}});
  eq(r.body.split('|')[0], 'gzip', 'own header kept');
  eq(http.post(__ENV.BASE + '/decode', body, {compression: ''}).body.split('|')[1], body, 'empty compression');
}`, map[string]string{"BASE": srv.URL})
}
