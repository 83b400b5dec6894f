package options

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

// FromConfigFile reads a k6 config file: a JSON object of options, as a
// script exports them (Source "config file PATH"). It is the lowest layer,
// under the script's options, the environment and the flags.
func FromConfigFile(path string) (Options, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Options{}, fmt.Errorf("config file %s: %v", path, err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return Options{}, fmt.Errorf("config file %s: not a JSON object of options: %v", path, err)
	}
	o, err := FromScript(m)
	o.Source = "config file " + path
	if err != nil {
		return o, fmt.Errorf("config file %s: %w", path, err)
	}
	return o, nil
}

// DefaultConfigFile is where k6 looks for its config file when --config
// names none: loadimpact/k6/config.json under the user's config directory
// ($XDG_CONFIG_HOME, else ~/.config, on Linux); "" when there is none.
func DefaultConfigFile() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "loadimpact", "k6", "config.json")
}
