#!/usr/bin/env bash
# Script-load benchmark: the time the runner reports for initialising
# VUS (default 1000) VUs, median of RUNS (default 3), for generated scripts:
#   esm1mb  a 1 MB ES module (function declarations, as a bundle has);
#   cjs1mb  the same 1 MB as a CommonJS bundle (exports.default);
#   ts50    a TypeScript main script importing 50 TypeScript modules.
# Usage: bench/loader.sh [BIN] — SCRIPTS picks the scripts (default all).
set -euo pipefail
BIN=${1:-bin/usefullatency}
RUNS=${RUNS:-3}
VUS=${VUS:-1000}
SCRIPTS=${SCRIPTS:-esm1mb cjs1mb ts50}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# body N: N function declarations of about 130 bytes each.
body() {
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "function f%d(a, b) { const s = a + b * %d; if (s > 1e9) { return \"overflow-%d\"; } return s.toString(16) + \"-%d\"; }\n", i, i, i, i }'
}

mkdir -p "$TMP/esm1mb" "$TMP/cjs1mb" "$TMP/ts50"
{ body 8000; echo 'export default function () { f0(1, 2); }'; } >"$TMP/esm1mb/main.js"
{ body 8000; echo 'exports.default = function () { f0(1, 2); };'; } >"$TMP/cjs1mb/main.js"
for i in $(seq 0 49); do
  cat >"$TMP/ts50/m$i.ts" <<TS
export interface Item$i { id: number; name: string; tags: string[] }
export type Pair$i = [Item$i, number];
export function make$i(id: number): Item$i {
  const name: string = 'item-$i-' + id;
  return { id, name, tags: [name, String(id * $i)] };
}
export function score$i(p: Pair$i): number {
  const [item, weight] = p;
  return item.tags.length * weight + item.id;
}
TS
done
{
  for i in $(seq 0 49); do echo "import { make$i, score$i } from './m$i.ts';"; done
  echo 'export default function (): void {'
  for i in $(seq 0 49); do echo "  score$i([make$i($i), 2]);"; done
  echo '}'
} >"$TMP/ts50/main.ts"

# initsec MAIN: seconds the runner reports for initialising VUS VUs.
initsec() {
  "$BIN" run --no-summary --vus "$VUS" --iterations "$VUS" "$1" 2>&1 >/dev/null |
    sed -n 's/.*init: [0-9]* VUs initialised in \(.*\)$/\1/p' |
    awk '{v=$1; if (v ~ /ms$/) {sub(/ms$/,"",v); v=v/1000} else if (v ~ /s$/) {sub(/s$/,"",v)} print v}'
}

for s in $SCRIPTS; do
  main=$(ls "$TMP/$s"/main.*)
  size=$(cat "$TMP/$s"/* | wc -c)
  t=$(for _ in $(seq "$RUNS"); do initsec "$main"; done | median)
  echo "$s ($size bytes): $VUS VUs initialised in ${t:-?}s (median of $RUNS)"
done
