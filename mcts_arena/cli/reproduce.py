"""`arena reproduce`: play the paper's tables and figures at a scale and write the record
(playing: runner/reproduce.py; the pages: report/reproduction.py)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from mcts_arena import budgets
from mcts_arena.cli.app import BACKEND_OPTION, GAMES, JOBS, Integer, cli, fail
from mcts_arena.errors import EXIT_INTERRUPTED, EXIT_TERMINATED, AllErrorGames


@cli.command("reproduce")
@click.option("--scale", "scale", type=float, default=0.1, show_default=True,
              help="Fraction of the paper's search effort (matched effort: each player gets the "
                   "paper engine's simulations/nodes for scale x the paper's seconds).")
@click.option("--games", type=GAMES, default=40, show_default=True,
              help="Games per pairing (with --precision: the first look).")
@click.option("--precision", type=float, default=None, metavar="H",
              help="Play each row (not sweep points) in looks of 1.5x more games until its "
                   "95% interval is at most ±H points or excludes 50% (at a level split "
                   "over the looks), at most --max-games.")
@click.option("--aim", type=click.Choice(["50", "paper"]), default="50", show_default=True,
              help="With --precision: a row is decided once its interval (at the looks' "
                   "corrected level) excludes 50% (the paper's side), or the paper's own value "
                   "for the row (paper: the value is tested).")
@click.option("--max-games", type=GAMES, default=None, metavar="N",
              help="With --precision: games per row at most [default: 4 x --games].")
@click.option("--sweep-games", type=GAMES, default=None,
              help="At most this many games per point of an α sweep [default: --games].")
@click.option("--tournament-games", type=Integer(2, budgets.GAMES_MAX), default=20,
              show_default=True,
              help="Games per match of the Appendix B tournaments (even).")
@click.option("--only", default=None, metavar="IDS",
              help="Comma-separated page ids (table2, fig1, ...; see configs/reproduction.yaml).")
@click.option("--jobs", "jobs", default=0, show_default=True, type=JOBS,
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
@click.option("--publish", "publish", default=None, metavar="DIR",
              help="After writing the pages, write every page's games to DIR as published "
                   "data (one EXPERIMENT.jsonl.gz per results directory; docs/reproduction/"
                   "data/README.md describes the format).")
@click.option("--from-data", "from_data", default=None, metavar="DIR",
              help="Rebuild the pages of --docs from published data (DIR, as --publish writes "
                   "it): each page (of --only, if given) with the command its record.json "
                   "names; plays nothing.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@click.option("--dry-run", is_flag=True,
              help="Print every page's plan (games to play, each move's work and cost, the "
                   "estimated CPU time); play and write nothing.")
@BACKEND_OPTION
@click.option("--ray-address", default=None, metavar="ADDR",
              help="With --backend ray: the cluster to join (default: start Ray locally).")
def reproduce_cmd(scale: float, games: int, precision: float | None, aim: str,
                  max_games: int | None,
                  sweep_games: int | None, tournament_games: int, only: str | None, jobs: int,
                  out: str, docs: str, manifest: str, pages_only: bool, replace_record: bool,
                  allow_mixed_builds: bool, publish: str | None, from_data: str | None,
                  quiet: bool, dry_run: bool, backend: str, ray_address: str | None) -> None:
    """Play the paper's tables and figures at a fraction of its budget and write the record:
    docs/reproduction/index.md and a page per table or figure, ours beside the paper's with a
    verdict per row. Resumable: run it again to continue; finished experiments are not replayed."""
    from mcts_arena.report.reproduction import check_overwrite, write_record
    from mcts_arena.runner import reproduce
    from mcts_arena.runner.experiment import all_error_message
    from mcts_arena.runner.pool import worker_count
    from mcts_arena.runner.run import open_backend

    if from_data is not None:
        n = rebuild_from_data(Path(from_data), Path(docs), manifest, only, dry_run)
        click.echo(f"{'would rebuild' if dry_run else 'rebuilt'} {n} page(s) of {docs} from "
                   f"{from_data}" + (" (dry run: nothing written)" if dry_run else ""))
        return
    sc = reproduce.make_scale(scale, games, sweep_games, tournament_games, precision, max_games,
                              aim)
    record = reproduce.prepare(manifest, only, sc, out)  # every config checked before playing
    if publish is not None:
        reproduce.check_publish(Path(publish), record)
    if dry_run:
        click.echo(reproduce.dry_run(record, worker_count(jobs)))
        return
    check_overwrite(Path(docs), [p.id for p, _d, _s in record.pages], scale, replace_record)
    if ray_address is not None and backend != "ray":
        fail("--ray-address needs --backend ray")
    workers = worker_count(jobs)
    all_error: tuple = ()
    if not pages_only:
        reproduce.check_rates_measured(record)
        engine = open_backend(backend, ray_address)
        try:
            ran = reproduce.play(record, workers=engine.workers if engine else workers,
                                 backend=engine, progress=not quiet,
                                 echo=lambda m: click.echo(m, err=True),
                                 allow_mixed_builds=allow_mixed_builds)
        finally:
            if engine is not None:
                engine.close()
        if ran.interrupted:         # Ctrl-C (130) or SIGTERM (143)
            how = "terminated" if ran.terminated else "interrupted"
            click.echo(f"arena: {how}; resume with: {record.command}", err=True)
            sys.exit(EXIT_TERMINATED if ran.terminated else EXIT_INTERRUPTED)
        all_error = ran.all_error
    idx, n = write_record(record.pages, docs, record.command, sc.describe(), record.order,
                          scale)
    click.echo(f"wrote {idx} and {n} page(s)")
    if publish is not None:
        from mcts_arena.results import archive

        dest = Path(publish)
        dest.mkdir(parents=True, exist_ok=True)     # checked before anything was played
        for _page, dirs, _secs in record.pages:
            for d in dirs:
                if (d / "arena.sqlite").exists():
                    n_games = archive.dump(d, dest / f"{d.name}{archive.SUFFIX}")
                    click.echo(f"published {n_games} games of {d.name} in {dest}")
    if all_error:
        # the pages are written (their other rows stand), but a row without a measurement
        # must not pass for a finished record: the all-error rule of `arena run`
        raise AllErrorGames(all_error_message(all_error))


def _played_with(command: str, where: str):
    """(the options, the Scale) of a page's `arena reproduce` command in record.json; a
    command that is not one, or does not parse, is one line naming `where`."""
    import shlex

    from mcts_arena.errors import UserError
    from mcts_arena.runner import reproduce

    try:
        words = shlex.split(command)
    except ValueError as e:
        raise UserError(f"{where}: {command!r}: {e}") from None
    if words[:2] != ["arena", "reproduce"]:
        raise UserError(f"{where}: not played by an `arena reproduce` command ({command!r}); "
                        f"cannot rebuild")
    try:
        a = reproduce_cmd.make_context("reproduce", words[2:]).params
        return a, reproduce.make_scale(a["scale"], a["games"], a["sweep_games"],
                                       a["tournament_games"], a["precision"], a["max_games"],
                                       a["aim"])
    except (UserError, click.ClickException) as e:
        raise UserError(f"{where}: {command!r}: {getattr(e, 'message', None) or e}") from None


def rebuild_from_data(data: Path, docs: Path, manifest: str, only: str | None = None,
                      dry_run: bool = False) -> int:
    """Restore the published stores of `data` into a temporary folder and write every page of
    `docs`'s record.json again from them (`only`: the comma-separated pages to write, each
    restoring only its own experiments' files), each page with the `arena reproduce` command
    its entry names (so with the scale, games and stop rule it was played with). The pages
    written are a pure function of the games, so an unchanged record comes out byte for byte.
    `dry_run`: every file restored and checked, no page written."""
    import json
    import tempfile

    from mcts_arena.errors import UserError
    from mcts_arena.report.reproduction import load_record, write_record
    from mcts_arena.runner import reproduce
    from mcts_arena.runner.restore import restore_all

    record = load_record(docs)
    if not record:
        raise UserError(f"{docs}: holds no record.json to rebuild")
    wanted = None
    if only is not None:
        wanted = [x.strip() for x in only.split(",")]
        unknown = [w for w in wanted if w not in record]
        if not all(wanted) or unknown:
            raise UserError(f"--only {only}: {', '.join(unknown) or 'an empty id'} is not a page "
                            f"of {docs}/record.json")
    commands: dict[str, list[str]] = {}
    for pid, page in record.items():
        if wanted is None or pid in wanted:
            command = page.get("command", "") if isinstance(page, dict) else None
            if not isinstance(command, str):
                raise UserError(f"{docs}/record.json: page {pid}: expected an entry with the "
                                f"command as text, got {json.dumps(page)[:60]}")
            commands.setdefault(command, []).append(pid)
    with tempfile.TemporaryDirectory(prefix="arena-record-") as tmp:
        plans = []
        for command, pids in commands.items():
            a, sc = _played_with(command, f"{docs}/record.json: pages {', '.join(pids)}")
            # only the pages whose entry names this command (a later command may have played
            # some pages of an earlier one again)
            plans.append((command, a, sc, reproduce.prepare(manifest, ",".join(pids), sc, tmp)))
        restore_all(data, tmp, {d.name for *_x, rec in plans for _p, dirs, _s in rec.pages
                                for d in dirs})
        n = 0
        for command, a, sc, rec in plans:
            # only the pages whose games are all published (the others are left as they are)
            pages = []
            for page, dirs, secs in rec.pages:
                missing = [d.name for d in dirs if not (d / "arena.sqlite").exists()]
                if missing:
                    click.echo(f"{page.id}: not rebuilt: no published games of "
                               f"{', '.join(missing)} in {data}", err=True)
                else:
                    pages.append((page, dirs, secs))
            if pages and not dry_run:
                write_record(pages, docs, command, sc.describe(), rec.order, a["scale"])
            n += len(pages)
    return n
