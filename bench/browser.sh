#!/usr/bin/env bash
# Memory and CPU of browser VUs: bench/browser.js through BIN against the
# built-in assistant (--mock), with 1 and BROWSER_VUS (4) VUs, then with
# PAGES (3) pages open at once per VU. For each run it prints the peak
# proportional set size (PSS, so shared pages count once) of the runner
# and every Chromium process under it, sampled every 200 ms, the CPU-s of
# them all (the runner's and its reaped children's user + system time)
# per iteration, and the iterations; then the memory per VU and per page
# open at once from the differences. Each figure is the median of RUNS (3).
set -euo pipefail
BIN=${1:-bin/usefullatency}
RUNS=${RUNS:-3}
DIR=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export BIN DIR TMP

# run VUS PAGES: one run; prints "pss_mb cpu_s iterations".
run() {
  python3 - "$1" "$2" <<'PY'
import json, os, subprocess, sys, time
vus, pages = sys.argv[1], sys.argv[2]
tmp, dur = os.environ["TMP"], os.environ.get("BROWSER_DURATION", "20s")
cmd = ["/usr/bin/time", "-f", "%U %S", "-o", f"{tmp}/time", os.environ["BIN"], "run", "-q", "--mock",
       "--summary-export", f"{tmp}/s.json", "-e", f"VUS={vus}", "-e", f"PAGES={pages}", "-e", f"DURATION={dur}",
       f"{os.environ['DIR']}/browser.js"]
p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def tree(root):
    kids, out = {}, [root]
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                ppid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            kids.setdefault(ppid, []).append(int(pid))
    i = 0
    while i < len(out):
        out += kids.get(out[i], [])
        i += 1
    return out

def pss(pids):
    total = 0
    for pid in pids:
        try:
            for line in open(f"/proc/{pid}/smaps_rollup"):
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total

peak = 0
while p.poll() is None:
    peak = max(peak, pss(tree(p.pid)))
    time.sleep(0.2)
u, s = map(float, open(f"{tmp}/time").read().split()[-2:])
it = json.load(open(f"{tmp}/s.json"))["metrics"].get("iterations", {}).get("count", 0)
print(peak / 1024, (u + s) / max(it, 1), it)
PY
}

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
hi=${BROWSER_VUS:-4}
pg=${PAGES:-3}
for cfg in "1 1" "$hi 1" "1 $pg"; do
  set -- $cfg
  for _ in $(seq "$RUNS"); do run "$1" "$2"; done >"$TMP/r$1.$2"
  printf '%s VU(s), %s page(s) each: peak PSS %.0f MB, %.2f CPU-s per iteration, %s iterations (median of %s)\n' "$1" "$2" \
    "$(cut -d' ' -f1 "$TMP/r$1.$2" | median)" "$(cut -d' ' -f2 "$TMP/r$1.$2" | median)" "$(cut -d' ' -f3 "$TMP/r$1.$2" | median)" "$RUNS"
done
one=$(cut -d' ' -f1 "$TMP/r1.1" | median)
many=$(cut -d' ' -f1 "$TMP/r$hi.1" | median)
paged=$(cut -d' ' -f1 "$TMP/r1.$pg" | median)
awk -v a="$one" -v b="$many" -v c="$paged" -v n="$hi" -v p="$pg" 'BEGIN {
  printf "memory per browser VU (one Chromium, one page): %.0f MB; per extra page open at once: %.0f MB\n", (b - a) / (n - 1), (c - a) / (p - 1) }'
