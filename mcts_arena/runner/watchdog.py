"""The driver's watchdog: notice a game that has stopped making progress, with a bound derived
from its budget, so a stopped or hung worker never stalls a run.

A backend arms one deadline per busy worker (any hashable key) and re-arms it whenever the
worker shows progress; when a deadline passes, the backend kills that worker and records the
game it was playing as an `error` game whose text gives the reason (`expired()` hands over the
reason). The local pool (pool.LocalPoolBackend) re-arms on every move (its workers send a
`move` message before each move); a backend that hears of a game only when it ends (Ray tasks)
arms once per game or job with `game_bound`/`job_bound`.

Interface:

    move_bound(budget, grace_s)        seconds one move under `budget` (a Budget) may take
                                       before its worker is declared hung
    game_bound(budgets, max_plies, grace_s)   the same for a whole game (both seats' budgets)
    job_bound(job, grace_s)            the same for every game of a plan.Job, one after another
    wd = Watchdog(grace_s=GRACE_S, setup_s=SETUP_S, clock=time.monotonic, pause_s=PAUSE_S)
    wd.arm(key, seconds, what, progress=None, hard_s=None)
                                       (re)start key's deadline; `what` says what is awaited,
                                       e.g. "a move from seat 0 MCTS(bl) at ply 3, budget 1
                                       s/move". With `progress` (a callable returning a number
                                       that grows while the worker computes, e.g. cpu_seconds
                                       of its pid, the engines it started included), a
                                       deadline that passes while progress grew is extended
                                       by `seconds`, up to `hard_s` after arming
    wd.disarm(key)                     the key is idle (no deadline)
    wd.tick()                          call once per pass of the driver's loop (see below)
    wd.expired() -> [(key, reason)]    keys past their deadline, disarmed as they are returned;
                                       reason: "no progress within 12.5 s (waiting for <what>)"
    wd.timeout(default) -> seconds     until the next deadline, at most `default` (for wait())

Bounds. A time budget `t`: the match's forfeit limit for one move (2t + 0.5 s) times MARGIN,
plus `grace_s`. A simulation budget `n`: n x SIM_SECONDS times MARGIN plus `grace_s`; since the
speed of a simulation varies by orders of magnitude (an αβ-playout MCTS in LOA, `abp8`, takes
seconds per simulation), the local pool also passes the worker's CPU time as `progress`
(with that of the engines it started: gnubg at 2 plies thinks for seconds in its own process
under a simulation budget, whose forfeit limit is the engine's own): a worker still computing
is given more time, up to `hard_bound()` (the searches stop by
themselves at budgets.TIME_MAX; on a clock at their time left plus the margin, which the move
bound already holds), while a stopped one (SIGSTOP, no CPU time) is caught at the
first bound. Before a game's first move (making the players, the opening) the bound is
`setup_s`.

A driver that was itself stopped (Ctrl-Z, a suspended machine) must not blame its workers for
the pause: `tick()` measures the gap since the previous call, and a gap longer than `pause_s`
moves every deadline later by the gap.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Hashable

from mcts_arena.budgets import TIME_MAX, Budget
from mcts_arena.runner.match import forfeit_limit

MARGIN = 2.0
GRACE_S = 10.0          # added to every bound: start-up of a search, a busy machine
SETUP_S = 60.0          # before a game's first move: players made, opening set up
SIM_SECONDS = 1e-4      # a simulation (or αβ node) this slow still fits the first bound
CLOCK_MOVES = 1000      # increments a clocked side may have saved up, for its move bound
PAUSE_S = 5.0           # a driver loop gap longer than this is the driver's own pause


def move_bound(budget: Budget, grace_s: float = GRACE_S) -> float:
    """Seconds one move under `budget` may take before its worker is declared hung."""
    budget = Budget.of(budget)
    limit = forfeit_limit(budget)
    if limit is None:
        limit = float(budget.sims or 0) * SIM_SECONDS
    clock = budget.clock_of()
    if clock is not None:
        # the most a side's clock can hold: its base and CLOCK_MOVES increments saved up (a
        # period's time is not known here, so moves per period count as one period), and the
        # margin: a search stops there (its hard limit), however long the clock
        limit = max(limit, clock.base + CLOCK_MOVES * clock.inc + budget.margin_s())
    return MARGIN * limit + grace_s


def hard_bound(grace_s: float = GRACE_S) -> float:
    """The longest any move may take: the searches stop by themselves at budgets.TIME_MAX."""
    return MARGIN * TIME_MAX + grace_s


def game_bound(budgets, max_plies: int, grace_s: float = GRACE_S,
               setup_s: float = SETUP_S) -> float:
    """Seconds a whole game may take: every ply at the slower seat's move bound."""
    per_move = max(move_bound(b, 0.0) for b in budgets)
    return setup_s + max_plies * per_move + grace_s


def job_bound(job, grace_s: float = GRACE_S, setup_s: float = SETUP_S) -> float:
    """Seconds every game of a plan.Job may take, played one after another."""
    return sum(game_bound(g.budgets, job.max_plies, grace_s, setup_s) for g in job.games)


class Watchdog:
    """Deadlines per key (see the module docstring)."""

    def __init__(self, grace_s: float = GRACE_S, setup_s: float = SETUP_S,
                 clock: Callable[[], float] = time.monotonic, pause_s: float = PAUSE_S):
        self.grace_s = grace_s
        self.setup_s = setup_s
        self.pause_s = pause_s
        self.clock = clock
        # key: [deadline, bound, what, hard deadline, progress, progress seen, armed at]
        self._due: dict[Hashable, list] = {}
        self._last = clock()

    def move_bound(self, budget: Budget) -> float:
        return move_bound(budget, self.grace_s)

    def arm(self, key: Hashable, seconds: float, what: str,
            progress: Callable[[], float | None] | None = None,
            hard_s: float | None = None) -> None:
        now = self.clock()
        hard = now + max(seconds, hard_s) if progress is not None and hard_s else None
        seen = progress() if hard is not None else None
        self._due[key] = [now + seconds, seconds, what, hard, progress, seen, now]

    def disarm(self, key: Hashable) -> None:
        self._due.pop(key, None)

    def armed(self, key: Hashable) -> bool:
        return key in self._due

    def tick(self) -> None:
        now = self.clock()
        gap = now - self._last
        self._last = now
        if gap > self.pause_s:
            for entry in self._due.values():
                entry[0] += gap
                entry[6] += gap
                if entry[3] is not None:
                    entry[3] += gap

    def expired(self) -> list[tuple[Hashable, str]]:
        now = self.clock()
        out = []
        for key, entry in list(self._due.items()):
            deadline, bound, what, hard, progress, seen, armed_at = entry
            if now < deadline:
                continue
            if hard is not None and now < hard:
                cur = progress()
                if cur is not None and seen is not None and cur > seen:
                    entry[0] = min(hard, now + bound)    # still computing: give it more time
                    entry[5] = cur
                    continue
            del self._due[key]
            out.append((key, f"no progress within {now - armed_at:.1f} s (waiting for {what})"))
        return out

    def timeout(self, default: float) -> float:
        if not self._due:
            return default
        soonest = min(e[0] for e in self._due.values())
        return max(0.0, min(default, soonest - self.clock()))
