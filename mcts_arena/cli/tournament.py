"""`arena tournament NAME`: the paper's tuning brackets or a YAML tournament (runner/tournament.py
plays it, results/tournament.py is its bracket or cross-table)."""
from __future__ import annotations

import click

from mcts_arena.cli.app import (
    GAMES,
    JOBS,
    SIMS,
    DerivedChoice,
    check_scale_options,
    cli,
    exit_if_stopped,
)


def _evals():
    from mcts_arena.runner.tournament import tuning_evals

    return tuning_evals()


def _tie_rules():
    from mcts_arena.results.tournament import TIE_RULES

    return TIE_RULES


@cli.command("tournament")
@click.argument("name")
@click.option("--game", default=None,
              help="Game of a built-in tournament [default: the first registered game with tuning "
                   "defaults, breakthrough].")
@click.option("--eval", "evalfn", default=None, type=DerivedChoice(_evals),
              help="Evaluation of the built-in tournaments, for a game that tunes with several "
                   "(its GameInfo.tuning) [default: the game's first].")
@click.option("--games", type=GAMES, default=None,
              help="Games per match [default: the paper's, 1000 Kalah / 200 otherwise].")
@click.option("--time", "time_s", type=float, default=None, help="Seconds per move [default 1].")
@click.option("--sims", type=SIMS, default=None, help="Simulations per move instead of --time.")
@click.option("--jobs", "jobs", default=0, show_default=True, type=JOBS,
              help="Games played at once (0 = every usable CPU).")
@click.option("--tie", default=None, type=DerivedChoice(_tie_rules),
              help="Elimination ties: first (the paper's) or playoff (extra pairs, capped).")
@click.option("--out", "out", default=None, metavar="DIR",
              help="Results directory [default: results/tournament-<name>-<game>].")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--dry-run", is_flag=True,
              help="Print the plan (entrants, most games, each move's work and cost, the "
                   "estimated CPU time); play nothing.")
@click.option("--allow-mixed-builds", is_flag=True,
              help="Add games to results another build of mcts_arena played (refused "
                   "otherwise).")
def tournament_cmd(name: str, game: str | None, evalfn: str | None, games: int | None,
                   time_s: float | None, sims: int | None, jobs: int, tie: str | None,
                   out: str | None, quiet: bool, dry_run: bool,
                   allow_mixed_builds: bool) -> None:
    """Play the tournament NAME: fet, det, ege, im (the paper's tuning brackets) or a YAML file
    (configs/tournaments/*.yaml: elimination, round_robin or gauntlet). Run again to resume."""
    from mcts_arena.results.tournament import header, legend, render
    from mcts_arena.runner import tournament
    from mcts_arena.runner.pool import worker_count

    check_scale_options(games, time_s, sims)
    workers = worker_count(jobs)
    spec, directory = tournament.prepare(name, game, evalfn, games, time_s, sims, tie, out,
                                         dry_run=dry_run)
    if dry_run:
        click.echo(tournament.dry_run(spec, directory, workers))
        return
    click.echo(f"tournament {spec.title}: {workers} worker(s), results in {directory}", err=True)
    about = legend(spec)
    click.echo(header(spec) + (f"\n{about}" if about else "") + "\n")
    result = tournament.run_tournament(spec, directory, workers=workers, progress=not quiet,
                                       echo=click.echo, allow_mixed_builds=allow_mixed_builds)
    if result.interrupted:
        click.echo(render(result.state, with_header=False).rstrip())
    exit_if_stopped(result, directory)
