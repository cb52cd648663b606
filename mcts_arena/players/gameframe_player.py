"""`gameframe(LABEL)`: the paper authors' engine as a GTP player (players/gameframe.py builds it
and makes its command line; the conversation and its faults are players/gtp_player.py's)."""
from __future__ import annotations

from mcts_arena import games
from mcts_arena.budgets import Budget
from mcts_arena.players import gtp_player
from mcts_arena.players.gameframe import argv
from mcts_arena.players.gtp_player import GTPPlayer
from mcts_arena.players.gtp_process import EngineError

#: Games whose rules in the authors' engine differ from ours, so its board is set to our position
#: before each of its moves instead of following the moves: its Kalah captures the last stone
#: alone when it lands in an empty own house opposite an empty one (ours, as OpenSpiel's: no
#: capture), and ends the game when player 2's first five houses are empty, its sixth ignored.
#: Its searches still play its own rules below the root.
BY_POSITION = frozenset({"kalah"})


class GameframePlayer(GTPPlayer):
    """The engine over GTP; the conversation is GTPPlayer's, the command line is ours, and each
    move's stats carry the work the engine reports (`arena_stats`)."""

    def engine_argv(self, seed: int, budget: Budget) -> list[str]:
        return argv(self.spec.target, self.spec.game, seed, budget)

    def _choose(self, state, time, sims):
        if self.engine is not None and games.split(self.spec.game)[0] in BY_POSITION:
            self._pending = []          # the engine's board is set to ours instead
            self._send(f"set_position {state.to_text()}")
        move, stats = super()._choose(state, time, sims)
        try:
            answer = self._send("arena_stats")
        except (EngineError, OSError):      # the move stands; its stats are a courtesy
            return move, stats
        for word in answer.split():
            key, _, value = word.partition("=")
            if key in ("sims", "nodes", "depth") and value.isdigit():
                stats[key] = int(value)
        return move, stats


def check_startup(spec, budget: Budget, reached_by_moves: bool = True) -> None:
    """The build checked and the engine started once with this budget's command line, as every
    GTP engine is before a run writes anything (ExternalError in one line otherwise)."""
    gtp_player.check_startup(spec, budget, reached_by_moves,
                             argv=argv(spec.target, spec.game, 1, Budget.of(budget) or Budget()))
