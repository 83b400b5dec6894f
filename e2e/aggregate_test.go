package e2e

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// listeningRE finds the address in the aggregator's first line.
var listeningRE = regexp.MustCompile(`listening on (http://[0-9.:]+) `)

// aggregatorToken is the token the tests' aggregators and runners share.
const aggregatorToken = "e2e-aggregator-t0ken"

// withToken is the environment that gives an aggregator or a runner the
// shared token.
var withToken = []string{"K6_AGGREGATOR_TOKEN=" + aggregatorToken}

// startAggregator starts `aggregate` for three runners on a free loopback
// port, with the shared token, and returns it with its URL.
func startAggregator(t *testing.T, export string) (*started, string) {
	t.Helper()
	agg := invocation{env: withToken, args: []string{"aggregate", "--listen", "127.0.0.1:0", "--runners", "3", "--interval", "200ms",
		"--no-summary", "--summary-export", export}}.start(t, binary)
	agg.log.await(t, "listening on")
	m := listeningRE.FindStringSubmatch(agg.log.String())
	if m == nil {
		t.Fatalf("no address in the aggregator's log:\n%s", agg.log.String())
	}
	return agg, m[1]
}

// startRunners starts the three segments of aggregate/count.js, each with
// a REST API on a free port, posting to the aggregator at url every 200 ms
// with the shared token (given by -o aggregator=URL, to the second by
// K6_AGGREGATOR_URL).
func startRunners(t *testing.T, url string, env ...string) []*started {
	t.Helper()
	var runners []*started
	for i, seg := range segments {
		inv := invocation{env: append([]string{"K6_AGGREGATOR_PUSH_INTERVAL=200ms", withToken[0]}, env...), args: []string{
			"run", "-q", "--no-summary", script("aggregate/count.js"), "--execution-segment", seg,
			"--execution-segment-sequence", sequence, "--address", "127.0.0.1:0",
		}}
		if i == 1 { // finds it by the environment alone
			inv.env = append(inv.env, "K6_AGGREGATOR_URL="+url)
		} else {
			inv.args = append(inv.args, "-o", "aggregator="+url)
		}
		runners = append(runners, inv.start(t, binary))
	}
	return runners
}

// TestAggregatorStopsEveryRunner: three runners post to one aggregator; the
// gate done<30 with abortOnFail is never crossed by a runner's share (20
// iterations) but is by the whole test, so the aggregator stops all three
// through their REST APIs (exit 103, before their 60 iterations) and exits
// 99 with the summary of the whole test. With a gate the whole test passes
// (the converse), every runner finishes its share and the aggregator
// exits 0 once the three sent their final results.
func TestAggregatorStopsEveryRunner(t *testing.T) {
	t.Parallel()
	t.Run("crossed", func(t *testing.T) {
		t.Parallel()
		exp := filepath.Join(t.TempDir(), "summary.json")
		agg, url := startAggregator(t, exp)
		for i, r := range startRunners(t, url) {
			res := r.out()
			res.wantCode(t, 103)
			if strings.Contains(res.stderr, "WARN aggregator") {
				t.Errorf("runner %d could not post:\n%s", i, res.stderr)
			}
		}
		a := agg.out()
		a.wantCode(t, 99)
		for _, line := range []string{"thresholds on metrics 'done' crossed with abortOnFail: stopping every runner",
			"3 runners (0 finished), segments 0:1/3 1/3:2/3 2/3:1", "ERRO thresholds on metrics 'done' have been crossed"} {
			if !strings.Contains(a.stderr, line) {
				t.Errorf("aggregator log lacks %q:\n%s", line, a.stderr)
			}
		}
		if n := number(t, export(t, exp), "metrics", "done", "count"); n < 30 || n >= 60 {
			t.Errorf("done = %v in the whole test, want the gate crossed (>= 30) and the runners stopped before 60", n)
		}
	})
	t.Run("passed", func(t *testing.T) {
		t.Parallel()
		exp := filepath.Join(t.TempDir(), "summary.json")
		agg, url := startAggregator(t, exp)
		for _, r := range startRunners(t, url, "LIMIT=61", "PAUSE=0.02") {
			r.out().wantCode(t, 0)
		}
		a := agg.out()
		a.wantCode(t, 0)
		if strings.Contains(a.stderr, "stopping") || strings.Contains(a.stderr, "ERRO") {
			t.Errorf("the aggregator stopped runners or failed:\n%s", a.stderr)
		}
		if n := number(t, export(t, exp), "metrics", "done", "count"); n != 60 {
			t.Errorf("done = %v in the whole test, want 60", n)
		}
	})
}

// TestAggregatorDown: a runner whose aggregator refuses connections, or
// accepts them and never answers, runs its test to the end in about its own
// duration (the last post has a bounded time) with one warning line.
func TestAggregatorDown(t *testing.T) {
	t.Parallel()
	short := []string{"LIMIT=61", "PAUSE=0.05"} // 20 iterations of 50 ms per VU: about 1 s
	base := invocation{env: short, args: []string{"run", "-q", "--no-summary", script("aggregate/count.js")}}.run(t)
	base.wantCode(t, 0)

	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { silent.Close() })
	go func() { // accepts and never answers
		var held []net.Conn
		for {
			c, err := silent.Accept()
			if err != nil {
				for _, c := range held {
					c.Close()
				}
				return
			}
			held = append(held, c)
		}
	}()
	for name, url := range map[string]string{
		"refused":        "http://" + freeLoopbackAddr(t),
		"never answers":  "http://" + silent.Addr().String(),
		"unknown host":   "http://aggregator.invalid:6566",
		"password in it": "http://user:hunter2@" + freeLoopbackAddr(t) + "/?api_key=hunter2",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := invocation{env: append([]string{"K6_AGGREGATOR_PUSH_INTERVAL=100ms"}, short...), args: []string{
				"run", "-q", "--no-summary", script("aggregate/count.js"), "-o", "aggregator=" + url,
			}}.run(t)
			r.wantCode(t, 0)
			if n := strings.Count(r.stderr, "WARN aggregator"); n != 1 {
				t.Errorf("%d warning lines about the aggregator, want 1:\n%s", n, r.stderr)
			}
			if strings.Contains(r.stderr, "hunter2") {
				t.Errorf("the password reached the log:\n%s", r.stderr)
			}
			// The last post may wait 1 s (3 s for an aggregator that answered);
			// nothing else may.
			if limit := base.elapsed + 4*time.Second; r.elapsed > limit {
				t.Errorf("the run took %s, its own duration is %s: want under %s", r.elapsed, base.elapsed, limit)
			}
		})
	}
}

// TestAggregatorBadInput: bad output arguments and aggregate flags are one
// error line with k6's exit code for a bad configuration.
func TestAggregatorBadInput(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		env  []string
		want string
		code int
	}{
		{[]string{"run", script("aggregate/count.js"), "-o", "aggregator"}, nil, "want -o aggregator=URL", 104},
		{[]string{"run", script("aggregate/count.js"), "-o", "aggregator=ftp://x"}, nil, `aggregator URL "ftp://x": want http://host:port`, 104},
		{[]string{"run", script("aggregate/count.js"), "-o", "aggregator=http://127.0.0.1:1"}, []string{"K6_AGGREGATOR_PUSH_INTERVAL=often"}, `K6_AGGREGATOR_PUSH_INTERVAL="often"`, 104},
		{[]string{"aggregate", "--runners", "-1"}, nil, "--runners -1", 104},
		{[]string{"aggregate", "extra"}, nil, "aggregate takes no arguments", 104},
		{[]string{"aggregate", "--listen", "0.0.0.0:0"}, nil, "--listen 0.0.0.0:0 takes posts from other machines: give the runners' shared token with K6_AGGREGATOR_TOKEN", 104},
		{[]string{"aggregate", "--token", "secret token"}, nil, "--token (or K6_AGGREGATOR_TOKEN): want 8 to 4096 visible ASCII characters", 104},
		{[]string{"aggregate"}, []string{"K6_AGGREGATOR_TOKEN=secret"}, "--token (or K6_AGGREGATOR_TOKEN): want 8 to 4096", 104},
		{[]string{"aggregate", "--max-post-size", "huge"}, nil, `--max-post-size "huge"`, 104},
		{[]string{"run", script("aggregate/count.js"), "-o", "aggregator=http://127.0.0.1:1"}, []string{"K6_AGGREGATOR_TOKEN=secret token"}, "K6_AGGREGATOR_TOKEN: want 8 to 4096 visible ASCII characters", 104},
	} {
		r := invocation{args: tc.args, env: tc.env}.run(t)
		r.wantCode(t, tc.code)
		if line := r.errorLine(t); !strings.Contains(line, tc.want) {
			t.Errorf("%v: error %q, want it to contain %q", tc.args, line, tc.want)
		}
		if strings.Contains(r.stderr, "secret") {
			t.Errorf("%v: the token reached the log:\n%s", tc.args, r.stderr)
		}
	}
}

// TestAggregatorRefusesStrangers: while three runners post to an
// aggregator with a token, a post without the token (401) and a forged
// "whole test, final" result with it (409: its segment 0:1 overlaps the
// runners') are refused and logged; neither ends the aggregation, which
// ends once the three runners finished, with their result alone (exit 0,
// 60 iterations). A runner with a wrong token runs its test to the end
// with one warning line that does not show its token.
func TestAggregatorRefusesStrangers(t *testing.T) {
	t.Parallel()
	gate := []string{"LIMIT=61"}
	forged := filepath.Join(t.TempDir(), "forged.res")
	invocation{env: append([]string{"PAUSE=0.01"}, gate...), args: []string{"run", "-q", "--no-summary", script("aggregate/count.js"),
		"-o", "result=" + forged}}.run(t).wantCode(t, 0)
	body, err := os.ReadFile(forged)
	if err != nil {
		t.Fatal(err)
	}

	exp := filepath.Join(t.TempDir(), "summary.json")
	agg, url := startAggregator(t, exp)
	runners := startRunners(t, url, gate...)
	agg.log.await(t, "3 runners (")
	for _, tc := range []struct {
		auth string
		want int
	}{
		{"", http.StatusUnauthorized},
		{"Bearer not-the-t0ken", http.StatusUnauthorized},
		{"Bearer " + aggregatorToken, http.StatusConflict},
	} {
		req, _ := http.NewRequest(http.MethodPost, url+"/v1/results", bytes.NewReader(body))
		req.Header.Set("X-Usefullatency-Final", "true")
		req.Header.Set("X-Usefullatency-Runner", "forger")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		msg, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("a forged post with %q: %s %s, want %d", tc.auth, resp.Status, msg, tc.want)
		}
	}
	wrong := invocation{env: append([]string{"K6_AGGREGATOR_TOKEN=wrong-t0ken-here", "PAUSE=0.01"}, gate...), args: []string{"run", "-q", "--no-summary",
		script("aggregate/count.js"), "-o", "aggregator=" + url}}.run(t)
	wrong.wantCode(t, 0)
	if strings.Count(wrong.stderr, "WARN aggregator") != 1 || !strings.Contains(wrong.stderr, "401 Unauthorized") || strings.Contains(wrong.stderr, "wrong-t0ken-here") {
		t.Errorf("the runner with a wrong token:\n%s", wrong.stderr)
	}
	for _, r := range runners {
		r.out().wantCode(t, 0)
	}
	a := agg.out()
	a.wantCode(t, 0)
	for _, want := range []string{"refused a post from 127.0.0.1 (401 Unauthorized)", "refused a post from 127.0.0.1 (409 Conflict): segment 0:1 overlaps segment 0:1/3"} {
		if !strings.Contains(a.stderr, want) {
			t.Errorf("the aggregator's log lacks %q:\n%s", want, a.stderr)
		}
	}
	if strings.Contains(a.stderr, aggregatorToken) {
		t.Errorf("the token reached the aggregator's log:\n%s", a.stderr)
	}
	if n := number(t, export(t, exp), "metrics", "done", "count"); n != 60 {
		t.Errorf("done = %v in the whole test, want the three runners' 60", n)
	}
}

// TestAggregatorSIGINT: without --runners the aggregator waits until the
// finished runners cover the whole test; SIGINT ends the wait with the
// summary of what it has, a warning naming the missing segments, and the
// exit code of the thresholds on it.
func TestAggregatorSIGINT(t *testing.T) {
	t.Parallel()
	agg := invocation{args: []string{"aggregate", "--listen", "127.0.0.1:0", "--interval", "100ms"}}.start(t, binary)
	agg.log.await(t, "listening on")
	url := listeningRE.FindStringSubmatch(agg.log.String())[1]
	invocation{env: []string{"LIMIT=61", "PAUSE=0.02"}, args: []string{"run", "-q", "--no-summary", script("aggregate/count.js"),
		"--execution-segment", segments[0], "--execution-segment-sequence", sequence, "-o", "aggregator=" + url}}.run(t).wantCode(t, 0)
	agg.log.await(t, "1 runners (1 finished), segments 0:1/3")
	select {
	case <-agg.exited:
		t.Fatalf("the aggregator ended with 1 of 3 segments:\n%s", agg.log.String())
	default:
	}
	if err := agg.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	r := agg.out()
	r.wantCode(t, 0)
	if !strings.Contains(r.stderr, "WARN the results cover segments 0:1/3, not the whole test (missing 1/3:1)") {
		t.Errorf("no coverage warning:\n%s", r.stderr)
	}
	if !regexp.MustCompile(`done\.+: 20 `).MatchString(r.stdout) {
		t.Errorf("summary lacks the share's 20 iterations of done:\n%s", r.stdout)
	}
}

// TestDeployAggregatorToken: the k6-operator example gives the aggregator
// and the runners the same token, from one secret (the aggregator listens
// on every interface, which it refuses without a token); the runners'
// reference is optional, so the TestRun runs without the aggregator.
func TestDeployAggregatorToken(t *testing.T) {
	aggYAML, testRun := readRepoFile(t, "../deploy/k6-operator/aggregator.yaml"), readRepoFile(t, testRunYAML)
	ref := regexp.MustCompile(`- name: K6_AGGREGATOR_TOKEN\n\s+valueFrom:\n\s+secretKeyRef:\n\s+name: (\S+)\n\s+key: (\S+)\n(\s+optional: true\n)?`)
	agg, run := ref.FindStringSubmatch(aggYAML), ref.FindStringSubmatch(testRun+"\n")
	if agg == nil || run == nil {
		t.Fatalf("K6_AGGREGATOR_TOKEN from a secret: aggregator.yaml %v, testrun.yaml %v", agg != nil, run != nil)
	}
	if agg[1] != run[1] || agg[2] != run[2] || agg[3] != "" || run[3] == "" {
		t.Errorf("the aggregator's token is %s/%s (optional %q), the runners' %s/%s (optional %q): want one secret, optional for the runners only",
			agg[1], agg[2], agg[3], run[1], run[2], run[3])
	}
	if !strings.Contains(aggYAML, "kubectl create secret generic "+agg[1]+" ") || !strings.Contains(aggYAML, "--from-literal="+agg[2]+"=") {
		t.Errorf("aggregator.yaml does not say how to create the secret %s with key %s", agg[1], agg[2])
	}
}
