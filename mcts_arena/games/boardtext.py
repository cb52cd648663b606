"""Text forms shared by several games.

- The FEN-like form of the 8x8 two-colour games (Breakthrough, LOA): `rank8/rank7/.../rank1 S`,
  eight ranks of eight characters, the first player's symbol, the second player's symbol or
  `.`, then the side to move as that player's symbol. Square index `row * 8 + col` with row 0 =
  rank 1, col 0 = file a.
- The n x n stone grid of Hex and Gomoku: `row1/row2/.../rowN S [RULE]`, N rows of N characters
  from `x` (the first player), `o` and `.`, the side to move `x` or `o`, then an optional word
  for a rule in force (Hex `swap`, Gomoku `exact`). Cell index `row * N + col`, row 0 = row 1.
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
        rows.append("".join(first if (a >> (row * 8 + c)) & 1
                            else second if (b >> (row * 8 + c)) & 1
                            else "." for c in range(8)))
    return "/".join(rows) + " " + (first if side == 0 else second)


def parse_grid(text: str, game: str, rule: str, rule_param: int | None, size: int | None,
               low: int, high: int) -> tuple[list[str], int, bool]:
    """(rows, side to move 0/1, rule in force) of a stone-grid text (module docstring).

    `rule_param` is the game parameter for the rule word (None: not given; a true value puts
    the rule in force for a text without the word, a false one refuses a text with it); `size`,
    when given, must be the text's N; N must be in low..high. One-line ValueErrors name the
    game and the problem. The stone counts are the caller's to check (rules differ)."""
    parts = text.split()
    if rule_param and len(parts) == 2:
        parts.append(rule)
    if len(parts) not in (2, 3) or parts[1] not in ("x", "o") or \
            (len(parts) == 3 and parts[2] != rule):
        raise ValueError(f"bad {game} position {text!r}: expected 'row1/row2/.../rowN side "
                         f"[{rule}]' with side 'x' or 'o'")
    rows = parts[0].split("/")
    n = len(rows)
    if not low <= n <= high or any(len(r) != n for r in rows) or \
            any(set(r) - set("xo.") for r in rows):
        raise ValueError(f"bad {game} position {text!r}: need N rows of N characters from "
                         f"'x', 'o', '.' with N in {low}..{high}")
    if size is not None and size != n:
        raise ValueError(f"bad {game} position {text!r}: {n}x{n}, but size={size}")
    if rule_param is not None and not rule_param and len(parts) == 3:
        raise ValueError(f"bad {game} position {text!r}: ' {rule}' in the text, but {rule}=0")
    return rows, 0 if parts[1] == "x" else 1, len(parts) == 3


def format_grid(cells, n: int, side: int, rule: str | None) -> str:
    """The stone-grid text of `cells` (0 empty, 1 first player, 2 second, row by row)."""
    rows = ["".join(".xo"[cells[r * n + c]] for c in range(n)) for r in range(n)]
    return "/".join(rows) + (" x" if side == 0 else " o") + (f" {rule}" if rule else "")


FILES = "abcdefghijklmnopqrs"       # the columns of a grid of up to 19 x 19


def cell_name(move: int, n: int, game: str) -> str:
    """The notation of grid cell `move` on an n x n board: file letter, then row number (`c3`)."""
    if move < 0 or move >= n * n:
        raise ValueError(f"bad {game} move id {move} on {n}x{n}: valid 0..{n * n - 1}")
    return FILES[move % n] + str(move // n + 1)


def parse_cell(text: str, n: int, game: str, also: str = "") -> int:
    """The grid cell a notation names (any case); a one-line ValueError ending in `also` (the
    game's other moves, e.g. " or 'swap'") otherwise."""
    t = text.strip().lower()
    files = FILES[:n]
    if len(t) < 2 or t[0] not in files or not t[1:].isdigit() or not 1 <= int(t[1:]) <= n:
        raise ValueError(f"bad {game} move {text!r} on {n}x{n}: expected a cell "
                         f"'a1'..'{files[n - 1]}{n}'{also}")
    return (int(t[1:]) - 1) * n + files.index(t[0])


def grid_setup(text: str) -> tuple[list[str], list[str], int]:
    """(first player's cells, second player's cells, side to move 0/1) of a stone-grid text, the
    cells in notation: what an SGF record's AB/AW/PL say of a position."""
    parts = text.split()
    rows = parts[0].split("/")
    n = len(rows)
    first = [cell_name(r * n + c, n, "grid") for r in range(n) for c in range(n)
             if rows[r][c] == "x"]
    second = [cell_name(r * n + c, n, "grid") for r in range(n) for c in range(n)
              if rows[r][c] == "o"]
    return first, second, 0 if parts[1] == "x" else 1


def sgf_point(name: str) -> str:
    """The SGF FF[4] point of a cell (`h8` -> `hh`): column letter, then row letter from `a` at
    row 1; row 1 is the top row of the grid's text and board, as SGF's `aa` is top left."""
    t = name.strip().lower()
    return t[0] + FILES[int(t[1:]) - 1]


def from_sgf_point(point: str) -> str:
    """The cell an SGF point names (`hh` -> `h8`), the inverse of sgf_point."""
    t = point.strip().lower()
    if len(t) != 2 or t[0] not in FILES or t[1] not in FILES:
        raise ValueError(f"bad SGF point {point!r}: expected two letters 'a'..'s'")
    return t[0] + str(FILES.index(t[1]) + 1)
