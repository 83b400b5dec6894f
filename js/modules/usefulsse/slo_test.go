package usefulsse

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/grafana/sobek"
	"github.com/usefullatency/usefullatency/js/jstest"
	"github.com/usefullatency/usefullatency/js/modules"
	"github.com/usefullatency/usefullatency/metrics"
	"github.com/usefullatency/usefullatency/sse"
)

// TestSLOParam reads the slo param into objectives in the order of the
// result's timings, and refuses every invalid one before anything is sent,
// naming the param and each bad key.
func TestSLOParam(t *testing.T) {
	rt := sobek.New()
	params, err := rt.RunString(`({slo: {useful: '2.5s', first_text: 800, max_gap: '1m', queue: 0.5}})`)
	if err != nil {
		t.Fatal(err)
	}
	built, err := buildRequest(rt, "GET", "http://127.0.0.1/", sobek.Undefined(), params, direct)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range built.slo {
		got = append(got, fmt.Sprintf("%s<=%g", o.timing, o.limit))
	}
	if want := "queue<=0.5 first_text<=800 useful<=2500 max_gap<=60000"; strings.Join(got, " ") != want {
		t.Errorf("objectives %v, want %s", got, want)
	}
	for src, want := range map[string]string{
		`({slo: {usefull: '1s'}})`:              `usefulsse: params.slo: unknown timing "usefull" (want one of queue, headers, first_event, first_text, useful, complete, max_gap)`,
		`({slo: {schedule_lag: '1s'}})`:         `unknown timing "schedule_lag"`,
		`({slo: {useful: '2.5 seconds'}})`:      `usefulsse: params.slo: useful: invalid duration "2.5 seconds"`,
		`({slo: {useful: -1}})`:                 `params.slo: useful: want a duration above zero, got -1`,
		`({slo: {useful: 0}})`:                  `params.slo: useful: want a duration above zero`,
		`({slo: {useful: '0s'}})`:               `params.slo: useful: want a duration above zero`,
		`({slo: {useful: NaN}})`:                `params.slo: useful: want a duration above zero`,
		`({slo: {useful: Infinity}})`:           `params.slo: useful: want a duration above zero`,
		`({slo: {useful: true}})`:               `params.slo: useful: want a duration such as '2.5s' or a number of milliseconds, got true`,
		`({slo: {useful: null}})`:               `params.slo: useful: want a duration such as`,
		`({slo: '2.5s'})`:                       `usefulsse: params.slo: want an object {<timing>: duration}`,
		`({slo: ['useful']})`:                   `params.slo: want an object`,
		`({slo: {x: '1s', complete: 'soon'}})`:  `params.slo: complete: invalid duration "soon"`, // every problem
		`({slo: {x: '1s', complete: 'soon'}}) `: `unknown timing "x"`,
	} {
		p, err := rt.RunString(src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := buildRequest(rt, "GET", "http://127.0.0.1/", sobek.Undefined(), p, direct); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", src, err, want)
		}
	}
}

// TestSLOVerdict judges results against objectives: good only when the
// request succeeded and every bounded timing was reached within its limit;
// no verdict without objectives.
func TestSLOVerdict(t *testing.T) {
	ms := func(v float64) *float64 { return &v }
	rt := sobek.New()
	parse := func(src string) objectives {
		v, err := rt.RunString("(" + src + ")")
		if err != nil {
			t.Fatal(err)
		}
		o, err := parseObjectives(v)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	done := sse.Timings{FirstText: ms(300), Useful: ms(2400), Complete: ms(5000), MaxGap: ms(900)}
	cases := []struct {
		name, slo string
		res       sse.Result
		want      string // "true", "false" or "null"
	}{
		{"all met", `{useful: '2.5s', first_text: '800ms'}`, sse.Result{Timings: done}, "true"},
		{"at the limit", `{useful: 2400}`, sse.Result{Timings: done}, "true"},
		{"one missed", `{useful: '2.5s', complete: '4s'}`, sse.Result{Timings: done}, "false"},
		{"never reached", `{queue: '10s'}`, sse.Result{Timings: done}, "false"},
		{"failed in time", `{first_text: '1s'}`, sse.Result{ErrorCode: "reset", Timings: sse.Timings{FirstText: ms(10)}}, "false"},
		{"no objective", `{}`, sse.Result{Timings: done}, "null"},
	}
	for _, c := range cases {
		got := "null"
		if v := parse(c.slo).verdict(&c.res); v != nil {
			got = fmt.Sprint(*v)
		}
		if got != c.want {
			t.Errorf("%s: verdict %s, want %s", c.name, got, c.want)
		}
	}
}

// TestGoodput sends requests with objectives to a real server and checks
// res.good and the usefulsse_good samples: one per request that names an
// objective, 1 when it was met, 0 when a timing was late, never reached, or
// the request failed, none without objectives; tagged like the other
// samples. An invalid slo throws before anything is sent.
func TestGoodput(t *testing.T) {
	registerOnce.Do(func() { modules.Register(Name, New()) })
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if r.URL.Path == "/down" {
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "data: {\"delta\":\"The order can be refunded.\"}\n\n")
		if r.URL.Path == "/answer" {
			fmt.Fprint(w, "data: {\"business_state\":{\"decision\":\"refund\",\"reason\":\"late\",\"next_step\":\"click\"}}\n\n")
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	src := fmt.Sprintf(`import usefulsse from 'k6/x/usefulsse';
const base = %q;
function eq(got, want, what) {
  if (got !== want) throw new Error(what + ': good ' + got + ', want ' + want);
}
export default async function () {
  const p = { dialect: 'business', tags: { bucket: 'qa' } };
  eq(usefulsse.post(base + '/answer', '{}', { ...p, slo: { useful: '10s', first_text: 10000 } }).good, true, 'met');
  eq(usefulsse.post(base + '/answer', '{}', { ...p, slo: { useful: 0.001 } }).good, false, 'late');
  eq(usefulsse.post(base + '/text', '{}', { ...p, slo: { first_text: '10s', useful: '10s' } }).good, false, 'useful never reached');
  eq(usefulsse.post(base + '/answer', '{}', { ...p, slo: { queue: '10s' } }).good, false, 'no queue reported');
  eq(usefulsse.post(base + '/down', '{}', { ...p, slo: { complete: '10s' } }).good, false, 'failed');
  eq(usefulsse.post(base + '/answer', '{}', p).good, null, 'no slo');
  eq(usefulsse.post(base + '/answer', '{}', { ...p, slo: {} }).good, null, 'empty slo');
  eq((await usefulsse.requestAsync('POST', base + '/answer', '{}', { ...p, slo: { complete: '10s' } })).good, true, 'async');
  let thrown = '';
  try { usefulsse.post(base + '/answer', '{}', { ...p, slo: { usefull: '1s' } }); } catch (e) { thrown = String(e); }
  if (!thrown.includes('params.slo: unknown timing "usefull"')) throw new Error('invalid slo: ' + thrown);
}
`, srv.URL)
	r := jstest.Run(context.Background(), t, src, 1)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if n := hits.Load(); n != 8 {
		t.Errorf("the server got %d requests, want 8: the invalid slo must throw before sending", n)
	}
	good := jstest.Of(r.Samples, metrics.ProbeGood)
	var values []string
	for _, s := range good {
		values = append(values, fmt.Sprintf("%g:%s", s.Value, s.Tags["status"]))
		if s.Tags["bucket"] != "qa" || s.Tags["scenario"] != "default" || s.Tags["method"] != "POST" || s.Metric.Type != metrics.Rate {
			t.Errorf("usefulsse_good sample %+v: want a Rate tagged like the request", s)
		}
	}
	if got, want := strings.Join(values, " "), "1:200 0:200 0:200 0:200 0:503 1:200"; got != want {
		t.Errorf("usefulsse_good samples (value:status) %s, want %s", got, want)
	}
	if n := len(jstest.Of(r.Samples, metrics.ProbeFailed)); n != 8 {
		t.Errorf("%d usefulsse_failed samples, want 8", n)
	}
}
