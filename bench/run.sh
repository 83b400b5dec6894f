#!/usr/bin/env bash
# Load benchmarks of the runner on loopback-free trivial scripts: idle VU
# memory, VU start-up time and open-loop accuracy. Each is run RUNS times
# and the median is printed; copy the results into BENCHMARKS.md.
set -euo pipefail
BIN=${1:-bin/usefullatency}
RUNS=${RUNS:-3}
DIR=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# rss SCRIPT VUS: peak RSS in KB of a run of SCRIPT with VUS idle VUs.
rss() {
  /usr/bin/time -f %M -o "$TMP/rss" "$BIN" run -q --no-summary -e VUS="$2" -e SLEEP=2 "$DIR/$1" >/dev/null 2>&1
  cat "$TMP/rss"
}

# initsec VUS: seconds the runner reports for initialising VUS VUs.
initsec() {
  "$BIN" run --no-summary -e VUS="$1" -e SLEEP=0 "$DIR/idle.js" 2>&1 >/dev/null |
    sed -n 's/.*init: [0-9]* VUs initialised in \(.*\)$/\1/p' |
    awk '{v=$1; if (v ~ /ms$/) {sub(/ms$/,"",v); v=v/1000} else if (v ~ /s$/) {sub(/s$/,"",v)} print v}'
}

# idle_pool.js keeps initialised VUs idle in an arrival-rate pool; idle.js
# parks each VU in sleep() inside a running iteration (one goroutine each).
for script in idle_pool.js idle.js; do
  echo "== idle VU memory, $script (peak RSS, median of $RUNS)"
  r1=$(for _ in $(seq "$RUNS"); do rss "$script" 1000; done | median)
  r10=$(for _ in $(seq "$RUNS"); do rss "$script" 10000; done | median)
  echo "1000 VUs: ${r1} KB; 10000 VUs: ${r10} KB; per VU: $(( (r10 - r1) / 9000 )) KB (target <= 40 KB, k6 v1.8.1 ~114 KB)"
done

echo "== start-up: 10000 VUs initialised (median of $RUNS)"
s=$(for _ in $(seq "$RUNS"); do initsec 10000; done | median)
echo "10000 VUs in ${s}s (target <= 2 s)"

echo "== open-loop accuracy: constant-arrival-rate ${RATE:-5000}/s for ${DURATION:-30s} (median of $RUNS)"
for i in $(seq "$RUNS"); do
  "$BIN" run -q --no-summary --summary-export "$TMP/open$i.json" "$DIR/open.js" >/dev/null 2>&1
  python3 - "$TMP/open$i.json" "${RATE:-5000}" "${DURATION:-30s}" <<'PY'
import json, sys, re
d = json.load(open(sys.argv[1]))["metrics"]
rate, dur = float(sys.argv[2]), sys.argv[3]
secs = float(re.sub(r"s$", "", dur)) if dur.endswith("s") and "m" not in dur else 60 * float(dur.rstrip("m"))
it = d["iterations"]["count"]
drop = d.get("dropped_iterations", {}).get("count", 0)
print(f"achieved {it/secs:.1f}/s ({(it/secs/rate-1)*100:+.3f}% of target), schedule_lag p99 {d['schedule_lag']['p(99)']:.3f} ms, dropped {drop}")
PY
done
