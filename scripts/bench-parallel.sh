#!/usr/bin/env bash
# Parallel df-pn (solve --threads N): each position solved in turn by N
# agents on one table, N = 1 and 2 alternating position set by position
# set, in one run. Prints a markdown table: mean time and mean visits per
# position at each N, the speed-up (time at 1 / time at N) and the search
# overhead (visits at N / visits at 1).
#
#   scripts/bench-parallel.sh [FILE:GAME:LIMIT ...]
#
# Default sets: Connect Four L1_R2 and L2_R2 (first 200 positions each).
set -euo pipefail
cd "$(dirname "$0")/.."
DATA=${DATA:-../shared/data}
PNS=${PNS:-target/release/pns}
THREADS=${THREADS:-2}
[ -x "$PNS" ] || cargo build --release -q -p pns-cli
sets=("$@")
[ ${#sets[@]} -gt 0 ] || sets=("$DATA/connect4/Test_L1_R2:connect4:200" "$DATA/connect4/Test_L2_R2:connect4:200")
run() { # file game limit threads -> "mean_time_s mean_visits wrong"
  "$PNS" bench "$2" "$1" --limit "$3" --threads "$4" --one-at-a-time --json 2>/dev/null | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
bad = sum(1 for r in rows if r["correct"] is False)
print(sum(r["time_ms"] for r in rows) / len(rows) / 1000, sum(r["nodes"] for r in rows) / len(rows), bad)'
}
echo "| set | threads | time 1 | time N | speed-up | visits 1 | visits N | overhead |"
echo "|---|---|---|---|---|---|---|---|"
for spec in "${sets[@]}"; do
  IFS=: read -r file game limit <<<"$spec"
  one=$(run "$file" "$game" "$limit" 1)
  many=$(run "$file" "$game" "$limit" "$THREADS")
  python3 - "$(basename "$file") ($limit)" "$THREADS" $one $many <<'PY'
import sys
name, n, t1, v1, b1, tn, vn, bn = sys.argv[1:]
t1, v1, tn, vn = float(t1), float(v1), float(tn), float(vn)
f = lambda t: f"{t*1e3:.2f} ms"
note = "" if b1 == bn == "0" else f" (wrong: {b1} / {bn})"
print(f"| {name} | {n} | {f(t1)} | {f(tn)} | {t1/tn:.2f}x | {v1:,.0f} | {vn:,.0f} | {vn/v1:.2f}{note} |")
PY
done
