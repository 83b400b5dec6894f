#!/usr/bin/env bash
# Output overhead: the same open-loop run (bench/open.js, RATE iterations/s,
# about 3 samples per iteration plus the VU gauges: ~5,000 samples/s at the
# default 1667/s) with no output and with each output type. Prints, per
# output, the median over RUNS runs of the runner's CPU seconds, its peak
# RSS, schedule_lag p99 and dropped iterations, and checks that the JSON
# file holds every iteration the summary counts.
set -euo pipefail
BIN=${1:-bin/usefullatency}
RUNS=${RUNS:-3}
RATE=${RATE:-1667}
DURATION=${DURATION:-10s}
DIR=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
PROM_PID=
cleanup() { [ -n "$PROM_PID" ] && kill "$PROM_PID" 2>/dev/null; rm -rf "$TMP"; }
trap cleanup EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# A real Prometheus receives the remote-write output.
printf 'global:\n  scrape_interval: 15s\n' > "$TMP/prometheus.yml"
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
  --web.listen-address=127.0.0.1:19090 --web.enable-remote-write-receiver >"$TMP/prom.log" 2>&1 &
PROM_PID=$!
for _ in $(seq 50); do curl -sf http://127.0.0.1:19090/-/ready >/dev/null && break; sleep 0.2; done

declare -A OUT=(
  [none]=""
  [json]="-o json=$TMP/out.json"
  [csv]="-o csv=$TMP/out.csv"
  [experimental-prometheus-rw]="-o experimental-prometheus-rw=http://127.0.0.1:19090/api/v1/write"
  [html]="-o html=$TMP/report.html"
)
echo "== output overhead: $RATE iterations/s (~$((RATE * 3)) samples/s) for $DURATION, median of $RUNS"
printf '%-28s %10s %10s %16s %8s %s\n' output cpu_s rss_mb lag_p99_ms dropped notes
for out in none json csv experimental-prometheus-rw html; do
  : >"$TMP/rows"
  for i in $(seq "$RUNS"); do
    # shellcheck disable=SC2086
    /usr/bin/time -f "%U %S %M" -o "$TMP/time" "$BIN" run -q --no-summary --summary-export "$TMP/e.json" \
      -e RATE="$RATE" -e DURATION="$DURATION" ${OUT[$out]} "$DIR/open.js" >/dev/null 2>&1 || true
    python3 - "$TMP/time" "$TMP/e.json" "$out" "$TMP/out.json" >>"$TMP/rows" <<'PY'
import json, sys
u, s, rss = open(sys.argv[1]).read().split()[-3:]
m = json.load(open(sys.argv[2]))["metrics"]
it = m["iterations"]["count"]
note = ""
if sys.argv[3] == "json":
    n = sum(1 for line in open(sys.argv[4]) if '"metric":"iterations"' in line and '"Point"' in line)
    note = "json iteration points %d of %d" % (n, it)
print(float(u) + float(s), int(rss) / 1024, m["schedule_lag"]["p(99)"], m.get("dropped_iterations", {}).get("count", 0), note, sep="\t")
PY
  done
  cpu=$(cut -f1 "$TMP/rows" | median); rss=$(cut -f2 "$TMP/rows" | median)
  lag=$(cut -f3 "$TMP/rows" | median); drop=$(cut -f4 "$TMP/rows" | median)
  note=$(cut -f5 "$TMP/rows" | tail -1)
  printf '%-28s %10.2f %10.1f %16.3f %8s %s\n' "$out" "$cpu" "$rss" "$lag" "$drop" "$note"
done
