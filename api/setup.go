package api

import (
	"encoding/json"
	"net/http"
	"sync/atomic"

	"github.com/usefullatency/usefullatency/runner"
)

// setupAttributes hold the setup data; a run without setup data has none,
// so its attributes are {} as in k6.
type setupAttributes struct {
	Data json.RawMessage `json:"data,omitempty"`
}

// writeSetupData answers with the setupData resource holding data.
func writeSetupData(w http.ResponseWriter, data []byte) {
	writeJSON(w, document[resource[setupAttributes]]{resource[setupAttributes]{
		Type: "setupData", ID: "default", Attributes: setupAttributes{Data: data},
	}})
}

// putSetup answers PUT /v1/setup: the body, raw JSON of at most
// MaxSetupDataSize bytes, becomes the setup data; an empty body clears it.
func putSetup(w http.ResponseWriter, r *http.Request, ctl *runner.Control, b bodies) {
	body, ok := b.read(w, r, MaxSetupDataSize)
	if !ok {
		return
	}
	if len(body) == 0 {
		body = nil
	} else if !json.Valid(body) {
		writeError(w, http.StatusBadRequest, "Error parsing request body", "the body is not valid JSON")
		return
	}
	ctl.SetSetupData(body)
	writeSetupData(w, ctl.SetupData())
}

// lifecycle runs the script's setup() and teardown() for the REST API,
// each at most once per run: the calls a distributed run makes once (on
// one runner, k6-operator's flow). A repeat is answered 409 rather than
// running the function again. The runner runs them on the script's main
// VU under one lock, so they never overlap each other nor the run's own
// setup() and teardown().
type lifecycle struct {
	ctl                *runner.Control
	setupRan, tornDown atomic.Bool
}

// runSetup answers POST /v1/setup: it runs the script's setup() and
// returns the data it returned.
func (l *lifecycle) runSetup(w http.ResponseWriter, r *http.Request) {
	if l.setupRan.Swap(true) {
		writeError(w, http.StatusConflict, "Setup already executed",
			"setup() runs at most once per run through the REST API; GET /v1/setup returns the setup data")
		return
	}
	if err := l.ctl.RunSetup(r.Context()); err != nil {
		writeError(w, http.StatusInternalServerError, "Error executing setup", err.Error())
		return
	}
	writeSetupData(w, l.ctl.SetupData())
}

// runTeardown answers POST /v1/teardown with an empty 200 once the
// script's teardown(data) ran.
func (l *lifecycle) runTeardown(w http.ResponseWriter, r *http.Request) {
	if l.tornDown.Swap(true) {
		writeError(w, http.StatusConflict, "Teardown already executed",
			"teardown() runs at most once per run through the REST API")
		return
	}
	if err := l.ctl.RunTeardown(r.Context()); err != nil {
		writeError(w, http.StatusInternalServerError, "Error executing teardown", err.Error())
	}
}
