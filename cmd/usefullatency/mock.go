package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/pflag"
	"github.com/usefullatency/usefullatency/mock"
	"github.com/usefullatency/usefullatency/runner"
)

// mockFlags configure the simulated assistant, for `mock` and `run --mock`.
type mockFlags struct {
	addr        string
	seed        int64
	config      string
	faults      string
	holdHeaders bool
	profile     string
	// prefix is the flags' prefix, for the messages naming them.
	prefix string
}

// add registers the flags; prefix is "" for `mock` and "mock-" for `run`
// (and search). `mock` listens on 127.0.0.1:8099 by default, `run --mock`
// on a free loopback port unless --mock-addr names one.
func (m *mockFlags) add(fs *pflag.FlagSet, prefix string) {
	m.prefix = prefix
	if prefix == "" {
		fs.StringVar(&m.addr, "addr", "127.0.0.1:8099", "address to listen on")
	} else {
		fs.StringVar(&m.addr, prefix+"addr", "", "address the built-in assistant listens on, e.g. localhost:8000 (default a free loopback port)")
	}
	fs.Int64Var(&m.seed, prefix+"seed", 0, "seed of requests that carry no mock_seed (same seed, same streams)")
	fs.StringVar(&m.config, prefix+"config", "", "JSON file overriding the mock's latencies, slots and faults")
	fs.StringVar(&m.faults, prefix+"faults", "", "faults applied to every request, comma separated")
	fs.BoolVar(&m.holdHeaders, prefix+"hold-headers", false, "send headers after dequeue, queue time in Server-Timing")
	fs.StringVar(&m.profile, prefix+"profile", "", "server whose wire behaviour to imitate: "+strings.Join(mock.ProfileNames, ", ")+" (default aftersales, or the config's)")
}

// server builds the mock from the flags.
func (m *mockFlags) server() (*mock.Server, error) {
	cfg := mock.DefaultConfig()
	if m.config != "" {
		var err error
		if cfg, err = mock.LoadConfig(m.config); err != nil {
			return nil, err
		}
	}
	if m.seed != 0 {
		cfg.Seed = m.seed
	}
	if m.faults != "" {
		cfg.Faults = append(cfg.Faults, strings.Split(m.faults, ",")...)
	}
	cfg.HoldHeadersUntilDequeue = cfg.HoldHeadersUntilDequeue || m.holdHeaders
	if m.profile != "" {
		if !slices.Contains(mock.ProfileNames, m.profile) {
			return nil, fmt.Errorf("--%sprofile: unknown profile %q (known: %s)", m.prefix, m.profile, strings.Join(mock.ProfileNames, ", "))
		}
		cfg.Profile = m.profile
	}
	cfg.Version = strings.Fields(versionString())[1]
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return mock.New(cfg), nil
}

// mockCmd implements `usefullatency mock`: the simulated after-sales
// assistant, served until SIGINT or SIGTERM.
func mockCmd(args []string, stdout, stderr io.Writer) int {
	var m mockFlags
	fs := pflag.NewFlagSet("mock", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	setUsage(fs, "")
	m.add(fs, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	srv, err := m.server()
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, err)
	}
	url, err := srv.Start(m.addr)
	if err != nil {
		return fail(stderr, runner.ExitInvalidConfig, fmt.Errorf("mock: %w", err))
	}
	fmt.Fprintf(stdout, "usefullatency mock: the simulated after-sales assistant listens on %s (profile %s)\n", url, srv.Profile())
	fmt.Fprintln(stdout, "  POST /chat (business)  POST /v1/chat/completions, /v1/completions (OpenAI)  POST /v1/messages (Anthropic)")
	fmt.Fprintln(stdout, "  GET /v1/models  GET /v1/version  GET /v1/health  GET /healthz  (the /v1 routes also without /v1)")
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	<-ctx.Done()
	return exitOnClose(stderr, srv.Close())
}

// mockEnv returns the __ENV names `run --mock` sets for the built-in
// assistant at url ("http://host:port"), for scripts written for other
// servers: SUT_URL (ours), BASE_URL and LLM_URL hold url; OPENAI_API_BASE
// and OPENAI_BASE_URL hold url + "/v1", since OpenAI clients' base URLs
// include the version (https://api.openai.com/v1); HOST holds host:port,
// for scripts that build "http://" + HOST.
func mockEnv(url string) map[string]string {
	return map[string]string{
		"SUT_URL": url, "BASE_URL": url, "LLM_URL": url,
		"OPENAI_API_BASE": url + "/v1", "OPENAI_BASE_URL": url + "/v1",
		"HOST": strings.TrimPrefix(url, "http://"),
	}
}

func exitOnClose(stderr io.Writer, err error) int {
	if err != nil {
		return fail(stderr, 1, err)
	}
	return 0
}
