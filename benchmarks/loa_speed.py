"""Lines of Action speed, side by side in one run: simulations/s of MCTS with αβ
playouts, `MCTS(ipp,det0.5,abp2)`, beside the same player without them, `MCTS(ipp,det0.5)`, and
their ratio; random playouts/s beside the plain C loop (benchmarks/loa_playout_ref.c); αβ nodes/s
and depth; for this tree and, optionally, an older build (--base).

Every measurement runs in its own subprocess, one after the other, in rounds (interleaved, so a
change of load hits all of them alike); the searches do a fixed amount of work (a simulation or
node budget) timed in CPU seconds of the process (time.process_time: a process waiting for
the CPU is not charged, which wall time would on a shared machine). Ratios are taken within a
round (same load), then the median over the rounds is printed.

    .venv/bin/python benchmarks/loa_speed.py --rounds 5 --base /tmp/loa-base
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# Run inside the measured tree's interpreter (PYTHONPATH = that tree): prints one JSON line.
PROBE = r"""
import json, sys, time
from mcts_arena import games, players
from mcts_arena.bench.loops import playout_rate
scale = float(sys.argv[1])
clock = time.process_time
out = {}
s = games.new_state("loa")
n, wall = playout_rate(s, 0.5 * scale)       # `arena bench`'s loop, wall clock like the C loop
out["random playouts/s"] = n / wall
for spec, sims in (("MCTS(ipp,det0.5)", 30_000), ("MCTS(ipp,det0.5,abp2)", 3_000)):
    p = players.make(spec, "loa", seed=1)
    t0 = clock()
    _, st = p.choose(s, sims=int(sims * scale))
    out[f"{spec} sims/s"] = st["sims"] / (clock() - t0)
for spec in sys.argv[2:]:
    p = players.make(spec, "loa", seed=1)
    t0 = clock()
    _, st = p.choose(s, sims=int(1_000_000 * scale))
    out[f"{spec} nodes/s"] = st["nodes"] / (clock() - t0)
print(json.dumps(out))
"""


def _probe(tree: Path, seconds: float, ab_specs: list[str]) -> dict:
    import os
    env = dict(os.environ, PYTHONPATH=str(tree))
    res = subprocess.run([sys.executable, "-c", PROBE, str(seconds), *ab_specs], check=True,
                         capture_output=True, text=True, env=env, cwd=str(tree))
    return json.loads(res.stdout.strip().splitlines()[-1])


RATIO = ("MCTS(ipp,det0.5,abp2) sims/s", "MCTS(ipp,det0.5) sims/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=1.0,
                    help="work per measurement (1: half a second of random playouts, 30,000 "
                         "and 3,000 simulations, a million αβ nodes)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--base", type=Path, default=None,
                    help="a built mcts_arena tree to compare with (e.g. an export of main)")
    ap.add_argument("--alphabeta", nargs="*", default=["αβ(efWB)"],
                    help="αβ specs whose nodes/s to measure (in this tree; the base measures "
                         "the ones it can parse)")
    ap.add_argument("--out", type=Path, default=None, help="write the medians as JSON")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from mcts_arena.bench import c_reference

    runs: dict[str, list[dict]] = {"this": [], "base": [], "c": []}
    for r in range(args.rounds):
        runs["this"].append(_probe(ROOT, args.scale, args.alphabeta))
        if args.base:
            runs["base"].append(_probe(args.base.resolve(), args.scale, ["αβ(efWB)"]))
        c = c_reference("loa", 1.0)
        if c:
            runs["c"].append({"random playouts/s": c})
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    med = {k: {m: statistics.median(run[m] for run in v) for m in v[0]}
           for k, v in runs.items() if v}
    for k in ("this", "base"):
        if runs[k]:
            med[k]["abp2 / plain"] = statistics.median(run[RATIO[0]] / run[RATIO[1]]
                                                       for run in runs[k])
    this = med["this"]
    head = f"{'measure':42s}{'this':>14s}"
    print(head + (f"{'base':>14s}{'this/base':>11s}" if args.base else ""))
    for m, v in this.items():
        line = f"{m:42s}{v:14,.3f}" if m == "abp2 / plain" else f"{m:42s}{v:14,.0f}"
        if args.base and m in med["base"]:
            b = med["base"][m]
            line += (f"{b:14,.3f}" if m == "abp2 / plain" else f"{b:14,.0f}") + f"{v / b:10.2f}x"
        print(line)
    if "c" in med:
        ratio = statistics.median(a["random playouts/s"] / c["random playouts/s"]
                                  for a, c in zip(runs["this"], runs["c"]))
        med["playout_ratio_to_c"] = ratio
        print(f"plain C loop (loa_playout_ref.c) {med['c']['random playouts/s']:,.0f} random "
              f"playouts/s; ours {ratio:.2f}x (median of the rounds' ratios)")
    if args.out:
        args.out.write_text(json.dumps(med, indent=2))


if __name__ == "__main__":
    main()
