#!/usr/bin/env bash
# Side-by-side Connect Four benchmark: pns against Pascal Pons' solver in weak
# mode (`c4solver -w`, tag part12), single thread, the five test sets, one
# run. The reference solver is not part of this repository: build it
# yourself from its public repository and pass its path in C4SOLVER.
#
#   C4SOLVER=/path/to/c4solver scripts/bench-connect4.sh [ALGO...]
#
# Prints a markdown table: mean time and mean nodes per position for each
# set, the reference's figures, and the time ratio (pns / reference).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${C4SOLVER:?set C4SOLVER to the path of c4solver}"
DATA=${DATA:-../shared/data/connect4}
PNS=${PNS:-target/release/pns}
[ -x "$PNS" ] || cargo build --release -q -p pns-cli
algos=("$@")
[ ${#algos[@]} -gt 0 ] || algos=(dfpn "dfpn-eps:eps=0.25")

echo "| set | reference time | reference nodes | algorithm | pns time | pns nodes | pns nodes/s | time ratio |"
echo "|---|---|---|---|---|---|---|---|"
for s in L3_R1 L2_R1 L2_R2 L1_R1 L1_R2; do
  f="$DATA/Test_$s"
  ref=$(cut -d' ' -f1 "$f" | "$C4SOLVER" -w | awk '{n+=$3; t+=$4; c++} END {printf "%.6f %.0f", t/c/1e6, n/c}')
  for a in "${algos[@]}"; do
    ours=$("$PNS" bench connect4 "$f" --threads 1 --algo "$a" --json 2>/dev/null | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin]
bad = sum(1 for r in rows if r["correct"] is not True)
t = sum(r["time_ms"] for r in rows) / len(rows) / 1000
n = sum(r["nodes"] for r in rows) / len(rows)
print(f"{t:.6f} {n:.0f} {bad}")')
    python3 - "$s" "$a" $ref $ours <<'PY'
import sys
s, a, rt, rn, ot, on, bad = sys.argv[1:]
rt, rn, ot, on = float(rt), float(rn), float(ot), float(on)
def f(t):
    return f"{t*1e6:.1f} µs" if t < 1e-3 else f"{t*1e3:.2f} ms"
note = "" if bad == "0" else f" ({bad} wrong)"
print(f"| {s} | {f(rt)} | {rn:,.0f} | {a} | {f(ot)} | {on:,.0f} | {on/ot/1e6:.2f} M | {ot/rt:.2f}x{note} |")
PY
  done
done
