"""A plug-in from outside the package (docs/extending.md): a game (one-pile Nim, compiled from
toy_nim.pyx next to this file), a player kind with an option of its own (`Nth(n=K)`: the K-th
legal move, counted from 0 and wrapping) and a statistic (`decisive`: games not drawn).
tests/test_plugins.py loads it with `mcts_arena.plugins.use(PATH)`; the run's workers load it
again from the environment."""
import sys
import time
from pathlib import Path

from mcts_arena import games
from mcts_arena.players import options
from mcts_arena.players.kinds import Kind
from mcts_arena.players.player import Player
from mcts_arena.results import aggregates

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:       # the compiled game lies beside this file
    sys.path.insert(0, str(HERE))


class NthPlayer(Player):
    """The n-th legal move (n=0: the first), whatever the budget."""

    def _choose(self, state, time_s, sims):
        t0 = time.perf_counter()
        moves = state.move_ids()
        move = moves[int(self.spec.get("n", 0) or 0) % len(moves)]
        return move, {"sims": 0, "nodes": 1, "depth": 0, "time": time.perf_counter() - t0}


if (HERE / "toy_nim.py").exists() or any(HERE.glob("toy_nim.*.so")) or \
        any(HERE.glob("toy_nim*.pyd")):
    games.register("toynim", "toy_nim")
options.register_kind(Kind("Nth", ("Nth", "nth"), "the n-th legal move (a plug-in's kind)",
                           f"{__name__}:NthPlayer", written="Nth(n=K)"))
options.register(options.Option("n", "int", 0, 100, "Nth plays the K-th legal move (0: the first)",
                                kinds=frozenset({"Nth"}), key=True, written="key", off=0,
                                symbol="K"))
aggregates.register(aggregates.Statistic(
    "decisive", "games won or lost (not drawn)",
    lambda p: p.total("games", result="win") + p.total("games", result="loss"), 0,
    heading="decisive"))
