package options

import (
	"errors"
	"fmt"
)

// BrowserChromium is the one browser type a scenario may ask for.
const BrowserChromium = "chromium"

// browserField is a scenario's options field, as k6 has it: { browser: {
// type: 'chromium' } } gives the scenario's VUs a browser for k6/browser.
// Inspect shows it only when set.
var browserField = field{
	set: func(sc *Scenario, path string, v any) error {
		t, err := parseScenarioOptions(path, v)
		if err == nil {
			sc.Browser = t
		}
		return err
	},
	get: func(sc *Scenario) any {
		return map[string]any{"browser": map[string]any{"type": sc.Browser}}
	},
	omit: func(sc *Scenario) bool { return sc.Browser == "" },
}

// parseScenarioOptions reads a scenario's options object and returns its
// browser type ("" without a browser). Every problem is located under
// path.
func parseScenarioOptions(path string, v any) (string, error) {
	m, err := toObject(v)
	if err != nil {
		return "", at(path, err)
	}
	var errs []error
	for _, k := range sortedKeys(m) {
		if k != "browser" {
			errs = append(errs, at(path, fmt.Errorf("unknown field %q: a scenario's options hold only browser", k)))
		}
	}
	t, err := parseBrowser(path+".browser", m["browser"])
	return t, errors.Join(append(errs, err)...)
}

// parseBrowser reads options.browser: an object whose type must be
// "chromium"; null or absent is no browser.
func parseBrowser(path string, v any) (string, error) {
	if v == nil {
		return "", nil
	}
	m, err := toObject(v)
	if err != nil {
		return "", at(path, err)
	}
	var errs []error
	for _, k := range sortedKeys(m) {
		if k != "type" {
			errs = append(errs, at(path, fmt.Errorf("unknown field %q: browser holds only type", k)))
		}
	}
	raw, ok := m["type"]
	if !ok || raw == nil {
		return "", errors.Join(append(errs, at(path+".type", fmt.Errorf("required: set it to %q to use k6/browser", BrowserChromium)))...)
	}
	t, err := toString(raw)
	if err == nil && t != BrowserChromium {
		err = fmt.Errorf("browser type %q is not supported: the only one is %q", t, BrowserChromium)
	}
	if err != nil {
		return "", errors.Join(append(errs, at(path+".type", err))...)
	}
	return t, errors.Join(errs...)
}
