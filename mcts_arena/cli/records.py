"""Games and positions in and out of the tool: `arena export` (stored games as PGN, SGF, JSON
lines: results/export.py) and `arena openings` (an opening book: runner/book.py)."""
from __future__ import annotations

import click

from mcts_arena.cli.app import SEED, DerivedChoice, Integer, cli


def _formats():
    from mcts_arena.results.export import FORMATS

    return FORMATS


def _results():
    from mcts_arena.results.export import RESULTS

    return RESULTS


@cli.command("export")
@click.argument("results_dir", metavar="RESULTS")
@click.option("--format", "fmt", default="auto", show_default=True,
              type=DerivedChoice(_formats),
              help="auto: each game's own record (PGN-style for Breakthrough, Kalah, LOA, "
                   "tic-tac-toe, backgammon; SGF for Hex and Gomoku); mat: backgammon as a "
                   "Jellyfish match file (gnubg: import mat FILE); jsonl: one JSON object per "
                   "game.")
@click.option("--pairing", default=None, metavar="ID",
              help="Only this pairing: its id (the report's pairing_id) or 'A vs B'.")
@click.option("--player", default=None, metavar="SPEC",
              help="Only games this player played (its spec or the report's name for it).")
@click.option("--result", default=None, type=DerivedChoice(_results),
              help="Only games with this result for --player (else the pairing's player).")
@click.option("--out", default=None, metavar="FILE", help="Write to FILE instead of stdout.")
@click.option("--force", is_flag=True, help="With --out: replace an existing FILE.")
def export_cmd(results_dir: str, fmt: str, pairing: str | None, player: str | None,
               result: str | None, out: str | None, force: bool) -> None:
    """Write the stored games of RESULTS as records other tools read: PGN with the game's
    own notation and a comment per move ({sims=... nodes=... depth=... time=... value=...}),
    SGF FF[4] that HexGui (Hex) and Sabaki (Gomoku) open, a backgammon match file (.mat)
    that GNU Backgammon imports, or JSON lines. `arena show FILE`
    replays such a file."""
    from mcts_arena.results.export import export, write_file

    texts, count = export(results_dir, fmt, pairing, player, result)
    if out is None:
        for text in texts:
            click.echo(text, nl=False)
    else:
        write_file(out, texts, force)
    click.echo(f"arena: exported {count} game(s) from {results_dir}"
               + (f" to {out}" if out else ""), err=True)


@cli.command("luck")
@click.argument("results_dir", metavar="RESULTS")
@click.option("--plies", type=Integer(0, 2), default=0, show_default=True,
              help="gnubg's analysis depth (0 ply: about 0.1 s a game).")
@click.option("--pairing", default=None, metavar="ID",
              help="Only this pairing: its id (the report's pairing_id) or 'A vs B'.")
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "json"]))
@click.option("--save", is_flag=True,
              help="Keep the analysis in RESULTS/luck.json, which `arena report` shows.")
def luck_cmd(results_dir: str, plies: int, pairing: str | None, fmt: str, save: bool) -> None:
    """Backgammon results with the dice's luck taken out: GNU Backgammon analyses every
    finished game of RESULTS (cube off) and each pairing's luck-adjusted points per game are
    printed beside its raw score and points per game, each with its 95% interval. Reads the
    store only; with --save the analysis is kept beside it for `arena report`."""
    import json

    from mcts_arena.players.gnubg_player import gnubg_path
    from mcts_arena.results.frames import require_results_dir
    from mcts_arena.results.luck import analyse, text
    from mcts_arena.results.luck import save as keep

    directory = require_results_dir(results_dir)
    rows = analyse(directory, gnubg_path(), plies, pairing)
    if save:
        keep(directory, rows, plies)
    click.echo(json.dumps(rows, indent=2) if fmt == "json" else text(rows, plies), nl=False)
    if fmt == "json":
        click.echo()


@cli.command("openings")
@click.argument("game")
@click.option("--plies", type=Integer(0, 1000), required=True,
              help="Uniformly random plies from the start to each position.")
@click.option("--count", type=Integer(1, 100000), required=True,
              help="Positions in the book.")
@click.option("--balanced", is_flag=True,
              help="Keep only positions the reference search scores near even: its value for "
                   "the side to move within ±--window after --sims simulations.")
@click.option("--reference", default="MCTS", show_default=True, metavar="SPEC",
              help="With --balanced: the player whose search judges a position.")
@click.option("--sims", type=Integer(1, 10**7), default=1000, show_default=True,
              help="With --balanced: simulations (αβ: nodes) per judged position.")
@click.option("--window", type=click.FloatRange(0, 1), default=0.15, show_default=True,
              help="With --balanced: the largest |value| kept (values are in [-1, 1]).")
@click.option("--seed", type=SEED, default=1, show_default=True)
@click.option("--out", default=None, metavar="FILE", help="Write to FILE instead of stdout.")
@click.option("--force", is_flag=True, help="With --out: replace an existing FILE.")
def openings_cmd(game: str, plies: int, count: int, balanced: bool, reference: str, sims: int,
                 window: float, seed: int, out: str | None, force: bool) -> None:
    """Write an opening book for GAME: COUNT distinct positions PLIES random plies from the
    start, one move list per line (configs: openings: {file: FILE}; arena run --openings)."""
    from mcts_arena.results.export import write_file
    from mcts_arena.runner.book import Balance, book_text, make_book

    balance = Balance(reference, sims, window) if balanced else None
    lines, tried = make_book(game, plies, count, seed, balance)
    text = book_text(game, plies, count, seed, balance, lines, tried)
    if out is None:
        click.echo(text, nl=False)
    else:
        write_file(out, [text], force)
    click.echo(f"arena: {len(lines)} positions from {tried} tried"
               + (f", written to {out}" if out else ""), err=True)
