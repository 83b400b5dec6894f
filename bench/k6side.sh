#!/usr/bin/env bash
# Side by side with k6: the same k6 scripts through our binary and through a
# k6 binary, in alternating runs on this machine.
#
#   bench/k6side.sh [BIN]            ours only (what `make bench` runs)
#   K6_BIN=/path/k6 bench/k6side.sh  also that k6 binary
#
# The k6 binary is one the user built outside this repository (the
# figures in BENCHMARKS.md are of k6 v1.8.1); it is only ever run, with its
# usage report off, never imported, vendored or copied here (its licence
# is the AGPL).
#
# Sections (SIDE, default "http idle streams"):
#   http  bench/http.js (http.get of 1 KiB from bench/httpserver at a
#         constant arrival rate) at each of SIDE_RATES (default "1000 2000
#         4000 6000") for SIDE_DURATION (15s): http_req_duration p99,
#         dropped iterations, CPU-s per 10,000 requests, peak RSS.
#   idle  bench/idle_pool.js at 1,000 and IDLE_VUS (10,000) pooled VUs: peak
#         RSS per VU from the difference.
#   streams  bench/openstreams.js (http.get of ~5 s streams of
#         bench/sseserver, 2,000 VUs) at 60 and 300 new streams/s: peak RSS
#         per open stream from the difference (1,200 more open at once).
# Each figure is the median of RUNS (3) runs; the ratio is ours / k6's.
set -euo pipefail
BIN=${1:-bin/usefullatency}
RUNS=${RUNS:-3}
DIR=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
SPID=
cleanup() {
  if [ -n "$SPID" ]; then kill "$SPID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

K6BIN=${K6_BIN:-}
export K6_NO_USAGE_REPORT=true

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# tools: "name binary" lines, ours first.
tools() {
  echo "ours $BIN"
  if [ -n "$K6BIN" ]; then echo "k6 $K6BIN"; fi
}

# http_run NAME BIN RATE OUT: one run of bench/http.js; appends
# "p99 dropped cpu_per_10k rss_kb achieved" to OUT.
http_run() {
  local dur=${SIDE_DURATION:-15s}
  rm -f "$TMP/s.json"
  # No --no-summary: k6 then writes no --summary-export either.
  /usr/bin/time -f '%U %S %M' -o "$TMP/time" "$2" run -q --summary-export "$TMP/s.json" \
    -e BASE="$BASE" -e RATE="$3" -e DURATION="$dur" -e VUS="${SIDE_VUS:-100}" "$DIR/http.js" >/dev/null 2>&1 || true
  python3 - "$TMP/s.json" "$TMP/time" "$dur" >>"$4" <<'PY'
import json, sys
try:
    m = json.load(open(sys.argv[1]))["metrics"]
except (OSError, ValueError):
    sys.exit("no summary export: the run failed")
u, s, rss = (float(x) for x in open(sys.argv[2]).read().split()[-3:])
secs = float(sys.argv[3].rstrip("s"))
n = m["http_reqs"]["count"]
print(m["http_req_duration"]["p(99)"], m.get("dropped_iterations", {}).get("count", 0),
      (u + s) / n * 10000, rss, n / secs)
PY
}

# report LABEL FILE…: per tool (files named TOOL.*), the medians of each
# column, and ours / k6's ratios.
report() {
  python3 - "$@" <<'PY'
import os, statistics, sys
label, cols, files = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
med, runs = {}, {}
for f in files:
    rows = [list(map(float, l.split())) for l in open(f) if l.strip()]
    if rows:
        tool = os.path.basename(f).split(".")[0]
        med[tool] = [statistics.median(r[i] for r in rows) for i in range(len(cols))]
        runs[tool] = rows
out = [label]
for tool, v in med.items():
    out.append(f"{tool}: " + ", ".join(f"{c} {x:.3f}" for c, x in zip(cols, v)))
    if "dropped" in cols:  # a median hides a run that dropped: each run's count
        i = cols.index("dropped")
        out[-1] += " (runs: " + " ".join(f"{r[i]:.0f}" for r in runs[tool]) + ")"
if "ours" in med and "k6" in med:
    o, k = med["ours"], med["k6"]
    out.append("ours/k6: " + ", ".join(f"{c} {a / b:.2f}x" if b else f"{c} -" for c, a, b in zip(cols, o, k)))
print(" | ".join(out))
PY
}

SECTIONS=${SIDE:-http idle streams}
want() { [[ " $SECTIONS " == *" $1 "* ]]; }

if want http; then
  (cd "$DIR/.." && ${GO:-go} build -o "$TMP/httpserver" ./bench/httpserver)
  "$TMP/httpserver" -addr 127.0.0.1:0 >"$TMP/url" &
  SPID=$!
  for _ in $(seq 50); do [ -s "$TMP/url" ] && break; sleep 0.1; done
  BASE=$(head -1 "$TMP/url")
  echo "== k6/http side by side: bench/http.js, ${SIDE_DURATION:-15s} per run, alternating, median of $RUNS"
  for rate in ${SIDE_RATES:-1000 2000 4000 6000}; do
    for _ in $(seq "$RUNS"); do
      while read -r name bin; do http_run "$name" "$bin" "$rate" "$TMP/$name.$rate"; done < <(tools)
    done
    report "$rate/s" "p99_ms dropped cpu_s_per_10k rss_kb achieved" $(tools | awk -v d="$TMP" -v r="$rate" '{print d "/" $1 "." r}')
  done
  kill "$SPID" 2>/dev/null || true; wait "$SPID" 2>/dev/null || true; SPID=
fi

if want idle; then
  hi=${IDLE_VUS:-10000}
  echo "== idle pooled VUs side by side: bench/idle_pool.js, peak RSS at 1,000 and $hi VUs, median of $RUNS"
  for _ in $(seq "$RUNS"); do
    while read -r name bin; do
      for vus in 1000 "$hi"; do
        /usr/bin/time -f '%M' -o "$TMP/time" "$bin" run -q --no-summary -e VUS="$vus" -e SLEEP=1 \
          "$DIR/idle_pool.js" >/dev/null 2>&1 || true
        tail -1 "$TMP/time" >>"$TMP/$name.idle$vus"
      done
      paste "$TMP/$name.idle1000" "$TMP/$name.idle$hi" | tail -1 |
        awk -v n="$hi" '{print ($2 - $1) / (n - 1000)}' >>"$TMP/$name.idle"
    done < <(tools)
  done
  report "KB per idle VU" "kb_per_vu" $(tools | awk -v d="$TMP" '{print d "/" $1 ".idle"}')
fi

if want streams; then
  (cd "$DIR/.." && ${GO:-go} build -o "$TMP/sseserver" ./bench/sseserver)
  "$TMP/sseserver" -addr 127.0.0.1:0 -interval 250ms -events 20 >"$TMP/sse.url" 2>/dev/null &
  SPID=$!
  for _ in $(seq 50); do [ -s "$TMP/sse.url" ] && break; sleep 0.1; done
  SSE=$(head -1 "$TMP/sse.url")
  echo "== open streams side by side: bench/openstreams.js, peak RSS at 60 and 300 new ~5 s streams/s, median of $RUNS"
  for _ in $(seq "$RUNS"); do
    while read -r name bin; do
      for rate in 60 300; do
        /usr/bin/time -f '%M' -o "$TMP/time" "$bin" run -q -e SSE_URL="$SSE" -e RATE="$rate" \
          "$DIR/openstreams.js" >/dev/null 2>&1 || true
        tail -1 "$TMP/time" >"$TMP/$name.open$rate"
      done
      paste "$TMP/$name.open60" "$TMP/$name.open300" | awk '{print ($2 - $1) / 1200}' >>"$TMP/$name.streams"
    done < <(tools)
  done
  report "KB per open stream" "kb_per_stream" $(tools | awk -v d="$TMP" '{print d "/" $1 ".streams"}')
  kill "$SPID" 2>/dev/null || true; wait "$SPID" 2>/dev/null || true; SPID=
fi
