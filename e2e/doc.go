// Package e2e runs the built usefullatency binary on the scripts in
// testdata and asserts on what a user sees: exit codes, stderr messages,
// the text summary, the --summary-export JSON and handleSummary's data.
// It has no code of its own; see the _test.go files.
package e2e
