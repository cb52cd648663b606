"""Opening books: files of start positions, read for an experiment and made by `arena openings`.

A book is a text file with one position per line, either in the game's text form (what `arena
show` prints after `position:`) or as a move list from the start position in the game's
notation (`a2-a3 b7-b6 c2-c3`; move numbers such as `1.` are skipped). Blank lines and lines
starting with `#` are skipped. Every line is checked when the book is read; a line that is
neither a position nor a legal move list from the start, or a finished game, is one error
naming the file and the line.

    lines = read_book("books/breakthrough-4.txt", "breakthrough")   # (BookLine, ...)

An experiment with `openings: {file: PATH, order: sequential|random}` (or `arena run
--openings PATH`) starts pair k of every pairing from one line of the book: line k (cycling) in
`sequential` order; in `random` order a shuffle of the book per pass through it, drawn from the
experiment's seed (runner/plan.py). Both games of a pair share the line. The book's lines are
part of the experiment's identity (their digest): a changed book refuses a resume.

`make_book(game, plies, count, ...)` writes a book of distinct positions reached by uniformly
random plies from the start (as move lists, which a GTP engine can replay with `play`); with a
`Balance` it keeps only positions a reference search scores near even: the reference player
(by default the game's plain MCTS) searches each candidate for a fixed number of simulations
and the position is kept when its value for the side to move (the chosen move's mean reward,
in [-1, 1]) lies within +-window, as the chess testers keep book positions inside a centipawn
window of an engine's evaluation.
"""
from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import ConfigError, PositionError, UserError

ORDERS = ("sequential", "random")
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")


@dataclass(frozen=True)
class BookLine:
    """One line of a book: the position (the game's text form) and the moves from the start
    that reach it (None for a line given as a position: an engine gets `set_position`)."""

    text: str
    moves: tuple[str, ...] | None


def parse_line(game: str, line: str, where: str) -> BookLine:
    """A book line read for `game`: a position in the text form, else a move list from the
    start; ConfigError (`where`: the file and line) when it is neither or the game is over."""
    g = games.resolve(game)
    try:
        state = g.new_state(line)
        moves = None
    except PositionError as as_position:
        state = g.new_state()
        moves = []
        for i, tok in enumerate(line.replace(",", " ").split(), 1):
            if _MOVE_NUMBER.match(tok):
                continue
            if state.is_terminal():
                raise ConfigError(f"{where}: the game is over before move {i} {tok!r}") from None
            try:
                move = state.parse_move(tok)
                if move not in state.move_ids():
                    raise ValueError("not a legal move here")
            except (ValueError, TypeError) as e:
                pos = " ".join(str(as_position).split())
                raise ConfigError(f"{where}: neither a position of {g} ({pos}) nor a move list "
                                  f"from the start (move {i} {tok!r}: "
                                  f"{' '.join(str(e).split())})") from None
            moves.append(state.format_move(move))       # the game's own spelling
            state.play(move)
        moves = tuple(moves)
    if state.is_terminal():
        raise ConfigError(f"{where}: the game is already over in this position")
    return BookLine(state.to_text(), moves)


def read_book(path: str | Path, game: str) -> tuple[BookLine, ...]:
    """Every position of the book at `path` for `game` (see the module docstring)."""
    p = Path(path)
    if not p.is_file():
        raise ConfigError(f"{p}: no such book file" if not p.exists() else
                          f"{p}: not a file (an opening book is a text file)")
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{p}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        out.append(parse_line(game, line, f"{p}:{number}"))
    if not out:
        raise ConfigError(f"{p}: no positions in the book (one per line; '#' starts a comment)")
    return tuple(out)


def digest(lines) -> str:
    """The identity of a book's content: a SHA-256 of its positions and move lists, in order."""
    h = hashlib.sha256()
    for text, moves in lines:
        h.update(text.encode())
        h.update(b"\x1f" + " ".join(moves).encode() if moves is not None else b"\x1e")
        h.update(b"\n")
    return h.hexdigest()[:16]


# ---- making a book ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Balance:
    """Keep a position when `player` (a spec), searching `sims` simulations from it, values it
    within +-`window` for the side to move."""

    player: str = "MCTS"
    sims: int = 1000
    window: float = 0.15


def make_book(game: str, plies: int, count: int, seed: int = 1, balance: Balance | None = None,
              tries: int | None = None, progress: Callable[[int, int], None] | None = None
              ) -> tuple[list[str], int]:
    """(the book's lines, candidates tried): `count` distinct positions `plies` uniformly random
    plies from the start, each a move list; with `balance` only the ones its reference search
    scores near even. UserError when `tries` candidates (default 50 x count) give too few."""
    from mcts_arena import players

    g = games.resolve(game)
    rng = random.Random(seed)
    tries = tries or 50 * count
    judge = players.make(balance.player, g, seed=seed) if balance else None
    seen: set[str] = set()
    out: list[str] = []
    tried = 0
    while len(out) < count and tried < tries:
        tried += 1
        state = g.new_state()
        moves = []
        for _ in range(plies):
            if state.is_terminal():
                break
            m = rng.choice(state.move_ids())
            moves.append(state.format_move(m))
            state.play(m)
        if state.is_terminal() or state.to_text() in seen:
            continue
        if judge is not None:
            _, st = judge.choose(state, sims=balance.sims)
            value = st.get("value")
            if value is None or abs(value) > balance.window:
                continue
        seen.add(state.to_text())
        out.append(" ".join(moves))
        if progress is not None:
            progress(len(out), tried)
    if len(out) < count:
        what = (f"within ±{balance.window:g} after {balance.sims} simulations of "
                f"{balance.player}" if balance else "distinct and unfinished")
        raise UserError(f"{g}: only {len(out)} of {count} positions {plies} plies deep are "
                        f"{what} in {tried} tries; ask for fewer, fewer plies or a wider "
                        f"--window")
    return out, tried


def book_text(game: str, plies: int, count: int, seed: int, balance: Balance | None,
              lines: list[str], tried: int) -> str:
    """The book file: a comment saying how it was made (the command that makes it again), then
    one move list per line."""
    how = f"arena openings {games.resolve(game)} --plies {plies} --count {count} --seed {seed}"
    if balance is not None:
        how += (f" --balanced --reference '{balance.player}' --sims {balance.sims} "
                f"--window {balance.window:g}")
    kept = f"# {len(lines)} of {tried} candidate positions kept"
    if balance is not None:
        kept += (f": {balance.player}'s value for the side to move within "
                 f"±{balance.window:g} after {balance.sims} simulations")
    return "\n".join([f"# {how}", kept, *lines]) + "\n"
