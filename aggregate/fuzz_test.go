package aggregate

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/result"
)

// FuzzAggregatorPost sends one post, whose body (gzip-compressed by the
// harness or as given), runner id, REST API header, final flag and sender
// (the first runner's id, another address, no token) come from the
// fuzzer, to an aggregator that already holds two honest runners. It must
// never panic, answer with a status the protocol knows, keep nothing of a
// refused post, and leave a state that merges and can be judged: segments
// owned once, one test, complete only when the finals cover it.
func FuzzAggregatorPost(f *testing.F) {
	for i := range 3 {
		raw := rawResult(f, shareFile(i, 3, 2, 3, "count<100"))
		f.Add(raw, true, uint8(0), false, "fuzz-runner", ":6565")
		f.Add(raw, true, uint8(3), true, "", "10.0.0.9:80")
	}
	whole := shareFile(0, 1, 1e6, 0, "count<100")
	whole.Sequence = "0,1/3,2/3,1"
	f.Add(rawResult(f, whole), true, uint8(0), true, "forger", "")
	f.Add(encoded(shareFile(2, 3, 1, 0, "count<100")), false, uint8(1), true, "x", ":1")
	f.Add([]byte("not a result"), false, uint8(2), false, "", "")
	honest := [][]byte{encoded(shareFile(0, 3, 2, 3, "count<100")), encoded(shareFile(1, 3, 2, 3, "count<100"))}
	gz, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	f.Fuzz(func(t *testing.T, body []byte, compress bool, who uint8, final bool, id, api string) {
		a := New(Config{Interval: time.Hour, Token: testToken, MaxPostBytes: 1 << 20, Client: noNetwork})
		h := a.Handler()
		for i, b := range honest {
			if code := runnerN(i).post(h, b, i == 1); code != http.StatusNoContent {
				t.Fatalf("honest runner %d: %d", i, code)
			}
		}
		if compress {
			var b bytes.Buffer
			gz.Reset(&b)
			gz.Write(body)
			gz.Close()
			body = b.Bytes()
		}
		p := poster{id: id, api: api}
		switch who % 4 {
		case 1:
			p.remote = "10.0.0.8:4000"
		case 2:
			p.token = "-"
		case 3:
			p.id = runnerN(0).id
		}
		before := stateOf(a)
		code := p.post(h, body, final)
		switch code {
		case http.StatusNoContent:
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusConflict, http.StatusRequestEntityTooLarge:
			if after := stateOf(a); after != before {
				t.Fatalf("a refused post (%d) changed the state:\n%s\nto\n%s", code, before, after)
			}
		default:
			t.Fatalf("status %d", code)
		}
		checkState(t, a)
	})
}

// noNetwork is a client that sends nothing: a fuzzed post may cross the
// gate, and its stop must not leave the process.
var noNetwork = &http.Client{Transport: roundTripFunc(func(*http.Request) (*http.Response, error) {
	return nil, errors.New("no network in the fuzz test")
})}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// rawResult is f's result file decompressed: what the harness compresses.
func rawResult(tb testing.TB, f *result.File) []byte {
	gz, err := gzip.NewReader(bytes.NewReader(encoded(f)))
	if err != nil {
		tb.Fatal(err)
	}
	raw, err := io.ReadAll(gz)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

// stateOf describes what an aggregator keeps, to compare before and after
// a post.
func stateOf(a *Aggregator) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	var b bytes.Buffer
	b.WriteString(a.testID + " " + a.sequence)
	for _, k := range a.keys() {
		st := a.runners[k]
		b.WriteString("\n" + k + " " + st.owner.String() + " " + st.api)
		if st.final {
			b.WriteString(" final")
		}
		b.WriteString(" " + st.file.Path)
	}
	if a.closed {
		b.WriteString("\nclosed")
	}
	return b.String()
}

// checkState fails unless a's state merges and can be judged: one test,
// no segment owned twice, complete only when the finals say so.
func checkState(t *testing.T, a *Aggregator) {
	t.Helper()
	a.mu.Lock()
	files := a.files()
	var all [][]string
	for _, k := range a.keys() {
		st := a.runners[k]
		if st.file.TestID != a.testID || (st.file.Sequence != a.sequence && st.file.Sequence != "") {
			t.Errorf("segment %s: test %q sequence %q, the aggregator's %q %q", k, st.file.TestID, st.file.Sequence, a.testID, a.sequence)
		}
		all = append(all, st.file.Segments)
		for _, o := range a.runners {
			if o != st {
				if x, y, ok := overlap(st.segs, o.segs); ok {
					t.Errorf("segments %s and %s of two runners overlap", x, y)
				}
			}
		}
	}
	if a.closed && !a.isComplete() {
		t.Error("closed though not complete")
	}
	a.mu.Unlock()
	merged, _, err := result.Merge(files)
	if err != nil {
		t.Fatalf("the kept results do not merge (%v): %v", all, err)
	}
	if _, err := merged.Materialize(false); err != nil {
		t.Fatalf("the merge cannot be judged: %v", err)
	}
	a.evaluate()
}
