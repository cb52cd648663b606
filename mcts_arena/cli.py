"""The `arena` command line: parses options and wires the parts together (no logic of its own).

Every user mistake ends as one line on stderr and exit status 2 (see `main`).
"""
from __future__ import annotations

import json
import click

from mcts_arena import __version__, games
from mcts_arena.errors import UserError


def _fail(message: str) -> None:
    raise UserError(message)


def _load_state(game: str, position: str | None):
    try:
        return games.new_state(game, position)
    except games.UnknownGameError as e:
        _fail(str(e))
    except ValueError as e:
        _fail(str(e))


class CliError(click.ClickException):
    """A user mistake: one line on stderr, exit status 2, no traceback."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"arena: error: {self.format_message()}", err=True, file=file)


class ArenaGroup(click.Group):
    """Turns the UserError (and ValueError from parsers) a command raises into a CliError."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except UserError as e:
            raise CliError(str(e)) from None
        except click.UsageError as e:
            where = f"arena {e.ctx.info_name}" if e.ctx is not None else "arena"
            raise CliError(f"{e.format_message()} (see '{where} --help')") from None


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def cli() -> None:
    """mcts_arena: head-to-head game-AI tournaments on compiled game cores."""


@cli.command("games")
def games_cmd() -> None:
    """List the games and their evaluation functions."""
    for name in games.names():
        try:
            cls = games.game_class(name)
            evals = ", ".join(cls.eval_functions) or "-"
        except ImportError:
            evals = "(not built)"
        click.echo(f"{name:13s} {games.describe(name)}  [evaluations: {evals}]")


@cli.command("perft", context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.argument("depth", type=int)
@click.option("--position", default=None, help="Start from this position (the game's text form).")
def perft_cmd(game: str, depth: int, position: str | None) -> None:
    """Count the leaves of the move tree of GAME to DEPTH plies (the count is printed last)."""
    from mcts_arena.gametools import perft

    if depth < 0:
        _fail(f"perft depth must be a non-negative integer, got {depth}")
    state = _load_state(game, position)
    click.echo(f"perft {game} depth {depth}")
    click.echo(perft(state, depth))


@cli.command("show")
@click.argument("game")
@click.option("--position", default=None, help="The position in the game's text form.")
def show_cmd(game: str, position: str | None) -> None:
    """Print a position of GAME as a person reads it, the side to move and the legal moves."""
    state = _load_state(game, position)
    click.echo(str(state))
    click.echo(f"position: {state.to_text()}")
    moves = state.moves()
    click.echo(f"legal moves ({len(moves)}): {' '.join(moves)}")


@cli.command("bench")
@click.argument("game_names", nargs=-1, metavar="[GAME]...")
@click.option("--seconds", default=2.0, show_default=True, type=float,
              help="Time per game.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object keyed by game.")
def bench_cmd(game_names: tuple[str, ...], seconds: float, as_json: bool) -> None:
    """Random full-game playouts per second (and moves per second) on one core."""
    from mcts_arena.gametools import average_plies, playout_rate

    if seconds <= 0:
        _fail(f"--seconds must be positive, got {seconds}")
    names = list(game_names) or [g for g in games.names() if _built(g)]
    out = {}
    for name in names:
        state = _load_state(name, None)
        plies = average_plies(state, 2000)
        count, elapsed = playout_rate(state, seconds)
        rate = count / elapsed
        out[name] = {"playouts_per_s": round(rate, 1), "avg_plies": round(plies, 2),
                     "moves_per_s": round(rate * plies, 1), "playouts": count,
                     "seconds": round(elapsed, 3)}
        if not as_json:
            click.echo(f"{name:13s} {rate:12,.0f} playouts/s  {rate * plies:14,.0f} moves/s  "
                       f"(avg {plies:.1f} plies, {count} playouts in {elapsed:.2f} s)")
    if as_json:
        click.echo(json.dumps(out, indent=2))


def _built(name: str) -> bool:
    try:
        games.game_class(name)
        return True
    except ImportError:
        return False


def main() -> None:
    """Console entry point (`arena`)."""
    cli(prog_name="arena")
