// Package aggregate gives the runners of one test live global thresholds:
// each runner's Sender posts its mergeable result so far (a result.File,
// exact and cumulative) to one Aggregator every few seconds and once at its
// end; the Aggregator keeps the latest result of each runner, merges them
// with result.Merge, evaluates the test's thresholds on the whole test and,
// when an abortOnFail threshold is crossed, stops every runner through k6's
// REST API (PATCH /v1/status with stopped: true).
//
// A lost or slow aggregator never stops or slows a runner: the Sender runs
// beside the test, drops a post while the previous one is in flight, logs
// one warning line whatever the number of failures and gives its last post
// a bounded time.
package aggregate

// Path is where an Aggregator takes the runners' posts: the body is a
// result file (result.Write), the headers below say the rest.
const Path = "/v1/results"

// Headers of a post.
const (
	// HeaderAPI is the runner's REST API address, host:port; an
	// unspecified host (0.0.0.0, ::, empty) reads as the address the post
	// came from. Absent when the runner serves no REST API: it cannot be
	// stopped then.
	HeaderAPI = "X-Usefullatency-Api"
	// HeaderFinal is "true" on a runner's last post, sent when its run
	// ended.
	HeaderFinal = "X-Usefullatency-Final"
	// HeaderNextPost, in the aggregator's answer, is the least time the
	// runner should wait before its next post (a Go duration, "4s"): the
	// aggregator spaces the posts out when decoding and judging them gets
	// costly, so it keeps up however long the test runs.
	HeaderNextPost = "X-Usefullatency-Next-Post"
)

// stopBody is the PATCH /v1/status document that stops a run.
const stopBody = `{"data":{"type":"status","id":"default","attributes":{"stopped":true}}}`
