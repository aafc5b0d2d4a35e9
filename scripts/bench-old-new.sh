#!/usr/bin/env bash
# Two pns binaries side by side, one thread, alternating set by set for
# ROUNDS rounds (default 2): for each set and binary, the bench's mean
# search time per position, its mean visits and the process's user CPU
# time (less sensitive than wall time to other work on the machine).
#
#   scripts/bench-old-new.sh OLD_PNS NEW_PNS
#
# Build the old binary outside this checkout, with the same compiler flags
# (.cargo/config.toml), e.g.
#   git worktree add /tmp/old COMMIT
#   (cd /tmp/old && RUSTFLAGS="-C target-cpu=x86-64-v2" cargo build --release -p pns-cli)
set -euo pipefail
cd "$(dirname "$0")/.."
OLD=${1:?old binary}
NEW=${2:?new binary}
ROUNDS=${ROUNDS:-2}
DATA=${DATA:-../shared/data}
hex6=$(mktemp)
grep -v '^#' "$DATA/hex/openings-winner.txt" | awk '$1==6' > "$hex6"
sets=(
  "connect4|$DATA/connect4/Test_L2_R2|"
  "connect4|$DATA/connect4/Test_L1_R2|--limit 200"
  "othello|$DATA/othello/fforum-1-19.obf|"
  "othello|$DATA/othello/fforum-20-39.obf|"
  "hex|$hex6|"
)
echo "| round | set | binary | mean time | mean visits | user CPU |"
echo "|---|---|---|---|---|---|"
for r in $(seq 1 "$ROUNDS"); do
  for s in "${sets[@]}"; do
    IFS='|' read -r game file extra <<< "$s"
    for b in "$OLD" "$NEW"; do
      out=$( { /usr/bin/time -f "user %U" "$b" bench "$game" "$file" --threads 1 $extra; } 2>&1 )
      t=$(grep -E '^time' <<< "$out" | awk '{print $3, $4}' | tr -d ',')
      n=$(grep -E '^nodes' <<< "$out" | awk '{print $3}' | tr -d ',')
      u=$(grep -E '^user' <<< "$out" | awk '{print $2}')
      echo "| $r | $(basename "$file") $extra | $b | $t | $n | $u s |"
    done
  done
done
rm -f "$hex6"
