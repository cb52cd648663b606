"""`arena reproduce`: play the paper's tables and figures at a scale and write the record
(playing: runner/reproduce.py; the pages: report/reproduction.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from mcts_arena.cli.app import BACKEND_OPTION, cli, fail
from mcts_arena.errors import EXIT_INTERRUPTED, AllErrorGames


@cli.command("reproduce")
@click.option("--scale", "scale", type=float, default=0.1, show_default=True,
              help="Fraction of the paper's search effort (matched effort: each player gets the "
                   "paper engine's simulations/nodes for scale x the paper's seconds).")
@click.option("--games", type=int, default=40, show_default=True,
              help="Games per pairing (with --precision: the first look).")
@click.option("--precision", type=float, default=None, metavar="H",
              help="Play each row (not sweep points) in looks of 1.5x more games until its "
                   "95% interval is at most ±H points or excludes 50% (at a level split "
                   "over the looks), at most --max-games.")
@click.option("--max-games", type=int, default=None, metavar="N",
              help="With --precision: games per row at most [default: 4 x --games].")
@click.option("--sweep-games", type=int, default=None,
              help="At most this many games per point of an α sweep [default: --games].")
@click.option("--tournament-games", type=int, default=20, show_default=True,
              help="Games per match of the Appendix B tournaments (even).")
@click.option("--only", default=None, metavar="IDS",
              help="Comma-separated page ids (table2, fig1, ...; see configs/reproduction.yaml).")
@click.option("--jobs", "jobs", default=0, show_default=True, type=int,
              help="Games played at once; 0 = every CPU this process may use.")
@click.option("--out", "out", default="results/reproduction", show_default=True, metavar="DIR",
              help="Where the experiments' results directories go.")
@click.option("--docs", "docs", default="docs/reproduction", show_default=True, metavar="DIR",
              help="Where the pages go (index.md, one page per table or figure, PNGs).")
@click.option("--manifest", default="configs/reproduction.yaml", show_default=True,
              help="The list of pages and their experiments.")
@click.option("--pages-only", is_flag=True,
              help="Write the pages from what is stored; play nothing.")
@click.option("--replace-record", is_flag=True,
              help="Write pages into --docs over a record made at another scale (refused "
                   "otherwise); the other pages and their index rows are kept.")
@click.option("--allow-mixed-builds", is_flag=True,
              help="Add games to results another build of mcts_arena played (refused "
                   "otherwise); the pages list the builds behind each row.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@BACKEND_OPTION
@click.option("--ray-address", default=None, metavar="ADDR",
              help="With --backend ray: the cluster to join (default: start Ray locally).")
def reproduce_cmd(scale: float, games: int, precision: float | None, max_games: int | None,
                  sweep_games: int | None, tournament_games: int, only: str | None, jobs: int,
                  out: str, docs: str, manifest: str, pages_only: bool, replace_record: bool,
                  allow_mixed_builds: bool, quiet: bool, backend: str,
                  ray_address: str | None) -> None:
    """Play the paper's tables and figures at a fraction of its budget and write the record:
    docs/reproduction/index.md and a page per table or figure, ours beside the paper's with a
    verdict per row. Resumable: run it again to continue; finished experiments are not replayed."""
    from mcts_arena.report.reproduction import check_overwrite, write_record
    from mcts_arena.runner import reproduce
    from mcts_arena.runner.experiment import all_error_message
    from mcts_arena.runner.pool import worker_count
    from mcts_arena.runner.run import open_backend

    sc = reproduce.make_scale(scale, games, sweep_games, tournament_games, precision, max_games)
    record = reproduce.prepare(manifest, only, sc, out)  # every config checked before playing
    check_overwrite(Path(docs), [p.id for p, _d, _s in record.pages], scale, replace_record)
    if ray_address is not None and backend != "ray":
        fail("--ray-address needs --backend ray")
    workers = worker_count(jobs)
    all_error: tuple = ()
    if not pages_only:
        engine = open_backend(backend, ray_address)
        try:
            ran = reproduce.play(record, workers=engine.workers if engine else workers,
                                 backend=engine, progress=not quiet,
                                 echo=lambda m: click.echo(m, err=True),
                                 allow_mixed_builds=allow_mixed_builds)
        finally:
            if engine is not None:
                engine.close()
        if ran.interrupted:
            click.echo(f"arena: interrupted; resume with: {record.command}", err=True)
            sys.exit(EXIT_INTERRUPTED)
        all_error = ran.all_error
    idx, n = write_record(record.pages, docs, record.command, sc.describe(), record.order,
                          scale)
    click.echo(f"wrote {idx} and {n} page(s)")
    if all_error:
        # the pages are written (their other rows stand), but a row without a measurement
        # must not pass for a finished record: the all-error rule of `arena run`
        raise AllErrorGames(all_error_message(all_error))
