"""`arena run CONFIG`: play an experiment (the workflow is runner/run.py)."""
from __future__ import annotations

import sys

import click

from mcts_arena.cli.app import (
    BACKEND_OPTION,
    GAMES,
    JOBS,
    SIMS,
    Integer,
    check_scale_options,
    cli,
    fail,
)
from mcts_arena.errors import EXIT_INTERRUPTED, EXIT_TERMINATED, AllErrorGames, StoreWriteError
from mcts_arena.runner.progress import EVERY_GAMES, EVERY_SECONDS


@cli.command("run")
@click.argument("config_path", metavar="CONFIG")
@click.option("--jobs", "jobs", default=0, show_default=True, type=JOBS,
              help="Games played at once, one worker pinned per CPU; 0 = every CPU this "
                   "process may use (never more).")
@click.option("--games", type=GAMES, default=None, help="Games per pairing (overrides the config).")
@click.option("--time", "time_s", type=float, default=None,
              help="Seconds per move (overrides the config's budget).")
@click.option("--sims", type=SIMS, default=None,
              help="Simulations per move (overrides the config's budget).")
@click.option("--effort", type=float, default=None, metavar="S",
              help="Matched effort: each player gets the simulations/nodes the paper's engine "
                   "searched in S seconds (overrides the config's budget).")
@click.option("--openings", "openings", default=None, metavar="FILE",
              help="Start the pairs from this opening book (one position or move list per "
                   "line; overrides the config's openings).")
@click.option("--openings-order", default=None, type=click.Choice(["sequential", "random"]),
              help="The book's order [default: the config's, else sequential].")
@click.option("--out", "out", default=None, metavar="DIR",
              help="Results directory of this experiment [default: results/<name>].")
@click.option("--dry-run", is_flag=True,
              help="Print the plan and the estimated CPU time; play nothing.")
@click.option("--yes", "yes", is_flag=True,
              help="Start a run estimated to take more than an hour on its workers (refused "
                   "otherwise, with the estimate and how to scale it down).")
@click.option("--new", "new", is_flag=True,
              help="Start afresh: an existing results directory is renamed to "
                   "<dir>.<YYYYmmdd-HHMMSS> (kept, never deleted) and a new one is started.")
@click.option("--quiet", is_flag=True, help="No progress bar, no standings.")
@click.option("--standings-every", type=Integer(0, 10**9), default=EVERY_GAMES,
              show_default=True, metavar="N",
              help="Print every pairing's standings every N games (0: never by count); in a "
                   "log file they are the only progress shown.")
@click.option("--standings-seconds", type=click.FloatRange(0), default=EVERY_SECONDS,
              show_default=True, metavar="T",
              help="... and every T seconds (0: never by time), whichever comes first.")
@BACKEND_OPTION
@click.option("--ray-address", default=None, metavar="ADDR",
              help="With --backend ray: the cluster to join, HOST:PORT of its head or 'auto' "
                   "(default: start Ray locally).")
@click.option("--verbose", is_flag=True, help="Let Ray's own log lines through (--backend ray).")
@click.option("--allow-mixed-builds", is_flag=True,
              help="Add games to results another build of mcts_arena played (refused "
                   "otherwise); reports list the builds behind each pairing.")
def run_cmd(config_path: str, jobs: int, games: int | None, time_s: float | None,
            sims: int | None, effort: float | None, openings: str | None,
            openings_order: str | None, out: str | None, dry_run: bool, yes: bool, new: bool,
            quiet: bool, standings_every: int, standings_seconds: float, backend: str,
            ray_address: str | None, verbose: bool, allow_mixed_builds: bool) -> None:
    """Play the experiment CONFIG (YAML) and store every game in RESULTS/arena.sqlite.

    Run again to resume: only missing games are played. A config change that changes the games
    (players, budget, game, seed, openings) is refused unless --new; more games or more
    pairings extend the experiment. Ctrl-C stops cleanly, keeping finished games. The first
    line states the dry run's estimate; a run estimated past an hour on its workers needs --yes.

    Exit status: 0 done; 1 the results could not be written (a full disk: every game stored
    before stays); 2 a mistake in the command, the config or the results directory (nothing
    changed); 3 some pairing's games are all error games (nothing measured; the next run
    replays them); 130 interrupted (Ctrl-C), 143 terminated (SIGTERM).
    """
    from mcts_arena.results.summary import summary_of
    from mcts_arena.runner import run
    from mcts_arena.runner.config import Overrides
    from mcts_arena.runner.experiment import all_error_message

    check_scale_options(games, time_s, sims, effort)
    if ray_address is not None and backend != "ray":
        fail("--ray-address needs --backend ray")
    if openings_order is not None and openings is None:
        fail("--openings-order needs --openings FILE")
    job = run.prepare(config_path, Overrides(games=games, time=time_s, sims=sims, effort=effort,
                                             openings=openings, openings_order=openings_order),
                      out, jobs, dry_run=dry_run, new=new)
    if dry_run:
        click.echo(run.dry_run(job, new))
        return
    again = run.resume_command(config_path, {
        "--jobs": jobs, "--games": games, "--time": time_s, "--sims": sims,
        "--effort": effort, "--openings": openings, "--openings-order": openings_order,
        "--out": out, "--backend": backend, "--ray-address": ray_address,
        "--allow-mixed-builds": allow_mixed_builds, "--yes": yes})
    cost = None
    if backend == "local":          # a cluster's speed is its own: no estimate for it
        cost = run.estimate(job, new)
        run.check_cost(cost, yes, again)
    try:
        result = run.play(job, new=new, backend=backend, ray_address=ray_address, cost=cost,
                          verbose=verbose, progress=not quiet,
                          echo=lambda m: click.echo(m, err=True),
                          standings=(standings_every, standings_seconds),
                          allow_mixed_builds=allow_mixed_builds)
    except StoreWriteError as e:        # a full disk: one line (app.py), exit status 1
        e.resume = again
        raise
    click.echo(summary_of(job.directory))
    if result.interrupted:
        how = "terminated" if result.terminated else "interrupted"
        click.echo(f"arena: {how}: {result.stored_before + result.played} of "
                   f"{result.planned} games stored, {result.missing} to play; resume with: "
                   f"{again}", err=True)
        sys.exit(EXIT_TERMINATED if result.terminated else EXIT_INTERRUPTED)
    click.echo(run.outcome(result, job.directory))
    if result.all_error:
        raise AllErrorGames(all_error_message(result.all_error))
