"""Hex speed, side by side in one run: MCTS simulations/s on 11x11 of this tree and,
optionally, of an older build of mcts_arena (--base), OpenSpiel's C++ MCTS (--openspiel-python,
a Python with `pyspiel`), and the plain C fill-and-test loop (benchmarks/hex_playout_ref.c).

Every measurement runs in its own subprocess, one after the other, in rounds (interleaved, so
a change of load hits all of them alike), a fixed amount of work timed in CPU seconds of the
process (time.process_time: a waiting process is not charged, which wall time would on a
shared machine); the medians over the rounds are printed with ratios. Playouts/s are timed
by the wall clock, as the plain C loop times itself (one second), and compared within a round.

    .venv/bin/python benchmarks/hex_speed.py --rounds 3 \\
        --base /tmp/main-build --openspiel-python /tmp/osvenv/bin/python

Rows: random playouts/s (fill-and-test-once), MCTS and MCTS(bridge) simulations/s from the
empty 11x11 board and from a middle-game position (40 random stones: bigger groups, the win
test costs more), and the exact solver's nodes/s proving suites/hex5.txt's first position.
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
import json, random, sys, time
from mcts_arena import games, players
try:                                            # the layout with the prover and bench/
    from mcts_arena.players.search.prover import Prover
    from mcts_arena.bench.loops import playout_rate
except ImportError:                             # an older tree (--base)
    from mcts_arena.solver import Solver as Prover
    from mcts_arena.gametools import playout_rate
scale = float(sys.argv[1])
clock = time.process_time      # CPU seconds of this process: less noisy on a shared machine
out = {}
s = games.new_state("hex")
n, wall = playout_rate(s, 0.5 * scale)    # `arena bench`'s loop, wall clock like the C loop
out["playouts/s"] = n / wall
mid = games.new_state("hex")
rng = random.Random(5)
for _ in range(40):
    mid.play(rng.choice(mid.moves()))
for label, state in (("empty", s), ("mid40", mid)):
    for spec, sims in (("MCTS", 150_000), ("MCTS(bridge)", 100_000)):
        p = players.make(spec, "hex", seed=1)
        t0 = clock()
        _, st = p.choose(state, sims=int(sims * scale))
        out[f"{spec} {label} sims/s"] = st["sims"] / (clock() - t0)
line = open(sys.argv[2]).read().splitlines()
pos = next(l for l in line if l.strip() and not l.startswith("#")).split("|")[1].strip()
st5 = games.new_state("hex(size=5)", pos)
sv = Prover()
t0 = clock()
_, info = (getattr(sv, "prove_moves", None) or sv.solve_moves)(st5)
out["solver nodes/s (hex5 #1)"] = info["nodes"] / (clock() - t0)
p = players.make("MCTS(rave300)", "hex", seed=1)
t0 = clock()
_, st = p.choose(s, sims=int(30_000 * scale))
out["MCTS(rave300) empty sims/s"] = st["sims"] / (clock() - t0)
print(json.dumps(out))
"""

OPENSPIEL = r"""
import json, sys, time
import pyspiel
scale = float(sys.argv[1])
game = pyspiel.load_game("hex(board_size=11)")
ev = pyspiel.RandomRolloutEvaluator(1, 1)
sims = int(10_000 * scale)
bot = pyspiel.MCTSBot(game, ev, 1.0, sims, 10**9, False, 1, False,
                      pyspiel.ChildSelectionPolicy.UCT)
t0 = time.process_time()
bot.step(game.new_initial_state())
print(json.dumps({"MCTS empty sims/s": sims / (time.process_time() - t0)}))
"""


def _probe(python: str, tree: Path | None, code: str, seconds: float) -> dict:
    env = None
    if tree is not None:
        import os
        env = dict(os.environ, PYTHONPATH=str(tree))
    res = subprocess.run([python, "-c", code, str(seconds), str(ROOT / "suites" / "hex5.txt")],
                         check=True, capture_output=True, text=True, env=env,
                         cwd=str(tree) if tree else None)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=1.0,
                    help="work per measurement (1: half a second of playouts, 150k MCTS and 100k MCTS(bridge), 30k MCTS(rave300) "
                         "simulations, 10k OpenSpiel simulations; about a second each)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--base", type=Path, default=None,
                    help="a built mcts_arena tree to compare with (e.g. an export of main)")
    ap.add_argument("--openspiel-python", default=None,
                    help="a Python interpreter that can import pyspiel")
    ap.add_argument("--out", type=Path, default=None, help="write the medians as JSON")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from mcts_arena.bench import c_reference

    runs: dict[str, list[dict]] = {"this": [], "base": [], "openspiel": [], "c": []}
    for r in range(args.rounds):
        runs["this"].append(_probe(sys.executable, ROOT, PROBE, args.scale))
        if args.base:
            runs["base"].append(_probe(sys.executable, args.base.resolve(), PROBE, args.scale))
        if args.openspiel_python:
            runs["openspiel"].append(_probe(args.openspiel_python, None, OPENSPIEL, args.scale))
        c = c_reference("hex", 1.0)
        if c:
            runs["c"].append({"playouts/s": c})
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    med = {k: {m: statistics.median(run[m] for run in v) for m in v[0]}
           for k, v in runs.items() if v}
    this = med["this"]
    print(f"{'measure':32s}{'this':>14s}" + (f"{'base':>14s}{'this/base':>11s}" if args.base else ""))
    for m, v in this.items():
        line = f"{m:32s}{v:14,.0f}"
        if args.base:
            b = med["base"].get(m)
            line += f"{b:14,.0f}{v / b:10.2f}x" if b else ""
        print(line)
    if "c" in med:
        c = med["c"]["playouts/s"]
        ratio = statistics.median(a["playouts/s"] / b["playouts/s"]
                                  for a, b in zip(runs["this"], runs["c"]))
        med["playout_ratio_to_c"] = ratio
        print(f"plain C loop (hex_playout_ref.c)   {c:14,.0f} playouts/s; ours {ratio:.2f}x "
              "(median of the rounds' ratios)")
    if "openspiel" in med:
        # ratios within each round (same load), then their median
        def per_round(k):
            return statistics.median(a["MCTS empty sims/s"] / o["MCTS empty sims/s"]
                                     for a, o in zip(runs[k], runs["openspiel"]))
        o = med["openspiel"]["MCTS empty sims/s"]
        med["ratio_to_openspiel"] = {k: per_round(k) for k in ("this", "base") if runs[k]}
        print(f"OpenSpiel MCTSBot (C++, 1 random rollout) {o:,.0f} sims/s; ours (MCTS, empty 11x11) "
              f"{per_round('this'):.1f}x" + (f", base {per_round('base'):.1f}x" if args.base else "")
              + " (median of the rounds' ratios)")
    if args.out:
        args.out.write_text(json.dumps(med, indent=2))


if __name__ == "__main__":
    main()
