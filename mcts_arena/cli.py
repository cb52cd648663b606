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
              help="Time per game (per player with --search).")
@click.option("--search", is_flag=True,
              help="Search speed instead: MCTS simulations/s and αβ nodes/s from the start.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object keyed by game.")
def bench_cmd(game_names: tuple[str, ...], seconds: float, search: bool, as_json: bool) -> None:
    """Random full-game playouts per second (and moves per second) on one core.

    With --search: simulations per second of the paper's MCTS players and nodes per second of
    αβ, from each game's start position, and the bytes each MCTS tree node takes.
    """
    from mcts_arena import bench

    if seconds <= 0:
        _fail(f"--seconds must be positive, got {seconds}")
    names = list(game_names) or [g for g in games.names() if _built(g)]
    for name in names:
        _load_state(name, None)
    out = bench.search_speed(names, seconds) if search else bench.playout_speed(names, seconds)
    if as_json:
        click.echo(json.dumps(out, indent=2))
    else:
        for line in bench.format_rows(out, search):
            click.echo(line)


@cli.command("players")
@click.argument("game", required=False)
def players_cmd(game: str | None) -> None:
    """List player kinds, tokens and macros (for GAME, if given) with one-line meanings."""
    from mcts_arena import players

    if game is not None:
        _load_state(game, None)
    click.echo("kinds: MCTS(...), αβ(...) (also ab, alphabeta), Random, Greedy(ef...), FlatMC")
    click.echo("tokens:")
    for tok, meaning in players.describe_tokens(game):
        click.echo(f"  {tok:12s} {meaning}")
    for g in [game] if game else games.names():
        cls = games.game_class(g)
        click.echo(f"{g}: evaluations {', '.join(cls.eval_functions)} (default "
                   f"{players.spec.DEFAULT_EVAL[g]}), C={players.DEFAULT_C[g]}")
        for name, body in players.MACROS.get(g, {}).items():
            click.echo(f"  macro {name:4s} = {body}")


@cli.command("play")
@click.argument("game")
@click.argument("spec_a")
@click.argument("spec_b")
@click.option("--time", "seconds", type=float, default=None, help="Seconds per move.")
@click.option("--sims", type=int, default=None, help="Simulations (αβ: nodes) per move.")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed for both players.")
@click.option("--position", default=None, help="Start from this position (the game's text form).")
@click.option("--show", is_flag=True, help="Print the board after every move.")
def play_cmd(game, spec_a, spec_b, seconds, sims, seed, position, show) -> None:
    """Play one game: SPEC_A moves first, SPEC_B second; print the moves and the result."""
    from mcts_arena import players
    from mcts_arena.players.base import derive_seed

    state = _load_state(game, position)
    if seconds is None and sims is None:
        seconds = 0.1
    if seconds is not None and seconds <= 0:
        _fail(f"--time must be positive, got {seconds}")
    if sims is not None and sims <= 0:
        _fail(f"--sims must be positive, got {sims}")
    try:
        seats = [players.make(spec, game, seed=derive_seed(seed, i))
                 for i, spec in enumerate((spec_a, spec_b))]
    except players.SpecError as e:
        _fail(str(e))
    click.echo(f"{seats[0].name} (first) vs {seats[1].name} (second)")
    ply = 0
    while not state.is_terminal():
        side = state.to_move()
        move, stats = seats[side].choose(state, time=seconds, sims=sims)
        text = state.format_move(move)
        state.play(move)
        ply += 1
        work = f"{stats['sims']} sims" if stats.get("sims") else f"{stats['nodes']} nodes"
        click.echo(f"{ply:3d}. {seats[side].name}: {text}  ({work}, depth {stats['depth']}, "
                   f"{stats['time']:.3f} s)")
        if show:
            click.echo(str(state))
    w = state.winner()
    click.echo("result: draw" if w is None else f"result: {seats[w].name} wins "
               f"({'first' if w == 0 else 'second'} player)")


def _built(name: str) -> bool:
    try:
        games.game_class(name)
        return True
    except ImportError:
        return False


def main() -> None:
    """Console entry point (`arena`)."""
    cli(prog_name="arena")
