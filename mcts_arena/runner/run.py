"""`arena run`: a config played into its results directory, every check made before anything on
disk changes.

    job = prepare(config_path, overrides, out, jobs, dry_run=False)   # config, plan, directory
    print(dry_run(job, new))                                          # or:
    result = play(job, new=..., backend="local" | "ray", ...)         # RunResult

Order of the checks (each a UserError, one line, nothing written): the worker count, the config
(players, budgets, rates), the results directory (usable, ours, not busy), then for a run that
plays the external engines (started once) and the Ray cluster (reached, its builds checked).
Only then is an old directory moved aside (`--new`) and the store opened.
"""
from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mcts_arena.errors import UserError
from mcts_arena.results.store import Store
from mcts_arena.runner import config as config_mod
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.experiment import (
    RunResult,
    check_compatible,
    check_store,
    has_results,
    move_aside,
    results_dir,
    run_experiment,
)
from mcts_arena.runner.pool import worker_count
from mcts_arena.runner.preflight import start_engines
from mcts_arena.runner.progress import EVERY_GAMES, EVERY_SECONDS
from mcts_arena.runner.writer import check_writable

BACKENDS = ("local", "ray")


@dataclass(frozen=True)
class RunJob:
    """A config ready to play: the experiment, its plan, where it is stored, how many workers."""

    experiment: config_mod.Experiment
    plan: plan_mod.Plan
    directory: Path
    workers: int


def prepare(config_path: str, overrides: config_mod.Overrides, out: str | None, jobs: int,
            dry_run: bool = False, new: bool = False) -> RunJob:
    """Load and check the config and its results directory (a dry run may look at a busy one)."""
    worker_count(jobs)              # the worker count is checked first, before the config
    if out is not None and not out.strip():
        raise UserError("--out must name a directory, got ''")
    return prepare_experiment(config_mod.load(config_path, overrides), out, jobs, dry_run, new)


def prepare_experiment(exp: config_mod.Experiment, out: str | None, jobs: int,
                       dry_run: bool = False, new: bool = False) -> RunJob:
    """`prepare` for an experiment already validated (the Python API builds it from code): its
    results directory usable, ours, intact, and (unless `new` moves it aside) holding games of
    this config only, every row the run reads readable."""
    workers = worker_count(jobs)
    the_plan = plan_mod.make_plan(exp)
    directory = results_dir(exp, out)
    check_writable(directory, busy_ok=dry_run, damaged_ok=new)   # --new moves a damaged one aside
    if not new and not dry_run:
        check_store(directory, exp, set(the_plan.game_ids()))
    return RunJob(exp, the_plan, directory, workers)


def dry_run(job: RunJob, new: bool = False) -> str:
    """What `--dry-run` prints: the plan with what is left to play and its estimated CPU time."""
    done: set[str] = set()
    if has_results(job.directory) and not new:
        with Store.open(job.directory) as store:
            check_compatible(store, job.experiment)
            done = store.done_ids()
    from mcts_arena.runner.estimate import Costs

    exp = job.experiment
    warning = config_mod.openings_warning(exp)
    return (plan_mod.describe(job.plan, done, job.workers, Costs(exp.game, exp.macros_dict()))
            + (f"\n{warning}" if warning else "")
            + f"\nresults: {job.directory} (dry run: nothing played)")


def open_backend(backend: str, ray_address: str | None = None, verbose: bool = False):
    """The backend a run plays on: None for the local pool (run_experiment makes it), or a
    RayBackend connected to its cluster (the caller closes it)."""
    if backend == "ray":
        from mcts_arena.runner.ray_backend import RayBackend

        return RayBackend(address=ray_address, verbose=verbose)
    return None


def play(job: RunJob, *, new: bool = False, backend: str = "local",
         ray_address: str | None = None, verbose: bool = False, progress: bool = True,
         echo: Callable[[str], None] = print, allow_mixed_builds: bool = False,
         standings: tuple[int, float] = (EVERY_GAMES, EVERY_SECONDS)) -> RunResult:
    """Play the missing games of `job` (see the module docstring); `echo` gets the lines about
    the run itself (moved results, the announcement); `standings` is (every N games, every T
    seconds) of the standings shown while it plays (runner/progress.py). Games of another build
    in the store refuse the run unless `allow_mixed_builds` (runner.experiment.check_builds)."""
    exp, workers = job.experiment, job.workers
    start_engines(exp)              # external engines answer, before anything on disk
    warning = config_mod.openings_warning(exp)
    if warning:
        echo(warning)
    engine = open_backend(backend, ray_address, verbose)
    if engine is not None:
        workers = engine.workers
    try:
        if new and job.directory.exists():
            echo(f"moved the old results to {move_aside(job.directory)}")

        def announce(stored: int, to_play: int) -> None:
            where = f"{workers} worker(s)" if engine is None else \
                f"Ray cluster with {workers} CPU(s)"
            echo(f"{exp.name}: {len(exp.pairings)} pairing(s), {job.plan.total_games} games "
                 f"({stored} stored, {to_play} to play), {where}, results in {job.directory}")

        return run_experiment(exp, job.plan, job.directory, workers=workers, backend=engine,
                              progress=progress, announce=announce, check_players=False,
                              allow_mixed_builds=allow_mixed_builds,
                              standings_every=standings[0], standings_seconds=standings[1])
    finally:
        if engine is not None:
            engine.close()


def resume_command(config_path: str, options: dict) -> str:
    """The `arena run ...` that resumes an interrupted run: the same options, in order."""
    return f"arena run {shlex.quote(config_path)}" + "".join(
        f" {flag}" if value is True else f" {flag} {shlex.quote(str(value))}"
        for flag, value in options.items() if value and value != "local")


def outcome(result: RunResult, directory: Path) -> str:
    """The last line of a finished run: games played, stored, error games, SPRT skips."""
    line = (f"{result.played} games played in {result.seconds:.1f} s; "
            f"{result.stored_planned}/{result.planned} stored in {directory}")
    if result.errors:
        line += f", {result.errors} of them error games (the next run replays them)"
    if result.skipped:
        line += f"; {result.skipped} not played (the SPRT decided their pairing)"
    extra = result.stored_total - result.stored_planned
    if extra > 0:
        line += (f"; the store holds {result.stored_total} games in all, {extra} beyond this "
                 f"plan (counted in the table above and by 'arena report')")
    return line
