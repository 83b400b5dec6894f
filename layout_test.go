package usefullatency

import (
	"os/exec"
	"strings"
	"testing"
)

// modulePath is the import path of this repository's module.
const modulePath = "github.com/usefullatency/usefullatency"

// layers ranks every package of the repository by the direction data flows
// (script → scenarios → executor → VU → probe → samples → metrics →
// thresholds / summary / outputs): a package imports only packages of a
// lower rank. A new package gets its line here, and docs/contributing.md's
// Layout table a line too.
var layers = map[string]int{
	"internal/sockstamp":         -3, // socket reads with the kernel's receive (and transmit) stamps
	"internal/cpugate":           -3, // how many VUs run JavaScript at once, so the network keeps a scheduler slot
	"internal/redact":            -3, // secrets masked before any message, tag or report (imports nothing of ours)
	"internal/jsonstr":           -3, // strings quoted as JSON by the encoders that write JSON by hand
	"internal/pktcap":            -2, // a packet socket that gives each received segment of the probe's connections its own arrival time
	"internal/httpsafe":          -2, // limits and redirect policy of both HTTP clients (sse, k6/http)
	"internal/netstack":          -2, // dialer, DNS, local IPs, TLS and rps of both HTTP clients (sse, k6/http)
	"internal/wsconn":            -1, // the WebSocket client connection of k6/websockets and k6/ws
	"internal/wsconn/wstest":     0,  // the loopback WebSocket echo server of the tests
	"internal/grpcdesc":          -1, // gRPC methods from .proto files (protocompile), protosets and server reflection
	"internal/grpcdesc/grpctest": 0,  // the loopback gRPC chat server of the tests
	"internal/otlptest":          0,  // the loopback OTLP metrics receiver of the tests
	"internal/spin":              0,  // goroutines that keep a test's CPUs busy, as spinning VUs keep a runner's
	"internal/chromium":          -1, // a Chromium launched and driven over the DevTools protocol (chromedp): contexts, pages
	"internal/syncbuf":           -1, // a bytes.Buffer written from goroutines while a test reads it
	"internal/influxtest":        0,  // the real influxd of the tests
	"internal/redistest":         0,  // the real redis-server of the tests
	"docs":                       0,  // the manual's pages, embedded for usefullatency help; imports nothing of the repository
	"sse/internal/reactor":       -1, // the probe's epoll reactor for plain-HTTP/1.1 streams
	"metrics":                    0, "sse": 0, "internal/eventually": 0, "mock": 0, "logline": 0, "scripts": 0, "e2e": 0, "archive": 0,
	"bench/epollfloor": 0, "bench/floorclient": 0, "bench/vufloor": 0, "bench/sseserver": 0, "bench/httpserver": 0, "bench/httpfloor": 0,
	"options":    1,
	"uiprobe":    1, // the UI probe: an in-page recorder of an answer's changes, moments computed with sse's predicates
	"executor":   2,
	"summary":    2,
	"result":     2, // mergeable results: -o result files and usefullatency merge
	"js/modules": 2,
	"js/web":     2,
	"aggregate":  3, // live global thresholds: runners post results, the aggregator merges and stops them
	"compare":    3, // usefullatency compare: two sets of runs, bootstrap intervals of the differences, verdicts
	"search":     3, // usefullatency search: staircase and bisection strategies, steps judged on their windows, the answer
	"output":     4,

	"js/modules/k6": 3, "js/modules/metrics": 3, "js/modules/execution": 3, "js/modules/data": 3,
	"js/modules/encoding": 3, "js/modules/crypto": 3, "js/modules/webcrypto": 3,
	"js/modules/timers":     3,
	"js/modules/html":       3, // k6/html: Selection and Element over goquery
	"js/modules/http":       4, // k6/http; Response.html(), submitForm and clickLink use js/modules/html
	"js/modules/websockets": 3,
	"js/modules/ws":         4, // k6/ws's legacy API over k6/websockets' dialer and metrics
	"js/modules/grpc":       3, // k6/net/grpc over internal/grpcdesc and the VU's network stack
	"js/modules/usefulsse":  4, // k6/x/usefulsse; usefulsse.watch takes k6/browser's pages
	"js/modules/fs":         3, // k6/experimental/fs: files read once per run, shared by the VUs
	"js/modules/secrets":    3, // k6/secrets and --secret-source: mock, file and url sources
	"js/modules/streams":    3, // k6/experimental/streams: ReadableStream in JavaScript embedded in Go
	"js/modules/redis":      3, // k6/experimental/redis: a promise-based Client over go-redis, single node
	"js/modules/browser":    3, // k6/browser: Browser, BrowserContext, Page, Locator, handles over internal/chromium
	"js/modules/csv":        4, // k6/experimental/csv: parses the files of js/modules/fs
	"js/modules/sse":        5, // the xk6-sse API, sent through the usefulsse probe
	"js":                    6,
	"":                      6, // the xk6-shaped root: registers k6/x/usefulsse and k6/x/sse
	"runner":                7,
	"js/jstest":             7, // real VUs for the tests of JS modules
	"api":                   8, // k6's REST API over a runner.Control
	"cmd/usefullatency":     9,
}

// TestImportsPointDown checks that no package imports one of its own rank
// or above: the import graph has no arrow pointing back up.
func TestImportsPointDown(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, modulePath+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := local(fields[0])
		rank, ok := layers[pkg]
		if !ok {
			t.Errorf("package %q has no layer: add it to layers in layout_test.go and to docs/contributing.md's Layout", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			if !strings.HasPrefix(imp, modulePath) {
				continue
			}
			dep := local(imp)
			if depRank, ok := layers[dep]; ok && depRank >= rank {
				t.Errorf("%q (layer %d) imports %q (layer %d): imports must point down", pkg, rank, dep, depRank)
			}
		}
	}
}

// local returns an import path relative to the module ("" for the root).
func local(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, modulePath), "/")
}
