"""Start positions for experiments that do not begin from the standard opening.

Kalah: the paper's experiments start from random boards -- 48 stones spread over the 12 houses at
random (each stone dropped into a uniformly chosen house), both stores empty, player 0 to move.
The same seed always gives the same board (Python's `random.Random(seed)`, which is stable across
platforms and Python versions for `randrange`).

Other games' opening sets (e.g. LOA) belong here too, one function per game.
"""
from __future__ import annotations

import random

KALAH_STONES = 48
KALAH_HOUSES = 12


def kalah_random_houses(seed: int) -> list[int]:
    """The 12 house counts (player 0's houses 1-6, then player 1's houses 1-6) for `seed`.

    A board where one side's houses are all empty would be over before it starts; such a draw
    (probability about 2**-47) is skipped by drawing again from the same generator.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"bad Kalah board seed {seed!r}: must be an integer")
    rng = random.Random(seed)
    while True:
        houses = [0] * KALAH_HOUSES
        for _ in range(KALAH_STONES):
            houses[rng.randrange(KALAH_HOUSES)] += 1
        if sum(houses[:6]) and sum(houses[6:]):
            return houses


def kalah_random_text(seed: int) -> str:
    """The text form of the random Kalah board for `seed` (player 0 to move)."""
    h = kalah_random_houses(seed)
    p0 = ",".join(map(str, h[:6])) + ",0"
    p1 = ",".join(map(str, h[6:])) + ",0"
    return f"{p0}/{p1} 0"


def kalah_random_board(seed: int):
    """A `Kalah` position: 48 stones spread at random over the 12 houses, stores empty."""
    from mcts_arena.games.kalah import Kalah
    return Kalah.from_text(kalah_random_text(seed))
