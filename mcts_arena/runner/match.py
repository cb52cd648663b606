"""The one game loop: plays the games of a Job and returns plain, picklable GameRecords.

The loop measures each move's wall time itself. A player that takes more than 2 x its time
budget + 0.5 s for one move forfeits (reason `time_forfeit`).

A game on a clock (a budget with `clock`, e.g. `60+0.5`): the loop keeps each side's time left,
in wall seconds as it measures every move (the same clock as per-move time budgets and their
forfeits, and the one an outside engine's time is spent on). Before a move it gives the player
`clock=ClockLeft(...)`: the seconds left, the increment, and the moves until the next period
(0: the whole game); the player's time-management rule turns that into the move's seconds
(players/timing.py), and a hard limit at the time left plus the clock's margin (the budget's
`margin`, cutechess-cli's `timemargin`), where every search stops whatever its rule. After the
move its wall time is taken off; a side whose time falls below minus the margin loses on time
(reason `time_forfeit`, the text "lost on time"); else it has at least no time left (an overrun
within the margin is forgiven), gains the increment, and a new period's base time once it has
played the period's moves.

An exception inside a player, an illegal move or a player that changes the state it was given
ends the game as an `error` game: never a win or a loss, reported at the end of the run. A game
still going after `max_plies` plies is a draw (reason `max_plies`). The side to move is asked
of the state every ply (Kalah has extra turns).

A game with chance nodes (dice): no player is asked at a chance node; the loop draws a number
u in [0, 1) and plays the outcome it stands for (`state.outcome_at(u)`: the first whose
cumulative probability exceeds u). Each seat rolls from its own generator, seeded from the
game's dice seed (`GameSpec.dice_seed`) and the seat (the side a chance node concerns: the
roller; backgammon's opening roll counts as seat 0's): the k-th roll of seat s takes the k-th
number of stream s. Two games with the same dice seed (a seat-swapped pair, by default) give
each seat the same dice, whoever sits there: lucky dice favour a seat in both games, that is
each player once, and the pair cancels them (common random numbers). One stream per seat
rather than one per game keeps the seats' dice aligned in Pig, where how many times a player
rolls depends on its decisions. The outcome is recorded like a move (its notation, e.g. `31`;
stats `{"seat": None, "chance": True}`; it counts as a ply), so a record replays exactly, dice
included, and observers see it with seat None.
"""
from __future__ import annotations

import math
import numbers
import random
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from types import ModuleType

from mcts_arena import games
from mcts_arena.budgets import Budget, Clock
from mcts_arena.errors import UserError
from mcts_arena.players.gtp_process import EngineError
from mcts_arena.players.timing import ClockLeft
from mcts_arena.provenance import build_identity
from mcts_arena.runner.openings import opening_history, opening_text
from mcts_arena.runner.plan import GameSpec, Job, derive_seed

FORFEIT_FACTOR = 2.0
FORFEIT_GRACE_S = 0.5
REASONS = ("normal", "time_forfeit", "error", "max_plies", "illegal_move", "resign")


@dataclass
class GameRecord:
    """Everything the store keeps about one finished game."""

    game_id: str
    pairing_id: str
    pair_index: int
    swap: int                       # 0: the pairing's player sat in seat 0 (moved first)
    seats: tuple[str, str]          # canonical specs in seat 0 and seat 1
    budgets: tuple[Budget, Budget]
    seeds: tuple[int, int]
    opening: str                    # text of the start position
    winner: int | None              # seat of the winner; None: draw or error
    reason: str                     # one of REASONS
    error: str | None = None        # what went wrong (error games) or who forfeited
    plies: int = 0
    moves: list[str] = field(default_factory=list)     # notation, in order
    # per move: seat, sims, nodes, depth, time, wall, value (the search's, see _value)
    stats: list[dict] = field(default_factory=list)
    duration: float = 0.0           # wall seconds of the whole game
    finished: float = 0.0           # unix time
    version: str = ""               # mcts_arena version and build fingerprint of the process
    build: str = ""                 # that finished the game (mcts_arena.provenance)

    @property
    def player_seat(self) -> int:
        return self.swap

    @property
    def score(self) -> float | None:
        """The pairing player's score: 1 win, 0.5 draw, 0 loss; None for an error game."""
        if self.reason == "error":
            return None
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == self.player_seat else 0.0

    def to_dict(self) -> dict:
        return asdict(self)


def forfeit_limit(budget: Budget) -> float | None:
    """Seconds after which a move forfeits the game (None: no limit for simulation budgets)."""
    t = Budget.of(budget).time
    return None if t is None else FORFEIT_FACTOR * t + FORFEIT_GRACE_S


class SideClock:
    """One side's clock in a game: the time left, the moves played in the current period, and
    the margin a move may overrun it by."""

    def __init__(self, clock: Clock, margin: float = 0.0):
        self.clock = clock
        self.margin = margin
        self.left = clock.base
        self.played = 0

    def before(self) -> ClockLeft:
        """What the player is told before its move."""
        c = self.clock
        to_go = c.moves - self.played % c.moves if c.moves else 0
        return ClockLeft(self.left, c.inc, to_go, self.margin)

    def after(self, wall: float) -> bool:
        """Take a move's wall seconds off; False when the time ran out by more than the margin
        (a loss on time). An overrun within the margin is carried, as cutechess-cli carries
        it (the time left stays below 0 until increments pay it back), so the margin forgives
        a game's overruns once, not each move afresh."""
        self.left -= wall
        if self.left < -self.margin:
            return False
        self.played += 1
        self.left += self.clock.inc
        if self.clock.moves and self.played % self.clock.moves == 0:
            self.left += self.clock.base
        return True


def _budget_kwargs(budget: Budget) -> dict:
    """choose()'s keyword arguments: time or sims, and `effort` (the paper-seconds a matched
    effort budget stands for) only where the budget has one."""
    if budget.clock is not None:
        return {"sims": budget.sims} if budget.sims is not None else {}
    if budget.time is not None:
        return {"time": budget.time}
    kw = {"sims": budget.sims}
    if budget.effort is not None:
        kw["effort"] = budget.effort
    return kw


def _error_text(who: str, e: BaseException) -> str:
    """One line for an error game: the player, the error and, for a fault in our code (not a
    user's mistake or an outside engine's), where it was raised."""
    tb = traceback.extract_tb(e.__traceback__)
    where = f" at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" \
        if tb and not isinstance(e, (UserError, EngineError)) else ""
    msg = " ".join(str(e).split())
    return f"{who}: {type(e).__name__}: {msg}{where}"


_STAT_KEYS = ("sims", "nodes", "depth", "time")


def _stat_value(v):
    """A player's reported number as the store keeps it (an int, or a float to 6 decimals);
    None for anything else (a string, NaN, a bool from an outside player): the store holds
    only what every reader can count (results/rows.py)."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        return None
    if isinstance(v, numbers.Integral):
        return int(v)
    v = float(v)
    return round(v, 6) if math.isfinite(v) else None


def _value(v) -> float | None:
    """A search's value of the position for the mover, as a record keeps it: in [-1, 1] (an αβ
    win scored 1000 - ply is 1), 4 digits; None for a value that is not a number."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
        return None
    return round(max(-1.0, min(1.0, float(v))), 4)


def play_game(job: Job, g: GameSpec, opening: str, players: ModuleType,
              history: list[str] | None = None, on_move: Callable | None = None,
              before_move: Callable[[str, int, int], None] | None = None) -> GameRecord:
    """Play one game of `job` from the position `opening` (reached from the start position by
    the moves `history`, or None when no move sequence does); never raises for a player's
    fault. `on_move(record, state)`, if given, is called after every move (`arena play`
    prints); `before_move(game_id, ply, seat)` before each move is asked for (a worker tells
    the driver's watchdog)."""
    macros = dict(job.macros) or None
    rec = GameRecord(game_id=g.game_id, pairing_id=g.pairing_id, pair_index=g.pair_index,
                     swap=g.swap, seats=g.seats, budgets=g.budgets, seeds=g.seeds,
                     opening=opening, winner=None, reason="normal")
    t_start = time.perf_counter()
    state = games.new_state(job.game, opening)
    budgets = tuple(Budget.of(b) for b in g.budgets)
    agents = []
    try:
        for seat in (0, 1):
            try:
                agents.append(players.make(g.seats[seat], game=job.game, seed=g.seeds[seat],
                                           macros=macros))
                hook = getattr(agents[seat], "new_game", None)
                if hook is not None:
                    hook(state.copy(), history, budgets[seat], forfeit_limit(budgets[seat]))
            except Exception as e:  # noqa: BLE001 - a player's fault becomes an error game
                return finish(rec, t_start, "error", None,
                               _error_text(f"seat {seat} {g.seats[seat]}", e))
        return _play(job, g, budgets, rec, state, agents, t_start, on_move, before_move)
    finally:
        for a in agents:
            close = getattr(a, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # noqa: BLE001 - the game is decided already
                    pass


def _play(job: Job, g: GameSpec, budgets: tuple[Budget, Budget], rec: GameRecord, state,
          agents: list, t_start: float,
          on_move: Callable | None = None,
          before_move: Callable[[str, int, int], None] | None = None) -> GameRecord:
    observers = [getattr(a, "observe", None) for a in agents]
    clocks = [SideClock(b.clock_of(), b.margin_s()) if b.clock is not None else None
              for b in budgets]
    dice = [random.Random(derive_seed(g.dice_seed, "seat", seat)) for seat in (0, 1)]
    while not state.is_terminal():
        if rec.plies >= job.max_plies:
            return finish(rec, t_start, "max_plies", None, None)
        if state.is_chance_node():
            outcome = state.outcome_at(dice[state.to_move()].random())
            notation = state.format_move(outcome)
            state.play(outcome)
            rec.moves.append(notation)
            rec.stats.append({"seat": None, "chance": True})
            rec.plies += 1
            failed = _tell(observers, None, notation, g, rec, t_start)
            if failed is not None:
                return failed
            if on_move is not None:
                on_move(rec, state)
            continue
        seat = state.to_move()
        budget = budgets[seat]
        before = state.zobrist()
        who = f"seat {seat} {g.seats[seat]}"
        if before_move is not None:
            before_move(g.game_id, rec.plies, seat)
        kwargs = _budget_kwargs(budget)
        if clocks[seat] is not None:
            kwargs["clock"] = clocks[seat].before()
        t0 = time.perf_counter()
        try:
            move, stats = agents[seat].choose(state, **kwargs)
        except Exception as e:  # noqa: BLE001
            reason = getattr(e, "forfeit", None)
            if reason in REASONS and reason not in ("normal", "error", "max_plies"):
                return finish(rec, t_start, reason, 1 - seat,
                               f"{who}: {' '.join(str(e).split())}")
            return finish(rec, t_start, "error", None, _error_text(who, e))
        wall = time.perf_counter() - t0
        if state.zobrist() != before:
            return finish(rec, t_start, "error", None,
                          f"{who}: changed the game state it was given")
        limit = forfeit_limit(budget)
        if limit is not None and wall > limit:
            return finish(rec, t_start, "time_forfeit", 1 - seat,
                           f"{who}: {wall:.3f} s for one move (limit {limit:.3f} s)")
        if clocks[seat] is not None:
            had = clocks[seat].left
            if not clocks[seat].after(wall):
                return finish(rec, t_start, "time_forfeit", 1 - seat,
                               f"{who}: lost on time (clock {budget.clock}: {wall:.3f} s for "
                               f"move {rec.plies + 1} with {had:.3f} s left, margin "
                               f"{clocks[seat].margin:g} s)")
        try:
            notation = state.format_move(move)
            state.play(move)
        except Exception as e:  # noqa: BLE001 - an illegal move is the player's fault
            return finish(rec, t_start, "error", None, _error_text(f"{who} played {move!r}", e))
        rec.moves.append(notation)
        rec.stats.append(_move_entry(seat, wall, clocks[seat], stats))
        rec.plies += 1
        failed = _tell(observers, seat, notation, g, rec, t_start)
        if failed is not None:
            return failed
        if on_move is not None:
            on_move(rec, state)
    return finish(rec, t_start, "normal", state.winner(), None)


def _move_entry(seat: int, wall: float, clock, stats) -> dict:
    """What the record keeps of a move: the seat, its wall seconds, the clock left after it,
    and the search's stats the store knows (_STAT_KEYS, and its value)."""
    entry = {"seat": seat, "wall": round(wall, 6)}
    if clock is not None:
        entry["clock"] = round(clock.left, 6)
    for k in _STAT_KEYS:
        if isinstance(stats, dict) and k in stats:
            v = _stat_value(stats[k])
            if v is not None:
                entry[k] = v
    value = _value(stats.get("value")) if isinstance(stats, dict) else None
    if value is not None:
        entry["value"] = value
    return entry


def _tell(observers: list, seat: int | None, notation: str, g: GameSpec, rec: GameRecord,
          t_start: float) -> GameRecord | None:
    """Tell every observing player the move (seat None: the dice); an observer that fails
    ends the game as an error game (its record returned)."""
    for other, obs in enumerate(observers):
        if obs is not None:
            try:
                obs(seat, notation)
            except Exception as e:  # noqa: BLE001
                return finish(rec, t_start, "error", None,
                              _error_text(f"seat {other} {g.seats[other]}", e))
    return None


def finish(rec: GameRecord, t_start: float, reason: str, winner: int | None,
           error: str | None) -> GameRecord:
    """End the game `rec` records: its reason, winner, error text, duration and finish time."""
    rec.reason = reason
    rec.winner = winner
    rec.error = error
    rec.duration = round(time.perf_counter() - t_start, 6)
    rec.finished = time.time()
    rec.version, rec.build = build_identity()
    return rec


def play_one(game: games.Game, specs: tuple[str, str], budgets: tuple[Budget, Budget],
             seed: int, position: str | None, players: ModuleType,
             on_move: Callable | None = None) -> GameRecord:
    """One game outside an experiment (`arena play`), judged by the same loop: canonical specs
    in seat 0 and 1 with their budgets, both seeds derived from `seed`, from the start or
    `position` (a position other than the start has no move history)."""
    from mcts_arena.players.player import derive_seed
    from mcts_arena.runner.config import Openings

    g = GameSpec(game_id="play", pairing_id="play", pair_index=0, swap=0, seats=tuple(specs),
                 budgets=tuple(budgets), seeds=tuple(derive_seed(seed, i) for i in range(2)),
                 dice_seed=derive_seed(seed, "dice"))
    job = Job(job_id="play", game=game, openings=Openings(), opening_seed=seed, pair_index=0,
              max_plies=100000, macros=(), games=(g,))
    start = game.new_state().to_text()
    opening = game.new_state(position).to_text() if position is not None else start
    return play_game(job, g, opening, players, [] if opening == start else None,
                     on_move=on_move)


def play_job(job: Job, players: ModuleType,
             before_move: Callable[[str, int, int], None] | None = None
             ) -> Iterator[GameRecord]:
    """Play the games of `job` one after another, yielding each record when it is finished
    (`before_move`: see play_game)."""
    try:
        opening = opening_text(job.game, job.openings, job.opening_seed, job.pair_index)
        history = opening_history(job.game, job.openings, job.opening_seed, job.pair_index)
    except Exception as e:  # noqa: BLE001 - e.g. an opening set that is not built
        for g in job.games:
            rec = GameRecord(game_id=g.game_id, pairing_id=g.pairing_id, pair_index=g.pair_index,
                             swap=g.swap, seats=g.seats, budgets=g.budgets, seeds=g.seeds,
                             opening="", winner=None, reason="normal")
            yield finish(rec, time.perf_counter(), "error", None, _error_text("opening", e))
        return
    for g in job.games:
        yield play_game(job, g, opening, players, history, before_move=before_move)


def error_record(g: GameSpec, text: str, plies: int = 0) -> GameRecord:
    """The record of game `g` ended as an `error` game before or while it was played (a worker
    that died or hung, a task that failed): never a win or a loss."""
    rec = GameRecord(game_id=g.game_id, pairing_id=g.pairing_id, pair_index=g.pair_index,
                     swap=g.swap, seats=g.seats, budgets=g.budgets, seeds=g.seeds,
                     opening="", winner=None, reason="error", plies=plies)
    return finish(rec, time.perf_counter(), "error", None, text)


def play_job_list(job: Job, players: ModuleType,
                  on_record: Callable[[GameRecord], None] | None = None) -> list[GameRecord]:
    out = []
    for rec in play_job(job, players):
        if on_record:
            on_record(rec)
        out.append(rec)
    return out
