"""Game cores and their registry.

A new game is one `.pyx` file plus one line in `_GAMES`. Modules are imported lazily so a tool
that needs one game does not pay for the others.
"""
from __future__ import annotations

import importlib

# name -> (module, class, one-line description)
_GAMES: dict[str, tuple[str, str, str]] = {
    "breakthrough": ("mcts_arena.games.breakthrough", "Breakthrough",
                     "Breakthrough 8x8: race a piece to the far rank"),
    "hex": ("mcts_arena.games.hex", "Hex",
            "Hex 11x11 (sizes 3-19 from the text form; swap rule optional): connect your edges"),
    "kalah": ("mcts_arena.games.kalah", "Kalah", "Kalah(6,4): sowing game, most stones wins"),
    "loa": ("mcts_arena.games.loa", "LinesOfAction", "Lines of Action 8x8: connect all your pieces"),
    "tictactoe": ("mcts_arena.games.tictactoe", "TicTacToe", "tic-tac-toe 3x3, for search tests"),
}


class UnknownGameError(ValueError):
    pass


def names() -> list[str]:
    """Registered game names."""
    return list(_GAMES)


def describe(name: str) -> str:
    return _game_entry(name)[2]


def _game_entry(name: str) -> tuple[str, str, str]:
    try:
        return _GAMES[name]
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r}; valid games: {', '.join(_GAMES)}") from None


def game_class(name: str):
    """The cdef class implementing game `name`."""
    module, cls, _ = _game_entry(name)
    return getattr(importlib.import_module(module), cls)


def new_state(name: str, position: str | None = None):
    """A fresh start position of `name`, or the position given in the game's text form."""
    cls = game_class(name)
    return cls() if position is None else cls.from_text(position)
