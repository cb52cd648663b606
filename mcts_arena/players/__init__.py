"""Players: parse a specification, build a player, ask it for moves.

    from mcts_arena import players
    p = players.make("MCTS(ipp,im0.4)", game=GAME, seed=1)
    move, stats = p.choose(state, time=0.1)      # or sims=2000

`choose` never changes the state it is given; `move` is the game's internal move id
(`state.format_move(move)` gives the notation) and `stats` is a dict with at least
`sims`, `nodes`, `depth` and `time` (seconds).

This module is the players provider the runner uses (runner/config.py: `parse`, `make` and,
optionally, `check_startup`); tests point the runner at a fake one with the same functions.

Modules: notation.py (the syntax of every kind, display names), kinds.py (the kind table),
options.py (the option table),
spec.py (parsing for a game, canonical strings), player.py (the Player interface), builtin.py
(MCTS, αβ, Random, Greedy, FlatMC, *-minimax, PigOptimal), gtp_player.py + gtp_process.py (GTP
engines), gnubg_player.py (GNU Backgammon over its external socket, on gtp_process.py),
python_player.py (py(...) classes), gtp_server.py (`arena gtp`), search/ (the Cython searches).
"""
from __future__ import annotations

from mcts_arena.budgets import Budget
from mcts_arena.errors import ExternalError, SpecError
from mcts_arena.players import kinds
from mcts_arena.players.kinds import BY_NAME
from mcts_arena.players.notation import display_name
from mcts_arena.players.player import Player
from mcts_arena.players.spec import (
    ExternalSpec,
    PlayerSpec,
    default_c,
    default_eval,
    describe_tokens,
    macros_of,
    parse,
)

__all__ = ["Player", "PlayerSpec", "SpecError", "check_startup", "default_c", "default_eval",
           "describe_tokens", "display_name", "macros_of", "make", "parse"]


def make(spec: PlayerSpec | ExternalSpec | str, game: str | None = None, seed: int = 1,
         macros: dict[str, str] | None = None) -> Player:
    """Build a player from a spec (or its text, parsed for `game`)."""
    if isinstance(spec, str):
        if game is None:
            raise SpecError("a player given as text needs its game")
        spec = parse(spec, game, macros)
    elif game is not None and spec.game != game:
        raise SpecError(f"player {spec.canonical} was parsed for {spec.game}, not {game}")
    return BY_NAME[spec.kind].make(spec, seed)


def check_startup(text: str, game: str, budget: Budget, reached_by_moves: bool = True,
                  macros: dict[str, str] | None = None) -> None:
    """Check, before anything is written, that a player can play at all: a GTP engine is
    started, asked protocol_version, name, boardsize and clear_board, and quit (SpecError with
    one line naming the player and the problem; an engine without set_position when some
    opening is not `reached_by_moves`). Other players were checked when parsed."""
    spec = parse(text, game, macros)
    try:
        kinds.of(spec).check_startup(spec, Budget.of(budget), reached_by_moves)
    except ExternalError as e:
        raise SpecError(str(e)) from None
