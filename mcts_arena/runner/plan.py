"""Expand an Experiment into jobs with deterministic ids and seeds.

Every pairing plays `games` games as seat-swapped pairs: pair k of pairing P is two games on the
same opening, the pairing's player moving first in game `<P>/<k>/0` and second in `<P>/<k>/1`
(an odd count leaves the last pair with one game). A Job is one pair (or the part of it still
missing); jobs are interleaved round-robin over pairings, so a half-finished run already has a
score for every pairing.

Seeds come from SHA-256 of the experiment seed and the game's coordinates (never Python's
`hash`, which changes between processes). The opening of pair k depends only on the experiment
seed and k, so pair k starts from the same position in every pairing of the experiment: the
points of a sweep are compared on the same openings. With an opening book, pair k's line is
chosen here (`book_index`) and only that line travels with its job. So do the dice of a game
with chance nodes (`dice: common`, the default): both games of pair k, in every pairing, draw
their chance outcomes from the same seed; `dice: independent` gives every game its own.
"""
from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass

from mcts_arena import games
from mcts_arena.budgets import Budget
from mcts_arena.runner.config import Experiment, Openings, Pairing


def derive_seed(*parts: object) -> int:
    """A 63-bit seed from any parts (stable across processes, machines and Python versions)."""
    h = hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(h[:8], "little") & ((1 << 63) - 1)


def game_id(experiment: str, pairing: str, pair_index: int, swap: int) -> str:
    """`<experiment>/<pairing id>/<pair index>/<swap>`; swap 0: the pairing's player moves first."""
    return f"{experiment}/{pairing}/{pair_index}/{swap}"


@dataclass(frozen=True)
class GameSpec:
    """One game to play: who sits where, with which budget and seed."""

    game_id: str
    pairing_id: str
    pair_index: int
    swap: int                           # 0: player in seat 0 (moves first); 1: seats swapped
    seats: tuple[str, str]              # canonical spec in seat 0 and seat 1
    budgets: tuple[Budget, Budget]      # budget of seat 0 and seat 1
    seeds: tuple[int, int]              # player seeds of seat 0 and seat 1
    dice_seed: int = 0                  # seed of the game's chance outcomes (games with dice)

    @property
    def player_seat(self) -> int:
        """The seat of the pairing's player (the one whose score is reported)."""
        return self.swap


@dataclass(frozen=True)
class Job:
    """One seat-swapped pair on one opening (or the games of it still missing)."""

    job_id: str
    game: games.Game
    openings: Openings
    opening_seed: int
    pair_index: int
    max_plies: int
    macros: tuple[tuple[str, str], ...]
    games: tuple[GameSpec, ...]


@dataclass(frozen=True)
class Plan:
    experiment: Experiment
    jobs: tuple[Job, ...]

    @property
    def total_games(self) -> int:
        return sum(len(j.games) for j in self.jobs)

    def game_ids(self) -> list[str]:
        return [g.game_id for j in self.jobs for g in j.games]

    def missing(self, done: set[str] | frozenset[str]) -> list[Job]:
        """The jobs still to play, each trimmed to its games not in `done`; order kept."""
        out = []
        for j in self.jobs:
            left = tuple(g for g in j.games if g.game_id not in done)
            if left:
                out.append(j if len(left) == len(j.games) else _replace_games(j, left))
        return out


def _replace_games(job: Job, games: tuple[GameSpec, ...]) -> Job:
    return Job(job.job_id, job.game, job.openings, job.opening_seed, job.pair_index,
               job.max_plies, job.macros, games)


def pair_games(exp: Experiment, p: Pairing, k: int) -> tuple[GameSpec, ...]:
    """The one or two games of pair k of pairing p."""
    out = []
    for swap in range(min(2, p.games - 2 * k)):
        seats = (p.player, p.opponent) if swap == 0 else (p.opponent, p.player)
        own = (p.player_budget, p.opponent_budget)
        budgets = (own if swap == 0 else own[::-1])
        gid = game_id(exp.name, p.id, k, swap)
        out.append(GameSpec(
            game_id=gid, pairing_id=p.id, pair_index=k, swap=swap, seats=seats,
            budgets=(budgets[0] or exp.budget, budgets[1] or exp.budget),
            seeds=(derive_seed(exp.seed, p.id, k, swap, 0),
                   derive_seed(exp.seed, p.id, k, swap, 1)),
            dice_seed=dice_seed(exp, p, k, swap),
        ))
    return tuple(out)


def book_index(openings: Openings, seed: int, k: int) -> int:
    """The book line pair k starts from: line k in sequential order (cycling through the book);
    in random order, position k % n of a shuffle of the book drawn afresh for each pass through
    it from the experiment's seed (so every line is used once per pass)."""
    n = len(openings.lines)
    if openings.order != "random":
        return k % n
    order = list(range(n))
    random.Random(derive_seed(seed, "book", k // n)).shuffle(order)
    return order[k % n]


def pair_openings(exp: Experiment, k: int) -> Openings:
    """The openings a job of pair k carries: the experiment's, or for a book only the pair's
    line (a job travels to a worker or a Ray node; the whole book need not)."""
    o = exp.openings
    if o.kind != "file":
        return o
    return Openings(o.kind, o.plies, o.file, o.order,
                    (o.lines[book_index(o, exp.seed, k)],))


def dice_seed(exp: Experiment, p: Pairing, k: int, swap: int) -> int:
    """The seed of a game's chance outcomes: pair k's (common random numbers: the same dice in
    both games of the pair, as in every pairing's pair k), or the game's own (`independent`)."""
    if exp.dice == "independent":
        return derive_seed(exp.seed, "dice", p.id, k, swap)
    return derive_seed(exp.seed, "dice", k)


def make_plan(exp: Experiment) -> Plan:
    """All jobs of the experiment, interleaved: pair 0 of every pairing, then pair 1, ..."""
    jobs = []
    most = max((p.games + 1) // 2 for p in exp.pairings)
    for k in range(most):
        opening_seed = derive_seed(exp.seed, "opening", k)
        openings = pair_openings(exp, k)
        for p in exp.pairings:
            if 2 * k >= p.games:
                continue
            jobs.append(Job(job_id=f"{exp.name}/{p.id}/{k}", game=exp.game, openings=openings,
                            opening_seed=opening_seed, pair_index=k, max_plies=exp.max_plies,
                            macros=exp.macros, games=pair_games(exp, p, k)))
    return Plan(exp, tuple(jobs))


# ---- dry run ---------------------------------------------------------------------------------
def typical_plies(game: str) -> int:
    """The game's typical length in plies (its own estimate), for `arena run --dry-run`."""
    return games.info_of(game).typical_plies


def estimate_cpu_seconds(exp: Experiment, games: list[GameSpec], costs=None) -> float | None:
    """CPU seconds the games need at their typical lengths: a move costs its time budget, or
    under a simulation budget what `costs` (runner.estimate.Costs) measured; a side on a
    clock at most its clock's time for the game (`clock_seconds`); None when some move's cost
    is unknown (no `costs`, or an external engine)."""
    plies = typical_plies(exp.game)
    total = 0.0
    for g in games:
        seconds = []
        for spec, b in zip(g.seats, g.budgets):
            if b.clock is not None:
                seconds.append(clock_seconds(b.clock_of(), plies / 2) / (plies / 2))
            elif b.time is not None:
                seconds.append(b.time)
            elif costs is None:
                return None
            else:
                seconds.append(costs.of(spec, b).seconds)
        if None in seconds:
            return None
        total += plies / 2 * sum(seconds)
    return total


def clock_seconds(clock, moves: float) -> float:
    """The most a side on `clock` can spend in a game of `moves` moves of its own: its base
    time once (or once a period) and an increment a move."""
    periods = math.ceil(moves / clock.moves) if clock.moves else 1
    return clock.base * periods + clock.inc * moves


def hms(seconds: float) -> str:
    s = round(seconds)
    return f"{s // 3600}h{s % 3600 // 60:02d}m{s % 60:02d}s" if s >= 3600 else \
        f"{s // 60}m{s % 60:02d}s"


def cost_text(exp: Experiment, todo: list[GameSpec], workers: int, costs=None) -> str:
    """The estimate of games `todo` as the dry run and a run's first line state it: "estimated
    1h15m00s CPU, about 37m30s on 2 workers (at 60 plies per game...)", or why it is unknown."""
    est = estimate_cpu_seconds(exp, todo, costs)
    if est is None:
        return ("CPU time unknown for simulation budgets" if costs is None else
                "CPU time unknown (an external engine's speed is not known before it plays)")
    timed = costs is not None and any(b.time is None for g in todo for b in g.budgets)
    measured = ", simulation budgets timed at the start position" if timed else ""
    return (f"estimated {hms(est)} CPU, about {hms(est / max(1, workers))} on "
            f"{workers} worker{'s' if workers != 1 else ''} "
            f"(at {typical_plies(exp.game)} plies per game{measured})")


def describe(plan: Plan, done: set[str] | frozenset[str] = frozenset(), workers: int = 1,
             costs=None) -> str:
    """What `arena run --dry-run` prints: pairings, games (to play), estimated CPU time; with
    `costs` (runner.estimate.Costs) what a move of each player searches and costs under a
    simulation or effort budget, and notes where a fixed depth overrides the budget or an odd
    game count leaves the seats unbalanced."""
    exp = plan.experiment
    lines = [(f"experiment {exp.name}: {exp.game}, {exp.budget}, openings {exp.openings}, "
             f"seed {exp.seed}")]
    todo_by = {}
    for j in plan.jobs:
        for g in j.games:
            if g.game_id not in done:
                todo_by.setdefault(g.pairing_id, []).append(g)
    width = max(len(p.label) for p in exp.pairings)
    lines.append(f"  {'pairing':<{width}}  {'games':>6}  {'to play':>7}  {'est. CPU':>10}")
    all_todo = []
    for p in exp.pairings:
        todo = todo_by.get(p.id, [])
        all_todo += todo
        est = estimate_cpu_seconds(exp, todo, costs)
        shown = "?" if est is None else hms(est)
        lines.append(f"  {p.label:<{width}}  {p.games:>6}  {len(todo):>7}  {shown:>10}")
    lines.append(f"{len(exp.pairings)} pairings, {plan.total_games} games, {len(all_todo)} to "
                 f"play; {cost_text(exp, all_todo, workers, costs)}")
    if costs is not None:
        lines += _budget_lines(exp, all_todo, costs)
    odd = [p for p in exp.pairings if p.games % 2]
    if odd:
        lines.append(f"note: an odd number of games ({odd[0].games}"
                     f"{' and others' if len(odd) > 1 else ''} per pairing) leaves the last pair "
                     f"one game: the seats are unbalanced by one game per pairing; an even "
                     f"number plays whole seat-swapped pairs")
    return "\n".join(lines)


def _budget_lines(exp: Experiment, todo: list[GameSpec], costs) -> list[str]:
    """Each player's budget as a move will spend it (work and seconds), where it is not a
    plain time budget, and a note for every fixed depth that overrides its node budget."""
    seen: dict[tuple[str, object], None] = {}
    for g in todo:
        for spec, b in zip(g.seats, g.budgets):
            if b.time is None and b.clock is None:
                seen.setdefault((spec, b), None)
    if not seen:
        return []
    out = ["per move (measured at the start position):"]
    for spec, b in seen:
        out.append(f"  {spec}: {costs.of(spec, b).text(b)}")
    for spec, b in seen:
        c = costs.of(spec, b)
        if c.overrides:
            out.append(f"note: {spec} has a fixed depth, which overrides the budget of "
                       f"{b.text()} ({c.work:,} {c.unit} a move at the start); a time budget "
                       f"still stops it")
    return out
