"""What every player is: `Player` (choose a move; the game loop's hooks), `PlayerForfeit` (a
loss by the player's own fault), and `derive_seed`.

    move, stats = player.choose(state, time=0.1)      # or sims=2000
    move, stats = player.choose(state, clock=ClockLeft(58.2, 0.5))   # on a clock (timing.py)

`choose` never changes the state it is given; `move` is the game's internal move id
(`state.format_move(move)` gives the notation) and `stats` is a dict with at least `sims`,
`nodes`, `depth` and `time` (seconds). A budget written in the spec (`time=`, `sims=`) overrides
the one given; budgets outside mcts_arena.budgets' ranges (NaN, infinite, too large) are refused
with a ValueError before any search starts.

On a clock a move also has a hard limit, `hard` (its side's time left plus the clock's margin,
timing.hard_limit), whatever the player's time-management rule: a search given it stops there
(and its side then loses on time), so a side that ignores its clock cannot hold a game up.
"""
from __future__ import annotations

import hashlib

from mcts_arena import budgets
from mcts_arena.budgets import Budget
from mcts_arena.players import timing


def derive_seed(*parts) -> int:
    """A 63-bit seed from any parts (stable across runs and machines, unlike hash())."""
    h = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(h, "little") >> 1


class Player:
    """Base: holds the spec and the seed; subclasses implement `_choose`."""

    def __init__(self, spec, seed: int):
        self.spec = spec
        self.effort: float | None = None   # paper-seconds of the current move's effort budget
        self.clock: timing.ClockLeft | None = None     # the clock before the current move
        self.hard: float | None = None      # on a clock: the move's hard limit, in seconds
        self.overhead: timing.Overhead | None = None   # learnt on a clock (players/timing.py)
        self.seed = derive_seed(seed, spec.seed_salt) if spec.seed_salt else seed

    @property
    def name(self) -> str:
        return self.spec.canonical

    def choose(self, state, time: float | None = None, sims: int | None = None,
               effort: float | None = None, clock: timing.ClockLeft | None = None):
        """(move id, stats dict) for `state`, which is left unchanged. `effort` (matched-effort
        budgets: the paper-seconds that `sims` stands for) scales bare node priors. `clock`:
        the game is on a clock (the runner gives `sims` only as a cap); the player's
        time-management rule (`tm=`, players/timing.py) gives the move's seconds."""
        if state.is_terminal():
            raise ValueError("no legal move: the game is over")
        budget = self.spec.budget
        if budget and (budget.effort is not None or budget.clock is not None):
            # `effort=`: the runner resolved it into `sims` (and `effort`); `clock=`: the
            # runner keeps that clock and says what is left of it (`clock`), `sims` its cap
            budget = None
        if budget and clock is None:
            time, sims = budget.time, budget.sims
        self.clock = clock
        self.hard = None
        if clock is not None:
            if self.overhead is None:
                self.overhead = timing.Overhead()
            self.hard = timing.hard_limit(clock)
            time = timing.allot(clock, self.spec.get("tm"), self.overhead.update(clock))
            if time is not None:
                time = min(max(time, budgets.TIME_MIN), self.hard)
            self.overhead.given(clock, time or 0.0)
            if time is None and sims is None and not self.spec.get("depth"):
                raise ValueError(f"{self.name} on a clock with tm=0 needs a simulation cap "
                                 f"(sims=)")
        elif time is not None and not budgets.time_ok(time):
            raise ValueError(f"time budget must be {budgets.TIME_TEXT}, got {time}")
        if sims is not None and not budgets.sims_ok(sims):
            raise ValueError(f"simulation budget must be {budgets.SIMS_TEXT}, got {sims}")
        self.effort = effort if not budget else None
        return self._choose(state, time, sims)

    def _choose(self, state, time, sims):
        raise NotImplementedError

    # Hooks the game loop (runner/match.py) calls; players that keep their own board (GTP
    # engines) use them, the others need nothing.
    def new_game(self, state, history: list[str] | None, budget: Budget,
                 move_limit: float | None = None) -> None:
        """A game starts from `state` (a copy); `history`: the moves (notation) that lead to it
        from the game's start position, or None when no move sequence does; `budget`: this
        seat's budget per move (a mcts_arena.budgets.Budget); `move_limit`: seconds after which
        one move forfeits the game (None: the loop sets none, as for simulation budgets)."""

    def observe(self, seat: int | None, notation: str) -> None:
        """`seat` has just played `notation` (every move of the game, this player's too); seat
        None: the dice of a game with chance nodes have come up `notation`."""

    def close(self) -> None:
        """The game is over (or abandoned): free what the player holds (processes, files)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"


class PlayerForfeit(Exception):
    """Raised by `choose` when the player loses the game by its own fault rather than by a bug:
    `forfeit` is the game's end reason (`illegal_move`, `time_forfeit`, `resign`)."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.forfeit = reason
