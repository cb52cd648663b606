"""Python players for tests/test_gtp.py: good, faulty, and configurable."""


class FirstMove:
    """The first legal move, by notation; `skip` moves further down the list if it can."""

    def __init__(self, skip=0, seed=0, game=None):
        self.skip = skip
        self.seed = seed
        self.game = game

    def choose(self, state, time=None, sims=None):
        moves = state.moves()
        return moves[min(self.skip, len(moves) - 1)], {"sims": 1}


class Raises:
    def choose(self, state, time=None, sims=None):
        raise ZeroDivisionError("my prototype divides by zero")


class ReturnsMoveOnly:
    def choose(self, state, time=None, sims=None):
        return state.move_ids()[0]


class NoChoose:
    pass
