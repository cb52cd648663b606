"""`arena tune CONFIG`: a player's parameters tuned by SPSA or Bayesian optimisation
(runner/tune.py plays it, results/tune.py reads it, report/tune.py shows it)."""
from __future__ import annotations

import click

from mcts_arena.cli.app import JOBS, SEED, cli, exit_if_stopped


@cli.command("tune")
@click.argument("config", metavar="CONFIG")
@click.option("--jobs", "jobs", default=0, show_default=True, type=JOBS,
              help="Games played at once (0 = every usable CPU).")
@click.option("--out", "out", default=None, metavar="DIR",
              help="Results directory [default: results/<name>].")
@click.option("--seed", type=SEED, default=None,
              help="The tune's seed instead of the config's (results/<name>-seed<N>).")
@click.option("--quiet", is_flag=True, help="No line per batch of steps or trials.")
@click.option("--dry-run", "dry_run", is_flag=True,
              help="Print the plan (settings, games, games stored, estimated CPU) and play "
                   "nothing.")
@click.option("--allow-mixed-builds", is_flag=True,
              help="Add games to results another build of mcts_arena played (refused "
                   "otherwise).")
def tune_cmd(config: str, jobs: int, out: str | None, seed: int | None, quiet: bool,
             dry_run: bool, allow_mixed_builds: bool) -> None:
    """Tune the parameters of CONFIG's player template (method spsa or bo), then play the
    confirmation match; prints the path, the value found with its range and the
    confirmation, and writes tune.png beside the store. Run again to resume."""
    from mcts_arena.report.tune import picture, render, settings_text
    from mcts_arena.runner import tune
    from mcts_arena.runner.pool import worker_count

    workers = worker_count(jobs)
    spec, directory = tune.prepare(config, out, seed=seed)
    if dry_run:
        head = "" if spec.settings.method == "bracket" else settings_text(spec.settings)
        click.echo(head + tune.dry_run(spec, directory, workers), nl=False)
        return
    click.echo(f"tune {spec.name}: {spec.settings.method}, {workers} worker(s), results in "
               f"{directory}", err=True)
    if spec.settings.method == "bracket":
        # the tune config is kept beside the tournament's settings, so `arena serve` shows it
        # as a tune while it plays
        return _bracket(tune.bracket(spec), directory, workers, quiet, allow_mixed_builds,
                        {tune.BRACKET_KEY: tune.bracket_mark(spec)})
    result = tune.run_tune(spec, directory, workers=workers,
                           echo=(lambda m: None) if quiet else
                           (lambda m: click.echo(m, err=True)),
                           allow_mixed_builds=allow_mixed_builds)
    click.echo(render(result.state), nl=False)
    pic = picture(result.state, directory / "tune.png")
    click.echo(f"picture: {pic}")
    exit_if_stopped(result, directory)


def _bracket(spec, directory, workers: int, quiet: bool, allow_mixed_builds: bool,
             meta: dict[str, str]) -> None:
    """Method bracket: the elimination tournament over the grid, as `arena tournament`."""
    from mcts_arena.results.tournament import header, render
    from mcts_arena.runner.tournament import most_games, run_tournament

    click.echo(header(spec) + "\n")
    result = run_tournament(spec, directory, workers=workers, progress=not quiet,
                            echo=click.echo, allow_mixed_builds=allow_mixed_builds, meta=meta)
    click.echo(f"bracket: {most_games(spec):,} games at most ({spec.games} per match)")
    if result.interrupted:
        click.echo(render(result.state, with_header=False).rstrip())
    exit_if_stopped(result, directory)
