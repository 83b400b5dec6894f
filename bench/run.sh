#!/usr/bin/env bash
# Load benchmarks of the runner: idle VU memory, VU start-up time and
# open-loop accuracy on trivial scripts, then the streaming probe against
# bench/sseserver on loopback. Each is run RUNS times and the median is
# printed; copy the results into BENCHMARKS.md.
#
# SECTIONS picks what runs (default "idle startup open streams streammem floor").
# The streaming sections read STREAM_RATES (default "1000 1500"; e.g. "500 1000
# 1500 2000"), STREAM_DURATION (30s), STREAM_LOW_RATE (20: the memory
# baseline, same VUs) and QUIET_WAIT (seconds to wait for other processes to go idle
# before a run, default 60); STREAM_LOG, if set, gets every run as a JSON
# line; ONEVENT=1 gives every stream an empty onEvent callback (the path of
# streams that run JavaScript). "streammem" reads MEM_RATE (300) and MEM_VUS (2000): memory per
# open stream from 1 s and 5 s streams at the same rate. "floor" runs
# bench/iterfloor.js (the runner with one sleeping JavaScript iteration per
# stream, no network), bench/floorclient (net/http, no JS) and
# bench/epollfloor (raw sockets, one epoll thread) on the same workload:
# what the machine allows at all; after a streams section at the same rate
# it prints the probe's CPU over each floor's, alone and with the iteration
# floor added. PIN=1 runs the server on the last CPU and every client on
# the others. "idle" ends with bench/vufloor: the live heap of a bare
# JavaScript runtime evaluating an empty module, the floor of an idle VU.
# "paired" (not in the default) runs the probe and bench/epollfloor in
# turn, RUNS pairs per rate of STREAM_RATES, and prints each pair's CPU
# ratio and their median: the comparison that holds when the machine
# drifts between the sections above.
# "stamps" (not in the default) runs bench/busy.js on each transport
# (plain, TLS HTTP/1.1, HTTP/2; BUSY JavaScript VUs spinning next to 5
# streams/s) and prints the receive-side stamp error p95/p99/max, the
# median of RUNS runs, and on plain HTTP the send-side t0_error per run; BASE_BIN, if set, is a second binary run the same
# way (the build before a change).
# "truth" (not in the default) runs bench/truth.js: every moment of the
# probe (headers, first_text, useful, each event) against the server's own
# send time counted from the request's arrival, with BUSY (6) VUs spinning,
# on plain, TLS HTTP/1.1 and HTTP/2, dense (a token every 10 ms) and sparse
# (50 ms) streams, with and without onEvent, for each --probe-capture of
# TRUTH_CAPTURES (default "auto off"); p95 / max in ms of each, RUNS runs
# (median). BASE_BIN, if set, is run the same way without the flag.
set -euo pipefail
BIN=${1:-bin/usefullatency}
RUNS=${RUNS:-3}
SECTIONS=${SECTIONS:-idle startup open streams streammem floor}
DIR=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
SPID=
cleanup() {
  if [ -n "$SPID" ]; then kill "$SPID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT

want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }

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
if want idle; then
for script in idle_pool.js idle.js; do
  echo "== idle VU memory, $script (peak RSS, median of $RUNS)"
  r1=$(for _ in $(seq "$RUNS"); do rss "$script" 1000; done | median)
  r10=$(for _ in $(seq "$RUNS"); do rss "$script" 10000; done | median)
  echo "1000 VUs: ${r1} KB; 10000 VUs: ${r10} KB; per VU: $(( (r10 - r1) / 9000 )) KB (target <= 40 KB, k6 v1.8.1 ~114 KB)"
done
# The runtime's own floor: bare sobek runtimes, each evaluating an empty
# ES module (bench/vufloor); the runner's idle VU is TestIdleVUMemory's
# live heap against it.
(cd "$DIR/.." && ${GO:-go} run ./bench/vufloor -n 2000)
fi

if want startup; then
echo "== start-up: 10000 VUs initialised (median of $RUNS)"
s=$(for _ in $(seq "$RUNS"); do initsec 10000; done | median)
echo "10000 VUs in ${s}s (target <= 2 s)"
fi

if want open; then
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
fi

# ---------------------------------------------------------------------------
# Streaming: bench/streams.js (constant-arrival-rate of usefulsse.post, ~1 s
# business streams of 20 events and a heartbeat) against bench/sseserver, a
# separate process started afresh for every run. first_text_error is the
# probe's first_text minus the server's send time of the first text. CPU is
# the runner's only (/usr/bin/time on its process, VU initialisation
# included); "other" is the CPU the rest of the machine used meanwhile
# (server excluded), in cores: above ~0.1 the run shared the CPU.
if want streams || want floor || want streammem || want paired; then
# PIN=1 runs bench/sseserver on the last CPU and the clients on the others,
# so that the server's scheduling does not wait for the client's CPU: the
# first_text error then measures the client, not the machine's contention.
SPIN=() CPIN=()
if [ -n "${PIN:-}" ]; then
  last=$(($(nproc) - 1))
  SPIN=(taskset -c "$last") CPIN=(taskset -c "0-$((last > 0 ? last - 1 : 0))")
fi
STREAM_RATES=${STREAM_RATES:-1000 1500}
STREAM_DURATION=${STREAM_DURATION:-30s}
STREAM_LOW_RATE=${STREAM_LOW_RATE:-20}
QUIET_WAIT=${QUIET_WAIT:-60}
(cd "$DIR/.." && ${GO:-go} build -o "$TMP/sseserver" ./bench/sseserver && ${GO:-go} build -o "$TMP/floorclient" ./bench/floorclient \
  && ${GO:-go} build -o "$TMP/epollfloor" ./bench/epollfloor)

# busy_jiffies: non-idle jiffies of the whole machine.
busy_jiffies() { awk '/^cpu / {print $2+$3+$4+$7+$8+$9}' /proc/stat; }
# proc_jiffies PID: user+system jiffies of a process.
proc_jiffies() { awk '{print $14+$15}' "/proc/$1/stat"; }

# quiet: wait up to QUIET_WAIT s until the machine is >= 90 % idle over 1 s.
quiet() {
  local end=$((SECONDS + QUIET_WAIT)) b0 b1
  while [ "$SECONDS" -lt "$end" ]; do
    b0=$(busy_jiffies); sleep 1; b1=$(busy_jiffies)
    # 2 cores x 100 jiffies/s: <= 20 busy jiffies is >= 90 % idle.
    if [ $((b1 - b0)) -le 20 ]; then return 0; fi
  done
  echo "   (machine still busy after ${QUIET_WAIT}s; running anyway)"
}

start_server() {
  : >"$TMP/sse.url"
  # shellcheck disable=SC2086 # SERVER_ARGS holds several flags
  "${SPIN[@]}" "$TMP/sseserver" -addr 127.0.0.1:0 ${SERVER_ARGS:-} >"$TMP/sse.url" 2>"$TMP/sse.err" &
  SPID=$!
  for _ in $(seq 50); do
    [ -s "$TMP/sse.url" ] && break
    sleep 0.1
  done
  URL=$(head -1 "$TMP/sse.url")
}

stop_server() {
  kill "$SPID" 2>/dev/null || true
  wait "$SPID" 2>/dev/null || true
  SPID=
}

# stream_run RATE VUS DURATION OUT: one run; writes a JSON line to OUT.
stream_run() {
  local rate=$1 vus=$2 dur=$3 out=$4 b0 b1 s0 s1
  quiet
  start_server
  b0=$(busy_jiffies); s0=$(proc_jiffies "$SPID")
  /usr/bin/time -f "%U %S %M %e" -o "$TMP/time" "${CPIN[@]}" "$BIN" run -q --no-summary \
    --summary-export "$TMP/streams.json" -e SSE_URL="$URL" -e RATE="$rate" -e VUS="$vus" \
    -e DURATION="$dur" -e ONEVENT="${ONEVENT:-}" "$DIR/streams.js" >"$TMP/run.log" 2>&1 || true
  s1=$(proc_jiffies "$SPID"); b1=$(busy_jiffies)
  stop_server
  python3 - "$TMP/streams.json" "$TMP/time" "$rate" "$dur" "$((s1 - s0))" "$((b1 - b0))" "$TMP/sse.err" "$(getconf CLK_TCK)" >>"$out" <<'PY'
import json, re, sys
path, timef, rate, dur, sj, bj, errf, hz = sys.argv[1:]
rate, hz, sj, bj = float(rate), float(hz), int(sj), int(bj)
m = re.fullmatch(r"(?:(\d+)m)?(?:(\d+(?:\.\d+)?)s)?", dur)
secs = 60 * float(m.group(1) or 0) + float(m.group(2) or 0)
u, s, rss, wall = (float(x) for x in open(timef).read().split()[-4:])
try:
    d = json.load(open(path))["metrics"]
except (OSError, ValueError):
    print(json.dumps({"rate": rate, "error": "no summary"}))
    sys.exit()
it = d.get("iterations", {}).get("count", 0)
fte = d.get("first_text_error", {})
complete = d.get("usefulsse_complete", {}).get("avg", 0)
srv = open(errf).read().strip().splitlines()
late = re.search(r"events (\d+), late >1ms (\d+)", srv[-1] if srv else "")
runner_j = (u + s) * hz
print(json.dumps({
    "rate": rate, "achieved": it / secs, "dropped": d.get("dropped_iterations", {}).get("count", 0),
    "err_p50": fte.get("med"), "err_p99": fte.get("p(99)"), "err_count": fte.get("count", 0),
    "rel_p50": d.get("first_text_error_rel", {}).get("med"), "rel_p99": d.get("first_text_error_rel", {}).get("p(99)"),
    "failed": d.get("usefulsse_failed", {}).get("value"),
    "cpu_per_1000": (u + s) / max(it, 1) * 1000, "rss_kb": rss,
    "concurrent": it / secs * complete / 1000,
    "server_cpu_per_1000": sj / hz / max(it, 1) * 1000,
    "server_late_1ms": int(late.group(2)) / max(int(late.group(1)), 1) if late else None,
    "other_cores": max(bj - sj - runner_j, 0) / hz / wall,
}))
PY
  python3 - "$out" <<'PY'
import json, sys
r = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
if "error" in r:
    print("   run failed:", r["error"]); sys.exit()
f = lambda k, p="%.3f": "-" if r.get(k) is None else p % r[k]
print(f"   {r['rate']:.0f}/s: achieved {r['achieved']:.1f}/s, dropped {r['dropped']:.0f}, first_text_error p50 {f('err_p50')} ms"
      f" p99 {f('err_p99')} ms (from the headers: p50 {f('rel_p50')} p99 {f('rel_p99')} ms), failed {f('failed', '%.4f')}, runner {r['cpu_per_1000']:.3f} CPU-s/1000 streams,"
      f" peak RSS {r['rss_kb']/1024:.0f} MB, ~{r['concurrent']:.0f} open streams; server {r['server_cpu_per_1000']:.3f} CPU-s/1000,"
      f" late>1ms {f('server_late_1ms', '%.4f')}; other {r['other_cores']:.2f} cores")
PY
}

# stream_median FILE: the median of every field over the runs of a rate.
stream_median() {
  python3 - "$1" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [r for r in rows if "error" not in r]
if not rows:
    print("{}"); sys.exit()
med = {k: statistics.median(r[k] for r in rows) for k in rows[0] if all(r.get(k) is not None for r in rows)}
print(json.dumps(med))
PY
}

fi

if want streams; then
echo "== streaming: constant-arrival-rate of usefulsse.post, ${STREAM_DURATION} per run, rates ${STREAM_RATES} (median of $RUNS)"
for rate in $STREAM_RATES; do
  vus=$((2 * rate))
  : >"$TMP/rate$rate"
  for _ in $(seq "$RUNS"); do stream_run "$rate" "$vus" "$STREAM_DURATION" "$TMP/rate$rate"; done
  # Memory baseline: the same VUs, at a low rate.
  : >"$TMP/low$rate"
  for _ in $(seq "$RUNS"); do stream_run "$STREAM_LOW_RATE" "$vus" 10s "$TMP/low$rate" >/dev/null; done
  if [ -n "${STREAM_LOG:-}" ]; then cat "$TMP/rate$rate" "$TMP/low$rate" >>"$STREAM_LOG"; fi
  hi=$(stream_median "$TMP/rate$rate"); lo=$(stream_median "$TMP/low$rate")
  echo "$hi" >"$TMP/probe$rate"
  python3 - "$hi" "$lo" <<'PY'
import json, sys
h, l = json.loads(sys.argv[1]), json.loads(sys.argv[2])
if not h or not l:
    print("no successful run"); sys.exit()
g = lambda k, p="%.3f": p % h[k] if k in h else "-"
ok = h.get("dropped", 1) == 0 and h.get("err_p99", 9) <= 1 and h.get("achieved", 0) >= 0.995 * h["rate"]
open_delta = h.get("concurrent", 0) - l.get("concurrent", 0)
per = (h["rss_kb"] - l["rss_kb"]) / open_delta if open_delta > 0 else float("nan")
print(f"{h['rate']:.0f}/s median: achieved {g('achieved', '%.1f')}/s, dropped {g('dropped', '%.0f')}, first_text_error p50 {g('err_p50')} ms"
      f" p99 {g('err_p99')} ms (from the headers: p50 {g('rel_p50')} p99 {g('rel_p99')} ms), usefulsse_failed {g('failed', '%.4f')}, runner {g('cpu_per_1000')} CPU-s per 1000 streams"
      f" (target <= 0.3, k6+xk6-sse ~3.2), peak RSS {h['rss_kb']/1024:.0f} MB (at {l['rate']:.0f}/s: {l['rss_kb']/1024:.0f} MB),"
      f" ~{h['concurrent']:.0f} open streams (at {l['rate']:.0f}/s: {l['concurrent']:.0f}): {per:.1f} KB per open stream (target <= 64 KB, k6+xk6-sse ~232 KB per streaming VU);"
      f" server {g('server_cpu_per_1000')} CPU-s/1000; other processes {g('other_cores', '%.2f')} cores"
      f" -> {'meets' if ok else 'misses'} >= rate, p99 <= 1 ms, no drops")
PY
done
fi

# Memory per open stream, with the allocation rate held constant: the same
# arrival rate and VUs, streams of ~1 s (events 50 ms apart) and of ~5 s
# (250 ms apart). The peak RSS difference over the difference in open
# streams is what one more open stream costs: its VU at work, connection,
# parser, state, and the garbage collector's headroom over them. (Raising
# the rate instead also raises the allocation rate, and with it how far the
# heap of the idle VUs grows between collections.)
if want streammem; then
MEM_RATE=${MEM_RATE:-300}
MEM_VUS=${MEM_VUS:-2000}
echo "== memory per open stream: ${MEM_RATE}/s, ${MEM_VUS} VUs, 1 s vs 5 s streams, ${STREAM_DURATION} per run (median of $RUNS)"
for interval in 50ms 250ms; do
  : >"$TMP/mem$interval"
  for _ in $(seq "$RUNS"); do
    SERVER_ARGS="-interval $interval" stream_run "$MEM_RATE" "$MEM_VUS" "$STREAM_DURATION" "$TMP/mem$interval" | sed 's/^/   /'
  done
done
if [ -n "${STREAM_LOG:-}" ]; then cat "$TMP/mem50ms" "$TMP/mem250ms" >>"$STREAM_LOG"; fi
python3 - "$(stream_median "$TMP/mem50ms")" "$(stream_median "$TMP/mem250ms")" <<'PY'
import json, sys
s, l = json.loads(sys.argv[1]), json.loads(sys.argv[2])
if not s or not l:
    print("no successful run"); sys.exit()
d = l["concurrent"] - s["concurrent"]
per = (l["rss_kb"] - s["rss_kb"]) / d if d > 0 else float("nan")
print(f"memory median: 1 s streams ~{s['concurrent']:.0f} open, peak RSS {s['rss_kb']/1024:.0f} MB; 5 s streams ~{l['concurrent']:.0f} open,"
      f" peak RSS {l['rss_kb']/1024:.0f} MB: {per:.1f} KB per open stream (target <= 64 KB, k6+xk6-sse ~232 KB per streaming VU)")
PY
fi

# floor_run CLIENT RATE: one run of a floor client; prints its summary line.
floor_run() {
  quiet
  start_server
  "${CPIN[@]}" "$TMP/$1" -url "$URL" -rate "$2" -duration "$STREAM_DURATION"
  stop_server
}

# iter_run RATE: one run of bench/iterfloor.js; prints its CPU-s per 1000
# iterations.
iter_run() {
  quiet
  /usr/bin/time -f "%U %S" -o "$TMP/itime" "${CPIN[@]}" "$BIN" run -q --no-summary --summary-export "$TMP/iter.json" \
    -e RATE="$1" -e DURATION="$STREAM_DURATION" "$DIR/iterfloor.js" >/dev/null 2>&1 || true
  python3 - "$TMP/iter.json" "$TMP/itime" <<'PY'
import json, sys
it = json.load(open(sys.argv[1]))["metrics"]["iterations"]["count"]
u, s = (float(x) for x in open(sys.argv[2]).read().split()[-2:])
print(f"{(u + s) / it * 1000:.3f}")
PY
}

if want floor; then
echo "== iteration floor: bench/iterfloor.js (the runner, one sleeping JavaScript iteration per stream, no network; median of $RUNS)"
for rate in $STREAM_RATES; do
  for _ in $(seq "$RUNS"); do iter_run "$rate"; done | median >"$TMP/iter$rate"
  echo "$rate/s: $(cat "$TMP/iter$rate") CPU-s per 1000 iterations"
done
for client in floorclient epollfloor; do
echo "== streaming floor: bench/$client (no JS; $([ $client = floorclient ] && echo 'net/http, a goroutine per stream' || echo 'raw sockets, one epoll thread')) on the same workload (median of $RUNS)"
for rate in $STREAM_RATES; do
  for _ in $(seq "$RUNS"); do floor_run "$client" "$rate"; done | tee "$TMP/floor$rate" | sed 's/^/   /'
  python3 - "$TMP/floor$rate" "$rate" "$client" "$TMP/probe$rate" "$TMP/iter$rate" <<'PY'
import json, os, re, statistics, sys
rows = [l for l in open(sys.argv[1]) if l.startswith(sys.argv[3] + ":")]
get = lambda pat: statistics.median(float(re.search(pat, l).group(1)) for l in rows)
cpu, p99, rss = get(r'([0-9.]+) CPU-s'), get(r'p99 ([0-9.]+)'), get(r'peak RSS ([0-9.]+) MB')
line = (f"{sys.argv[2]}/s {sys.argv[3]} median: first_text_error p50 {get(r'p50 ([0-9.]+)'):.3f} ms p99 {p99:.3f} ms,"
        f" {cpu:.3f} CPU-s per 1000 streams, peak RSS {rss:.0f} MB, failed {get(r'failed ([0-9]+)'):.0f}")
# The probe side by side with this floor, when the streams section ran the same rate.
if os.path.exists(sys.argv[4]):
    probe = json.load(open(sys.argv[4]))
    if probe.get("cpu_per_1000") and cpu:
        line += (f" -> usefullatency {probe['cpu_per_1000']:.3f} CPU-s = {probe['cpu_per_1000'] / cpu:.2f}x this floor's"
                 f" (target <= 1.3x epollfloor), first_text_error p99 {probe['err_p99']:.3f} vs {p99:.3f} ms,"
                 f" peak RSS {probe['rss_kb'] / 1024:.0f} vs {rss:.0f} MB, dropped {probe['dropped']:.0f}")
        if os.path.exists(sys.argv[5]):
            it = float(open(sys.argv[5]).read())
            line += (f"; with the iteration floor ({it:.3f}): {probe['cpu_per_1000'] / (cpu + it):.2f}x this floor plus it,"
                     f" the streams themselves {(probe['cpu_per_1000'] - it) / cpu:.2f}x")
print(line)
PY
done
done
fi

# Paired: the probe and bench/epollfloor on the same workload, one run of
# each in turn, RUNS pairs per rate: what drifts on the machine over minutes
# (other tenants, the host's memory) lands on both runs of a pair alike, so
# each pair's ratio is read on its own, then their median.
if want paired; then
echo "== paired: bench/streams.js and bench/epollfloor in turn, ${STREAM_DURATION} per run, rates ${STREAM_RATES} ($RUNS pairs)"
for rate in $STREAM_RATES; do
  : >"$TMP/pprobe$rate"
  : >"$TMP/pfloor$rate"
  for _ in $(seq "$RUNS"); do
    floor_run epollfloor "$rate" >>"$TMP/pfloor$rate"
    stream_run "$rate" $((2 * rate)) "$STREAM_DURATION" "$TMP/pprobe$rate" >/dev/null
  done
  python3 - "$TMP/pprobe$rate" "$TMP/pfloor$rate" "$rate" <<'PY'
import json, re, statistics, sys
probes = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
floors = [l for l in open(sys.argv[2]) if l.startswith("epollfloor:")]
rows = []
for p, f in zip(probes, floors):
    if "error" in p:
        print("   probe run failed:", p["error"]); continue
    cpu, p99 = float(re.search(r"([0-9.]+) CPU-s", f).group(1)), float(re.search(r"p99 ([0-9.]+)", f).group(1))
    rows.append((p["cpu_per_1000"] / cpu, p["cpu_per_1000"], cpu, p["err_p99"], p99, p["rss_kb"] / 1024, p["dropped"]))
    print(f"   probe {p['cpu_per_1000']:.3f} / floor {cpu:.3f} CPU-s per 1000 streams = {rows[-1][0]:.2f}x;"
          f" first_text_error p99 {p['err_p99']:.2f} vs {p99:.2f} ms; probe peak RSS {rows[-1][5]:.0f} MB, dropped {p['dropped']:.0f}")
if rows:
    med = lambda i: statistics.median(r[i] for r in rows)
    met = sum(1 for r in rows if r[0] <= 1.3 and r[3] <= 2)
    print(f"{sys.argv[3]}/s paired median: {med(0):.2f}x the floor's CPU (probe {med(1):.3f}, floor {med(2):.3f} CPU-s per 1000 streams),"
          f" first_text_error p99 {med(3):.2f} vs {med(4):.2f} ms, probe peak RSS {med(5):.0f} MB;"
          f" {met} of {len(rows)} pairs within 1.3x with p99 <= 2 ms")
PY
done
fi

# ---------------------------------------------------------------------------
# Stamp error per transport under a busy client: bench/busy.js.
if want stamps; then
(cd "$DIR/.." && ${GO:-go} build -o "$TMP/sseserver" ./bench/sseserver)
for bin in "$BIN" ${BASE_BIN:-}; do
  for mode in plain h1 h2; do
    : >"$TMP/stamps.txt"
    for _ in $(seq "$RUNS"); do
      : >"$TMP/sse.url"
      flag=""
      if [ "$mode" != plain ]; then flag="-tls $mode"; fi
      # shellcheck disable=SC2086 # flag is empty or two words
      "$TMP/sseserver" -addr 127.0.0.1:0 $flag >"$TMP/sse.url" 2>"$TMP/sse.err" &
      SPID=$!
      for _ in $(seq 50); do [ -s "$TMP/sse.url" ] && break; sleep 0.1; done
      "$bin" run -q --no-summary --summary-export "$TMP/busy.json" -e SSE_URL="$(head -1 "$TMP/sse.url")" \
        -e DURATION="${STAMP_DURATION:-20s}" -e BUSY="${BUSY:-6}" -e ONEVENT="${ONEVENT:-}" "$DIR/busy.js" >"$TMP/run.log" 2>&1 || true
      kill "$SPID" 2>/dev/null || true; wait "$SPID" 2>/dev/null || true; SPID=
      python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["metrics"]; e=m["first_text_error_rel"]; l=m.get("usefulsse_read_lag",{}); c=m.get("usefulsse_client_cpu",{}); t=m.get("t0_error_own_read",{}); print(e["p(95)"], e["p(99)"], e["max"], e["count"], l.get("p(99)", "-"), c.get("max", c.get("value","-")), *[t.get(k, "-") for k in ("med", "p(95)", "p(99)", "max")])' "$TMP/busy.json" >>"$TMP/stamps.txt" || echo "   run failed: $(tail -3 "$TMP/run.log")"
    done
    echo "$(basename "$bin") $mode: runs (p95 p99 max n read_lag_p99 cpu_max t0_error_own_read_p50 _p95 _p99 _max):"; sed 's/^/   /' "$TMP/stamps.txt"
    for col in 1 2 3; do printf "   median %s: %s ms\n" "$(echo p95 p99 max | cut -d' ' -f$col)" "$(cut -d' ' -f$col "$TMP/stamps.txt" | median)"; done
  done
done
fi

if want truth; then
(cd "$DIR/.." && ${GO:-go} build -o "$TMP/sseserver" ./bench/sseserver)
truthrun() { # truthrun BIN MODE DENSE ONEVENT CAPTURE: one run's errors
  local flag="" iv="-interval 50ms -events 20"
  if [ "$2" != plain ]; then flag="-tls $2"; fi
  if [ "$3" = dense ]; then iv="-interval 10ms -events 100"; fi
  : >"$TMP/sse.url"
  # shellcheck disable=SC2086 # flag and iv are words
  nice -n -10 "$TMP/sseserver" -addr 127.0.0.1:0 $flag $iv >"$TMP/sse.url" 2>"$TMP/sse.err" &
  SPID=$!
  for _ in $(seq 50); do [ -s "$TMP/sse.url" ] && break; sleep 0.1; done
  local capflag=(--probe-capture "$5")
  if [ "$5" = none ]; then capflag=(); fi # a build before the flag
  "$1" run -q --no-summary "${capflag[@]}" --summary-export "$TMP/truth.json" -e SSE_URL="$(head -1 "$TMP/sse.url")" \
    -e DURATION="${TRUTH_DURATION:-15s}" -e BUSY="${BUSY:-6}" -e ONEVENT="$4" "$DIR/truth.js" >"$TMP/run.log" 2>&1 || true
  kill "$SPID" 2>/dev/null || true; wait "$SPID" 2>/dev/null || true; SPID=
  python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["metrics"]; print(" ".join("%.2f/%.2f" % (m[k]["p(95)"], m[k]["max"]) if k in m else "-" for k in ("err_headers","err_first_text","err_useful","err_event")), int(m.get("usefulsse_coalesced_events",{}).get("count",0)))' "$TMP/truth.json" 2>/dev/null || echo "run failed: $(tail -2 "$TMP/run.log")"
}
echo "== truth: error p95/max (ms) of headers first_text useful event, coalesced events; BUSY=${BUSY:-6}"
for bin in "$BIN" ${BASE_BIN:-}; do
  captures=${TRUTH_CAPTURES:-auto off}
  if [ "$bin" != "$BIN" ]; then captures=none; fi
  for capture in $captures; do for mode in plain h1 h2; do for density in dense sparse; do for onevent in "" 1; do
    for _ in $(seq "$RUNS"); do truthrun "$bin" "$mode" "$density" "$onevent" "$capture"; done >"$TMP/truth.txt"
    echo "$(basename "$bin") capture=$capture $mode $density onEvent=${onevent:-0}: $(sort -t/ -k1 -g "$TMP/truth.txt" | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')"
  done; done; done; done
done
fi
