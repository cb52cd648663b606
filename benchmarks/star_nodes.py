"""Node counts of expectimax, Star1 and Star2 at equal depth on a fixed set of backgammon
positions, and the depth each reaches at equal time (docs/chance.md).

The positions: decision nodes after 4 to 40 seeded random steps (dice by probability) from the
start, seeds 1..N. Node counts are without the transposition table (Ballard's comparison) and,
for Star2, also with it (the table the players use). Depth at equal time: iterative deepening
with the players' settings (table on) for --seconds per position.

    python benchmarks/star_nodes.py --positions 10 --depth 2 --deep 2 --seconds 0.5
"""
from __future__ import annotations

import argparse
import json
import random
import time

from mcts_arena.players.search.expectimax import ALGORITHMS, StarSearch

from mcts_arena import games

NAMES = ("expectimax", "Star1", "Star2")


def positions(n: int) -> list:
    out = []
    for seed in range(1, n + 1):
        r = random.Random(seed)
        s = games.new_state("backgammon")
        for _ in range(4 + 4 * (seed % 10)):
            if s.is_terminal():
                break
            s.play(s.outcome_at(r.random()) if s.is_chance_node() else r.choice(s.move_ids()))
        while s.is_chance_node():
            s.play(s.outcome_at(r.random()))
        if not s.is_terminal() and len(s.move_ids()) > 1:
            out.append(s)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--depth", type=int, default=2, help="all positions to this depth")
    ap.add_argument("--deep", type=int, default=0, help="positions searched one depth more")
    ap.add_argument("--seconds", type=float, default=0.5)
    ap.add_argument("--json", default=None, help="write the rows here too")
    args = ap.parse_args()
    pos = positions(args.positions)
    rows = []
    for depth in range(1, args.depth + 2):
        chosen = pos if depth <= args.depth else pos[:args.deep]
        for s in chosen:
            row = {"position": s.to_text(), "depth": depth}
            for name in NAMES:
                t0 = time.perf_counter()
                v, n = StarSearch(ALGORITHMS[name], 0, 1, 0, False).value(s, depth)
                row[name] = n
                row[name + "_s"] = time.perf_counter() - t0
                row[name + "_value"] = v
            t0 = time.perf_counter()
            v, n = StarSearch(ALGORITHMS["Star2"], 0, 1, 0, True).value(s, depth)
            row["Star2+TT"] = n
            row["Star2+TT_s"] = time.perf_counter() - t0
            assert abs(row["Star1_value"] - row["expectimax_value"]) < 1e-9
            assert abs(row["Star2_value"] - row["expectimax_value"]) < 1e-9
            rows.append(row)
            print(json.dumps({k2: (round(x, 4) if isinstance(x, float) else x)
                              for k2, x in row.items()}), flush=True)
    print("\n| depth | positions | expectimax nodes | Star1 | Star2 | Star2 + TT |")
    print("|---|---|---|---|---|---|")
    for depth in sorted({r["depth"] for r in rows}):
        rs = [r for r in rows if r["depth"] == depth]
        tot = {k: sum(r[k] for r in rs) for k in ("expectimax", "Star1", "Star2", "Star2+TT")}
        e = tot["expectimax"]
        print(f"| {depth} | {len(rs)} | {e:,} | {tot['Star1']:,} ({1 - tot['Star1'] / e:.0%} "
              f"fewer) | {tot['Star2']:,} ({1 - tot['Star2'] / e:.0%} fewer) | "
              f"{tot['Star2+TT']:,} ({1 - tot['Star2+TT'] / e:.0%} fewer) |")
    rates = {k: sum(r[k] for r in rows) / sum(r[k + "_s"] for r in rows)
             for k in ("expectimax", "Star1", "Star2", "Star2+TT")}
    print("\nnodes per second (same run): " +
          ", ".join(f"{k} {v:,.0f}" for k, v in rates.items()))
    print(f"\ndepth reached in {args.seconds} s per position (iterative deepening, table on):")
    depths = {}
    for name in NAMES:
        got = []
        for s in pos:
            _, st = StarSearch(ALGORITHMS[name], 0, 1).search(s, seconds=args.seconds)
            got.append(st["depth"])
        depths[name] = got
        print(f"  {name:10s} mean {sum(got) / len(got):.2f}  {got}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "rates": rates, "depths": depths,
                       "seconds": args.seconds}, f, indent=1)


if __name__ == "__main__":
    main()
