package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/spf13/pflag"
)

// exitScaleFailed is the exit code of a scale the test refused or that
// reached no test: k6's for every error of `k6 scale` (-1).
const exitScaleFailed = 255

// defaultAPIAddress is where `scale` looks for the REST API without
// --address or K6_ADDRESS: k6's default address.
const defaultAPIAddress = "localhost:6565"

// scaleFlags are the flags of `scale`, named as k6 names them.
type scaleFlags struct {
	fs       *pflag.FlagSet
	vus, max int64
	address  string
	apiToken string
}

func newScaleFlags(stderr io.Writer) *scaleFlags {
	f := &scaleFlags{fs: pflag.NewFlagSet("scale", pflag.ContinueOnError)}
	fs := f.fs
	fs.SetOutput(stderr)
	setUsage(fs, "Usage: usefullatency scale [-u N] [-m M] [--address host:port]\n\n"+
		"Changes the VUs of a running test's externally-controlled scenario, as k6 scale does:\n"+
		"PATCH /v1/status with vus and vus-max to the REST API of the run (run --address), then\n"+
		"prints the test's status. Exit 255 when the test refuses the change (vus above vus-max,\n"+
		"vus-max below the scenario's maxVUs, no externally-controlled scenario) or no test\n"+
		"answers, 2 for a wrong command line.\n\nFlags:\n")
	fs.Int64VarP(&f.vus, "vus", "u", 0, "number of active VUs")
	fs.Int64VarP(&f.max, "max", "m", 0, "number of VUs initialised (vus-max)")
	fs.StringVarP(&f.address, "address", "a", defaultAPIAddress, "the REST API of the running test, host:port (also K6_ADDRESS)")
	fs.StringVar(&f.apiToken, "api-token", "", "the REST API's token, sent as Authorization: Bearer (default $K6_API_TOKEN, which keeps it out of the process list)")
	return f
}

// scaleCmd implements `usefullatency scale`.
func scaleCmd(args []string, stdout, stderr io.Writer) int {
	f := newScaleFlags(stderr)
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return 0
		}
		return fail(stderr, exitUsage, err)
	}
	if f.fs.NArg() > 0 {
		return fail(stderr, exitUsage, fmt.Errorf("scale takes no arguments, got %q", f.fs.Args()))
	}
	body, err := f.patchBody()
	if err != nil {
		return fail(stderr, exitUsage, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	status, err := patchStatus(ctx, f.apiAddress(), f.token(), body)
	if err != nil {
		return fail(stderr, exitScaleFailed, err)
	}
	printStatus(stdout, status)
	return 0
}

// patchBody is the PATCH /v1/status document of the counts given; k6's
// message when neither is.
func (f *scaleFlags) patchBody() ([]byte, error) {
	attrs := map[string]int64{}
	if f.fs.Changed("vus") {
		attrs["vus"] = f.vus
	}
	if f.fs.Changed("max") {
		attrs["vus-max"] = f.max
	}
	if len(attrs) == 0 {
		return nil, errors.New("specify either -u/--vus or -m/--max")
	}
	return json.Marshal(map[string]any{"data": map[string]any{"type": "status", "id": "default", "attributes": attrs}})
}

// apiAddress returns --address, else K6_ADDRESS, else k6's default.
func (f *scaleFlags) apiAddress() string {
	if v := os.Getenv("K6_ADDRESS"); !f.fs.Changed("address") && v != "" {
		return v
	}
	return f.address
}

// token returns --api-token, else K6_API_TOKEN.
func (f *scaleFlags) token() string {
	if f.fs.Changed("api-token") {
		return f.apiToken
	}
	return os.Getenv("K6_API_TOKEN")
}

// apiStatus holds the attributes of the REST API's status document.
type apiStatus struct {
	Status  int64 `json:"status"`
	Paused  bool  `json:"paused"`
	VUs     int64 `json:"vus"`
	VUsMax  int64 `json:"vus-max"`
	Stopped bool  `json:"stopped"`
	Running bool  `json:"running"`
	Tainted bool  `json:"tainted"`
}

// patchStatus sends body to the REST API at addr and returns the status it
// answers; an error is one line: the API's refusal as k6 prints it
// ("title: detail"), or why no test answered.
func patchStatus(ctx context.Context, addr, token string, body []byte) (apiStatus, error) {
	var st apiStatus
	url := "http://" + addr + "/v1/status"
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, url, bytes.NewReader(body))
	if err != nil {
		return st, fmt.Errorf("--address %q: %w", addr, err)
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return st, fmt.Errorf("no test answers on %s (is one running with --address %s?): %w", addr, addr, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return st, fmt.Errorf("PATCH %s: %w", url, err)
	}
	if resp.StatusCode >= 400 {
		var doc struct {
			Errors []struct{ Title, Detail string } `json:"errors"`
		}
		if json.Unmarshal(raw, &doc) != nil || len(doc.Errors) == 0 {
			return st, fmt.Errorf("PATCH %s: %s", url, resp.Status)
		}
		return st, fmt.Errorf("%s: %s", doc.Errors[0].Title, doc.Errors[0].Detail)
	}
	var doc struct {
		Data struct {
			Attributes apiStatus `json:"attributes"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return st, fmt.Errorf("PATCH %s answered no status document: %w", url, err)
	}
	return doc.Data.Attributes, nil
}

// printStatus prints the status as `k6 scale` does, the YAML of k6's
// status: paused, vus and vus-max come out quoted there, and so here.
func printStatus(w io.Writer, st apiStatus) {
	fmt.Fprintf(w, "status: %d\npaused: %q\nvus: %q\nvus-max: %q\nstopped: %t\nrunning: %t\ntainted: %t\n",
		st.Status, strconv.FormatBool(st.Paused), strconv.FormatInt(st.VUs, 10), strconv.FormatInt(st.VUsMax, 10),
		st.Stopped, st.Running, st.Tainted)
}
