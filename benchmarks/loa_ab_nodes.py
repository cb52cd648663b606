"""Nodes the αβ needs to finish depth D on a fixed set of LOA positions, one line per option
set (the MIA-like switches, each on alone over principal variation search, and all
together), beside today's αβ: a deterministic count, so one run on any machine gives it.

The positions: the first 20 of games/data/loa_openings.txt and 10 reached by αβ(efWB,d2)
self-play from the start (seeds 1-10, 8 to 26 plies), fixed by this script.

    .venv/bin/python benchmarks/loa_ab_nodes.py --depth 6
"""
from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from mcts_arena import games, players

OPENINGS = Path(games.__file__).with_name("data") / "loa_openings.txt"
SPECS = ("αβ(efWB)", "αβ(efWB,pvs=1)", "αβ(efWB,pvs=1,nm=1)", "αβ(efWB,pvs=1,etc=1)",
         "αβ(efWB,pvs=1,lmr=1)", "αβ(efWB,pvs=1,nm=1,etc=1,lmr=1)", "αβ(efWB,pvs=1,qs=2)",
         "αβ(efWB,pvs=1,qs=2,nm=1,etc=1,lmr=1)")


def positions() -> list:
    out = [games.new_state("loa", line.strip())
           for line in OPENINGS.read_text().splitlines()[:20]]
    for seed in range(1, 11):
        s = games.new_state("loa")
        p = players.make("αβ(efWB,d2)", "loa", seed=seed)
        for _ in range(6 + 2 * seed):
            if s.is_terminal():
                break
            m, _ = p.search.search(s, depth=2)
            s.play(m)
        out.append(s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--specs", nargs="*", default=list(SPECS))
    a = ap.parse_args()
    pos = positions()
    base = None
    print(f"{len(pos)} positions, depth {a.depth}")
    print(f"{'player':42s} {'nodes':>11s} {'vs αβ':>7s} {'median ratio':>12s} {'cpu s':>7s}")
    for spec in a.specs:
        counts = []
        t0 = time.process_time()
        for s in pos:
            p = players.make(spec, "loa", seed=1)
            _, st = p.search.search(s, depth=a.depth)
            counts.append(st["nodes"])
        cpu = time.process_time() - t0
        if base is None:
            base = counts
        ratio = sum(counts) / sum(base)
        med = statistics.median(c / b for c, b in zip(counts, base))
        print(f"{spec:42s} {sum(counts):11,d} {ratio:7.3f} {med:12.3f} {cpu:7.1f}")


if __name__ == "__main__":
    main()
