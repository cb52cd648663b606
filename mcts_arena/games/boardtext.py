"""The FEN-like text form shared by the 8x8 two-colour games (Breakthrough, LOA).

`rank8/rank7/.../rank1 S`: eight ranks of eight characters, the first player's symbol, the
second player's symbol or `.`, then the side to move as that player's symbol. Square index
`row * 8 + col` with row 0 = rank 1, col 0 = file a.
"""
from __future__ import annotations


def parse_ranks(text: str, game: str, first: str, second: str) -> tuple[int, int, int]:
    """(bitboard of `first`, bitboard of `second`, side to move 0/1); one-line ValueErrors."""
    parts = text.split()
    if len(parts) != 2 or parts[1] not in (first, second):
        raise ValueError(f"bad {game} position {text!r}: expected 8 ranks 'rank8/.../rank1' and "
                         f"a side '{first}' or '{second}'")
    ranks = parts[0].split("/")
    allowed = set(first + second + ".")
    if len(ranks) != 8 or any(len(r) != 8 or set(r) - allowed for r in ranks):
        raise ValueError(f"bad {game} position {text!r}: need 8 ranks of 8 characters from "
                         f"'{first}', '{second}', '.'")
    a = b = 0
    for i, rank in enumerate(ranks):
        row = 7 - i
        for col, ch in enumerate(rank):
            if ch == first:
                a |= 1 << (row * 8 + col)
            elif ch == second:
                b |= 1 << (row * 8 + col)
    return a, b, 0 if parts[1] == first else 1


def format_ranks(a: int, b: int, side: int, first: str, second: str) -> str:
    """The text form of bitboards a (first player) and b (second player)."""
    rows = []
    for row in range(7, -1, -1):
        rows.append("".join(first if (a >> (row * 8 + c)) & 1 else second if (b >> (row * 8 + c)) & 1
                            else "." for c in range(8)))
    return "/".join(rows) + " " + (first if side == 0 else second)
