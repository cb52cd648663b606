"""Hex speed, side by side in one run (issue 11): MCTS simulations/s on 11x11 of this tree and,
optionally, of an older build of mcts_arena (--base), OpenSpiel's C++ MCTS (--openspiel-python,
a Python with `pyspiel`), and the plain C fill-and-test loop (benchmarks/hex_playout_ref.c).

Every measurement runs in its own subprocess, one after the other, in rounds (interleaved, so
a change of load hits all of them alike); the medians over the rounds are printed with ratios.

    .venv/bin/python benchmarks/hex_speed.py --seconds 1 --rounds 3 \\
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
from mcts_arena.solver import Solver
secs = float(sys.argv[1])
out = {}
s = games.new_state("hex")
n, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < secs:
    for i in range(256):
        s.random_playout_result(n + i)
    n += 256
out["playouts/s"] = n / (time.perf_counter() - t0)
mid = games.new_state("hex")
rng = random.Random(5)
for _ in range(40):
    mid.play(rng.choice(mid.moves()))
for label, state in (("empty", s), ("mid40", mid)):
    for spec in ("MCTS", "MCTS(bridge)"):
        p = players.make(spec, "hex", seed=1)
        _, st = p.choose(state, time=secs)
        out[f"{spec} {label} sims/s"] = st["sims"] / st["time"]
line = open(sys.argv[2]).read().splitlines()
pos = next(l for l in line if l.strip() and not l.startswith("#")).split("|")[1].strip()
st5 = games.new_state("hex(size=5)", pos)
sv = Solver()
t0 = time.perf_counter()
_, info = sv.solve_moves(st5)
out["solver nodes/s (hex5 #1)"] = info["nodes"] / (time.perf_counter() - t0)
print(json.dumps(out))
"""

OPENSPIEL = r"""
import json, sys, time
import pyspiel
secs = float(sys.argv[1])
game = pyspiel.load_game("hex(board_size=11)")
ev = pyspiel.RandomRolloutEvaluator(1, 1)
sims = 2000
while True:
    bot = pyspiel.MCTSBot(game, ev, 1.0, sims, 10**9, False, 1, False,
                          pyspiel.ChildSelectionPolicy.UCT)
    t0 = time.perf_counter()
    bot.step(game.new_initial_state())
    dt = time.perf_counter() - t0
    if dt >= secs * 0.5 or sims >= 10**6:
        break
    sims *= 2
print(json.dumps({"MCTS empty sims/s": sims / dt}))
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
    ap.add_argument("--seconds", type=float, default=1.0)
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
        runs["this"].append(_probe(sys.executable, ROOT, PROBE, args.seconds))
        if args.base:
            runs["base"].append(_probe(sys.executable, args.base.resolve(), PROBE, args.seconds))
        if args.openspiel_python:
            runs["openspiel"].append(_probe(args.openspiel_python, None, OPENSPIEL, args.seconds))
        c = c_reference("hex", args.seconds)
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
        print(f"plain C loop (hex_playout_ref.c)   {c:14,.0f} playouts/s; ours {this['playouts/s'] / c:.2f}x")
    if "openspiel" in med:
        o = med["openspiel"]["MCTS empty sims/s"]
        print(f"OpenSpiel MCTSBot (C++, 1 random rollout) {o:,.0f} sims/s; ours (MCTS, empty 11x11) "
              f"{this['MCTS empty sims/s'] / o:.1f}x"
              + (f", base {med['base']['MCTS empty sims/s'] / o:.1f}x" if args.base else ""))
    if args.out:
        args.out.write_text(json.dumps(med, indent=2))


if __name__ == "__main__":
    main()
