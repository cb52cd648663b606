"""`arena report PATH...`: tables, pictures and the paper beside ours (mcts_arena.report)."""
from __future__ import annotations

from pathlib import Path

import click

from mcts_arena.cli.app import DerivedChoice, Integer, cli


def _formats():
    from mcts_arena.report.render import FORMATS

    return FORMATS


def _ci_methods():
    from mcts_arena.stats import CI_METHODS

    return CI_METHODS


@cli.command("report")
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option("--format", "fmt", default="text", show_default=True, type=DerivedChoice(_formats),
              help="Output format; html is one self-contained page (pictures embedded as "
                   "base64 PNGs) written to the --out folder.")
@click.option("--ci", default="auto", show_default=True, type=DerivedChoice(_ci_methods),
              help="95% interval: wald (the paper's), wilson, or auto (Wilson below 100 games).")
@click.option("--out", "out", default=None, metavar="DIR",
              help="Folder for plots and the html page [default: each PATH's pictures in "
                   "PATH/report, the page and sweeps across stores in <first PATH>/report].")
@click.option("--compare", default=None, type=click.Choice(["paper"]),
              help="Put the paper's published numbers beside ours, with a verdict.")
@click.option("--figures", "figures", default="png", show_default=True,
              type=click.Choice(["png", "svg", "pdf"]),
              help="The pictures' file format (svg and pdf for a paper's sources).")
@click.option("--dpi", type=Integer(50, 1200), default=100, show_default=True,
              help="Resolution of PNG pictures (300 for print).")
def report_cmd(paths: tuple[str, ...], fmt: str, ci: str, out: str | None,
               compare: str | None, figures: str, dpi: int) -> None:
    """Tables (W/D/L, score with CI, Elo, LOS, per-seat wins, game length, sims per move),
    sweep plots and tournament brackets for the results directories PATH... A PATH may be a
    results root (results/): every experiment under it, after an index of them (experiment,
    game, games, pairings, state). The stores are only read; the pictures (and an html page)
    are written to --out, by default each store's pictures into its own PATH/report/ and the
    page (and a sweep across stores) into <first PATH>/report/."""
    from mcts_arena.report.output import report
    from mcts_arena.serve.catalog import expand_roots

    dirs, index = expand_roots(list(paths))
    if out is None and index is not None and paths[0] not in dirs:
        out = str(Path(paths[0]) / "report")     # a root's report beside its experiments
    for chunk in report(dirs, fmt, ci, out, compare, figures, dpi, index=index):
        click.echo(chunk, nl=False)


@cli.command("recount")
@click.argument("results_dir", metavar="RESULTS")
def recount_cmd(results_dir: str) -> None:
    """Count the aggregates of the store in RESULTS (what reports, standings and the live page
    read instead of every game) again from its games, and write them in one transaction. The
    games are not changed. Needed only for a store whose aggregates disagree with its games
    (changed by hand, or by a build that did not keep them): a report names such a store."""
    from mcts_arena.results.frames import require_results_dir
    from mcts_arena.runner.recount import recount

    click.echo(recount(require_results_dir(results_dir)))


@cli.command("upgrade")
@click.argument("results_dir", metavar="RESULTS")
def upgrade_cmd(results_dir: str) -> None:
    """Rewrite the store in RESULTS, written by an older build, in this build's schema: games'
    moves and statistics packed (a fifth of their text), the aggregates added. The new file is
    built beside the old one, compared with it row by row, and only then put in its place: a
    crash at any moment leaves the old store or the checked new one. A store a run is writing
    is refused; prints the size before and after."""
    from mcts_arena.results.frames import require_results_dir
    from mcts_arena.runner.upgrade import upgrade

    click.echo(upgrade(require_results_dir(results_dir)))
