#!/usr/bin/env bash
# Output overhead: the same open-loop run (bench/open.js, RATE iterations/s,
# about 3 samples per iteration plus the VU gauges: ~5,000 samples/s at the
# default 1667/s) with no output and with each output type. Prints, per
# output, the median over RUNS runs of the runner's CPU seconds, its peak
# RSS, schedule_lag p99 and dropped iterations, and checks that the JSON
# file and InfluxDB hold every iteration the summary counts. OUTPUTS picks
# the output types (all by default).
set -euo pipefail
BIN=${1:-bin/usefullatency}
RUNS=${RUNS:-3}
RATE=${RATE:-1667}
DURATION=${DURATION:-10s}
OUTPUTS=${OUTPUTS:-none json csv experimental-prometheus-rw influxdb html}
DIR=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
PROM_PID= INFLUX_PID=
cleanup() {
  [ -n "$PROM_PID" ] && kill "$PROM_PID" 2>/dev/null
  [ -n "$INFLUX_PID" ] && kill "$INFLUX_PID" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# A real Prometheus receives the remote-write output.
printf 'global:\n  scrape_interval: 15s\n' > "$TMP/prometheus.yml"
prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
  --web.listen-address=127.0.0.1:19090 --web.enable-remote-write-receiver >"$TMP/prom.log" 2>&1 &
PROM_PID=$!
for _ in $(seq 50); do curl -sf http://127.0.0.1:19090/-/ready >/dev/null && break; sleep 0.2; done

# A real InfluxDB 1.x receives the influxdb output.
cat >"$TMP/influxdb.conf" <<EOF
reporting-disabled = true
bind-address = "127.0.0.1:18088"
[meta]
  dir = "$TMP/influx/meta"
[data]
  dir = "$TMP/influx/data"
  wal-dir = "$TMP/influx/wal"
  query-log-enabled = false
[monitor]
  store-enabled = false
[http]
  bind-address = "127.0.0.1:18086"
  log-enabled = false
EOF
influxd -config "$TMP/influxdb.conf" >"$TMP/influx.log" 2>&1 &
INFLUX_PID=$!
for _ in $(seq 50); do curl -sf http://127.0.0.1:18086/ping >/dev/null && break; sleep 0.2; done

declare -A OUT=(
  [none]=""
  [json]="-o json=$TMP/out.json"
  [csv]="-o csv=$TMP/out.csv"
  [experimental-prometheus-rw]="-o experimental-prometheus-rw=http://127.0.0.1:19090/api/v1/write"
  [influxdb]="-o influxdb=http://127.0.0.1:18086/bench"
  [html]="-o html=$TMP/report.html"
)
echo "== output overhead: $RATE iterations/s (~$((RATE * 3)) samples/s) for $DURATION, median of $RUNS"
printf '%-28s %10s %10s %16s %8s %s\n' output cpu_s rss_mb lag_p99_ms dropped notes
for out in $OUTPUTS; do
  : >"$TMP/rows"
  for i in $(seq "$RUNS"); do
    if [ "$out" = influxdb ]; then
      curl -sf -XPOST http://127.0.0.1:18086/query --data-urlencode 'q=DROP DATABASE bench' >/dev/null
    fi
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
if sys.argv[3] == "influxdb":
    import urllib.parse, urllib.request
    q = urllib.parse.urlencode({"db": "bench", "q": "SELECT count(value) FROM iterations"})
    r = json.load(urllib.request.urlopen("http://127.0.0.1:18086/query?" + q))
    n = r["results"][0]["series"][0]["values"][0][1]
    note = "influxdb iteration points %d of %d" % (n, it)
print(float(u) + float(s), int(rss) / 1024, m["schedule_lag"]["p(99)"], m.get("dropped_iterations", {}).get("count", 0), note, sep="\t")
PY
  done
  cpu=$(cut -f1 "$TMP/rows" | median); rss=$(cut -f2 "$TMP/rows" | median)
  lag=$(cut -f3 "$TMP/rows" | median); drop=$(cut -f4 "$TMP/rows" | median)
  note=$(cut -f5 "$TMP/rows" | tail -1)
  printf '%-28s %10.2f %10.1f %16.3f %8s %s\n' "$out" "$cpu" "$rss" "$lag" "$drop" "$note"
done
