package k6http_test

import (
	"strings"
	"testing"
)

func TestJSONSelectors(t *testing.T) {
	srv := newServer(t)
	mustRun(t, `export default function () {
  const r = http.get(__ENV.BASE + '/json');
  eq(r.json(), {user: {name: 'ada', langs: ['go', 'js']}, items: [{id: 1}, {id: 2}], n: null}, 'whole document');
  eq(Object.keys(r.json()), ['user', 'items', 'n'], 'keys in document order');
  eq(r.json('user.name'), 'ada', 'path');
  eq(r.json('user.langs.1'), 'js', 'array index');
  eq(r.json('items.#'), 2, 'array length');
  eq(r.json('items.#.id'), [1, 2], 'array of fields');
  eq(r.json('items.#(id==2)'), {id: 2}, 'query');
  eq(r.json('user'), {name: 'ada', langs: ['go', 'js']}, 'object');
  eq(r.json('n'), null, 'null value');
  eq(r.json('missing.path'), undefined, 'no match is undefined');
  if (!Array.isArray(r.json('user.langs'))) throw new Error('arrays are JavaScript arrays');
}`, map[string]string{"BASE": srv.URL})
	for _, c := range []struct{ call, want string }{
		{`http.get(__ENV.BASE + '/notjson').json()`, `json(): the body is not valid JSON: "<html>"`},
		{`http.get(__ENV.BASE + '/notjson').json('a')`, `not valid JSON`},
		{`http.get(__ENV.BASE + '/json', {responseType: 'none'}).json()`, `the response has no body`},
	} {
		r := runScript(t, `export default function () { `+c.call+`; }`, map[string]string{"BASE": srv.URL})
		if r.err == nil || !strings.Contains(r.err.Error(), c.want) {
			t.Errorf("%s: error = %v, want %q", c.call, r.err, c.want)
		}
	}
}

func TestResponseTypes(t *testing.T) {
	srv := newServer(t)
	r := mustRun(t, `export default function () {
  let r = http.get(__ENV.BASE + '/bytes', {responseType: 'binary'});
  if (!(r.body instanceof ArrayBuffer)) throw new Error('binary body is not an ArrayBuffer: ' + typeof r.body);
  const b = new Uint8Array(r.body);
  eq([b.length, b[0], b[200], b[255]], [256, 0, 200, 255], 'binary bytes');
  r = http.get(__ENV.BASE + '/bytes', {responseType: 'none'});
  eq([r.status, r.body], [200, null], 'none');
  r = http.get(__ENV.BASE + '/multi', {responseType: 'text'});
  eq(r.body, 'ok', 'text');
}`, map[string]string{"BASE": srv.URL})
	// responseType none still reads the body: its bytes are received.
	recv := r.of("data_received")
	if len(recv) != 3 || recv[1].Value < 256 {
		t.Errorf("data_received = %+v, want the 256-byte body counted with responseType none", recv)
	}
}
