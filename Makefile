# usefullatency — build, test and benchmark.
GO ?= go
BIN ?= bin/usefullatency
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)

.PHONY: build test types demo dist-demo screenshots bench fuzz clean

build:
	$(GO) build -ldflags "-X main.version=$(VERSION)" -o $(BIN) ./cmd/usefullatency

# The whole suite: vet, staticcheck (a tool dependency in go.mod, so no
# global install), every package's tests (end-to-end ones run the built
# binary), and the race detector on the concurrent core. Packages run one
# at a time (-p 1): several hold timing assertions against real servers,
# and two cores shared by all of them would blur the measurements.
test: types
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) test -p 1 -count=1 ./...
	$(GO) test -p 1 -count=1 -race ./metrics/... ./executor/... ./js/... ./runner/... ./sse/... ./aggregate/...

# The TypeScript declarations of k6/x/usefulsse and k6/x/sse, checked by tsc.
types: deps
	cd types && npm ci --no-audit --no-fund --loglevel=error && node_modules/.bin/tsc -p .

# What make test needs beyond Go and make (Node.js/npm, Prometheus,
# InfluxDB, Chromium, Redis): scripts/deps installs the missing ones (as root, or with sudo)
# or stops with the command to run; with everything present it is a few
# checks. make test runs it through types.
.PHONY: deps
deps:
	./scripts/deps

# The main job in one command: the after-sales assistant under open-loop
# load, five buckets gated on the useful answer, against the built-in
# simulated assistant (no other server needed). Exits 0 when all gates pass.
demo: build
	$(BIN) run --mock examples/aftersales.js

# The k6-operator flow on this machine: deploy/local-operator.sh archives the
# demo, starts DIST_RUNNERS paused runners named k6 (each with its own
# simulated assistant), un-pauses them as the operator's starter does and
# merges their results into one summary; exits with merge's code.
DIST_RUNNERS ?= 3
dist-demo: build
	./deploy/local-operator.sh -n $(DIST_RUNNERS) -b $(BIN) examples/aftersales.js --mock -e DURATION=10s

# The README's two pictures, docs/img/summary.png (the coloured end-of-test
# summary) and docs/img/report.png (the top of the HTML report), remade from
# one run of the demo by scripts/screenshots with aha and headless Chromium
# (installed when missing). Not part of make test.
screenshots:
	GO=$(GO) BIN=$(BIN) ./scripts/screenshots

# Go benchmarks and small load runs on loopback; results go to BENCHMARKS.md.
# First the memory budgets of an idle VU (js TestIdleVUMemory) and of an
# open stream (usefulsse TestOpenStreamMemory), both also part of make
# test: the bench stops when either grew by more than 20 %.
bench: build
	$(GO) test -count=1 -run '^TestIdleVUMemory$$' -v ./js/
	$(GO) test -count=1 -run '^TestOpenStreamMemory$$' -v ./js/modules/usefulsse/
	$(GO) test -run '^$$' -bench . -benchmem -count 5 ./metrics/ ./executor/
	$(GO) test -run '^$$' -bench . -benchmem -cpu 1 -count 5 ./sse/ ./sse/internal/reactor/ ./js/modules/usefulsse/
	$(GO) test -run '^$$' -bench BenchmarkGet -benchmem -cpu 1 -count 3 ./js/modules/http/
	$(GO) test -run '^$$' -bench 'Plan|AppendEvent' -benchmem ./mock/
	$(GO) test -run '^$$' -bench BenchmarkStreams -benchtime 1x ./mock/
	$(GO) test -run '^$$' -bench 'Merge10M|Write1250k' -benchtime 1x -count 3 -benchmem ./result/
	$(GO) test -run '^$$' -bench Aggregate8x5000 -benchtime 3x -count 3 ./aggregate/
	GO=$(GO) ./bench/run.sh $(BIN)
	./bench/outputs.sh $(BIN)
	RUNS=1 ./bench/loader.sh $(BIN)
	GO=$(GO) ./bench/http.sh $(BIN)
	./bench/k6side.sh $(BIN)
	./bench/browser.sh $(BIN)

# Short fuzzing of every parser: each fuzz target of every package (found
# by scripts/fuzz.sh with go test -list) for FUZZTIME, default 10s.
FUZZTIME ?= 10s
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) ./scripts/fuzz.sh

clean:
	rm -rf bin
