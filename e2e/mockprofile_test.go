package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/usefullatency/usefullatency/mock"
)

// TestMockProfileFirstChunk runs a script that times the start of one
// seeded stream (mockprofile/first_chunk.js) against run --mock under three
// server profiles, and compares what it measured with the first token the
// mock scheduled for that request (mock.Plan of the same body):
//
//	profile            first chunk    first text     first byte (k6/http)
//	aftersales         at once        first token    at once
//	vllm               first token    first token    at once
//	llamacpp           first token    first token    first token
//
// "At once" is under 60 ms, "first token" from 1 ms before the scheduled
// time to 150 ms after it (connection set-up, loopback, a busy machine).
func TestMockProfileFirstChunk(t *testing.T) {
	t.Parallel()
	body, err := os.ReadFile(script("mockprofile/request.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		profile                   string
		chunkAtToken, byteAtToken bool
	}{
		{"", false, false},
		{mock.ProfileVLLM, true, false},
		{mock.ProfileLlamaCpp, true, true},
	} {
		name := c.profile
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg := mock.DefaultConfig()
			args := []string{"run", "-q", "--mock"}
			if c.profile != "" {
				cfg.Profile = c.profile
				args = append(args, "--mock-profile", c.profile)
			}
			plan, err := mock.Plan(mock.OpenAI, body, cfg)
			if err != nil {
				t.Fatal(err)
			}
			token := firstTokenMS(t, plan)
			if token < 200 {
				t.Fatalf("the seeded first token is at %.1f ms: too early to tell from an answer at once", token)
			}
			out := filepath.Join(t.TempDir(), "export.json")
			r := invocation{args: append(args, "--summary-export", out, script("mockprofile/first_chunk.js"))}.run(t)
			r.wantCode(t, 0)
			exp := export(t, out)
			for _, m := range []struct {
				metric  string
				atToken bool
			}{{"first_chunk_ms", c.chunkAtToken}, {"first_text_ms", true}, {"first_byte_ms", c.byteAtToken}} {
				got := number(t, exp, "metrics", m.metric, "max")
				if m.atToken && (got < token-1 || got > token+150) || !m.atToken && got >= 60 {
					t.Errorf("%s = %.1f ms, want %s (first token scheduled at %.1f ms)", m.metric, got, map[bool]string{true: "the first token", false: "at once"}[m.atToken], token)
				}
			}
		})
	}
}

// firstTokenMS returns the scheduled time, in ms from dequeue, of a
// schedule's first text, reasoning or tool-call event.
func firstTokenMS(t *testing.T, s mock.Schedule) float64 {
	t.Helper()
	for _, e := range s.Events {
		switch e.Kind {
		case mock.KindText, mock.KindReasoning, mock.KindTool:
			return float64(e.At) / float64(time.Millisecond)
		}
	}
	t.Fatal("the plan has no token")
	return 0
}

// TestMockProfileUnknown checks that an unknown --mock-profile is a
// configuration error naming the flag and the known profiles.
func TestMockProfileUnknown(t *testing.T) {
	t.Parallel()
	r := invocation{args: []string{"run", "-q", "--mock", "--mock-profile", "sglang", script("mockprofile/first_chunk.js")}}.run(t)
	r.wantCode(t, 104)
	if line := r.errorLine(t); !strings.Contains(line, `--mock-profile: unknown profile "sglang"`) || !strings.Contains(line, "vllm") {
		t.Errorf("error: %s", line)
	}
}
