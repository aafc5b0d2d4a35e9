#!/usr/bin/env python3
"""Time to a USI mate engine's first proof of one problem: sends
`isready` (the engine allocates and clears its table there, outside the
timing), then `go mate TIMEOUT_MS`, and prints the wall time from `go mate`
to the first line that reports a proven mate: KomoringHeights' `info
string ... 1st result` (it then goes on to shorten the mate) or the
`checkmate` answer, whichever comes first (pns says `info string mate
proven` before it reads the mate's answer), with the engine's last `nodes`
figure before it. Then it stops the engine.

  scripts/usi-first-mate.py SFEN TIMEOUT_MS ENGINE[:Option=Value,...]
  scripts/usi-first-mate.py "$(grep -v '^#' ../shared/data/shogi/long-problems.tsv | head -1 | cut -f1)" \
      900000 /path/to/KomoringHeights-by-gcc:USI_Hash=8192

The reference engine is not part of this repository (KomoringHeights is
GPLv3): build it yourself from its public repository and pass its path.
"""

import re
import shlex
import subprocess
import sys
import time


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sfen, timeout_ms, spec = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    cmd, _, opts = spec.partition(":")
    p = subprocess.Popen(
        shlex.split(cmd),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def send(s):
        p.stdin.write(s + "\n")
        p.stdin.flush()

    def until(word):
        for line in p.stdout:
            if line.startswith(word):
                return line
        sys.exit(f"{cmd}: no '{word}'")

    send("usi")
    until("usiok")
    for kv in filter(None, opts.split(",")):
        name, _, value = kv.partition("=")
        send(f"setoption name {name} value {value}")
    send("isready")
    until("readyok")
    send("usinewgame")
    send(f"position sfen {sfen}")
    t0 = time.monotonic()
    send(f"go mate {timeout_ms}")
    nodes = None
    for line in p.stdout:
        m = re.search(r"\bnodes (\d+)", line)
        if m:
            nodes = int(m.group(1))
        if "1st result" in line or "mate proven" in line or line.startswith("checkmate"):
            dt = time.monotonic() - t0
            print(f"first mate after {dt:.2f} s, nodes {nodes}: {line.strip()[:200]}")
            break
    else:
        sys.exit(f"{cmd}: no answer")
    send("stop")
    send("quit")
    try:
        p.wait(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()


if __name__ == "__main__":
    main()
