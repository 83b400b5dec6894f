package runner

import (
	"fmt"
	"strings"
	"time"
)

// progress draws the live status of a run on stderr: redrawn in place every
// 100 ms on a terminal, one block of plain lines every 10 s otherwise,
// nothing with -q.
type progress struct {
	e     *execution
	tty   bool
	quiet bool
	drawn int
	last  time.Time
}

func newProgress(e *execution) *progress {
	return &progress{e: e, tty: e.cfg.StderrTTY, quiet: e.cfg.Options.Quiet}
}

// interval returns how often draw is called.
func (p *progress) interval() time.Duration {
	if p.tty {
		return 100 * time.Millisecond
	}
	return time.Second
}

// draw prints the status; final marks the last call of the run.
func (p *progress) draw(final bool) {
	if p.quiet || (!p.tty && !final && time.Since(p.last) < 10*time.Second) {
		return
	}
	p.last = time.Now()
	lines := p.lines()
	var b strings.Builder
	if p.tty && p.drawn > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", p.drawn)
	}
	for _, l := range lines {
		if p.tty {
			b.WriteString("\x1b[2K")
		}
		b.WriteString(l + "\n")
	}
	if !p.tty {
		b.WriteString("\n")
	}
	p.drawn = len(lines)
	fmt.Fprint(p.e.cfg.Stderr, b.String())
}

func (p *progress) lines() []string {
	e := p.e
	var maxVUs int64
	for _, sr := range e.scenarios {
		maxVUs += sr.plan.MaxVUs
	}
	out := []string{fmt.Sprintf("running (%s), %02d/%02d VUs, %d complete and %d interrupted iterations",
		clock(e.Elapsed()), e.VUsActive(), maxVUs, e.IterationsCompleted(), e.IterationsInterrupted())}
	width := 0
	for _, sr := range e.scenarios {
		width = max(width, len(sr.sc.Name))
	}
	for _, sr := range e.scenarios {
		out = append(out, p.scenarioLine(sr, width))
	}
	return out
}

// scenarioLine is one scenario's status: progress, VUs, time, iteration
// counts and the rate achieved so far.
func (p *progress) scenarioLine(sr *scenarioRun, width int) string {
	st := sr.ex.Stats()
	var el time.Duration
	if s := st.StartedAt.Load(); s != 0 {
		el = min(time.Since(time.Unix(0, s)), sr.plan.Duration)
	}
	rate := 0.0
	if el > 0 {
		rate = float64(st.Completed.Load()+st.Interrupted.Load()) / el.Seconds()
	}
	state := fmt.Sprintf("%3.0f%%", sr.progress()*100)
	if st.Done.Load() {
		state = "done"
	}
	rateText := fmt.Sprintf("%.2f iters/s", rate)
	if t, ok := sr.ex.(interface{ TargetRate(time.Duration) float64 }); ok {
		rateText = fmt.Sprintf("%.2f of %.2f iters/s", rate, t.TargetRate(el))
	}
	return fmt.Sprintf("%-*s [ %s ] %02d/%02d VUs  %s/%s  %d complete, %d interrupted, %d dropped  %s",
		width, sr.sc.Name, state, st.Active.Load(), st.Initialised.Load(), clock(el), clock(sr.plan.Duration),
		st.Completed.Load(), st.Interrupted.Load(), st.Dropped.Load(), rateText)
}

// clock formats d like k6's progress: 1m05.0s.
func clock(d time.Duration) string {
	m := int(d / time.Minute)
	s := (d % time.Minute).Seconds()
	return fmt.Sprintf("%dm%04.1fs", m, s)
}

// banner prints the run's plan before it starts.
func (e *execution) banner(initTime time.Duration) {
	if e.cfg.Options.Quiet {
		return
	}
	var maxVUs int64
	var longest time.Duration
	for _, sr := range e.scenarios {
		maxVUs += sr.plan.MaxVUs
		longest = max(longest, time.Duration(sr.sc.StartTime)+sr.plan.Duration+sr.plan.GracefulStop)
	}
	var outs []string
	for _, o := range e.outputs {
		outs = append(outs, o.Description())
	}
	out := strings.Join(outs, ", ")
	if out == "" {
		out = "-"
	}
	share := "100.00%"
	if t, err := e.cfg.Options.ExecutionTuple(); err == nil && !t.IsFull() {
		w, _ := t.Segment().Width().Float64()
		share = fmt.Sprintf("%.2f%%", w*100)
	}
	noun := "scenarios"
	if len(e.scenarios) == 1 {
		noun = "scenario"
	}
	w := e.cfg.Stderr
	fmt.Fprintf(w, "\n  execution: local\n     script: %s\n     output: %s\n\n", e.cfg.ScriptName, out)
	fmt.Fprintf(w, "  scenarios: (%s) %d %s, %d max VUs, %s max duration (incl. graceful stop):\n",
		share, len(e.scenarios), noun, maxVUs, longest)
	for _, sr := range e.scenarios {
		start := ""
		if sr.sc.StartTime > 0 {
			start = fmt.Sprintf(", startTime: %s", time.Duration(sr.sc.StartTime))
		}
		desc := strings.TrimSuffix(sr.plan.Description, ")") + start + ")"
		fmt.Fprintf(w, "           * %s: %s\n", sr.sc.Name, desc)
	}
	fmt.Fprintf(w, "\n       init: %d VUs initialised in %s\n\n", e.VUsInitialized(), initTime.Round(time.Millisecond))
}
