package options

import (
	"reflect"
	"testing"
	"time"
)

// TestK6OptionsLayers reads the same k6 options from a script, from
// K6_* variables and from their text form (flags), and checks which layer
// wins after consolidation.
func TestK6OptionsLayers(t *testing.T) {
	script, err := FromScript(map[string]any{
		"noSetup": true, "minIterationDuration": "250ms", "maxRedirects": int64(3),
		"userAgent": "script/1", "systemTags": []any{"status", "url"},
		"dns":   map[string]any{"ttl": "1m", "select": "random", "policy": "onlyIPv4"},
		"hosts": map[string]any{"a.test": "127.0.0.1", "b.test": "127.0.0.2"},
		"batch": int64(5), "throw": true,
	})
	checkErrors(t, err)
	env, err := FromEnv([]string{"K6_MAX_REDIRECTS=7", "K6_BATCH_PER_HOST=2", "K6_NO_TEARDOWN=true",
		"K6_BLACKLIST_IPS=10.0.0.0/8,192.168.0.0/16", "K6_SUMMARY_MODE=full"})
	checkErrors(t, err)
	flags := Options{Source: "flags"}
	for _, kv := range [][2]string{
		{"userAgent", ""}, {"maxRedirects", "0"}, {"hosts", "b.test=10.1.1.1"},
		{"minIterationDuration", "1s"}, {"rps", "100"},
	} {
		if err := flags.SetText(kv[0], kv[1]); err != nil {
			t.Fatalf("SetText(%s): %v", kv[0], err)
		}
	}
	o, err := Consolidate(script, env, flags)
	checkErrors(t, err)
	checks := []struct {
		name      string
		got, want any
	}{
		{"noSetup", o.NoSetup, true},
		{"noTeardown", o.NoTeardown, true},
		{"throw", o.Throw, true},
		{"minIterationDuration", o.MinIterationDuration, Duration(time.Second)},
		{"maxRedirects", *o.MaxRedirects, int64(0)},
		{"batch", *o.Batch, int64(5)},
		{"batchPerHost", *o.BatchPerHost, int64(2)},
		{"rps", *o.RPS, int64(100)},
		{"userAgent", *o.UserAgent, ""},
		{"systemTags", o.SystemTags, []string{"status", "url"}},
		{"blacklistIPs", o.BlacklistIPs, []string{"10.0.0.0/8", "192.168.0.0/16"}},
		{"dns", *o.DNS, DNS{TTL: "1m", Select: "random", Policy: "onlyIPv4"}},
		{"hosts", o.Hosts, map[string]string{"a.test": "127.0.0.1", "b.test": "10.1.1.1"}},
		{"summaryMode", o.SummaryMode, "full"},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func TestK6OptionsErrors(t *testing.T) {
	_, err := FromScript(map[string]any{
		"maxRedirects": int64(-1), "dns": map[string]any{"select": "best"},
		"summaryMode": "short", "noSetup": "yes",
	})
	checkErrors(t, err,
		`dns: select: invalid value "best"`,
		"maxRedirects: -1 is negative",
		`noSetup: expected a boolean, got string "yes"`,
		`summaryMode: invalid summary mode "short"`)
	_, err = FromEnv([]string{"K6_MIN_ITERATION_DURATION=2", "K6_HTTP_DEBUG=body", "K6_DNS=ttl=soon", "K6_LOCAL_IPS=10.0.0.1,10.0.0.300"})
	checkErrors(t, err, `K6_MIN_ITERATION_DURATION: invalid duration "2": missing unit`,
		`K6_HTTP_DEBUG: invalid value "body"`, `K6_LOCAL_IPS: invalid address "10.0.0.300"`,
		`K6_DNS: ttl: invalid value "soon"`)
}

func TestParseFlagDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Duration
		ok   bool
	}{
		{"2", 0, false},
		{"1.5", 0, false},
		{"0", 0, true},
		{"2s", Duration(2 * time.Second), true},
		{"1d", Duration(24 * time.Hour), true},
		{"x", 0, false},
	} {
		got, err := ParseFlagDuration(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseFlagDuration(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestEnvName(t *testing.T) {
	for in, want := range map[string]string{
		"batchPerHost": "K6_BATCH_PER_HOST", "blacklistIPs": "K6_BLACKLIST_IPS",
		"localIPs": "K6_LOCAL_IPS", "noVUConnectionReuse": "K6_NO_VU_CONNECTION_REUSE",
		"rps": "K6_RPS", "httpDebug": "K6_HTTP_DEBUG",
	} {
		if got := envName(in); got != want {
			t.Errorf("envName(%q) = %q, want %q", in, got, want)
		}
	}
}
