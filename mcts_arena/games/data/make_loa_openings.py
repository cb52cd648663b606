"""Regenerate loa_openings.txt: 100 distinct, roughly balanced Lines of Action openings.

Each candidate is the start position after 4 to 6 uniformly random plies (Python's
random.Random(SEED), so the file is reproducible bit for bit as long as the rules and the
efWB evaluation in mcts_arena/games/loa.pyx stay the same). A candidate is kept when the game is
still going, it is new (by its text form), its static efWB value is within STATIC_LIMIT and a
2-ply negamax with efWB (leaves from the side to move at the root) is within SEARCH_LIMIT.

Run from the repository root after building the Cython cores:
    python mcts_arena/games/data/make_loa_openings.py            # rewrites the file
    python mcts_arena/games/data/make_loa_openings.py --check    # exit 1 if it would differ
"""
from __future__ import annotations

import os
import random
import sys

SEED = 20140601
COUNT = 100
MIN_PLIES, MAX_PLIES = 4, 6
STATIC_LIMIT = 0.10
SEARCH_LIMIT = 0.15
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "loa_openings.txt")


def negamax(state, depth: int) -> float:
    """Plain negamax with efWB at the leaves, value from the side to move."""
    if depth == 0 or state.is_terminal():
        return state.evaluation("efWB")
    best = -2.0
    for m in state.move_ids():
        state.play(m)
        best = max(best, -negamax(state, depth - 1))
        state.undo()
    return best


def generate() -> list[str]:
    from mcts_arena.games.loa import LinesOfAction

    rng = random.Random(SEED)
    seen: set[str] = set()
    out: list[str] = []
    while len(out) < COUNT:
        s = LinesOfAction()
        plies = rng.randint(MIN_PLIES, MAX_PLIES)
        for _ in range(plies):
            if s.is_terminal():
                break
            s.play(rng.choice(s.move_ids()))
        text = s.to_text()
        if s.is_terminal() or text in seen:
            continue
        if abs(s.evaluation("efWB")) > STATIC_LIMIT:
            continue
        if abs(negamax(s, 2)) > SEARCH_LIMIT:
            continue
        seen.add(text)
        out.append(text)
    return out


def main(argv: list[str]) -> int:
    lines = generate()
    body = "\n".join(lines) + "\n"
    if "--check" in argv:
        with open(OUT) as f:
            same = f.read() == body
        print("loa_openings.txt is up to date" if same else "loa_openings.txt differs")
        return 0 if same else 1
    with open(OUT, "w") as f:
        f.write(body)
    print(f"wrote {len(lines)} openings to {OUT}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.abspath(os.path.join(HERE, "..", "..", "..")))
    sys.exit(main(sys.argv[1:]))
