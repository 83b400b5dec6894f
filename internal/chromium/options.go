package chromium

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Options are how a browser is launched: k6's K6_BROWSER_* settings.
type Options struct {
	// ExecutablePath is the Chromium to run; empty looks up $CHROMIUM,
	// chromium, chromium-browser, google-chrome on PATH.
	ExecutablePath string
	// Headless runs without a window (the default).
	Headless bool
	// Args are extra command-line flags, "name" or "name=value", without
	// the leading dashes.
	Args []Arg
	// Timeout bounds each browser action that has no timeout of its own
	// (k6's default: 30 s).
	Timeout time.Duration
	// Samples receives every page's metrics (browser_http_req_duration,
	// browser_web_vital_lcp, …; see Sample). Nil gathers none and installs
	// nothing in the pages. Each page calls it from a goroutine of its own,
	// one sample at a time and in order, so pages call it concurrently; a
	// slow Samples delays only its page's samples. A page's last call
	// happens before its Close returns.
	Samples func(Sample)
}

// Arg is one extra Chromium flag.
type Arg string

// split returns the flag's name and its value (true when it has none).
func (a Arg) split() (string, any) {
	s := strings.TrimLeft(string(a), "-")
	if name, value, ok := strings.Cut(s, "="); ok {
		return name, value
	}
	return s, true
}

// DefaultTimeout is the timeout of a browser action when none is set.
const DefaultTimeout = 30 * time.Second

// withDefaults fills unset fields.
func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o
}

// executable returns the Chromium to run.
func (o Options) executable() (string, error) {
	if o.ExecutablePath != "" {
		return lookPath(o.ExecutablePath)
	}
	return lookPath(os.Getenv("CHROMIUM"), "chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
}

// OptionsFromEnv reads k6's browser settings from the environment lookup
// env: K6_BROWSER_HEADLESS, K6_BROWSER_ARGS (comma-separated flags),
// K6_BROWSER_EXECUTABLE_PATH and K6_BROWSER_TIMEOUT. An error names the
// variable and its value.
func OptionsFromEnv(env func(string) string) (Options, error) {
	o := Options{Headless: true, Timeout: DefaultTimeout}
	if v := env("K6_BROWSER_HEADLESS"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return o, fmt.Errorf("K6_BROWSER_HEADLESS=%q: not a boolean", v)
		}
		o.Headless = b
	}
	if v := env("K6_BROWSER_ARGS"); v != "" {
		for _, a := range strings.Split(v, ",") {
			if a = strings.TrimSpace(a); a != "" {
				o.Args = append(o.Args, Arg(a))
			}
		}
	}
	o.ExecutablePath = env("K6_BROWSER_EXECUTABLE_PATH")
	if v := env("K6_BROWSER_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return o, fmt.Errorf("K6_BROWSER_TIMEOUT=%q: not a positive duration", v)
		}
		o.Timeout = d
	}
	return o, nil
}
