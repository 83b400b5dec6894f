package output

import (
	"errors"
	"fmt"
	"io"
	"time"

	live "github.com/usefullatency/usefullatency/aggregate"
	"github.com/usefullatency/usefullatency/internal/redact"
	"github.com/usefullatency/usefullatency/result"
)

func init() { register("aggregator", newAggregator) }

// Aggregator posts the run's mergeable result to a `usefullatency
// aggregate` service every K6_AGGREGATOR_PUSH_INTERVAL (default 2s) and
// once at the end: `-o aggregator=URL`, or `-o aggregator` with
// K6_AGGREGATOR_URL (which `run` adds by itself when that variable is
// set), with the aggregator's token from K6_AGGREGATOR_TOKEN (sent as
// "Authorization: Bearer", never printed). The aggregator judges the
// thresholds on all runners' results and stops every runner through its
// REST API when an abortOnFail threshold is crossed. A lost aggregator
// costs one warning line, never the run (see package aggregate).
type Aggregator struct {
	sender *live.Sender
	url    string
	gaugeTimes
}

var _ Output = (*Aggregator)(nil)

func newAggregator(p Params) (Output, error) {
	target := p.Arg
	if target == "" {
		target = p.Env["K6_AGGREGATOR_URL"]
	}
	if target == "" {
		return nil, errors.New("want -o aggregator=URL (or K6_AGGREGATOR_URL), the aggregator's http://host:port")
	}
	if p.Result == nil {
		return nil, errors.New("this command cannot send results")
	}
	interval := live.DefaultInterval
	if v := p.Env["K6_AGGREGATOR_PUSH_INTERVAL"]; v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("K6_AGGREGATOR_PUSH_INTERVAL=%q: want a duration such as 2s", v)
		}
		interval = d
	}
	log := p.Log
	if log == nil {
		log = io.Discard
	}
	a := &Aggregator{url: target, gaugeTimes: gaugeTimes{}}
	snapshot := p.Result
	s, err := live.NewSender(live.SenderConfig{
		URL: target, Interval: interval, APIAddress: p.APIAddress, Log: log, Token: p.Env[live.TokenEnv],
		Snapshot: func() *result.File { return snapshot(a.gaugeTimes) },
	})
	if err != nil {
		return nil, err
	}
	a.sender = s
	return a, nil
}

// Description names the output for the banner.
func (a *Aggregator) Description() string { return "aggregator (" + redact.URL(a.url) + ")" }

// Start begins the periodic posts.
func (a *Aggregator) Start() error {
	a.sender.Start()
	return nil
}

// Stop sends the final result, within a bounded time; an unreachable
// aggregator was already reported in one warning line.
func (a *Aggregator) Stop() error {
	a.sender.Stop()
	return nil
}
