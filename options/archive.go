package options

import (
	"encoding/json"
	"fmt"
)

// runtimeKeys are the options of one run, not of the test: an archive
// leaves them out, as k6 keeps them out of its archives' options.
var runtimeKeys = []string{"noSummary", "noThresholds", "summaryExport", "summaryMode", "consoleOutput"}

// ArchiveJSON renders consolidated options in the form a script exports
// them, for an archive's metadata.json: the shape of InspectJSON without
// the scenarios Consolidate derived from the shortcuts (the shortcuts
// stay, so they derive them again) and without the options of one run
// (noSummary, noThresholds, summaryExport, summaryMode, consoleOutput).
// FromArchiveJSON reads it back.
func (o Options) ArchiveJSON() (json.RawMessage, error) {
	b, err := encodeJSON(o.inspectView(), "")
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if o.derived {
		delete(m, "scenarios")
	}
	for _, k := range runtimeKeys {
		delete(m, k)
	}
	return encodeJSON(m, "  ")
}

// FromArchiveJSON reads the options of an archive's metadata.json as the
// script layer of a run of that archive (Source "archive"): they take the
// place of the script's own options, and the environment and flags still
// override them. null or an empty document is no options.
func FromArchiveJSON(raw json.RawMessage) (Options, error) {
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			return Options{}, fmt.Errorf("archive options: %v", err)
		}
	}
	o, err := FromScript(m)
	o.Source = "archive"
	return o, err
}
