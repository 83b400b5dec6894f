#!/usr/bin/env bash
# Load benchmark of k6/http: bench/http.js (http.get of a 1 KiB body at a
# constant arrival rate) against bench/httpserver on loopback, at each rate
# of HTTP_RATES (default "1000 2000 3000 4000"), for HTTP_DURATION (10s),
# RUNS times each (3). For every rate it prints the medians of the achieved
# request rate, http_req_duration p99, dropped iterations and the runner's
# CPU-seconds (user + system, from /usr/bin/time) per 10,000 requests, and
# the CPU-seconds per 10,000 requests of bench/httpfloor (plain net/http,
# no JavaScript, no metrics) at the same rate, and the requests it dropped
# (due while all of its 50 were in flight, as an arrival-rate executor drops).
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

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

(cd "$DIR/.." && ${GO:-go} build -o "$TMP/httpserver" ./bench/httpserver && ${GO:-go} build -o "$TMP/httpfloor" ./bench/httpfloor)
"$TMP/httpserver" -addr 127.0.0.1:0 >"$TMP/url" &
SPID=$!
for _ in $(seq 50); do [ -s "$TMP/url" ] && break; sleep 0.1; done
BASE=$(head -1 "$TMP/url")

for rate in ${HTTP_RATES:-1000 2000 3000 4000}; do
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f '%U %S' -o "$TMP/cpu" "$BIN" run -q --no-summary --summary-export "$TMP/s.json" \
      -e BASE="$BASE" -e RATE="$rate" -e DURATION="${HTTP_DURATION:-10s}" "$DIR/http.js" >/dev/null 2>&1 || true
    python3 - "$TMP/s.json" "$TMP/cpu" "${HTTP_DURATION:-10s}" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["metrics"]
user, sys_ = map(float, open(sys.argv[2]).read().split()[-2:])
secs = float(sys.argv[3].rstrip("s"))
n = m["http_reqs"]["count"]
print(n / secs, m["http_req_duration"]["p(99)"], m.get("dropped_iterations", {}).get("count", 0),
      (user + sys_) / n * 10000, m["http_req_failed"].get("passes", 0) if "http_req_failed" in m else 0)
PY
  done >"$TMP/rate$rate"
  for i in $(seq "$RUNS"); do
    /usr/bin/time -f '%U %S' -o "$TMP/cpu" "$TMP/httpfloor" -url "$BASE" -rate "$rate" -duration "${HTTP_DURATION:-10s}" >"$TMP/floor"
    read -r n _ dropped <"$TMP/floor"
    awk -v n="$n" -v d="$dropped" '{print ($1 + $2) / n * 10000, d}' "$TMP/cpu"
  done >"$TMP/floor$rate"
  col() { awk -v c="$1" '{print $c}' "$TMP/rate$rate" | median; }
  fcol() { awk -v c="$1" '{print $c}' "$TMP/floor$rate" | median; }
  printf '%s/s: achieved %.0f/s, http_req_duration p99 %.3f ms, dropped %s, %.2f CPU-s per 10,000 requests (net/http floor %.2f, dropped %s), failed %s (median of %s)\n' \
    "$rate" "$(col 1)" "$(col 2)" "$(col 3)" "$(col 4)" "$(fcol 1)" "$(fcol 2)" "$(col 5)" "$RUNS"
done
