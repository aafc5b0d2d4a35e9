#!/usr/bin/env python3
"""Side by side on GNU Go's tactical reading cases: sends the same GTP
commands (`loadsgf FILE N`, the case's extra moves, then `attack V` or
`defend V`) to each engine named on the command line, one engine process
each, one case at a time and each case to every engine in turn
(interleaved), and prints a markdown table per engine and class
(GNU Go passes / GNU Go's expected failures / ko): answered right, wrong
(a definite answer whose code the case's expected pattern rejects), right
code but a move the pattern does not list (or none), no answer (a GTP
error: pns past its node limit), and the total and median time of the
attack/defend command as the driver sees it; for every engine after the
first, its time as a multiple of the first engine's.

GNU Go is not part of this repository: it is Debian's `gnugo` package
(`apt-get install gnugo`).

  scripts/bench-gnugo-tactical.py [--classes CLASS] [--list] ENGINE [ENGINE...]

`--classes unconditional` keeps both unconditional classes (`ko` the ko
class); `--list` prints every case's answer as it comes, before the
table. Progress (`case I/N`) goes to stderr when it is a terminal.
  scripts/bench-gnugo-tactical.py "target/release/pns gtp --nodes 3000" \\
      "gnugo --mode gtp --quiet"

The cases are `../shared/data/go/gnugo-tactical.tsv` (see the data README);
a case is right when the first word of the answer matches the expected
pattern's first word and, where the answer is a capture or a rescue, the
move is one the pattern lists (GNU Go's own regression rule).
"""

import os
import re
import shlex
import statistics
import subprocess
import sys
import time

DATA = os.environ.get("DATA", "../shared/data/go")


def cases():
    out = []
    with open(os.path.join(DATA, "gnugo-tactical.tsv"), encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            out.append(row)
    return out


def klass(row):
    codes = re.findall(r"\d", row["expected_regex"].split()[0])
    if any(c in "23" for c in codes):
        return "ko (2/3)"
    if row["gnugo_status"].startswith("gnugo_expected_fail"):
        return "unconditional, GNU Go's expected failures"
    return "unconditional, GNU Go passes"


def code_right(answer, pattern):
    """The answer's code (0: no, 1: yes, 2/3: ko) is one the pattern
    allows, whatever the move."""
    want = re.findall(r"\d", pattern.lstrip("!").split()[0])
    got = answer.split()[0] if answer.split() else ""
    return (got in want) != pattern.startswith("!")


def right(answer, pattern):
    """GNU Go's regression rule: the answer must match the pattern (a
    leading `!` negates it)."""
    if pattern.startswith("!"):
        return re.fullmatch(pattern[1:], answer.strip()) is None
    return re.fullmatch(pattern, answer.strip()) is not None


class Engine:
    def __init__(self, spec):
        self.name = spec
        self.p = subprocess.Popen(
            shlex.split(spec),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            l = self.p.stdout.readline()
            if l == "":
                raise RuntimeError(f"{self.name} ended on {line!r}")
            if l.strip() == "" and out:
                break
            if l.strip() == "":
                continue
            out.append(l.rstrip("\n"))
        text = " ".join(out)
        ok = text.startswith("=")
        return ok, text[1:].strip()

    def close(self):
        try:
            self.cmd("quit")
        except Exception:
            pass
        self.p.wait(timeout=10)


def show(spec, row, ans, took, err):
    """One line per case and engine: engine, suite, id, question,
    expected, answer."""
    print(
        f"[{spec}]", row["suite"], row["id"], row["command"], row["target"],
        repr(row["expected_regex"]), "->", ans if ans is not None else err,
        f"{took * 1000:.1f} ms", flush=True,
    )


def ask(e, row):
    """One case on one engine: (row, answer or None, seconds, error)."""
    sgf = os.path.join(DATA, "gnugo", row["sgf"])
    until = row["load_until_move"]
    ok, msg = e.cmd(f"loadsgf {sgf}" + ("" if until == "end" else f" {until}"))
    if not ok:
        return (row, None, 0.0, f"loadsgf: {msg}")
    if row["extra_moves"] not in ("", "-"):
        for mv in row["extra_moves"].split():
            color, _, vertex = mv.partition(":")
            e.cmd(f"play {color} {vertex}")
    start = time.perf_counter()
    ok, ans = e.cmd(f"{row['command']} {row['target']}")
    took = time.perf_counter() - start
    return (row, ans if ok else None, took, "" if ok else ans)


def run(specs, rows, listing):
    """Every case on every engine, interleaved: case 1 on each engine in
    turn, then case 2, so that a slower or faster stretch of the machine
    falls on all engines alike."""
    engines = [Engine(spec) for spec in specs]
    results = {spec: [] for spec in specs}
    tty = sys.stderr.isatty()
    for i, row in enumerate(rows):
        if tty:
            print(f"\rcase {i + 1}/{len(rows)}", end="", file=sys.stderr, flush=True)
        for e in engines:
            r = ask(e, row)
            results[e.name].append(r)
            if listing:
                show(e.name, *r)
    if tty:
        print(file=sys.stderr)
    for e in engines:
        e.close()
    return results


def table(res):
    """Per class: [cases, right, wrong, right code other move, no answer,
    times]."""
    classes = {}
    for row, ans, took, _ in res:
        c = classes.setdefault(klass(row), [0, 0, 0, 0, 0, []])
        c[0] += 1
        if ans is None:
            c[4] += 1
        elif right(ans, row["expected_regex"]):
            c[1] += 1
        elif code_right(ans, row["expected_regex"]):
            c[3] += 1
        else:
            c[2] += 1
        c[5].append(took)
    return classes


def main():
    args = sys.argv[1:]
    if any(a in ("-h", "--help") for a in args):
        print(__doc__)
        sys.exit(0)
    only = None
    if args and args[0] == "--classes":
        if len(args) < 2:
            print(__doc__)
            sys.exit(2)
        only = args[1]
        args = args[2:]
    if not args:
        print(__doc__)
        sys.exit(2)
    rows = cases()
    if only is not None:
        # "unconditional": both unconditional classes; else a class name's
        # start ("ko", "unconditional, GNU Go passes", ...).
        rows = [r for r in rows if klass(r).startswith(only)]
    if args and args[0] == "--list":
        args = args[1:]
        listing = True
    else:
        listing = False
    bad = [a for a in args if a.startswith("-")]
    if bad or not args:
        print(f"unknown option {bad[0]} (see --help)" if bad else "no engine (see --help)", file=sys.stderr)
        sys.exit(2)
    try:
        results = run(args, rows, listing)
    except (OSError, RuntimeError) as err:
        print(err, file=sys.stderr)
        sys.exit(1)
    first = table(results[args[0]])
    for spec in args:
        classes = table(results[spec])
        print(f"\n### {spec}\n")
        print(
            "| class | cases | right | wrong | right code, other move "
            "| no answer | time in all | median |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for name in sorted(classes):
            n, r, w, m, u, t = classes[name]
            print(
                f"| {name} | {n} | {r} | {w} | {m} | {u} | {sum(t):.2f} s | "
                f"{statistics.median(t) * 1000:.1f} ms |"
            )
        if spec != args[0]:
            print(f"\nTime against `{args[0]}` on the same cases, same run:\n")
            for name in sorted(classes):
                t, t0 = classes[name][5], first[name][5]
                total = sum(t) / max(sum(t0), 1e-9)
                median = statistics.median(t) / max(statistics.median(t0), 1e-9)
                print(f"* {name}: {total:.3g}x in all, {median:.3g}x the median")


if __name__ == "__main__":
    main()
