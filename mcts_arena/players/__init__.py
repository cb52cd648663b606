"""Players: parse a specification, build a player, ask it for moves.

    from mcts_arena import players
    p = players.make("MCTS(ipp,im0.4)", game=GAME, seed=1)
    move, stats = p.choose(state, time=0.1)      # or sims=2000

`choose` never changes the state it is given; `move` is the game's internal move id
(`state.format_move(move)` gives the notation) and `stats` is a dict with at least
`sims`, `nodes`, `depth` and `time` (seconds).
"""
from __future__ import annotations

from mcts_arena.players.builtin import Player, make
from mcts_arena.players.gtp_process import display_name
from mcts_arena.players.spec import (PlayerSpec, SpecError, default_c, default_eval,
                                     describe_tokens, macros_of, parse)

__all__ = ["Player", "PlayerSpec", "SpecError", "default_c", "default_eval", "describe_tokens",
           "display_name", "macros_of", "make", "parse", "preflight"]


def preflight(text: str, game: str, budget: dict, openings_kind: str = "start",
              macros: dict[str, str] | None = None) -> None:
    """Check, before anything is written, that a player can play at all: a GTP engine is
    started, asked protocol_version, name, boardsize and clear_board, and quit (SpecError with
    one line naming the player and the problem). Other players were checked when parsed."""
    from mcts_arena.players import gtp_process as external

    spec = parse(text, game, macros)
    if getattr(spec, "kind", None) == "GTP":
        try:
            external.preflight(spec, budget, openings_kind)
        except external.ExternalError as e:
            raise SpecError(str(e)) from None

