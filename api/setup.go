package api

import (
	"encoding/json"
	"io"
	"net/http"

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

// putSetup answers PUT /v1/setup: the body, raw JSON, becomes the setup
// data; an empty body clears it.
func putSetup(w http.ResponseWriter, r *http.Request, ctl *runner.Control) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, http.StatusBadRequest, "Error reading request body", err.Error())
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

// runSetup answers POST /v1/setup: it runs the script's setup() and
// returns the data it returned.
func runSetup(w http.ResponseWriter, r *http.Request, ctl *runner.Control) {
	if err := ctl.RunSetup(r.Context()); err != nil {
		writeError(w, http.StatusInternalServerError, "Error executing setup", err.Error())
		return
	}
	writeSetupData(w, ctl.SetupData())
}

// runTeardown answers POST /v1/teardown with an empty 200 once the
// script's teardown(data) ran.
func runTeardown(w http.ResponseWriter, r *http.Request, ctl *runner.Control) {
	if err := ctl.RunTeardown(r.Context()); err != nil {
		writeError(w, http.StatusInternalServerError, "Error executing teardown", err.Error())
	}
}
