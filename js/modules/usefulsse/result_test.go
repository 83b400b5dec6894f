package usefulsse

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
)

// TestResultView reads a result the way scripts do: every property with
// its value and type, null for a moment never reached, objects that keep
// their identity and the script's changes, the keys in a fixed order and
// JSON.stringify of all of them; and calls request, post and get with
// missing, null and extra arguments, and with arguments that throw.
func TestResultView(t *testing.T) {
	registerOnce.Do(func() { modules.Register(Name, New()) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("X-Trace", "abc")
		fmt.Fprint(w, "data: {\"delta\":\"Refund approved.\"}\n\n")
		fmt.Fprint(w, "data: {\"business_state\":{\"decision\":\"refund\",\"reason\":\"late\",\"next_step\":\"click\"}}\n\n")
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	src := fmt.Sprintf(`import usefulsse from 'k6/x/usefulsse';
const url = %q;
function eq(got, want, what) {
  if (got !== want) throw new Error(what + ': got ' + JSON.stringify(got) + ', want ' + JSON.stringify(want));
}
export default function () {
  const res = usefulsse.post(url, '{}', { dialect: 'business', marks: { refund: (ctx) => ctx.text.includes('Refund') } });
  eq(res.status, 200, 'status');
  eq(res.proto, 'HTTP/1.1', 'proto');
  eq(res.headers['X-Trace'], 'abc', 'header');
  eq(res.error, '', 'error');
  eq(res.error_code, '', 'error_code');
  eq(res.url, url, 'url');
  eq(res.dialect, 'business', 'dialect');
  eq(res.text, 'Refund approved.', 'text');
  eq(res.state.decision, 'refund', 'state');
  eq(res.tool_calls.length, 0, 'tool_calls');
  eq(res.usage.output_tokens, 0, 'usage');
  eq(res.events, 3, 'events');
  eq(res.useful_reached, true, 'useful_reached');
  eq(res.good, null, 'good without objectives');
  eq(res.timings.queue, null, 'a moment never reached');
  eq(res.timings.tls_handshaking, null, 'no TLS');
  eq(typeof res.timings.first_text, 'number', 'first_text');
  eq(res.timings.useful >= res.timings.first_text, true, 'useful after first_text');
  eq(typeof res.marks.refund, 'number', 'mark');
  eq(res.timings, res.timings, 'one timings object');
  res.timings.first_text = -1;
  eq(res.timings.first_text, -1, 'a change to a kept object');
  res.extra = 1;
  delete res.reasoning;
  eq('reasoning' in res, false, 'deleted');
  const keys = Object.keys(res).join();
  eq(keys, 'status,proto,headers,error,error_code,url,dialect,text,state,tool_calls,cost,usage,events,heartbeats,' +
    'empty_events,coalesced_events,read_lag,useful_reached,good,timings,marks,extra', 'keys');
  const json = JSON.parse(JSON.stringify(res));
  eq(json.timings.first_text, -1, 'JSON of a kept object');
  eq(json.good, null, 'JSON null');
  eq(json.extra, 1, 'JSON of a set property');
  eq(Object.keys(res.timings).join(), 'schedule_lag,connecting,tls_handshaking,queue,headers,first_event,' +
    'first_text,useful,complete,max_gap', 'timings keys');
  eq(json.timings.queue, null, 'JSON of a moment never reached');
  eq(typeof json.timings.complete, 'number', 'JSON of a timing');
  eq('first_event' in res.timings && !('nope' in res.timings), true, 'in');
  delete res.timings.max_gap;
  eq(Object.keys(res.timings).includes('max_gap') || res.timings.max_gap !== undefined, false, 'a deleted timing');
  eq({ ...res.timings }.headers, res.timings.headers, 'spread');

  eq(usefulsse.request('POST', url, '{}').status, 200, 'request');
  eq(usefulsse.get(url).status, 200, 'get without params');
  eq(usefulsse.get(url, null, 'extra').status, 200, 'get with null params and an extra argument');
  let thrown = '';
  try { usefulsse.post(url, '{}', { nope: 1 }); } catch (e) { thrown = String(e); }
  eq(thrown.includes('unknown param "nope"'), true, 'an error thrown: ' + thrown);
  thrown = '';
  try { usefulsse.post(); } catch (e) { thrown = String(e); }
  eq(thrown !== '', true, 'no url');
}
`, srv.URL)
	if r := jstest.Run(context.Background(), t, src, 1); r.Err != nil {
		t.Fatal(r.Err)
	}
}
