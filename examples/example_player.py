"""A Python player for mcts_arena: `py(examples/example_player.py:WinFirst)`
(see docs/engines.md)."""
import random


class WinFirst:
    """Plays a move that wins at once if there is one, else a random move."""

    def __init__(self, seed=0):
        self.rng = random.Random(seed)

    def choose(self, state, time=None, sims=None):
        for move in state.move_ids():
            after = state.copy()
            after.play(move)
            if after.winner() == state.to_move():
                return move, {"nodes": len(state.move_ids())}
        return self.rng.choice(state.move_ids()), {}
