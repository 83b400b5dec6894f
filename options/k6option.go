package options

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/usefullatency/usefullatency/internal/netstack"
)

// k6Option is one k6 option beyond the execution and summary ones: its
// name in a script's options, its K6_* variable, how its text form (the
// variable's value, or a command-line flag's) and its script form are read,
// and how a higher layer's value is laid over a lower one's.
type k6Option struct {
	name  string
	env   string
	text  func(o *Options, s string) error
	js    scriptOption
	merge func(o *Options, h Options)
}

// k6Options lists the options read through the k6Option table. Modules
// read them from the consolidated Options; see each field's comment for
// what uses it.
var k6Options = []k6Option{
	boolOption("noSetup", func(o *Options) *bool { return &o.NoSetup }),
	boolOption("noTeardown", func(o *Options) *bool { return &o.NoTeardown }),
	durationOption("minIterationDuration", func(o *Options) *Duration { return &o.MinIterationDuration }),
	boolOption("throw", func(o *Options) *bool { return &o.Throw }),
	countOption("maxRedirects", func(o *Options) **int64 { return &o.MaxRedirects }),
	countOption("batch", func(o *Options) **int64 { return &o.Batch }),
	countOption("batchPerHost", func(o *Options) **int64 { return &o.BatchPerHost }),
	countOption("rps", func(o *Options) **int64 { return &o.RPS }),
	textOption("userAgent", func(o *Options) **string { return &o.UserAgent }),
	stringOption("httpDebug", checkHTTPDebug, func(o *Options) *string { return &o.HTTPDebug }),
	boolOption("discardResponseBodies", func(o *Options) *bool { return &o.DiscardResponseBodies }),
	boolOption("noConnectionReuse", func(o *Options) *bool { return &o.NoConnectionReuse }),
	boolOption("noVUConnectionReuse", func(o *Options) *bool { return &o.NoVUConnectionReuse }),
	boolOption("noCookiesReset", func(o *Options) *bool { return &o.NoCookiesReset }),
	listOption("systemTags", func(o *Options) *[]string { return &o.SystemTags }),
	listOption("blacklistIPs", func(o *Options) *[]string { return &o.BlacklistIPs }),
	listOption("blockHostnames", func(o *Options) *[]string { return &o.BlockHostnames }),
	stringOption("localIPs", checkLocalIPs, func(o *Options) *string { return &o.LocalIPs }),
	dnsOption(),
	hostsOption(),
	stringOption("consoleOutput", nil, func(o *Options) *string { return &o.ConsoleOutput }),
	stringOption("summaryMode", checkSummaryMode, func(o *Options) *string { return &o.SummaryMode }),
	stringOption("compatibilityMode", checkCompatibilityMode, func(o *Options) *string { return &o.CompatibilityMode }),
	boolOption("linger", func(o *Options) *bool { return &o.Linger }),
	boolOption("noUsageReport", func(o *Options) *bool { return &o.NoUsageReport }),
	boolOption("paused", func(o *Options) *bool { return &o.Paused }),
}

func init() {
	for _, opt := range k6Options {
		scriptOptions[opt.name] = opt.js
		envVars = append(envVars, envVar{opt.env, opt.text})
	}
}

// SetText sets the option a script calls name (for example "maxRedirects")
// from its text form, as its K6_* variable would: booleans in
// strconv.ParseBool's forms, durations with a unit, lists comma separated,
// dns as "ttl=1m,select=random,policy=preferIPv4", hosts as
// "name=address" pairs, comma separated. Command-line flags use it, so a
// flag and its variable mean the same.
func (o *Options) SetText(name, value string) error {
	for _, opt := range k6Options {
		if opt.name == name {
			return opt.text(o, strings.TrimSpace(value))
		}
	}
	return fmt.Errorf("unknown option %q", name)
}

// applyK6Options lays h's set k6Options over o.
func (o *Options) applyK6Options(h Options) {
	for _, opt := range k6Options {
		opt.merge(o, h)
	}
}

// envName is the K6_* variable of a script option name: an underscore
// before each capital that follows a small letter ("batchPerHost" →
// "K6_BATCH_PER_HOST", "blacklistIPs" → "K6_BLACKLIST_IPS"), with
// noVUConnectionReuse's spelled out.
func envName(name string) string {
	if name == "noVUConnectionReuse" {
		return "K6_NO_VU_CONNECTION_REUSE"
	}
	var b strings.Builder
	b.WriteString("K6_")
	for i, r := range name {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 && !(name[i-1] >= 'A' && name[i-1] <= 'Z') {
			b.WriteByte('_')
		}
		b.WriteString(strings.ToUpper(string(r)))
	}
	return b.String()
}

// boolOption is a flag that a higher layer can turn on but not off.
func boolOption(name string, p func(*Options) *bool) k6Option {
	return k6Option{
		name: name, env: envName(name),
		text: func(o *Options, s string) (err error) { *p(o), err = envBool(s); return err },
		js:   func(o *Options, v any) (err error) { *p(o), err = toBool(v); return err },
		merge: func(o *Options, h Options) {
			*p(o) = *p(o) || *p(&h)
		},
	}
}

// countOption is a non-negative integer; nil means unset.
func countOption(name string, p func(*Options) **int64) k6Option {
	js := func(o *Options, v any) error {
		n, err := toInt(v)
		if err == nil && n < 0 {
			err = fmt.Errorf("%d is negative", n)
		}
		if err == nil {
			*p(o) = &n
		}
		return err
	}
	return k6Option{
		name: name, env: envName(name),
		text: func(o *Options, s string) (err error) { *p(o), err = ptrTo(envCount(s)); return err },
		js:   js,
		merge: func(o *Options, h Options) {
			if *p(&h) != nil {
				*p(o) = *p(&h)
			}
		},
	}
}

// durationOption is a duration; zero means unset. Its text form needs a
// unit, as k6's command line does.
func durationOption(name string, p func(*Options) *Duration) k6Option {
	return k6Option{
		name: name, env: envName(name),
		text: func(o *Options, s string) error {
			d, err := ParseFlagDuration(s)
			*p(o) = Duration(d)
			return err
		},
		js: func(o *Options, v any) (err error) { *p(o), err = toDuration(v); return err },
		merge: func(o *Options, h Options) {
			if *p(&h) != 0 {
				*p(o) = *p(&h)
			}
		},
	}
}

// stringOption is a string, checked by check when it is not nil; empty
// means unset.
func stringOption(name string, check func(string) error, p func(*Options) *string) k6Option {
	set := func(o *Options, s string) error {
		if check != nil {
			if err := check(s); err != nil {
				return err
			}
		}
		*p(o) = s
		return nil
	}
	return k6Option{
		name: name, env: envName(name), text: set,
		js: func(o *Options, v any) error {
			s, err := toString(v)
			if err != nil {
				return err
			}
			return set(o, s)
		},
		merge: func(o *Options, h Options) {
			if *p(&h) != "" {
				*p(o) = *p(&h)
			}
		},
	}
}

// textOption is a string whose empty value is meaningful (userAgent: ""
// sends no User-Agent); nil means unset.
func textOption(name string, p func(*Options) **string) k6Option {
	return k6Option{
		name: name, env: envName(name),
		text: func(o *Options, s string) error { *p(o) = &s; return nil },
		js:   func(o *Options, v any) (err error) { *p(o), err = ptrTo(toString(v)); return err },
		merge: func(o *Options, h Options) {
			if *p(&h) != nil {
				*p(o) = *p(&h)
			}
		},
	}
}

// listOption is a list of strings, comma separated in its text form; nil
// means unset, so a higher layer's empty list replaces a lower one's.
func listOption(name string, p func(*Options) *[]string) k6Option {
	return k6Option{
		name: name, env: envName(name),
		text: func(o *Options, s string) error {
			*p(o) = splitList(s)
			if *p(o) == nil {
				*p(o) = []string{}
			}
			return nil
		},
		js: func(o *Options, v any) (err error) { *p(o), err = toStringList(v); return err },
		merge: func(o *Options, h Options) {
			if *p(&h) != nil {
				*p(o) = *p(&h)
			}
		},
	}
}

// checkHTTPDebug accepts k6's httpDebug values: "headers" or "full".
func checkHTTPDebug(s string) error {
	switch s {
	case "", "headers", "full":
		return nil
	}
	return fmt.Errorf("invalid value %q: want headers or full", s)
}

// checkLocalIPs accepts k6's localIPs: addresses, ranges and CIDRs,
// comma separated.
func checkLocalIPs(s string) error {
	_, err := netstack.ParseLocalIPs(s)
	if err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "localIPs: "))
	}
	return nil
}

// checkSummaryMode accepts k6 v1's summary modes.
func checkSummaryMode(s string) error {
	switch s {
	case "", "compact", "full", "legacy", "disabled":
		return nil
	}
	return fmt.Errorf("invalid summary mode %q: want compact, full, legacy or disabled", s)
}

// checkCompatibilityMode accepts k6's compatibility modes.
func checkCompatibilityMode(s string) error {
	switch s {
	case "", "extended", "base", "experimental_enhanced":
		return nil
	}
	return fmt.Errorf("invalid compatibility mode %q: want extended, base or experimental_enhanced", s)
}

// ParseFlagDuration reads a duration as k6's command line does: a Go
// duration string with a unit ("30s", "1m30s") or a day prefix ("1d2h").
// A bare number is rejected, so "-d 2" does not silently mean 2 ms.
func ParseFlagDuration(s string) (dur Duration, err error) {
	s = strings.TrimSpace(s)
	if bareNumberRE.MatchString(s) && s != "0" {
		return 0, fmt.Errorf("invalid duration %q: missing unit, e.g. %ss", s, s)
	}
	d, err := ParseDuration(s)
	return Duration(d), err
}

// errBadPair is returned for a name=value entry without a name or "=".
var errBadPair = errors.New("want NAME=VALUE")

// pairs reads "a=1,b=2" into a map.
func pairs(s string) (map[string]string, error) {
	out := map[string]string{}
	for _, kv := range splitList(s) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%q: %w", kv, errBadPair)
		}
		out[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out, nil
}

// quoteAll quotes each entry, for messages.
func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
