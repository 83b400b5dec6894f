// Package xk6sse is the k6/x/sse JavaScript module: the API of the community
// xk6-sse extension — sse.open(url, params, (client) => {…}) — over the
// probe of k6/x/usefulsse, so scripts written for xk6-sse run unchanged and
// get the usefulsse_* metrics. The package is named after the extension it
// is compatible with, so that it does not shadow package sse. It exposes
// Name and New in module.go and registers nothing itself: the repository
// root registers it.
package xk6sse

import "github.com/usefullatency/usefullatency/js/modules"

// Name is the module's import specifier.
const Name = "k6/x/sse"

// New returns the module; it is instantiated once per VU.
func New() modules.Module { return modules.ModuleFunc(newCompat) }
