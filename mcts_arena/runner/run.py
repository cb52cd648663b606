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


#: A run estimated to take longer than this on its workers starts only with `--yes`: an hour
#: is past what a scale-down or a look at a config costs (the docs' scale-downs take minutes),
#: and a forgotten `--games`/`--time` on a paper's config asks for days; below it a Ctrl-C
#: loses nothing and the estimate on the run's first line is warning enough.
CONFIRM_ABOVE_S = 3600.0


def _done(job: RunJob, new: bool) -> set[str]:
    """The planned games already stored (none with `new`, which starts afresh)."""
    if has_results(job.directory) and not new:
        with Store.open(job.directory) as store:
            check_compatible(store, job.experiment)
            return store.done_ids()
    return set()


def _costs(exp: config_mod.Experiment):
    from mcts_arena.runner.estimate import Costs

    return Costs(exp.game, exp.macros_dict())


@dataclass(frozen=True)
class Estimate:
    """What is left to play and its estimated cost: `wall_s` on the run's workers (None:
    unknown, an external engine) and the text a run's first line and the dry run give."""

    to_play: int
    wall_s: float | None
    text: str


def estimate(job: RunJob, new: bool = False) -> Estimate:
    """The cost of the games left to play (the dry run's estimate)."""
    exp, done = job.experiment, _done(job, new)
    todo = [g for j in job.plan.jobs for g in j.games if g.game_id not in done]
    # a move is timed with the built-in players only: another provider's (MCTS_ARENA_PLAYERS)
    # are played in the workers alone, never in the driver
    builtin = config_mod.players_provider().__name__ == config_mod.DEFAULT_PLAYERS
    costs = _costs(exp) if builtin else None
    cpu = plan_mod.estimate_cpu_seconds(exp, todo, costs)
    return Estimate(len(todo), None if cpu is None else cpu / max(1, job.workers),
                    plan_mod.cost_text(exp, todo, job.workers, costs))


def check_cost(est: Estimate, yes: bool, again: str) -> None:
    """Refuse (one line, nothing written) a run estimated past CONFIRM_ABOVE_S without `yes`,
    saying how to start it anyway or scale it down."""
    if yes or est.wall_s is None or est.wall_s <= CONFIRM_ABOVE_S:
        return
    raise UserError(f"{est.to_play} games to play, {est.text}; to start it anyway add --yes "
                    f"({again} --yes), or scale it down with --games N, --time S or --sims N "
                    f"(--dry-run shows the plan)")


def dry_run(job: RunJob, new: bool = False) -> str:
    """What `--dry-run` prints: the plan with what is left to play and its estimated CPU time."""
    done = _done(job, new)
    exp = job.experiment
    warning = config_mod.openings_warning(exp)
    return (plan_mod.describe(job.plan, done, job.workers, _costs(exp))
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
         standings: tuple[int, float] = (EVERY_GAMES, EVERY_SECONDS),
         cost: Estimate | None = None) -> RunResult:
    """Play the missing games of `job` (see the module docstring); `echo` gets the lines about
    the run itself (moved results, the announcement); `standings` is (every N games, every T
    seconds) of the standings shown while it plays (runner/progress.py). Games of another build
    in the store refuse the run unless `allow_mixed_builds` (runner.experiment.check_builds).
    `cost` (`estimate`) ends the announcement with the estimate."""
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
                 f"({stored} stored, {to_play} to play), {where}, results in {job.directory}"
                 + ("" if cost is None or engine is not None else f"; {cost.text}"))

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
