package k6http_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// multipartServer parses a multipart/form-data request and answers its
// fields and files as JSON.
func multipartServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		files := map[string]any{}
		for k, fhs := range r.MultipartForm.File {
			f, _ := fhs[0].Open()
			b, _ := io.ReadAll(f)
			files[k] = map[string]any{"name": fhs[0].Filename, "type": fhs[0].Header.Get("Content-Type"), "data": string(b)}
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"fields": r.MultipartForm.Value, "files": files})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFileAndMultipart(t *testing.T) {
	srv := multipartServer(t)
	mustRun(t, `export default function () {
  const f = http.file('hello file', 'a "quoted".txt', 'text/plain');
  eq([f.data, f.filename, f.content_type], ['hello file', 'a "quoted".txt', 'text/plain'], 'file fields');
  const bin = http.file(new Uint8Array([0, 1, 2, 255]).buffer);
  eq(bin.content_type, 'application/octet-stream', 'default content type');
  if (!/^\d+$/.test(bin.filename)) throw new Error('default filename: ' + bin.filename);
  const r = http.post(__ENV.BASE, {doc: f, blob: http.file(new Uint8Array([104, 105]), 'b.bin'), field: 'v', list: ['1', '2']});
  eq(r.status, 200, 'status: ' + r.body);
  eq(r.json('fields'), {field: ['v'], list: ['1', '2']}, 'fields');
  eq(r.json('files.doc'), {data: 'hello file', name: 'a "quoted".txt', type: 'text/plain'}, 'text file');
  eq(r.json('files.blob'), {data: 'hi', name: 'b.bin', type: 'application/octet-stream'}, 'binary file');
  if (!r.request.headers['Content-Type'][0].startsWith('multipart/form-data; boundary=')) throw new Error('content type ' + r.request.headers['Content-Type']);
  let threw = '';
  try { http.file(42); } catch (e) { threw = String(e); }
  if (!threw.includes('file: the data must be a string or an ArrayBuffer')) throw new Error('file(42): ' + threw);
}`, map[string]string{"BASE": srv.URL})
}

func TestURLTemplateNameTag(t *testing.T) {
	srv := newServer(t)
	r := mustRun(t, `export default function () {
  for (const id of [1, 2]) {
    const u = http.url`+"`${__ENV.BASE}/status/${200 + id}?x=${id}`"+`;
    eq(u.name, '${}/status/${}?x=${}', 'name');
    eq(http.get(u).status, 200 + id, 'status');
  }
  http.get(http.url`+"`${__ENV.BASE}/status/204`"+`, {tags: {name: 'mine'}});
  eq(http.batch([http.url`+"`${__ENV.BASE}/status/${203}`"+`])[0].status, 203, 'batch');
  const creds = __ENV.BASE.replace('http://', 'http://user:secret@');
  eq(http.get(http.url`+"`"+`http://user:secret@${creds.split('@')[1]}/status/${200}`+"`"+`).status, 200, 'credentials');
  let threw = '';
  try { http.url('not a template'); } catch (e) { threw = String(e); }
  if (!threw.includes('tagged template')) throw new Error(threw);
}`, map[string]string{"BASE": srv.URL})
	var names []string
	for _, s := range r.of("http_reqs") {
		names = append(names, s.Tags["name"]+" "+s.Tags["url"])
	}
	want := []string{
		"${}/status/${}?x=${} " + srv.URL + "/status/201?x=1",
		"${}/status/${}?x=${} " + srv.URL + "/status/202?x=2",
		"mine " + srv.URL + "/status/204",
		"${}/status/${} " + srv.URL + "/status/203",
		"http://${}/status/${} " + srv.URL + "/status/200",
	}
	if len(names) != len(want) {
		t.Fatalf("names %q, want %q", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("request %d: name and url %q, want %q", i, names[i], want[i])
		}
	}
}
