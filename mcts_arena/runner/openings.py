"""The opening position of a job, as the game's text form.

- `start`: the game's start position;
- `random_plies`: N uniformly random legal plies from the start, drawn from the job's opening
  seed (if the game ends inside those plies the draw is repeated with the next sub-seed); in a
  game with chance nodes a chance ply is the dice drawn by their probabilities;
- any kind a game declares in its `GameInfo.openings` (e.g. a set of shipped positions, or
  random boards): the game's function gets the parameters, the job's opening seed and the
  pair's index;
- `file`: a line of an opening book (runner/book.py); the job carries its pair's line only.
"""
from __future__ import annotations

import random

from mcts_arena import games
from mcts_arena.runner.config import Openings


def opening_text(game: str, openings: Openings, seed: int, pair_index: int) -> str:
    """Text of the position the pair starts from (the same for both games of a pair)."""
    kind = openings.kind
    if kind == "start":
        return games.new_state(game).to_text()
    if kind == "file":              # the pair's book line (runner/plan.py chose it)
        return openings.lines[0][0]
    if kind == "random_plies":
        return _random_plies(game, openings.plies, seed)
    g = games.resolve(game)
    info = g.info
    if kind in info.openings:
        return info.openings[kind](dict(g.params), seed, pair_index)
    raise ValueError(f"unknown openings kind {kind!r} for {info.name}; valid: "
                     f"{', '.join(info.opening_kinds())}")


def opening_history(game: str, openings: Openings, seed: int, pair_index: int) -> list[str] | None:
    """The moves (notation) from the start position to the opening, or None when no move
    sequence reaches it (Kalah's random boards, LOA's opening set): what an external engine,
    which only knows `clear_board` and `play`, is sent."""
    if openings.kind == "start":
        return []
    if openings.kind == "random_plies":
        return _random_plies_moves(game, openings.plies, seed)[1]
    if openings.kind == "file":
        moves = openings.lines[0][1]
        return None if moves is None else list(moves)
    return None


def _random_plies(game: str, plies: int, seed: int) -> str:
    return _random_plies_moves(game, plies, seed)[0]


def _random_plies_moves(game: str, plies: int, seed: int) -> tuple[str, list[str]]:
    for attempt in range(100):
        rng = random.Random(seed + attempt)
        s = games.new_state(game)
        moves = []
        for _ in range(plies):
            if s.is_terminal():
                break
            m = s.outcome_at(rng.random()) if s.is_chance_node() else rng.choice(s.move_ids())
            moves.append(s.format_move(m))
            s.play(m)
        if not s.is_terminal():
            return s.to_text(), moves
    raise ValueError(f"{game}: {plies} random plies end the game in 100 tries; use fewer plies")
