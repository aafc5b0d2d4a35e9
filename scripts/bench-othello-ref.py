#!/usr/bin/env python3
"""Side by side on the FFO endgame positions: pns's df-pn (win/draw/loss)
against a specialist Othello engine, Egaroucid for Console (exact score at
level 60, one thread, no book), and optionally a null-window driver around
Egaroucid's engine (win/draw/loss: the window (-1, 1) around 0).

Nothing is built or downloaded here: pass the binaries you built yourself.
Egaroucid is GPL and not part of this repository (see docs/PERFORMANCE.md,
"Othello against a specialist", for how it was built and which evaluation
file it ran with).

  scripts/bench-othello-ref.py --ref /path/to/Egaroucid_for_Console.out \\
      --eval /path/to/eval.egev2 [--wld /path/to/ega_wld.out] \\
      [--pns target/release/pns] [--rounds 2] [--time 120] \\
      [--lock /tmp/cpu.lock] --out DIR FILE.obf [FILE.obf ...]

Each round runs, for each file in turn: the pns set (`pns bench othello
FILE --threads 1 --json --time T`, one process), then the reference's exact
solve (`REF -l 60 -hash 25 -nobook -thread 1 -eval EVAL -solve ONE_LINE`,
one process per position, killed after T seconds: "unknown"), then the
null-window driver (`WLD EVAL ONE_LINE`, the same). `--lock` holds an
flock for each of these set runs (not for the whole benchmark), so another
user of the machine can time between them. The reference commands run under
`unshare -n` (no network) where that works. Raw results go to DIR as
JSON lines; `--report DIR FILE...` prints the markdown tables from them.
`--only pns|ref|wld --round N` runs one program's set alone (to interleave
by hand, or re-run one); `--positions 0,2,5` only those positions (0-based
in the file; pns then runs one process per position with --skip/--limit).

Times: pns's per-position `time_ms` (search only, from its JSON), the
reference's own per-position time (Egaroucid's printed search time, in
whole milliseconds; the driver's steady-clock time around `ai_window`),
and each set's wall time (processes included, so for the reference it
also holds one start-up per position).
"""

import argparse
import fcntl
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def read_obf(path):
    """[(board_and_side, stated_score)] from an Edax .obf file."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if len(line) < 66 or line.startswith("%"):
                continue
            pos = line[:66]
            m = re.search(r";\s*[A-Ha-h][1-8]:([+-]?\d+)", line)
            out.append((pos, int(m.group(1)) if m else None))
    return out


def sign_word(v):
    if v is None:
        return "unknown"
    return "win" if v > 0 else ("loss" if v < 0 else "draw")


class Lock:
    def __init__(self, path):
        self.path = path
        self.f = None

    def __enter__(self):
        if self.path:
            self.f = open(self.path, "a")
            fcntl.flock(self.f, fcntl.LOCK_EX)
        return self

    def __exit__(self, *a):
        if self.f:
            fcntl.flock(self.f, fcntl.LOCK_UN)
            self.f.close()


def net_prefix():
    """`unshare -n` if this user may make a network namespace."""
    exe = shutil.which("unshare")
    if exe and subprocess.run([exe, "-n", "true"], capture_output=True).returncode == 0:
        return [exe, "-n"]
    return []


def set_name(path):
    return os.path.basename(path).replace(".obf", "")


def pns_rows(stdout):
    rows = []
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        o = json.loads(line)
        value = o.get("value")
        if o.get("stop") is not None or value not in ("win", "draw", "loss"):
            value = "unknown"
        rows.append({"value": value, "time_ms": o.get("time_ms"),
                     "visits": o.get("nodes"), "stop": o.get("stop")})
    return rows


def run_pns(args, path, rnd):
    base = [args.pns, "bench", "othello", path, "--threads", "1", "--json",
            "--time", f"{args.time:g}"]
    n = len(read_obf(path))
    chosen = selected(args, n)
    with Lock(args.lock):
        start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        t0 = time.perf_counter()
        if len(chosen) == n:  # the whole set in one process
            p = subprocess.run(base, capture_output=True, text=True)
            rows, rc = pns_rows(p.stdout), p.returncode
        else:  # only some positions: one process each (--skip I --limit 1)
            rows, rc = [None] * n, 0
            for i in chosen:
                p = subprocess.run(base + ["--skip", str(i), "--limit", "1"],
                                   capture_output=True, text=True)
                got = pns_rows(p.stdout)
                rows[i] = got[0] if got else None
                rc = rc or p.returncode
        wall = time.perf_counter() - t0
    return {"program": "pns", "set": set_name(path), "round": rnd, "start_utc": start,
            "wall_s": wall, "rc": rc, "cmd": base, "positions": rows}


def selected(args, n):
    """Indices (0-based in the file) that --positions keeps; all by default."""
    if not args.positions:
        return list(range(n))
    return [i for i in range(n) if i in args.positions]


def parse_ms(s):
    h, m, rest = s.strip().split(":")
    sec, ms = rest.split(".")
    return ((int(h) * 60 + int(m)) * 60 + int(sec)) * 1000 + int(ms)


def run_ref(args, path, rnd, wld):
    prefix = net_prefix()
    rows = []
    with Lock(args.lock):
        start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        t_all = time.perf_counter()
        obf = read_obf(path)
        chosen = selected(args, len(obf))
        for i, (pos, _) in enumerate(obf):
            if i not in chosen:
                rows.append(None)
                continue
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as tf:
                tf.write(pos + "\n")
                one = tf.name
            if wld:
                cmd = prefix + [args.wld, args.eval, one]
            else:
                cmd = prefix + [args.ref, "-l", "60", "-hash", "25", "-nobook",
                                "-thread", "1", "-eval", args.eval, "-solve", one]
            t0 = time.perf_counter()
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.time)
                out, rc = p.stdout, p.returncode
            except subprocess.TimeoutExpired:
                out, rc = None, "timeout"
            wall = time.perf_counter() - t0
            os.unlink(one)
            row = {"value": None, "wld": "unknown", "time_ms": None, "nodes": None,
                   "move": None, "proc_wall_s": wall, "rc": rc}
            if out is not None:
                if wld:
                    f = out.split()
                    if len(f) >= 5:
                        row.update(value=int(f[1]), wld=f[2], time_ms=float(f[3]),
                                   nodes=int(f[4]))
                else:
                    for line in out.splitlines():
                        c = [x.strip() for x in line.split("|")]
                        if len(c) >= 8 and re.fullmatch(r"[+-]?\d+", c[4] or "x"):
                            row.update(value=int(c[4]), wld=sign_word(int(c[4])),
                                       move=c[3], time_ms=float(parse_ms(c[5])),
                                       nodes=int(c[6]))
            rows.append(row)
        wall_all = time.perf_counter() - t_all
    return {"program": "wld" if wld else "ref", "set": set_name(path), "round": rnd,
            "start_utc": start, "wall_s": wall_all, "net": " ".join(prefix) or "none",
            "positions": rows}


def save(args, res):
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "results.jsonl"), "a", encoding="utf-8") as f:
        f.write(json.dumps(res) + "\n")
    done = [r for r in res["positions"] if r and r.get("time_ms") is not None
            and (r.get("value") not in (None, "unknown"))]
    print(f"# round {res['round']} {res['program']} {res['set']}: "
          f"{len(done)}/{len(res['positions'])} answered, "
          f"sum {sum(r['time_ms'] for r in done) / 1000:.2f} s, wall {res['wall_s']:.2f} s",
          file=sys.stderr, flush=True)


def fmt_ms(ms):
    if ms is None:
        return "-"
    if ms >= 1000:
        return f"{ms / 1000:.2f} s"
    return f"{ms:.1f} ms" if ms >= 10 else f"{ms:.2f} ms"


def report(args):
    runs = []
    with open(os.path.join(args.out, "results.jsonl"), encoding="utf-8") as f:
        for line in f:
            runs.append(json.loads(line))
    for path in args.files:
        name = set_name(path)
        obf = read_obf(path)
        first = int(re.search(r"(\d+)-", name).group(1)) if re.search(r"(\d+)-", name) else 0
        by = {}
        for r in runs:
            if r["set"] == name:
                by.setdefault(r["program"], {})[r["round"]] = r
        rounds = sorted(set(k for p in by.values() for k in p))
        progs = [p for p in ("pns", "ref", "wld") if p in by]
        print(f"\n### FFO {name.replace('fforum-', '')}\n")
        head = ["#", "stated"]
        for p in progs:
            for k in rounds:
                if k in by[p]:
                    head.append(f"{p} r{k}")
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for i, (pos, stated) in enumerate(obf):
            cells = [str(first + i), f"{stated:+d}" if stated is not None else "?"]
            for p in progs:
                for k in rounds:
                    if k not in by[p]:
                        continue
                    rows = by[p][k]["positions"]
                    if i >= len(rows):
                        cells.append("-")
                        continue
                    r = rows[i]
                    if r is None:
                        cells.append("not run")
                        continue
                    if p == "pns":
                        v = r["value"]
                    elif p == "ref":
                        v = f"{r['value']:+d}" if r["value"] is not None else "unknown"
                    else:
                        v = r["wld"]
                    ok = ""
                    if stated is not None and v != "unknown":
                        got = r["value"] if p == "ref" else None
                        want = sign_word(stated)
                        if p == "ref":
                            ok = "" if got == stated else " **≠**"
                        else:
                            ok = "" if v == want else " **≠**"
                    t = fmt_ms(r["time_ms"]) if v != "unknown" else f">{args.time:g} s"
                    cells.append(f"{v}{ok} {t}")
            print("| " + " | ".join(cells) + " |")
        # totals on the positions every program answered in every round
        def answered(p, k, i):
            if k not in by[p]:
                return False
            rows = by[p][k]["positions"]
            if i >= len(rows):
                return False
            r = rows[i]
            if r is None:
                return False
            v = r["value"] if p != "wld" else r["wld"]
            return v not in (None, "unknown") and r["time_ms"] is not None
        def ran(p, k, i):
            if k not in by[p]:
                return False
            rows = by[p][k]["positions"]
            return i < len(rows) and rows[i] is not None
        common = [i for i in range(len(obf))
                  if all(answered(p, k, i) or not all(ran(q, k, i) for q in progs)
                         for p in progs for k in by[p])
                  and any(all(ran(q, k, i) for q in progs) for k in rounds)]
        print(f"\nAnswered by every program in every round that ran them: {len(common)}/{len(obf)} "
              f"(#{', #'.join(str(first + i) for i in common) if len(common) < len(obf) else 'all'}).\n")
        print("| round | " + " | ".join(f"{p} sum (all answered) | {p} sum (common) | {p} set wall" for p in progs) + " |")
        print("|" + "---|" * (1 + 3 * len(progs)))
        sums = {}
        for k in rounds:
            cells = [str(k)]
            for p in progs:
                if k not in by[p]:
                    cells += ["-", "-", "-"]
                    continue
                rows = by[p][k]["positions"]
                ans = [i for i in range(len(rows)) if answered(p, k, i)]
                s_all = sum(rows[i]["time_ms"] for i in ans)
                com_k = [i for i in common if all(ran(q, k, i) for q in progs)]
                s_com = sum(rows[i]["time_ms"] for i in com_k)
                sums[(p, k)] = s_com
                n_run = sum(1 for r in rows if r is not None)
                cells += [f"{fmt_ms(s_all)} ({len(ans)}/{n_run})", f"{fmt_ms(s_com)} ({len(com_k)})",
                          f"{by[p][k]['wall_s']:.2f} s"]
            print("| " + " | ".join(cells) + " |")
        for k in rounds:
            parts = []
            for q in ("ref", "wld"):
                if ("pns", k) in sums and (q, k) in sums and sums[(q, k)] > 0:
                    parts.append(f"pns/{q} = {sums[('pns', k)] / sums[(q, k)]:.2f}x")
            if parts:
                print(f"\nRound {k}, on the common positions: " + ", ".join(parts))
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--ref", help="Egaroucid_for_Console binary")
    ap.add_argument("--eval", help="evaluation file given to the reference (-eval)")
    ap.add_argument("--wld", help="null-window driver binary (args: EVAL PROBLEM_FILE)")
    ap.add_argument("--pns", default="target/release/pns")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--time", type=float, default=120.0)
    ap.add_argument("--lock", help="flock file held for each set run")
    ap.add_argument("--out", required=True, help="folder for results.jsonl")
    ap.add_argument("--only", choices=["pns", "ref", "wld"])
    ap.add_argument("--round", type=int, default=1)
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--positions", type=lambda t: [int(x) for x in t.split(",")],
                    help="only these positions, 0-based indices in the file (e.g. 0,2,5)")
    args = ap.parse_args()
    if args.report:
        report(args)
        return
    progs = [args.only] if args.only else ["pns", "ref"] + (["wld"] if args.wld else [])
    if ("ref" in progs or "wld" in progs) and not args.eval:
        ap.error("--eval is needed for the reference")
    if "ref" in progs and not args.ref:
        ap.error("--ref is needed")
    rounds = [args.round] if args.only else range(1, args.rounds + 1)
    for k in rounds:
        for path in args.files:
            for p in progs:
                if p == "pns":
                    save(args, run_pns(args, path, k))
                else:
                    save(args, run_ref(args, path, k, wld=(p == "wld")))
    report(args)


if __name__ == "__main__":
    main()
