"""A Ray backend for the scheduler: the same `run(jobs, on_record, should_stop)` as the local
pool, with jobs spread over a Ray cluster (or a local Ray instance).

- Each job (one seat-swapped pair) is a Ray task that returns its finished GameRecords; the
  driver commits them to the store as they arrive, so only the driver writes (docs/architecture.md).
- A task whose worker dies is retried by Ray (`max_retries`); the deterministic game ids make
  a replayed game count once.
- At most `2 x cluster CPUs` tasks are in flight, so a stop (Ctrl-C) loses little work and a
  half-finished run already has games for every pairing (jobs arrive interleaved).
- Ray is optional: `pip install 'mcts_arena[ray]'`. Without it, choosing this backend is a
  one-line user error.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable

from mcts_arena.arena.match import GameRecord, play_job_list
from mcts_arena.arena.plan import Job
from mcts_arena.errors import UserError


def _play_job(job: Job, players_name: str | None) -> list[GameRecord]:
    from mcts_arena.arena.config import players_provider

    return play_job_list(job, players_provider(players_name))


class RayBackend:
    """Jobs as Ray tasks; see the module docstring."""

    def __init__(self, address: str | None = None, players: str | None = None,
                 max_retries: int = 3, poll_s: float = 0.5):
        try:
            import ray
        except ImportError:
            raise UserError("the Ray backend needs Ray: pip install 'mcts_arena[ray]'") from None
        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                     include_dashboard=False)
        self.players = players
        self.poll_s = poll_s
        self.task = ray.remote(num_cpus=1, max_retries=max_retries)(_play_job)
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def run(self, jobs: Iterable[Job], on_record: Callable[[GameRecord], None],
            should_stop: Callable[[], bool] = lambda: False,
            skip: Callable[[Job], bool] | None = None) -> bool:
        ray = self.ray
        queue = list(jobs)
        queue.reverse()                     # pop() from the end keeps the plan's order
        in_flight: dict = {}
        limit = 2 * self.workers
        while queue or in_flight:
            if should_stop():
                for ref in in_flight:
                    ray.cancel(ref, force=True)
                return False
            while queue and len(in_flight) < limit:
                job = queue.pop()
                if skip is not None and skip(job):    # its pairing's SPRT has decided
                    continue
                in_flight[self.task.remote(job, self.players)] = job
            ready, _ = ray.wait(list(in_flight), num_returns=1, timeout=self.poll_s)
            for ref in ready:
                job = in_flight.pop(ref)
                try:
                    records = ray.get(ref)
                except Exception as e:  # noqa: BLE001 - a job that cannot run stops the run
                    raise RuntimeError(f"job {job.job_id} failed on Ray: {e}") from e
                for rec in records:
                    on_record(rec)
        return True
