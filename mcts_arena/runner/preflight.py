"""Before a run writes anything: every external engine of the experiment is started once and
asked the start-up questions (a GTP engine that does not exist, exits at once or does not speak
GTP stops the run with one line naming the player, exit status 2)."""
from __future__ import annotations

from collections.abc import Iterable

from mcts_arena.budgets import Budget
from mcts_arena.errors import UserError
from mcts_arena.runner.config import Experiment, players_provider


def start_engines(exp: Experiment, players: str | None = None) -> None:
    """Start every external engine of the experiment once (the provider's `check_startup`)
    before the store is opened: a command that does not exist, exits at once or does not speak
    GTP is a UserError naming the player, and nothing is written."""
    pairs = [(spec, own or exp.budget) for p in exp.pairings
             for spec, own in ((p.player, p.player_budget), (p.opponent, p.opponent_budget))]
    start_each(pairs, exp.game, exp.openings.reached_by_moves, exp.macros_dict(), players)


def start_each(specs: Iterable[tuple[str, Budget]], game: str, reached_by_moves: bool,
               macros: dict[str, str] | None, players: str | None = None) -> None:
    """`start_engines` for any list of (player spec, its budget): each distinct one once."""
    provider = players_provider(players)
    check = getattr(provider, "check_startup", None)
    if check is None:
        return
    for spec, budget in dict.fromkeys(specs):
        try:
            check(spec, game, budget, reached_by_moves, macros)
        except UserError:
            raise
        except ValueError as e:     # a provider's own mistakes
            raise UserError(str(e)) from None
