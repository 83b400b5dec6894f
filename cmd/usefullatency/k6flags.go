package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/options"
)

// optionFlag is a flag of `k6 run` that sets one k6 option; its value goes
// through options.SetText, so the flag means what its K6_* variable means.
type optionFlag struct {
	name, short, option, usage string
	// def is the default shown in --help (k6's); it is never applied, an
	// unset flag leaves the option unset.
	def any
	// noOpt is the value of the flag given without one ("--http-debug").
	noOpt string
}

// optionFlags are k6's option flags beyond the execution and summary ones.
var optionFlags = []optionFlag{
	{name: "no-setup", option: "noSetup", def: false, usage: "don't run setup()"},
	{name: "no-teardown", option: "noTeardown", def: false, usage: "don't run teardown()"},
	{name: "min-iteration-duration", option: "minIterationDuration", def: "",
		usage: "least time an iteration takes, e.g. 1s; a VU that finished earlier waits"},
	{name: "console-output", option: "consoleOutput", def: "", usage: "write console.log lines to FILE"},
	{name: "summary-mode", option: "summaryMode", def: "",
		usage: "summary mode: compact, full, legacy or disabled (all but disabled print the full summary)"},
	{name: "throw", short: "w", option: "throw", def: false, usage: "throw warnings (like failed HTTP requests) as errors"},
	{name: "max-redirects", option: "maxRedirects", def: int64(10), usage: "follow at most n redirects"},
	{name: "batch", option: "batch", def: int64(20), usage: "max parallel batch requests"},
	{name: "batch-per-host", option: "batchPerHost", def: int64(6), usage: "max parallel batch requests per host"},
	{name: "rps", option: "rps", def: int64(0), usage: "limit requests per second (0: no limit)"},
	{name: "user-agent", option: "userAgent", def: "", usage: "User-Agent header of HTTP requests"},
	{name: "http-debug", option: "httpDebug", def: "", noOpt: "headers",
		usage: "log HTTP requests and responses; --http-debug=full includes bodies"},
	{name: "discard-response-bodies", option: "discardResponseBodies", def: false,
		usage: "read but don't keep HTTP response bodies"},
	{name: "no-connection-reuse", option: "noConnectionReuse", def: false, usage: "disable keep-alive connections"},
	{name: "no-vu-connection-reuse", option: "noVUConnectionReuse", def: false,
		usage: "don't reuse connections between iterations"},
	{name: "system-tags", option: "systemTags", def: "", usage: "only include these system tags in metrics (comma separated)"},
	{name: "blacklist-ip", option: "blacklistIPs", def: "", usage: "block an IP range (CIDR) from being called (repeatable)"},
	{name: "block-hostnames", option: "blockHostnames", def: "",
		usage: "block a hostname pattern, with an optional leading *, from being called (repeatable)"},
	{name: "hosts", option: "hosts", def: "", usage: "resolve NAME to ADDRESS, as NAME=ADDRESS (repeatable)"},
	{name: "local-ips", option: "localIPs", def: "", usage: "client IP ranges and/or CIDRs the VUs send from"},
	{name: "dns", option: "dns", def: "", usage: "DNS resolver configuration, e.g. ttl=5m,select=random,policy=preferIPv4"},
	{name: "compatibility-mode", option: "compatibilityMode", def: "", usage: "JavaScript compatibility mode: extended or base"},
	{name: "linger", short: "l", option: "linger", def: false,
		usage: "after the test, keep the process and its REST API up until SIGINT or SIGTERM"},
	{name: "no-usage-report", option: "noUsageReport", def: false, usage: "accepted for k6 compatibility; no report is ever sent"},
	{name: "paused", short: "p", option: "paused", def: false,
		usage: "initialise the VUs, then wait for PATCH /v1/status (REST API) to start the test"},
}

// ignoredFlag is a k6 flag that cannot apply here; it is accepted and
// ignored with one warning line.
type ignoredFlag struct {
	name, short, why string
	// quiet lists values that need no warning (the flag's default).
	quiet  []string
	isBool bool
}

// ignoredFlags are k6's flags that have no meaning for this runner.
var ignoredFlags = []ignoredFlag{
	{name: "type", short: "t", why: "a test is told from its content, script or archive", quiet: []string{"js", "archive"}},
	{name: "traces-output", why: "traces are not produced", quiet: []string{"none"}},
	{name: "new-machine-readable-summary", why: "the summary export has k6's legacy shape", isBool: true},
	{name: "local-execution", why: "there is no cloud execution", isBool: true},
}

// addK6Flags adds optionFlags, the logging flags and ignoredFlags to fs.
func (f *runFlags) addK6Flags(fs *pflag.FlagSet) {
	for _, of := range optionFlags {
		switch def := of.def.(type) {
		case bool:
			fs.BoolP(of.name, of.short, def, of.usage)
		case int64:
			fs.Int64P(of.name, of.short, def, of.usage)
		default:
			if strings.HasSuffix(of.usage, "(repeatable)") {
				fs.StringArrayP(of.name, of.short, nil, of.usage)
			} else {
				fs.StringP(of.name, of.short, "", of.usage)
			}
		}
		if of.noOpt != "" {
			fs.Lookup(of.name).NoOptDefVal = of.noOpt
		}
	}
	fs.BoolVarP(&f.verbose, "verbose", "v", false, "accepted for k6 compatibility; there are no debug lines")
	fs.StringVar(&f.logOutput, "log-output", "stderr", "where log lines go: stderr, stdout, none or file=PATH")
	fs.StringVar(&f.logFormat, "log-format", "", "log line format: logfmt, json, raw or text (default: text on a terminal, logfmt otherwise)")
	for _, ig := range ignoredFlags {
		if ig.isBool {
			fs.BoolP(ig.name, ig.short, false, "accepted for k6 compatibility; ignored ("+ig.why+")")
		} else {
			fs.StringP(ig.name, ig.short, "", "accepted for k6 compatibility; ignored ("+ig.why+")")
		}
	}
}

// k6Layer sets the options of the optionFlags that were given on o.
func (f *runFlags) k6Layer(o *options.Options) error {
	for _, of := range optionFlags {
		fl := f.fs.Lookup(of.name)
		if !fl.Changed {
			continue
		}
		value := fl.Value.String()
		if sv, ok := fl.Value.(pflag.SliceValue); ok {
			value = strings.Join(sv.GetSlice(), ",")
		}
		if err := o.SetText(of.option, value); err != nil {
			return fmt.Errorf("--%s: %v", of.name, err)
		}
	}
	return nil
}

// ignoredWarnings returns one warning per ignored flag given with a value
// that would matter.
func (f *runFlags) ignoredWarnings() []string {
	var out []string
	for _, ig := range ignoredFlags {
		fl := f.fs.Lookup(ig.name)
		if !fl.Changed || (ig.isBool && fl.Value.String() == "false") || slices.Contains(ig.quiet, fl.Value.String()) {
			continue
		}
		out = append(out, fmt.Sprintf("--%s is accepted for compatibility with k6 and ignored: %s", ig.name, ig.why))
	}
	return out
}

// optionWarnings names the consolidated options that cannot do what they
// are meant to, whichever layer set them: a paused test without a REST API
// to resume it waits for a signal.
func optionWarnings(o options.Options, address string) []string {
	var out []string
	if o.Paused && address == "" {
		out = append(out, "paused without --address: there is no REST API to resume the test, it waits until SIGINT or SIGTERM")
	}
	return out
}
