"""Play an experiment into its results store: the plan's missing games on a backend (the local
pool or Ray), every finished game committed at once, progress shown, Ctrl-C handled, an SPRT
per pairing when the config asks for one, and what the store holds at the end.

With an `sprt` in the experiment a GSPRT runs per pairing (results/sprt.py: `SprtTracker`):
once the test decides, the decision is kept in the store's meta table (`sprt/<pairing id>`) and
the pairing's jobs not yet dispatched are skipped (games already being played still count).
"""
from __future__ import annotations

import collections
import json
import os
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from mcts_arena.errors import StoreWriteError, Terminated, UserError
from mcts_arena.provenance import build_identity, describe
from mcts_arena.results import rows
from mcts_arena.results.sprt import DECISION, replay_sprt
from mcts_arena.results.standings import Counts
from mcts_arena.results.store import DB_NAME, Store
from mcts_arena.runner.config import Experiment
from mcts_arena.runner.match import GameRecord
from mcts_arena.runner.plan import Job, Plan
from mcts_arena.runner.pool import LocalPoolBackend
from mcts_arena.runner.preflight import start_engines
from mcts_arena.runner.progress import EVERY_GAMES, EVERY_SECONDS, Progress
from mcts_arena.runner.writer import Writer, acquire_lock


class Backend(Protocol):
    def run(self, jobs: Iterable[Job], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool] = ...,
            skip: Callable[[Job], bool] | None = None) -> bool:
        """Play every job, calling on_record in this process for each finished game; a job for
        which skip(job) is true when its turn comes is dropped (SPRT). Returns True if all jobs
        ran, False if should_stop() stopped the run early."""


@dataclass
class RunResult:
    planned: int            # games in the plan
    stored_before: int      # planned games already stored when the run started
    played: int             # games stored by this run
    interrupted: bool
    seconds: float
    skipped: int = 0        # games never played because an SPRT decided their pairing
    stored_planned: int = 0     # planned games in the store at the end (error games included)
    errors: int = 0             # of those, error games (a later run replays them)
    stored_total: int = 0       # every game in the store, planned or not (a lowered --games)
    all_error: tuple[tuple[str, int], ...] = ()     # (pairing label, games): only error games
    terminated: bool = False    # stopped by SIGTERM (exit 143) rather than Ctrl-C (130)
    # a Ctrl-C or SIGTERM arrived during the run, even if every job had finished by then: a
    # caller that runs experiments one after another (a tune's batches, a tournament's rounds,
    # the record's pages) stops here instead of starting the next
    stop_requested: bool = False

    @property
    def halted(self) -> bool:
        """Stopped, or asked to stop: the caller plays nothing more."""
        return self.interrupted or self.stop_requested

    @property
    def missing(self) -> int:
        return self.planned - self.stored_before - self.played - self.skipped


@dataclass(frozen=True)
class StoreCounts:
    stored_planned: int
    errors: int
    stored_total: int
    all_error: tuple[tuple[str, int], ...]


def store_counts(store: Store, exp: Experiment, planned_ids: set[str]) -> StoreCounts:
    """What the store holds for this plan, and the all-error rule: a pairing whose stored games
    of the plan are all `error` games has measured nothing, and the run must say so and end
    with EXIT_ALL_ERRORS (mcts_arena.errors). Every backend's run ends through this."""
    per: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    total = 0
    for r in store.select("game", "game_id, pairing_id, reason"):
        total += 1
        if r["game_id"] in planned_ids:
            per[r["pairing_id"]][0] += 1
            per[r["pairing_id"]][1] += r["reason"] == "error"
    all_error = tuple((p.label, per[p.id][0]) for p in exp.pairings
                      if per[p.id][0] and per[p.id][0] == per[p.id][1])
    return StoreCounts(sum(n for n, _ in per.values()), sum(e for _, e in per.values()), total,
                       all_error)


def all_error_message(all_error) -> str:
    """One line for the pairings whose games all failed."""
    parts = [f"{label} ({n} of {n})" for label, n in all_error]
    return (f"every game of {len(parts)} pairing(s) is an error game, nothing was measured: "
            f"{'; '.join(parts)}; see the errors above, fix the cause and run again (error "
            f"games are replayed)")


def move_aside(directory: Path) -> Path:
    """`--new`: rename an existing results directory to `<dir>.<YYYYmmdd-HHMMSS>`."""
    fd = acquire_lock(directory)        # refuse while another run writes there
    try:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = directory.with_name(f"{directory.name}.{stamp}")
        i = 1
        while target.exists():
            target = directory.with_name(f"{directory.name}.{stamp}-{i}")
            i += 1
        directory.rename(target)
        return target
    finally:
        os.close(fd)


def check_compatible(store: Store, exp: Experiment) -> None:
    """Refuse to add games to results played under a config that makes different games: other
    settings (`Experiment.identity`), a stored pairing the config no longer has, or a stored
    pairing whose budgets changed (under a matched effort: an engine rate changed)."""
    old = store.experiment()
    if old is None:
        return
    hint = "run with --new to move the old results aside, or choose another --out DIR"
    new_id = exp.identity()
    # `rates` (a digest of the whole rates file) was part of the identity before budgets were
    # checked per pairing; it no longer decides anything
    was_id = {k: v for k, v in old["identity"].items() if k != "rates"}
    changed = [k for k in sorted(set(was_id) | set(new_id)) if was_id.get(k) != new_id.get(k)]
    if changed:
        k = changed[0]
        was, now = json.dumps(was_id.get(k)), json.dumps(new_id.get(k))
        more = f" (and {', '.join(changed[1:])})" if len(changed) > 1 else ""
        raise UserError(f"{store.directory} holds games of a different config: {k} was {was}, "
                        f"now {now}{more}; {hint}")
    stored = store.pairing_games_count()
    wanted = {r["pairing_id"]: r for r in pairing_records(exp)}
    for p in store.pairings():
        n = stored.get(p["pairing_id"], 0)
        if not n:
            continue
        row = wanted.get(p["pairing_id"])
        if row is None:
            raise UserError(f"{store.directory} holds {n} games of {p['player']} vs "
                            f"{p['opponent']}, which the config no longer has; {hint}")
        for side in ("player_budget", "opponent_budget"):
            before = p[side]           # decoded by the store (results/rows.py)
            if before != row[side]:
                raise UserError(
                    f"{store.directory} holds {n} games of {p['player']} vs {p['opponent']} "
                    f"played with the {side.split('_')[0]}'s budget "
                    f"{json.dumps(before, sort_keys=True)}, now "
                    f"{json.dumps(row[side], sort_keys=True)} (an engine rate changed?); {hint}")


def check_builds(store: Store, allow_mixed: bool = False) -> list[str]:
    """Refuse to add this build's games to results another build played (a resumed run
    after a behaviour change would mix old and new games without a word), unless the user
    asked for it (`allow_mixed`); then return the builds that will be mixed, described, for
    `log_mixed_builds`. Error games do not count (they are replayed). Reads only."""
    version, build = build_identity()
    others = [(v, b, n) for (v, b), n in store.builds(errors=False).items() if b != build]
    if others and not allow_mixed:
        v, b, n = others[0]
        more = f" (and {len(others) - 1} other build(s))" if len(others) > 1 else ""
        raise UserError(f"{store.directory} holds {n} games played by {describe(v, b)}{more}; "
                        f"this is {describe(version, build)}; add to them with "
                        f"--allow-mixed-builds (reports then list both), or start afresh "
                        f"with --new")
    return [describe(v, b) for v, b, _ in others] + ([describe(version, build)] if others else [])


def log_mixed_builds(store: Writer, builds: list[str]) -> None:
    """Record in the store's meta `mixed_builds` when --allow-mixed-builds joined which builds
    (the report states it)."""
    if not builds:
        return
    log = store.meta_json("mixed_builds", rows.list_of(rows.obj())) or []
    log.append({"allowed": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "builds": builds})
    store.set_meta("mixed_builds", json.dumps(log, sort_keys=True))


def pairing_records(exp: Experiment) -> list[dict]:
    """The experiment's pairings as the store records them (Writer.save_experiment)."""
    return [{"pairing_id": p.id, "player": p.player, "opponent": p.opponent, "games": p.games,
             "player_budget": p.player_budget.as_dict() if p.player_budget else None,
             "opponent_budget": p.opponent_budget.as_dict() if p.opponent_budget else None}
            for p in exp.pairings]


class _StopFlag:
    """First Ctrl-C or SIGTERM: finish cleanly (stop dispatching, keep stored games); a second
    one: abort. `signum` says which stopped the run (the exit status differs: 130, 143)."""

    SIGNALS = (signal.SIGINT, signal.SIGTERM)

    def __init__(self):
        self.stop = False
        self.signum: int | None = None
        self._old: dict = {}

    def __enter__(self):
        for s in self.SIGNALS:
            try:
                self._old[s] = signal.signal(s, self._handler)
            except ValueError:          # not the main thread
                pass
        return self

    def _handler(self, signum, frame):
        if self.stop:
            raise Terminated if signum == signal.SIGTERM else KeyboardInterrupt
        self.stop = True
        self.signum = signum

    def __exit__(self, *exc):
        for s, old in self._old.items():
            signal.signal(s, old)

    def __call__(self) -> bool:
        return self.stop


def run_experiment(exp: Experiment, plan: Plan, directory: Path, *, workers: int,
                   backend: Backend | None = None, progress: bool = True,
                   players: str | None = None,
                   announce: Callable[[int, int], None] | None = None,
                   check_players: bool = True, allow_mixed_builds: bool = False,
                   standings_every: int = EVERY_GAMES,
                   standings_seconds: float = EVERY_SECONDS) -> RunResult:
    """Play the games of `plan` missing from the store at `directory` (creating it).

    The caller has already dealt with `--new`. Raises UserError for a refused config change or
    a held lock. `announce(stored, to_play)` is called once the store is open and checked.
    External engines are started once first (runner/preflight.py) unless the caller did that
    already (`check_players=False`). Games of another build in the store refuse the run unless
    `allow_mixed_builds` (check_builds). With `progress`, the standings of every pairing are
    shown every `standings_every` games or `standings_seconds` seconds (runner/progress.py; 0
    turns that trigger off).
    """
    t0 = time.monotonic()
    directory = Path(directory)
    if check_players:
        start_engines(exp, players)
    planned_ids = set(plan.game_ids())
    # refusals first, through a reader: nothing is written before them
    (stored_before, mixed), played = check_store(directory, exp, planned_ids,
                                                 allow_mixed_builds), 0
    try:
        with Writer.open(directory) as store:
            check_compatible(store, exp)
            log_mixed_builds(store, mixed)
            done = store.done_ids()
            stored_before = len(planned_ids & done)
            store.save_experiment(exp.name, exp.to_json(), exp.identity(), pairing_records(exp))
            jobs = plan.missing(done)
            if announce is not None:
                announce(stored_before, plan.total_games - stored_before)
            tracker = _sprt_tracker(store, exp, planned_ids)
            shown = _standings(store, exp, plan, planned_ids, stored_before, standings_every,
                               standings_seconds, lambda: getattr(backend, "workers", workers)
                               ) if progress else None
            skipped = 0

            def on_record(rec: GameRecord) -> None:
                nonlocal played
                if store.add_game(rec) and rec.game_id in planned_ids:
                    played += 1
                    if tracker is not None and exp.sprt_tests(rec.pairing_id):
                        st = tracker.add(rec.pairing_id, rec.pair_index, rec.swap, rec.score)
                        if st is not None:
                            store.set_meta(f"sprt/{rec.pairing_id}",
                                           json.dumps(st, sort_keys=True))
                    if shown is not None:
                        shown.game(rec.pairing_id, rec.pair_index, rec.swap, rec.score)

            def skip(job: Job) -> bool:     # a pairing the SPRT has decided plays no more
                nonlocal skipped
                if not tracker.decided(job.games[0].pairing_id):
                    return False
                skipped += len(job.games)
                if shown is not None:
                    shown.skip(len(job.games))
                return True

            backend = backend or LocalPoolBackend(workers, players=players)
            try:
                with _StopFlag() as stop:
                    complete = backend.run(jobs, on_record, stop,
                                           skip=None if tracker is None else skip)
            finally:
                if shown is not None:
                    shown.close()
            counts = store_counts(store, exp, planned_ids)
    except StoreWriteError as e:        # the run stops; every game stored stays
        e.stored = stored_before + played
        raise
    return RunResult(plan.total_games, stored_before, played, not complete,
                     time.monotonic() - t0, skipped, counts.stored_planned, counts.errors,
                     counts.stored_total, counts.all_error,
                     terminated=stop.signum == signal.SIGTERM, stop_requested=stop.stop)


def _standings(store: Writer, exp: Experiment, plan: Plan, planned_ids: set[str],
               stored_before: int, every_games: int, every_seconds: float,
               cpus: Callable[[], int]) -> Progress:
    """The live standings of a run's pairings, starting from the games already stored."""
    labels = {p.id: p.label for p in exp.pairings}
    return Progress(labels, stored_counts(store, planned_ids, labels), plan.total_games,
                    stored_before, exp.sprt, every_games=every_games,
                    every_seconds=every_seconds, cpus=cpus)


def _sprt_tracker(store: Writer, exp: Experiment, planned_ids: set[str]):
    """The SPRT tracker of a run with early stopping (None without), replayed from the games
    already stored; a decision the store does not yet record, or records with other
    parameters, is written to it."""
    if exp.sprt is None:
        return None
    tracker = replay_sprt(store, exp.sprt, planned_ids, exp.sprt_pairings or None)
    for pid, st in tracker.decisions.items():
        old = store.meta_json(f"sprt/{pid}", DECISION)
        if old is None or {k: old.get(k) for k in tracker.params()} != tracker.params():
            store.set_meta(f"sprt/{pid}", json.dumps(st, sort_keys=True))
    return tracker


def check_store(directory: Path, exp: Experiment, planned_ids: set[str] | None = None,
                allow_mixed_builds: bool = True) -> tuple[int, list[str]]:
    """Every refusal a run of `exp` into `directory` can meet in its store, read-only (nothing
    is created or changed): a store of another config, games of another build (unless
    `allow_mixed_builds`, check_builds), and a row the run would read that its column cannot
    hold (results/rows.py). Only then does the runner open it for writing. Returns (how many
    games of `planned_ids` are stored already, error games not counted; the other builds)."""
    if not has_results(directory):
        return 0, []
    from mcts_arena.results.store import check_ours

    if check_ours(directory / DB_NAME) == "empty":
        return 0, []
    ids = planned_ids if planned_ids is not None else set()
    with Store.open(directory) as store:
        check_compatible(store, exp)
        mixed = check_builds(store, allow_mixed_builds)
        store_counts(store, exp, ids)
        stored_counts(store, ids, {p.id: p.label for p in exp.pairings})
        for pid in {p.id for p in exp.pairings}:
            store.meta_json(f"sprt/{pid}", DECISION)
        if exp.sprt is not None:
            replay_sprt(store, exp.sprt, ids, exp.sprt_pairings or None)
        return len(ids & store.done_ids()), mixed


def stored_counts(store: Store, planned_ids: set[str], labels: dict[str, str]
                  ) -> dict[str, Counts]:
    """Per pairing of the plan, what the store already holds of it (the standings' start)."""
    counts = {pid: Counts() for pid in labels}
    for r in store.select("game", "game_id, pairing_id, pair_index, swap, score",
                          order="finished, game_id"):
        if r["game_id"] in planned_ids and r["pairing_id"] in counts:
            counts[r["pairing_id"]].add(r["pair_index"], r["swap"], r["score"])
    return counts


def results_dir(exp: Experiment, out: str | None) -> Path:
    return Path(out) if out else Path("results") / exp.name


def has_results(directory: Path) -> bool:
    return (directory / DB_NAME).exists()
