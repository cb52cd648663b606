#!/usr/bin/env python3
"""The mean CPU time of a move of two players in their published games, and its ratio.

    python tools/move_costs.py docs/reproduction/data/tournament-fet-kalah.jsonl.gz \\
        "MCTS(fet1000)" "MCTS(fet0)"

Reads a published games file (docs/reproduction/data/README.md: gzip JSON lines, a header and
one game a line) without mcts_arena, takes every game the two players played against each
other, and averages each one's `time` (the search's CPU seconds) over its moves. notes.md §8.13
quotes these ratios for the brackets' cost argument. Exit status 2 with one line when the file
cannot be read or the two players have no game together.
"""
from __future__ import annotations

import gzip
import json
import sys


def move_costs(path: str, a: str, b: str) -> dict[str, list[float]]:
    """{player: [CPU seconds of each of its moves]} over the games `a` and `b` played."""
    times: dict[str, list[float]] = {a: [], b: []}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        f.readline()                                   # the header
        for line in f:
            g = json.loads(line)
            if set(g["seats"]) != {a, b}:
                continue
            for st in g["stats"]:
                if st.get("seat") is not None:
                    times[g["seats"][st["seat"]]].append(st["time"])
    return times


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print("usage: move_costs.py FILE PLAYER OTHER", file=sys.stderr)
        return 2
    path, a, b = argv
    try:
        times = move_costs(path, a, b)
    except (OSError, ValueError, KeyError) as e:
        print(f"move_costs: {path}: {e}", file=sys.stderr)
        return 2
    if not times[a] or not times[b]:
        print(f"move_costs: {path}: no game of {a} against {b}", file=sys.stderr)
        return 2
    ma, mb = (sum(times[x]) / len(times[x]) for x in (a, b))
    print(f"{a}: {1000 * ma:.2f} ms a move ({len(times[a])} moves); {b}: {1000 * mb:.2f} ms "
          f"({len(times[b])} moves); ratio {ma / mb:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
