#!/usr/bin/env python3
"""Side-by-side tsume benchmark over USI `go mate`: runs each engine named
on the command line (a path, optionally followed by `:Hash=MB` or other
`setoption name=value` pairs) on every line of a `SFEN<TAB>LENGTH` file,
one engine process per engine, one problem at a time, and prints a
markdown table per engine: answers (mate with its length, nomate,
timeout), how many match the file, total and median wall time per
problem as the driver sees it (from `go mate` to `checkmate`), and the
last `info ... nodes N nps X` line's figures summed.

The reference engine is not part of this repository: build it yourself
from its public repository (KomoringHeights is GPLv3) and pass its path.

  scripts/bench-tsume-usi.py FILE TIMEOUT_MS ENGINE [ENGINE...]
  scripts/bench-tsume-usi.py ../shared/data/shogi/antma-tsume.tsv 60000 \
      "target/release/pns usi:USI_Hash=256" /path/to/KomoringHeights:USI_Hash=256
"""

import shlex
import statistics
import subprocess
import sys
import time


def problems(path):
    out = []
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        cols = line.rstrip("\n").split("\t")
        out.append((cols[0], cols[1] if len(cols) > 1 else ""))
    return out


class Engine:
    def __init__(self, spec):
        cmd, _, opts = spec.partition(":")
        self.name = spec
        self.p = subprocess.Popen(
            shlex.split(cmd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.send("usi")
        self.wait("usiok")
        for kv in filter(None, opts.split(",")):
            k, _, v = kv.partition("=")
            self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.wait("readyok")

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name} ended before '{prefix}'")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return line, lines

    def mate(self, sfen, timeout_ms):
        self.send("usinewgame")
        self.send(f"position sfen {sfen}")
        t = time.perf_counter()
        self.send(f"go mate {timeout_ms}")
        answer, lines = self.wait("checkmate")
        dt = time.perf_counter() - t
        nodes = nps = 0
        for l in lines:
            w = l.split()
            if w and w[0] == "info" and "nodes" in w:
                nodes = int(w[w.index("nodes") + 1])
                if "nps" in w:
                    nps = int(w[w.index("nps") + 1])
        return answer, dt, nodes

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()


def judge(answer, label):
    words = answer.split()[1:]
    if words == ["nomate"]:
        got = "nomate"
    elif words and words[0] in ("timeout", "notimplemented"):
        got = words[0]
    else:
        got = str(len(words))
    if label.startswith("nomate<="):
        n = int(label[len("nomate<="):])
        ok = got == "nomate" or (got.isdigit() and int(got) > n)
    else:
        ok = got == label.rstrip("?")
    return got, ok


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        sys.exit(2)
    path, timeout_ms, specs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    probs = problems(path)
    print(f"{len(probs)} problems from {path}, go mate {timeout_ms}\n")
    print("| engine | right | timeouts | total time | median time | nodes | nodes/s |")
    print("|---|---|---|---|---|---|---|")
    for spec in specs:
        e = Engine(spec)
        right = timeouts = 0
        times, nodes = [], 0
        wrong = []
        for sfen, label in probs:
            answer, dt, n = e.mate(sfen, timeout_ms)
            got, ok = judge(answer, label)
            right += ok
            timeouts += got == "timeout"
            times.append(dt)
            nodes += n
            if not ok:
                wrong.append(f"{sfen}: expected {label}, got {got}")
        e.close()
        total = sum(times)
        print(
            f"| {spec} | {right}/{len(probs)} | {timeouts} | {total:.3f} s | "
            f"{statistics.median(times) * 1e3:.2f} ms | {nodes:,} | "
            f"{(nodes / total if total else 0):,.0f} |"
        )
        for w in wrong:
            print(f"<!-- {spec}: {w} -->", file=sys.stderr)


if __name__ == "__main__":
    main()
