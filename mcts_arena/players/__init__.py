"""Players: parse a specification, build a player, ask it for moves.

    from mcts_arena import players
    p = players.make("MCTS(ipp,im0.4)", game=GAME, seed=1)
    move, stats = p.choose(state, time=0.1)      # or sims=2000

`choose` never changes the state it is given; `move` is the game's internal move id
(`state.format_move(move)` gives the notation) and `stats` is a dict with at least
`sims`, `nodes`, `depth` and `time` (seconds).
"""
from __future__ import annotations

from mcts_arena.players.base import Player, make
from mcts_arena.players.spec import (PlayerSpec, SpecError, default_c, default_eval,
                                     describe_tokens, macros_of, parse)

__all__ = ["Player", "PlayerSpec", "SpecError", "default_c", "default_eval", "describe_tokens",
           "macros_of", "make", "parse"]
