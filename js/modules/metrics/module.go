// Package k6metrics is the "k6/metrics" JavaScript module: the Counter,
// Gauge, Rate and Trend constructors of custom metrics. The package is
// named after the module's import path, not its directory, so that it does
// not shadow the metrics package it registers into; the other k6 modules
// follow the same rule (k6execution, k6data).
package k6metrics

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/metrics"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newMetrics) }
