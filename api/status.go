package api

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/usefullatency/usefullatency/runner"
)

// statusAttributes are the attributes of the status resource. In a PATCH
// body, a null or absent paused, vus or vus-max asks for no change.
type statusAttributes struct {
	Status  runner.ExecutionStatus `json:"status"`
	Paused  *bool                  `json:"paused"`
	VUs     *int64                 `json:"vus"`
	VUsMax  *int64                 `json:"vus-max"`
	Stopped bool                   `json:"stopped"`
	Running bool                   `json:"running"`
	Tainted bool                   `json:"tainted"`
}

// statusDocument returns the status resource of the run now.
func statusDocument(ctl *runner.Control) document[resource[statusAttributes]] {
	s := ctl.Status()
	return document[resource[statusAttributes]]{resource[statusAttributes]{
		Type: "status", ID: "default",
		Attributes: statusAttributes{
			Status: s.Status, Paused: &s.Paused, VUs: &s.VUs, VUsMax: &s.VUsMax,
			Stopped: s.Stopped, Running: s.Running, Tainted: s.Tainted,
		},
	}}
}

// writeStatus answers GET /v1/status.
func writeStatus(w http.ResponseWriter, ctl *runner.Control) { writeJSON(w, statusDocument(ctl)) }

// patchStatus answers PATCH /v1/status as k6 does: stopped true stops the
// run; otherwise a paused value pauses or resumes it (500 "Pause error"
// when refused), then vus and vus-max change the VUs of the test's
// externally-controlled scenario: a test without one answers 500
// "Execution config error", a change the executor refuses 400 "Config
// update error". The answer is the status after the change. The body is
// read up to MaxStatusBodySize.
func patchStatus(w http.ResponseWriter, r *http.Request, ctl *runner.Control, b bodies) {
	body, ok := b.read(w, r, MaxStatusBodySize)
	if !ok {
		return
	}
	var doc document[resource[statusAttributes]]
	if err := json.Unmarshal(body, &doc); err != nil {
		writeError(w, http.StatusBadRequest, "Invalid data", err.Error())
		return
	}
	a := doc.Data.Attributes
	if a.Stopped {
		ctl.Stop()
		writeStatus(w, ctl)
		return
	}
	if a.Paused != nil {
		if err := ctl.SetPaused(*a.Paused); err != nil {
			writeError(w, http.StatusInternalServerError, "Pause error", err.Error())
			return
		}
	}
	if a.VUs != nil || a.VUsMax != nil {
		err := ctl.Scale(a.VUs, a.VUsMax)
		switch {
		case errors.Is(err, runner.ErrNotExternallyControlled):
			writeError(w, http.StatusInternalServerError, "Execution config error", err.Error())
			return
		case err != nil:
			writeError(w, http.StatusBadRequest, "Config update error", err.Error())
			return
		}
	}
	writeStatus(w, ctl)
}
