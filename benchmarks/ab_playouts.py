"""Random-playout speed of two builds of mcts_arena, alternated, in CPU time: is a change to the
game interface (e.g. chance nodes) free for the deterministic games?

Wall-clock rates on the shared development machine swing by 30% between runs; each round here
runs both checkouts one after the other in fresh processes and divides their playouts per CPU
second, and the median of the per-round ratios is printed per game.

Run:  .venv/bin/python benchmarks/ab_playouts.py BASE_DIR NEW_DIR [--rounds 6]
(each DIR a checkout whose Cython is built in place, e.g. `git archive main | tar -x -C /tmp/b`
then `.venv/bin/python setup.py build_ext --inplace` in it; both run with this interpreter)
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

GAMES = ("breakthrough", "kalah", "gomoku", "loa", "hex", "tictactoe")

CHILD = """
import json, sys, time
from mcts_arena import games
from mcts_arena.bench.loops import playout_rate
out = {}
for g in sys.argv[1:]:
    s = games.new_state(g)
    c0 = time.process_time()
    n, _ = playout_rate(s, 0.6 if g == "loa" else 0.4)
    out[g] = n / (time.process_time() - c0)
print(json.dumps(out))
"""


def rates(checkout: str) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(checkout))
    res = subprocess.run([sys.executable, "-c", CHILD, *GAMES], env=env, cwd=checkout,
                         capture_output=True, text=True, check=True)
    return json.loads(res.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=6)
    args = ap.parse_args()
    base, new = [], []
    for _ in range(args.rounds):
        base.append(rates(args.base))
        new.append(rates(args.new))
    for g in GAMES:
        ratios = [n[g] / b[g] for b, n in zip(base, new)]
        print(f"{g:13s} base {statistics.median(b[g] for b in base):12,.0f}  new "
              f"{statistics.median(n[g] for n in new):12,.0f} playouts per CPU s;  new/base "
              f"median {statistics.median(ratios):.3f} (rounds {min(ratios):.2f}-"
              f"{max(ratios):.2f})")


if __name__ == "__main__":
    main()
