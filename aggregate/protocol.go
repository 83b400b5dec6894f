// Package aggregate gives the runners of one test live global thresholds:
// each runner's Sender posts its mergeable result so far (a result.File,
// exact and cumulative) to one Aggregator every few seconds and once at its
// end; the Aggregator keeps the latest result of each runner, merges them
// with result.Merge, evaluates the test's thresholds on the whole test and,
// when an abortOnFail threshold is crossed, stops every runner through k6's
// REST API (PATCH /v1/status with stopped: true).
//
// The Aggregator is a service on the network and trusts no post: every
// post carries a shared token (Authorization: Bearer), or comes from this
// machine when none is configured; its body is bounded in size, read time
// and decoded size, and only a few are decoded at once; each execution
// segment belongs to the first runner that posted it; and the aggregator
// sends requests only to the address a runner's post came from, never to
// one a post names (see auth.go, post.go, owners.go, stop.go).
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
	// HeaderAPI is the port of the runner's REST API, ":6565". The
	// aggregator stops the runner at that port of the address the runner's
	// first post came from; a host in the value ("10.0.0.7:6565", as older
	// runners send) is ignored. Absent when the runner serves no REST API:
	// it cannot be stopped then.
	HeaderAPI = "X-Usefullatency-Api"
	// HeaderRunner identifies the runner process: random, drawn once per
	// run. With the address a post comes from, it is what a segment's owner
	// is known by.
	HeaderRunner = "X-Usefullatency-Runner"
	// HeaderFinal is "true" on a runner's last post, sent when its run
	// ended.
	HeaderFinal = "X-Usefullatency-Final"
	// HeaderNextPost, in the aggregator's answer, is the least time the
	// runner should wait before its next post (a Go duration, "4s"): the
	// aggregator spaces the posts out when decoding and judging them gets
	// costly, so it keeps up however long the test runs.
	HeaderNextPost = "X-Usefullatency-Next-Post"
)

// TokenEnv is the environment variable that holds the shared token, for
// the aggregator (when --token is not given) and for the runners.
const TokenEnv = "K6_AGGREGATOR_TOKEN"

// statusPath is the REST API endpoint that stops a runner; stopBody is the
// PATCH /v1/status document that stops a run.
const (
	statusPath = "/v1/status"
	stopBody   = `{"data":{"type":"status","id":"default","attributes":{"stopped":true}}}`
)
