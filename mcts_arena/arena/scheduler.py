"""Run the jobs of a plan on local worker processes and commit every game as it finishes.

A backend takes jobs and calls `on_record(record)` in the parent for every finished game.
`LocalPoolBackend` is the process pool (a Ray backend will offer the same `run`):

- at most one worker per CPU the process may use (`os.sched_getaffinity`), each pinned to its
  own CPU and playing one job at a time; processes start with the 'spawn' method (no state
  copied from the parent, the same on every platform);
- each worker talks to the parent over its own pipe, so the parent always knows which job a
  worker holds; a worker that dies (killed, segfault) is replaced and the games of its job that
  did not come back are queued again, first in line (game ids make a replay count once);
  a job that kills its worker `max_deaths` times becomes `error` games instead;
- the parent waits on pipes and process sentinels together, and stops dispatching when
  `should_stop()` turns true (Ctrl-C): workers are terminated, finished games are already stored;
- a watchdog (mcts_arena.arena.watchdog) bounds every move: workers send a `move` message
  before each move, and a worker that shows no progress within the bound of its budget (a
  stopped or hung process) is killed, the game it was playing becomes an `error` game naming
  the reason, and the rest of its job is queued again;
- workers die with the driver: a parent-death signal (Linux prctl PR_SET_PDEATHSIG), a thread
  that watches the parent pid (elsewhere, and for the moment before prctl), and a broken pipe
  ends a worker quietly, with no traceback.

`run_experiment` wires plan, store, backend, progress bar and Ctrl-C handling together. With an
`sprt` in the experiment it also runs a GSPRT per pairing (`SprtTracker`): once the test
decides, the decision is kept in the store's meta table (`sprt/<pairing id>`) and the pairing's
jobs not yet dispatched are skipped (games already being played still count).
"""
from __future__ import annotations

import collections
import json
import multiprocessing as mp
import os
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import wait as mp_wait
from pathlib import Path
from typing import Protocol

from mcts_arena.arena.config import Experiment, Sprt, players_provider
from mcts_arena.arena.match import GameRecord, _finish, play_job
from mcts_arena.arena.plan import Job, Plan
from mcts_arena.arena.watchdog import Watchdog, budget_text, cpu_seconds, hard_bound
from mcts_arena.errors import UserError
from mcts_arena.provenance import build_identity, describe
from mcts_arena.store import DB_NAME, Store, acquire_lock


class RunnerError(RuntimeError):
    """Something broke outside any player (a worker could not set up or play a job)."""


def usable_cpus() -> list[int]:
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:      # not Linux
        return list(range(os.cpu_count() or 1))


def worker_count(jobs: int) -> int:
    """`--jobs N`: 0 means every usable CPU; more than the usable CPUs is cut to them."""
    cpus = len(usable_cpus())
    if jobs < 0:
        raise UserError(f"--jobs must be 0 (all CPUs) or a positive number, got {jobs}")
    return cpus if jobs == 0 else min(jobs, cpus)


class Backend(Protocol):
    def run(self, jobs: Iterable[Job], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool] = ...,
            skip: Callable[[Job], bool] | None = None) -> bool:
        """Play every job, calling on_record in this process for each finished game; a job for
        which skip(job) is true when its turn comes is dropped (SPRT). Returns True if all jobs
        ran, False if should_stop() stopped the run early."""


# ---- worker side ---------------------------------------------------------------------------
PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int, poll_s: float = 0.5) -> None:
    """Make this process end (quietly) when the process `parent_pid` is gone: Linux's
    parent-death signal (SIGKILL), and a daemon thread that checks the parent pid every
    `poll_s` seconds (other systems, and a parent that died before prctl took effect)."""
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(poll_s)
            if os.getppid() != parent_pid:
                os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker_main(cpu: int | None, conn, players_name: str | None,
                 parent_pid: int | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # the parent decides when to stop
    if parent_pid is not None:
        die_with_parent(parent_pid)
    try:
        _worker_loop(cpu, conn, players_name)
    except (BrokenPipeError, ConnectionError, EOFError, OSError):
        os._exit(0)         # the driver is gone: end quietly, no traceback on its terminal


def _worker_loop(cpu: int | None, conn, players_name: str | None) -> None:
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {cpu})
        except OSError:
            pass
    try:
        players = players_provider(players_name)
    except Exception as e:  # noqa: BLE001
        conn.send(("fail", None, f"cannot load players: {type(e).__name__}: {e}"))
        return
    while True:
        try:
            job = conn.recv()
        except EOFError:
            return
        if job is None:
            return

        def before_move(game_id: str, ply: int, seat: int, _job_id=job.job_id) -> None:
            conn.send(("move", _job_id, (game_id, ply, seat)))

        try:
            for rec in play_job(job, players, before_move):
                conn.send(("game", job.job_id, rec))
        except (BrokenPipeError, ConnectionError):
            raise
        except Exception as e:  # noqa: BLE001 - not a player's fault: the run must stop
            text = "".join(traceback.format_exception_only(type(e), e)).strip()
            conn.send(("fail", job.job_id, f"job {job.job_id}: {text}"))
            continue
        conn.send(("done", job.job_id, None))


# ---- parent side ---------------------------------------------------------------------------
@dataclass(eq=False)
class _Worker:
    cpu: int | None
    process: mp.process.BaseProcess
    conn: object
    job: Job | None = None
    received: set = field(default_factory=set)
    current: tuple | None = None    # (game_id, ply, seat) of the move it is thinking about


class LocalPoolBackend:
    """Worker processes on this machine, one per CPU (see the module docstring)."""

    def __init__(self, workers: int, players: str | None = None, context: str = "spawn",
                 max_deaths: int = 3, poll_s: float = 0.2, watchdog: Watchdog | None = None):
        self.workers = max(1, workers)
        self.players = players
        self.ctx = mp.get_context(context)
        self.max_deaths = max_deaths
        self.poll_s = poll_s
        self.watchdog = watchdog or Watchdog()
        self.deaths: collections.Counter = collections.Counter()
        self.replayed_games = 0
        self.hung_games = 0

    def _start(self, cpu: int | None) -> _Worker:
        parent, child = self.ctx.Pipe(duplex=True)
        p = self.ctx.Process(target=_worker_main, args=(cpu, child, self.players, os.getpid()),
                             daemon=True)
        p.start()
        child.close()
        return _Worker(cpu, p, parent)

    def run(self, jobs: Iterable[Job], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool] = lambda: False,
            skip: Callable[[Job], bool] | None = None) -> bool:
        queue = collections.deque(jobs)
        if not queue:
            return True
        cpus = usable_cpus()[: self.workers]
        n = min(self.workers, len(queue))
        pool = [self._start(cpus[i] if i < len(cpus) else None) for i in range(n)]
        wd = self.watchdog
        try:
            while True:
                if should_stop():
                    for w in pool:              # keep games already sent back
                        self._drain(w, on_record)
                    return False
                for w in pool:
                    while skip is not None and queue and skip(queue[0]):
                        queue.popleft()
                    if w.job is None and queue:
                        w.job, w.received, w.current = queue.popleft(), set(), None
                        w.conn.send(w.job)
                        wd.arm(w, wd.setup_s, "the worker to start the game")
                busy = [w for w in pool if w.job is not None]
                if not busy and not queue:
                    return True
                waitables = {}
                for w in pool:
                    waitables[w.conn] = w
                    waitables[w.process.sentinel] = w
                ready = mp_wait(list(waitables), timeout=wd.timeout(self.poll_s))
                wd.tick()
                dead = []
                for r in ready:
                    w = waitables[r]
                    if r is w.conn:
                        if not self._drain(w, on_record):
                            dead.append(w)
                    elif w not in dead:
                        dead.append(w)
                for w in dead:
                    self._drain(w, on_record)
                    wd.disarm(w)
                    if w.process.is_alive():      # pipe broke but process lingers
                        w.process.kill()
                    w.process.join(5)
                    idx = pool.index(w)
                    if w.job is not None:
                        self._requeue(w, queue, on_record)
                    pool[idx] = self._start(w.cpu)
                for w, reason in wd.expired():
                    if w not in pool:
                        continue
                    self._drain(w, on_record)
                    w.process.kill()            # SIGKILL also ends a stopped process
                    w.process.join(5)
                    if w.job is not None:
                        self._hung(w, reason, queue, on_record)
                    pool[pool.index(w)] = self._start(w.cpu)
        finally:
            for w in pool:
                wd.disarm(w)
            self._shutdown(pool)

    def _hung(self, w: _Worker, reason: str, queue: collections.deque, on_record) -> None:
        """Worker w was killed by the watchdog: its current game becomes an error game with the
        reason, the job's games not yet played are queued again (first in line)."""
        job = w.job
        w.job = None
        left = [g for g in job.games if g.game_id not in w.received]
        if not left:
            return
        cur = w.current if w.current and w.current[0] in {g.game_id for g in left} else None
        g = next(x for x in left if x.game_id == cur[0]) if cur else left[0]
        what = f"watchdog: {reason}; its worker was killed"
        rec = GameRecord(game_id=g.game_id, pairing_id=g.pairing_id, pair_index=g.pair_index,
                         swap=g.swap, seats=g.seats, budgets=g.budgets, seeds=g.seeds,
                         opening="", winner=None, reason="error",
                         plies=cur[1] if cur else 0)
        self.hung_games += 1
        on_record(_finish(rec, time.perf_counter(), "error", None, what))
        rest = tuple(x for x in left if x.game_id != g.game_id)
        if rest:
            self.replayed_games += len(rest)
            queue.appendleft(Job(job.job_id, job.game, job.openings, job.opening_seed,
                                 job.pair_index, job.max_plies, job.macros, rest))

    def _drain(self, w: _Worker, on_record) -> bool:
        """Read every message waiting from worker w; False if its pipe is broken."""
        try:
            while w.conn.poll():
                kind, _job_id, payload = w.conn.recv()
                wd = self.watchdog
                if kind == "move":
                    w.current = payload
                    g = next((x for x in w.job.games if x.game_id == payload[0]), None) \
                        if w.job is not None else None
                    budget = g.budgets[payload[2]] if g is not None else {}
                    who = f"seat {payload[2]} {g.seats[payload[2]]}" if g else "a player"
                    progress = None
                    if budget.get("time") is None:     # simulation speed varies: watch CPU
                        pid = w.process.pid
                        progress = lambda pid=pid: cpu_seconds(pid)  # noqa: E731
                    wd.arm(w, wd.move_bound(budget),
                           f"a move from {who} at ply {payload[1] + 1}, budget "
                           f"{budget_text(budget) if budget else '?'}",
                           progress=progress, hard_s=hard_bound(wd.grace_s))
                elif kind == "game":
                    w.received.add(payload.game_id)
                    w.current = None
                    wd.arm(w, wd.setup_s, "the worker to start the next game")
                    on_record(payload)
                elif kind == "done":
                    w.job = None
                    w.current = None
                    wd.disarm(w)
                elif kind == "fail":
                    raise RunnerError(payload)
        except (EOFError, OSError, ConnectionError):
            return False
        except RunnerError:
            raise
        except Exception:  # noqa: BLE001 - a message cut by a dying worker
            return False
        return True

    def _requeue(self, w: _Worker, queue: collections.deque, on_record) -> None:
        job = w.job
        w.job = None
        left = tuple(g for g in job.games if g.game_id not in w.received)
        if not left:
            return
        self.deaths[job.job_id] += 1
        code = w.process.exitcode
        if self.deaths[job.job_id] >= self.max_deaths:
            for g in left:
                rec = GameRecord(game_id=g.game_id, pairing_id=g.pairing_id,
                                 pair_index=g.pair_index, swap=g.swap, seats=g.seats,
                                 budgets=g.budgets, seeds=g.seeds, opening="", winner=None,
                                 reason="error")
                on_record(_finish(rec, time.perf_counter(), "error", None,
                                  f"worker died {self.max_deaths} times playing this game "
                                  f"(last exit code {code})"))
            return
        self.replayed_games += len(left)
        queue.appendleft(Job(job.job_id, job.game, job.openings, job.opening_seed,
                             job.pair_index, job.max_plies, job.macros, left))

    def _shutdown(self, pool: list[_Worker]) -> None:
        for w in pool:
            if w.job is None and w.process.is_alive():
                try:
                    w.conn.send(None)
                except OSError:
                    pass
        deadline = time.monotonic() + 2.0
        for w in pool:
            if w.job is not None:
                w.process.terminate()
            w.process.join(max(0.0, deadline - time.monotonic()))
            if w.process.is_alive():
                w.process.kill()
                w.process.join(2)
            w.conn.close()


# ---- the whole run -------------------------------------------------------------------------
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
    for r in store.conn.execute("SELECT game_id, pairing_id, reason FROM game"):
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
    wanted = {p.id: row for p, row in zip(exp.pairings, pairing_rows(exp))}
    for p in store.pairings():
        n = stored.get(p["pairing_id"], 0)
        if not n:
            continue
        row = wanted.get(p["pairing_id"])
        if row is None:
            raise UserError(f"{store.directory} holds {n} games of {p['player']} vs "
                            f"{p['opponent']}, which the config no longer has; {hint}")
        for side in ("player_budget", "opponent_budget"):
            before = json.loads(p[side]) if p[side] else None
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


def log_mixed_builds(store: Store, builds: list[str]) -> None:
    """Record in the store's meta `mixed_builds` when --allow-mixed-builds joined which builds
    (the report states it)."""
    if not builds:
        return
    log = json.loads(store.get_meta("mixed_builds") or "[]")
    log.append({"allowed": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "builds": builds})
    store.set_meta("mixed_builds", json.dumps(log, sort_keys=True))


class SprtTracker:
    """GSPRT per pairing, fed one game at a time (pentanomial on complete seat-swapped pairs;
    error games and unpaired games do not count). `add` returns the decision record (a dict)
    the first time a pairing's test decides; afterwards the pairing stays decided."""

    def __init__(self, sprt: Sprt):
        from mcts_arena import stats

        self.sprt = sprt
        self.bounds = stats.sprt_bounds(sprt.alpha, sprt.beta)
        self.pairs: dict[str, dict[int, dict[int, float]]] = collections.defaultdict(dict)
        self.decisions: dict[str, dict] = {}

    def params(self) -> dict:
        s = self.sprt
        return {"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "model": s.model}

    def penta(self, pairing_id: str) -> tuple[int, int, int, int, int]:
        from mcts_arena import stats

        done = [(p[0], p[1]) for p in self.pairs[pairing_id].values() if len(p) == 2]
        return stats.pentanomial(done)

    def state(self, pairing_id: str) -> dict:
        """The test on the games seen so far (whether or not it has decided before)."""
        from mcts_arena import stats

        counts = self.penta(pairing_id)
        llr = stats.sprt_llr_pentanomial(counts, self.sprt.elo0, self.sprt.elo1, self.sprt.model)
        lower, upper = self.bounds
        return {"decision": stats.sprt_decision(llr, lower, upper), "games": 2 * sum(counts),
                "llr": llr, "lower": lower, "upper": upper, "pentanomial": list(counts),
                **self.params()}

    def add(self, pairing_id: str, pair_index: int, swap: int, score: float | None) -> dict | None:
        if score is None:
            self.pairs[pairing_id].get(pair_index, {}).pop(swap, None)
            return None
        self.pairs[pairing_id].setdefault(pair_index, {})[swap] = score
        if pairing_id in self.decisions or len(self.pairs[pairing_id][pair_index]) < 2:
            return None
        st = self.state(pairing_id)
        if st["decision"] is None:
            return None
        self.decisions[pairing_id] = st
        return st

    def decided(self, pairing_id: str) -> bool:
        return pairing_id in self.decisions


def replay_sprt(store: Store, sprt: Sprt, planned_ids: set[str] | None = None) -> SprtTracker:
    """A tracker fed the stored games in the order they finished (decisions as a run made them)."""
    tracker = SprtTracker(sprt)
    for r in store.conn.execute("SELECT game_id, pairing_id, pair_index, swap, score FROM game "
                                "ORDER BY finished, game_id"):
        if planned_ids is None or r["game_id"] in planned_ids:
            tracker.add(r["pairing_id"], r["pair_index"], r["swap"], r["score"])
    return tracker


def pairing_rows(exp: Experiment) -> list[dict]:
    return [{"pairing_id": p.id, "player": p.player, "opponent": p.opponent, "games": p.games,
             "player_budget": p.player_budget.as_dict() if p.player_budget else None,
             "opponent_budget": p.opponent_budget.as_dict() if p.opponent_budget else None}
            for p in exp.pairings]


class _StopFlag:
    """First Ctrl-C: finish cleanly (stop dispatching, keep stored games); second: abort."""

    def __init__(self):
        self.stop = False
        self._old = None

    def __enter__(self):
        try:
            self._old = signal.signal(signal.SIGINT, self._handler)
        except ValueError:          # not the main thread
            self._old = None
        return self

    def _handler(self, signum, frame):
        if self.stop:
            raise KeyboardInterrupt
        self.stop = True

    def __exit__(self, *exc):
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)

    def __call__(self) -> bool:
        return self.stop


def run_experiment(exp: Experiment, plan: Plan, directory: Path, *, workers: int,
                   backend: Backend | None = None, progress: bool = True,
                   players: str | None = None,
                   announce: Callable[[int, int], None] | None = None,
                   check_players: bool = True, allow_mixed_builds: bool = False) -> RunResult:
    """Play the games of `plan` missing from the store at `directory` (creating it).

    The caller has already dealt with `--new`. Raises UserError for a refused config change or
    a held lock. `announce(stored, to_play)` is called once the store is open and checked.
    External engines are started once first (`preflight`) unless the caller did that already
    (`check_players=False`). Games of another build in the store refuse the run unless
    `allow_mixed_builds` (check_builds).
    """
    t0 = time.monotonic()
    if check_players:
        preflight(exp, players)
    mixed: list[str] = []
    if has_results(directory) and (directory / DB_NAME).stat().st_size:
        # refusals first, through a reader: nothing is written before them
        with Store.open(directory, readonly=True) as old:
            check_compatible(old, exp)
            mixed = check_builds(old, allow_mixed_builds)
    with Store.open(directory) as store:
        check_compatible(store, exp)
        log_mixed_builds(store, mixed)
        store.save_experiment(exp.name, exp.to_json(), exp.identity(), pairing_rows(exp))
        done = store.done_ids()
        planned_ids = set(plan.game_ids())
        stored_before = len(planned_ids & done)
        jobs = plan.missing(done)
        if announce is not None:
            announce(stored_before, plan.total_games - stored_before)
        labels = {p.id: p.label for p in exp.pairings}
        scores = _running_scores(store, planned_ids)
        tracker = None
        if exp.sprt is not None:
            tracker = replay_sprt(store, exp.sprt, planned_ids)
            for pid, st in tracker.decisions.items():
                old = store.get_meta(f"sprt/{pid}")
                if old is None or {k: json.loads(old).get(k) for k in tracker.params()} \
                        != tracker.params():
                    store.set_meta(f"sprt/{pid}", json.dumps(st, sort_keys=True))
        bar = _progress_bar(plan.total_games, stored_before, progress)
        played = 0
        skipped = 0

        def on_record(rec: GameRecord) -> None:
            nonlocal played
            if store.add_game(rec) and rec.game_id in planned_ids:
                played += 1
                if tracker is not None:
                    st = tracker.add(rec.pairing_id, rec.pair_index, rec.swap, rec.score)
                    if st is not None:
                        store.set_meta(f"sprt/{rec.pairing_id}", json.dumps(st, sort_keys=True))
                s = scores[rec.pairing_id]
                s[{1.0: 0, 0.5: 1, 0.0: 2, None: 3}[rec.score]] += 1
                if bar is not None:
                    bar.update(1)
                    err = f" err {s[3]}" if s[3] else ""
                    cpus = getattr(backend, "workers", workers)    # a Ray cluster's can change
                    per_hour = 3600.0 * played / max(1e-9, time.monotonic() - t_run)
                    bar.set_postfix_str(f"{cpus} CPUs {per_hour:,.0f} games/h | "
                                        f"{labels.get(rec.pairing_id, rec.pairing_id)} "
                                        f"+{s[0]} ={s[1]} -{s[2]}{err}", refresh=False)

        def skip(job: Job) -> bool:
            nonlocal skipped
            if not tracker.decided(job.games[0].pairing_id):
                return False
            skipped += len(job.games)
            if bar is not None:
                bar.total -= len(job.games)
            return True

        backend = backend or LocalPoolBackend(workers, players=players)
        t_run = time.monotonic()
        try:
            with _StopFlag() as stop:
                if tracker is None:
                    complete = backend.run(jobs, on_record, stop)
                else:
                    complete = backend.run(jobs, on_record, stop, skip=skip)
        finally:
            if bar is not None:
                bar.close()
        counts = store_counts(store, exp, planned_ids)
    return RunResult(plan.total_games, stored_before, played, not complete,
                     time.monotonic() - t0, skipped, counts.stored_planned, counts.errors,
                     counts.stored_total, counts.all_error)


def preflight(exp: Experiment, players: str | None = None) -> None:
    """Start every external engine of the experiment once (players.preflight) before the store
    is opened: a command that does not exist, exits at once or does not speak GTP is a
    UserError naming the player, and nothing is written."""
    provider = players_provider(players)
    check = getattr(provider, "preflight", None)
    if check is None:
        return
    seen = set()
    for p in exp.pairings:
        for spec, own in ((p.player, p.player_budget), (p.opponent, p.opponent_budget)):
            budget = (own or exp.budget).as_dict()
            key = (spec, json.dumps(budget, sort_keys=True))
            if key in seen:
                continue
            seen.add(key)
            try:
                check(spec, exp.game, budget, exp.openings.kind, exp.macros_dict())
            except ValueError as e:
                raise UserError(str(e)) from None


def _running_scores(store: Store, planned_ids: set[str]) -> dict[str, list[int]]:
    scores: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0])
    for r in store.conn.execute("SELECT game_id, pairing_id, score FROM game"):
        if r["game_id"] in planned_ids:
            scores[r["pairing_id"]][{1.0: 0, 0.5: 1, 0.0: 2, None: 3}[r["score"]]] += 1
    return scores


def _progress_bar(total: int, initial: int, enabled: bool):
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="game", file=sys.stderr, dynamic_ncols=True,
                smoothing=0.1, bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} "
                "[{elapsed}<{remaining}, {rate_fmt}] {postfix}")


def results_dir(exp: Experiment, out: str | None) -> Path:
    return Path(out) if out else Path("results") / exp.name


def has_results(directory: Path) -> bool:
    return (directory / DB_NAME).exists()
