"""The Ray backend: the same `run(jobs, on_record, should_stop, skip)` as the local pool
(runner/pool.py), with jobs spread over a Ray cluster (or a local Ray instance).

- Each job (one seat-swapped pair) is a Ray task that returns its finished GameRecords; the
  driver commits them to the store as they arrive, so only the driver writes
  (docs/architecture.md).
- Failures are handled here, not by Ray's own retries, so that they are counted:
  a task whose worker or node dies is queued again, first in line (the deterministic game ids
  make a replayed game count once); after `max_deaths` deaths its games become `error` games.
  A task that raises (a fault the game loop does not catch) makes its games `error` games with
  the exception's text; the run goes on. A task that hangs (a player stuck in a loop) is cancelled
  by the driver's watchdog (runner/watchdog.py) once it outlives twice its job's bound
  (a queued task may wait one job per CPU before it starts); its games become `error` games
  that say so, and the run goes on.
- At most `2 x cluster CPUs` tasks are in flight (the count is read again every few seconds, so
  nodes that join or leave are followed), so a stop (Ctrl-C) loses little work: in-flight
  tasks are cancelled, games already stored stay.
- The same build on every node: before the run, every node with CPUs answers with its
  mcts_arena version and build fingerprint (`build_identity`), and every task result carries
  them too (nodes that join later); a node that differs from the driver stops the run with one
  line naming the node and both builds. Nodes must have mcts_arena installed and built
  (docs/experiments.md, "Running on a Ray cluster").
- Quiet: Ray's log lines (workers' output, the cluster's error feed: "node marked dead",
  "worker killed", and "unhandled error" notes for cancelled tasks) stay out of the terminal
  unless `verbose`.
- Ray is optional: `pip install 'mcts_arena[ray]'`. Without it, choosing this backend is a
  one-line user error, as are an address that cannot be reached and a cluster with no CPUs.
"""
from __future__ import annotations

import collections
import logging
import os
import socket
import time
import traceback
from collections.abc import Callable, Iterable

from mcts_arena import plugins
from mcts_arena.budgets import Budget
from mcts_arena.errors import UserError
from mcts_arena.provenance import build_identity
from mcts_arena.runner.match import GameRecord, error_record, play_job_list
from mcts_arena.runner.plan import Job
from mcts_arena.runner.watchdog import Watchdog, job_bound

CONNECT_TIMEOUT_S = 5.0         # to reach the cluster's address before handing it to Ray
PROBE_TIMEOUT_S = 120.0         # for every node to answer the build check
REFRESH_S = 5.0                 # how often the cluster's CPU count is read again


def _node_identity() -> tuple[str, str, str]:
    """(node, version, build) of the Ray worker running this."""
    import ray

    ctx = ray.get_runtime_context()
    return (f"{ray.util.get_node_ip_address()} (id {ctx.get_node_id()[:8]})",) + build_identity()


def _load_players(players_name: str | None):
    """(players module, None) or (None, why this node cannot load it)."""
    from mcts_arena.runner.config import players_provider

    try:
        plugins.load()      # those a node's environment names (Ray's runtime_env env_vars)
        return players_provider(players_name), None
    except Exception as e:  # noqa: BLE001 - a node without the players: the run must stop
        return None, f"cannot load the players ({players_name or 'default'}): " \
                     f"{type(e).__name__}: {_one_line(e)}"


def _node_check(players_name: str | None) -> tuple[str, str, str, str | None]:
    """(node, version, build, problem) of the Ray worker running this."""
    return _node_identity() + (_load_players(players_name)[1],)


def _play_job(job: Job, players_name: str | None):
    """((node, version, build), records), or ((node, version, build), problem) where the
    node cannot load the players (a node that would turn every job into error games)."""
    players, problem = _load_players(players_name)
    if players is None:
        return _node_identity(), problem
    return _node_identity(), play_job_list(job, players)


def _error_games(job: Job, text: str) -> list[GameRecord]:
    return [error_record(g, text) for g in job.games]


def _job_text(job: Job) -> str:
    g = job.games[0]
    return (f"{len(job.games)} game(s) of {g.seats[0]} vs {g.seats[1]} on Ray, "
            f"budget {Budget.of(g.budgets[0])}")


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _check_reachable(address: str, shown: str | None = None) -> None:
    """A host:port (or ray://host:port) that does not answer fails in seconds, not after Ray's
    own minutes of retries."""
    target = address.split("://", 1)[-1]
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        raise UserError(f"--ray-address must be 'auto' or HOST:PORT (or ray://HOST:PORT), "
                        f"got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as e:
        where = address if shown in (None, address) else f"{shown} ({address})"
        raise UserError(f"cannot reach the Ray cluster at {where}: "
                        f"{_one_line(e.strerror or e)}") from None


def _resolve_auto(address: str) -> str | None:
    """The HOST:PORT that 'auto' stands for ($RAY_ADDRESS, or the cluster last started on this
    machine), so that a stale one is checked like any other; None where Ray cannot say."""
    try:
        from ray._private.services import canonicalize_bootstrap_address
    except ImportError:         # a Ray without it: ray.init finds the address itself
        return None
    try:
        return canonicalize_bootstrap_address(address)
    except ConnectionError as e:
        raise UserError(f"cannot reach the Ray cluster at {address}: {_one_line(e)}") from None


def _quiet_environment() -> None:
    """Ray reads this when it starts its core worker in this process: no note about the
    cancelled tasks' results that were never fetched."""
    os.environ.setdefault("RAY_IGNORE_UNHANDLED_ERRORS", "1")


class _ErrorFeed:
    """Ray's driver prints every error the cluster publishes (a node marked dead, a worker
    killed) on stdout, whatever `log_to_driver` says; quiet runs leave them out (the run deals
    with the failures itself). Undone by `restore`."""

    def __init__(self):
        self.module = self.original = None
        try:
            from ray._private import worker as module
        except ImportError:
            return
        if hasattr(module, "print_to_stdstream"):
            self.module, self.original = module, module.print_to_stdstream
            module.print_to_stdstream = self._drop

    @staticmethod
    def _drop(data, ignore_prefix=False):
        logging.getLogger(__name__).debug("ray: %s", data.get("lines"))

    def restore(self) -> None:
        if self.module is not None:
            self.module.print_to_stdstream = self.original
            self.module = None


class RayBackend:
    """Jobs as Ray tasks; see the module docstring."""

    def __init__(self, address: str | None = None, players: str | None = None,
                 verbose: bool = False, max_deaths: int = 3, poll_s: float = 0.5,
                 check_builds: bool = True, watchdog: Watchdog | None = None):
        try:
            import ray
        except ImportError:
            raise UserError("the Ray backend needs Ray: pip install 'mcts_arena[ray]'") from None
        from mcts_arena.runner.config import PLAYERS_ENV

        self.ray = ray
        self.address = address
        self.players = players or os.environ.get(PLAYERS_ENV)
        self.max_deaths = max_deaths
        self.poll_s = poll_s
        self.watchdog = watchdog or Watchdog()
        self.hung = 0               # tasks the watchdog cancelled
        self.deaths: collections.Counter = collections.Counter()
        self.replayed_games = 0
        self.cancelled = 0
        self.identity = build_identity()
        self._owns_ray = False
        self._feed = None
        if not ray.is_initialized():
            target = _resolve_auto(address) if address == "auto" else address
            if target not in (None, "local"):
                _check_reachable(target, shown=address)
            if not verbose:
                _quiet_environment()
            try:
                named = {plugins.ENV: os.environ[plugins.ENV]} if plugins.named() else {}
                ray.init(address=address, log_to_driver=verbose, include_dashboard=False,
                         logging_level=logging.INFO if verbose else logging.ERROR,
                         configure_logging=True,
                         **({"runtime_env": {"env_vars": named}} if named else {}))
            except ConnectionError as e:
                raise UserError(f"cannot reach the Ray cluster at {address}: "
                                f"{_one_line(e)}") from None
            self._owns_ray = True
        if not verbose:
            self._feed = _ErrorFeed()
        try:
            self.task = ray.remote(num_cpus=1, max_retries=0)(_play_job)
            self.workers = self._cpus()
            if self.workers == 0:
                raise UserError(f"the Ray cluster at {address or 'local'} has no CPUs to play "
                                f"games on; start worker nodes with --num-cpus N")
            if check_builds:
                self.check_nodes()
        except BaseException:
            self.close()
            raise
        self._refreshed = time.monotonic()

    def _cpus(self) -> int:
        return int(self.ray.cluster_resources().get("CPU", 0))

    def close(self) -> None:
        if self._owns_ray and self.ray.is_initialized():
            self.ray.shutdown()
        self._owns_ray = False
        if self._feed is not None:
            self._feed.restore()
            self._feed = None

    # ---- the same build everywhere -------------------------------------------------------
    def _mismatch(self, node: str, identity: tuple[str, str]) -> UserError:
        return UserError(f"node {node} runs mcts_arena {identity[0]} build {identity[1]}, this "
                         f"driver runs {self.identity[0]} build {self.identity[1]}: install the "
                         f"same mcts_arena on every node")

    def check_nodes(self) -> None:
        """Every alive node with CPUs answers with its build; the first that differs (or cannot
        import mcts_arena) stops the run."""
        ray = self.ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        probe = ray.remote(num_cpus=0, max_retries=0)(_node_check)
        refs = {}
        for n in ray.nodes():
            if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0:
                where = f"{n.get('NodeManagerAddress', '?')} (id {n['NodeID'][:8]})"
                strategy = NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)
                refs[probe.options(scheduling_strategy=strategy).remote(self.players)] = where
        ready, pending = ray.wait(list(refs), num_returns=len(refs), timeout=PROBE_TIMEOUT_S)
        for ref in pending:
            ray.cancel(ref, force=True)
            raise UserError(f"node {refs[ref]} did not answer the build check in "
                            f"{PROBE_TIMEOUT_S:.0f} s")
        for ref in ready:
            try:
                node, version, build, problem = ray.get(ref)
            except ray.exceptions.TaskUnschedulableError:
                continue                # the node left the cluster since ray.nodes()
            except ray.exceptions.RayError as e:
                cause = getattr(e, "cause", None) or e
                raise UserError(f"node {refs[ref]} cannot run mcts_arena: "
                                f"{type(cause).__name__}: {_one_line(cause)}"[:300]) from None
            if (version, build) != self.identity:
                raise self._mismatch(node, (version, build))
            if problem is not None:
                raise UserError(f"node {node} {problem}")

    # ---- the run -------------------------------------------------------------------------
    def run(self, jobs: Iterable[Job], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool] = lambda: False,
            skip: Callable[[Job], bool] | None = None) -> bool:
        ray = self.ray
        wd = self.watchdog
        queue = collections.deque(jobs)
        in_flight: dict = {}
        try:
            while queue or in_flight:
                if should_stop():
                    return False
                wd.tick()
                now = time.monotonic()
                if now - self._refreshed > REFRESH_S:
                    self.workers = self._cpus()
                    self._refreshed = now
                limit = 2 * max(1, self.workers)
                while queue and len(in_flight) < limit:
                    job = queue.popleft()
                    if skip is not None and skip(job):    # its pairing's SPRT has decided
                        continue
                    ref = self.task.remote(job, self.players)
                    in_flight[ref] = job
                    # a task may first wait in Ray's queue behind one job per CPU (at most
                    # 2 x CPUs are in flight), then play its games: twice the job's bound
                    wd.arm(ref, 2 * job_bound(job, wd.grace_s, wd.setup_s), _job_text(job))
                if not in_flight:
                    continue
                ready, _ = ray.wait(list(in_flight), num_returns=1,
                                    timeout=wd.timeout(self.poll_s))
                for ref in ready:
                    job = in_flight.pop(ref)
                    wd.disarm(ref)
                    for rec in self._collect(ref, job, queue):
                        on_record(rec)
                for ref, why in wd.expired():
                    # a hung task (a player stuck in a loop, a node that stopped answering):
                    # its games are error games, its worker is killed, the run goes on
                    job = in_flight.pop(ref, None)
                    if job is None:
                        continue
                    ray.cancel(ref, force=True)
                    self.hung += 1
                    for rec in _error_games(job, f"watchdog: {why}; its Ray task was cancelled"):
                        on_record(rec)
            return True
        finally:
            for ref in in_flight:       # stopped (Ctrl-C) or failed: nothing keeps running
                ray.cancel(ref, force=True)
                self.cancelled += 1

    def _collect(self, ref, job: Job, queue: collections.deque) -> list[GameRecord]:
        ray = self.ray
        try:
            (host, *identity), records = ray.get(ref)
        except ray.exceptions.RayTaskError as e:        # the task itself raised
            cause = e.cause if getattr(e, "cause", None) is not None else e
            text = "".join(traceback.format_exception_only(type(cause), cause)).strip()
            return _error_games(job, f"task raised on Ray: {_one_line(text)}")
        except ray.exceptions.RayError as e:            # its worker or node died
            self.deaths[job.job_id] += 1
            if self.deaths[job.job_id] >= self.max_deaths:
                return _error_games(job, f"Ray worker died {self.max_deaths} times playing "
                                         f"this game (last: {type(e).__name__})")
            self.replayed_games += len(job.games)
            queue.appendleft(job)
            return []
        if tuple(identity) != self.identity:         # a node that joined after the check
            raise self._mismatch(host, tuple(identity))
        if isinstance(records, str):
            raise UserError(f"node {host} {records}")
        return records
