"""The local backend: play the jobs of a plan on worker processes of this machine, handing every
finished game to the driver (`on_record`) as it comes.

A backend takes jobs and calls `on_record(record)` in the parent for every finished game
(runner/experiment.py: `Backend`). `LocalPoolBackend` is the process pool (runner/ray_backend.py
offers the same `run` on a Ray cluster):

- at most one worker per CPU the process may use (`os.sched_getaffinity`), each playing one
  job at a time; a run with a worker on every such CPU pins each to its own (it has the
  machine: no worker migrates), while a run with fewer leaves them to the scheduler, which
  puts them where the machine is free (pinned to the first CPUs, every `--jobs 1` run on a
  shared machine would play on CPU 0 beside the others, the second CPU idle); workers start
  from a fork server where the platform has one (Linux, macOS: a clean process that imported
  the runner once forks each worker, about 0.1 s of CPU less per start than 'spawn'), else with
  'spawn'; either way nothing of the
  driver's state is copied, and each worker starts with the driver's environment of that moment;
  a worker never imports the driver's `__main__` (multiprocessing's rule would run the user's
  script again in every worker, and a script without a main guard would call the API there):
  it needs nothing of it, its target and players come by module name;
- each worker talks to the parent over its own pipe, so the parent always knows which job a
  worker holds; a worker that dies (killed, segfault) is replaced and the games of its job that
  did not come back are queued again, first in line (game ids make a replay count once);
  a job that kills its worker `max_deaths` times becomes `error` games instead;
- the parent waits on pipes and process sentinels together, and stops dispatching when
  `should_stop()` turns true (Ctrl-C): workers are terminated, finished games are already stored;
- a watchdog (runner/watchdog.py) bounds every move: workers send a `move` message
  before each move, and a worker that shows no progress within the bound of its budget (a
  stopped or hung process) is killed, the game it was playing becomes an `error` game naming
  the reason, and the rest of its job is queued again;
- a backend made with `keep_workers=True` keeps its idle workers when a run ends complete and
  hands them to its next run (a tune's batches, a tournament's rounds, a page's experiments:
  a worker's start is paid once); `close()` (or leaving its `with` block) ends them, and a
  run that stops or fails ends them at once;
- workers die with the driver: a parent-death signal (Linux prctl PR_SET_PDEATHSIG; a forked
  worker's parent is the fork server, which ends with the driver), a thread that waits on the
  driver's sentinel (elsewhere, and for the moment before prctl), and a broken pipe end a worker
  quietly, with no traceback.
"""
from __future__ import annotations

import collections
import contextlib
import multiprocessing as mp
import os
import signal
import sys
import time
import traceback
import types
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing.connection import wait as mp_wait

from mcts_arena import plugins
from mcts_arena.budgets import Budget
from mcts_arena.errors import UserError
from mcts_arena.procstat import cpu_seconds
from mcts_arena.runner.config import players_provider
from mcts_arena.runner.match import GameRecord, error_record, play_job
from mcts_arena.runner.plan import Job
from mcts_arena.runner.watchdog import Watchdog, hard_bound


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


# what a fork server imports once, so that the workers it forks start with it: the worker
# loop, the built-in players and their searches (game cores load with a job's first game)
FORKSERVER_PRELOAD = ("mcts_arena.runner.pool", "mcts_arena.players.builtin")


def start_method() -> str:
    """How workers start: 'forkserver' where the platform has it, else 'spawn'."""
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


def start_fork_server() -> None:
    """Start the fork server (once) ignoring SIGINT from its first instruction: it shares the
    driver's process group, so a Ctrl-C while it imports its preload would kill it (it ignores
    SIGINT itself only once it runs) and the run would fail instead of stopping. An ignored
    disposition is what a new program inherits (a blocked mask is not); the driver (its one
    thread: none other runs then) keeps a SIGINT that comes meanwhile blocked, pending, and
    handles it once its handler is back."""
    import threading
    from multiprocessing import forkserver

    if getattr(forkserver._forkserver, "_forkserver_pid", None) is not None:
        return                          # running (ensure_running restarts one that died)
    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()     # (signal handlers belong to the main thread)
        return
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    came = signal.SIGINT in signal.sigpending()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)   # (discards a pending one: `came`)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, old)
        signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        if came:
            signal.raise_signal(signal.SIGINT)


@contextlib.contextmanager
def main_hidden():
    """While a worker starts, the driver's `__main__` stands aside: multiprocessing sends a
    spawned or fork-server child the main module's path or name, and the child runs that script
    again (as `__mp_main__`) before its target. A user's script that calls the API at top level
    would then call it in every worker. The workers need nothing from it (their target is this
    module's, their players come by module name), so they are started as from a notebook, which
    has no main file: a bare module stands in for the few milliseconds of `start()`."""
    main = sys.modules.get("__main__")
    if main is None or (getattr(main, "__spec__", None) is None
                        and getattr(main, "__file__", None) is None):
        yield
        return
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        sys.modules["__main__"] = main


# ---- worker side ---------------------------------------------------------------------------
PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int, poll_s: float = 0.5) -> None:
    """Make this process end (quietly) when the process `parent_pid` is gone: Linux's
    parent-death signal (SIGKILL), and a daemon thread (other systems, and a parent that died
    before prctl took effect). The thread waits on the sentinel multiprocessing gives a child
    of `parent_pid` (ready once that process is gone, whether it forked this one or a fork
    server did); a process without one checks its parent pid every `poll_s` seconds."""
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    parent = mp.parent_process()
    if parent is not None and parent.pid == parent_pid:
        if not parent.is_alive():
            os._exit(0)

        def watch() -> None:
            parent.join()
            os._exit(0)
    else:
        if os.getppid() != parent_pid:
            os._exit(0)

        def watch() -> None:
            while True:
                time.sleep(poll_s)
                if os.getppid() != parent_pid:
                    os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker_main(cpu: int | None, conn, players_name: str | None,
                 parent_pid: int | None = None, environ: dict | None = None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # the parent decides when to stop
    if environ is not None:         # a fork server's own is the driver's when it started
        os.environ.clear()
        os.environ.update(environ)
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
        plugins.load()              # the driver's plug-ins: its environment names them
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

    def __init__(self, workers: int, players: str | None = None, context: str | None = None,
                 max_deaths: int = 3, poll_s: float = 0.2, watchdog: Watchdog | None = None,
                 keep_workers: bool = False):
        self.workers = max(1, workers)
        self.keep_workers = keep_workers
        self._kept: list[_Worker] = []      # idle workers a complete run left for the next
        self.players = players
        self.ctx = mp.get_context(context or start_method())
        if self.ctx.get_start_method() == "forkserver":
            self.ctx.set_forkserver_preload(list(FORKSERVER_PRELOAD))
        self.max_deaths = max_deaths
        self.poll_s = poll_s
        self.watchdog = watchdog or Watchdog()
        self.deaths: collections.Counter = collections.Counter()
        self.replayed_games = 0
        self.hung_games = 0

    def _start(self, cpu: int | None) -> _Worker:
        parent, child = self.ctx.Pipe(duplex=True)
        p = self.ctx.Process(target=_worker_main,
                             args=(cpu, child, self.players, os.getpid(), dict(os.environ)),
                             daemon=True)
        with main_hidden():
            if self.ctx.get_start_method() == "forkserver":
                start_fork_server()
            p.start()
        child.close()
        return _Worker(cpu, p, parent)

    def __enter__(self) -> LocalPoolBackend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """End the workers kept for a next run (none unless `keep_workers`)."""
        kept, self._kept = self._kept, []
        self._shutdown(kept)

    def _pool(self, n: int) -> list[_Worker]:
        """n workers: the kept ones still alive first, then new ones on the CPUs they leave."""
        alive = [w for w in self._kept if w.process.is_alive()]
        self._shutdown([w for w in self._kept if w not in alive])
        pool, self._kept = alive[:n], alive[n:]
        taken = {w.cpu for w in pool}
        cpus = usable_cpus()
        free = [c for c in cpus[: self.workers] if c not in taken] \
            if self.workers >= len(cpus) else []
        while len(pool) < n:
            pool.append(self._start(free.pop(0) if free else None))
        return pool

    def run(self, jobs: Iterable[Job], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool] = lambda: False,
            skip: Callable[[Job], bool] | None = None) -> bool:
        queue = collections.deque(jobs)
        if not queue:
            return True
        self.deaths.clear()         # max_deaths counts within one run, as job ids do
        pool = self._pool(min(self.workers, len(queue)))
        wd = self.watchdog
        complete = False
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
                    complete = True
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
            if complete and self.keep_workers:
                self._kept = pool + self._kept
            else:
                self._shutdown(pool + self._kept)
                self._kept = []

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
        self.hung_games += 1
        on_record(error_record(g, f"watchdog: {reason}; its worker was killed",
                               plies=cur[1] if cur else 0))
        rest = tuple(x for x in left if x.game_id != g.game_id)
        if rest:
            self.replayed_games += len(rest)
            queue.appendleft(Job(job.job_id, job.game, job.openings, job.opening_seed,
                                 job.pair_index, job.max_plies, job.macros, rest))

    def _drain(self, w: _Worker, on_record) -> bool:
        """Read every message waiting from worker w; False if its pipe is broken. Only reading
        the pipe may fail for the worker's sake: what `on_record` raises (the store cannot be
        written, StoreWriteError) stops the run, it is never taken for a dying worker."""
        while True:
            try:
                if not w.conn.poll():
                    return True
                kind, _job_id, payload = w.conn.recv()
            except (EOFError, OSError, ConnectionError):
                return False
            except Exception:  # noqa: BLE001 - a message cut by a dying worker
                return False
            wd = self.watchdog
            if kind == "move":
                w.current = payload
                g = next((x for x in w.job.games if x.game_id == payload[0]), None) \
                    if w.job is not None else None
                budget = Budget.of(g.budgets[payload[2]]) if g is not None else Budget()
                who = f"seat {payload[2]} {g.seats[payload[2]]}" if g else "a player"
                progress = None
                if budget.time is None:     # simulation speed varies: watch CPU
                    pid = w.process.pid
                    progress = lambda pid=pid: cpu_seconds(pid)  # noqa: E731
                wd.arm(w, wd.move_bound(budget),
                       f"a move from {who} at ply {payload[1] + 1}, budget "
                       f"{budget if g is not None else '?'}",
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
                on_record(error_record(g, f"worker died {self.max_deaths} times playing this "
                                          f"game (last exit code {code})"))
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
