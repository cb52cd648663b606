"""The `arena` group: where every user mistake becomes one line, and what the commands share.

Every user mistake is a `UserError` (mcts_arena.errors) and is caught here, in one place:
`arena: error: <message>` on stderr, exit status 2, no traceback. The commands themselves (one
module each in this package) parse options, call the packages and print.
"""
from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable, Sequence

import click

from mcts_arena import __version__, budgets
from mcts_arena.errors import EXIT_ALL_ERRORS, EXIT_INTERRUPTED, AllErrorGames, UserError


def fail(message: str) -> None:
    raise UserError(message)


class CliError(click.ClickException):
    """A user mistake: one line on stderr, exit status 2, no traceback."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(f"arena: error: {self.format_message()}", err=True, file=file)


class ArenaGroup(click.Group):
    """Turns the UserError a command raises (and click's own usage errors) into a CliError."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except UserError as e:
            raise CliError(str(e)) from None
        except click.UsageError as e:
            sub = e.ctx is not None and e.ctx.parent is not None
            where = f"arena {e.ctx.info_name}" if sub else "arena"
            raise CliError(f"{e.format_message()} (see '{where} --help')") from None
        except sqlite3.DatabaseError as e:     # a store damaged after it was opened
            raise CliError(f"results store unreadable: {e}") from None
        except AllErrorGames as e:
            click.echo(f"arena: error: {e}", err=True)
            sys.exit(EXIT_ALL_ERRORS)
        except KeyboardInterrupt:               # Ctrl-C outside a run's own handling
            click.echo("arena: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)


class DerivedChoice(click.Choice):
    """A click.Choice whose choices come from their source when first needed (the game's
    evaluations, the renderer's formats), so the command line never repeats them and
    `arena --help` imports nothing heavy."""

    def __init__(self, source: Callable[[], Sequence[str]]):
        self._source = source
        super().__init__(())

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(self._source())

    @choices.setter
    def choices(self, _value) -> None:      # click.Choice.__init__ sets it; the source wins
        pass


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def cli() -> None:
    """mcts_arena: head-to-head game-AI tournaments on compiled game cores."""


def main() -> None:
    """Console entry point (`arena`). Exit statuses: see mcts_arena.errors."""
    try:
        cli(prog_name="arena")
    except KeyboardInterrupt:
        click.echo("arena: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)


# ---- checks the commands share ---------------------------------------------------------------
def check_budget_options(time_s: float | None, sims: int | None,
                         effort: float | None = None) -> None:
    """--time/--sims/--effort of `run`, `tournament` and `play`: one of them, inside
    mcts_arena.budgets' ranges (finite; an effort is paper-seconds, in the range of --time)."""
    if time_s is not None and sims is not None:
        fail("--time and --sims exclude each other; give one budget")
    if effort is not None and (time_s is not None or sims is not None):
        fail("--effort excludes --time and --sims; give one budget")
    if effort is not None and not budgets.time_ok(effort):
        fail(f"--effort must be {budgets.TIME_TEXT} (paper-seconds), got {effort}")
    if time_s is not None and not budgets.time_ok(time_s):
        fail(f"--time must be {budgets.TIME_TEXT}, got {time_s}")
    if sims is not None and not budgets.sims_ok(sims):
        fail(f"--sims must be {budgets.SIMS_TEXT}, got {sims}")


def check_scale_options(games: int | None, time_s: float | None, sims: int | None,
                        effort: float | None = None) -> None:
    """The --games/--time/--sims/--effort overrides shared by `run` and `tournament`."""
    check_budget_options(time_s, sims, effort)
    if games is not None and not budgets.games_ok(games):
        fail(f"--games must be {budgets.GAMES_TEXT}, got {games}")


def backends() -> tuple[str, ...]:
    from mcts_arena.runner.run import BACKENDS

    return BACKENDS


BACKEND_OPTION = click.option(
    "--backend", type=DerivedChoice(backends), default="local", show_default=True,
    help="Where games run: local worker processes, or a Ray cluster.")
