"""The `arena` group: where every user mistake becomes one line, and what the commands share.

Every user mistake is a `UserError` (mcts_arena.errors) and is caught here, in one place:
`arena: error: <message>` on stderr, exit status 2, no traceback; click's own usage errors too,
the group's (`arena --turbo`) as well as a command's. A store that cannot be written
(`StoreWriteError`: a full disk) is one line and exit status 1; Ctrl-C 130, SIGTERM 143
(docs/reliability.md). Every command refuses an option given twice (`ArenaCommand`), and every
count option is an `Integer` (the one integer rule, mcts_arena.inputs). The commands themselves
(one module each in this package) parse options, call the packages and print.
"""
from __future__ import annotations

import signal
import sqlite3
import sys
from collections.abc import Callable, Sequence

import click

from mcts_arena import __version__, budgets, inputs, plugins
from mcts_arena.errors import (
    EXIT_ALL_ERRORS,
    EXIT_INTERRUPTED,
    EXIT_STORE,
    EXIT_TERMINATED,
    AllErrorGames,
    StoreWriteError,
    Terminated,
    UserError,
)


def fail(message: str) -> None:
    raise UserError(message)


def error_line(message: str) -> str:
    """`arena: error: MESSAGE` as one line whatever the message quotes from the user (a key
    holding a newline or a carriage return is shown escaped, as Python writes it)."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    return f"arena: error: {text}"


class CliError(click.ClickException):
    """A user mistake: one line on stderr, exit status 2, no traceback."""

    exit_code = 2

    def show(self, file=None) -> None:
        click.echo(error_line(self.format_message()), err=True, file=file)


def _usage(e: click.UsageError) -> CliError:
    sub = e.ctx is not None and e.ctx.parent is not None
    where = f"arena {e.ctx.info_name}" if sub else "arena"
    return CliError(f"{e.format_message()} (see '{where} --help')")


def exit_if_stopped(result, directory) -> None:
    """After a workflow that returns when Ctrl-C or SIGTERM stopped it (`result.interrupted`,
    `result.terminated`): say how to resume, exit 130 or 143."""
    if not result.interrupted:
        return
    how = "terminated" if result.terminated else "interrupted"     # SIGTERM or Ctrl-C
    click.echo(f"arena: {how}; resume with the same command (results in {directory})", err=True)
    sys.exit(EXIT_TERMINATED if result.terminated else EXIT_INTERRUPTED)


def interrupted(e: KeyboardInterrupt) -> None:
    """Ctrl-C (130) or SIGTERM (143) outside a run's own handling: one line, the status."""
    terminated = isinstance(e, Terminated)
    click.echo(f"arena: {'terminated' if terminated else 'interrupted'}", err=True)
    sys.exit(EXIT_TERMINATED if terminated else EXIT_INTERRUPTED)


class ArenaCommand(click.Command):
    """A command that refuses an option given twice (`--games 3 --games 4`): the one rule of
    mcts_arena.inputs.once, instead of click's last-one-wins."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args:
            _opts, _rest, order = self.make_parser(ctx).parse_args(args=list(args))
            inputs.once((p.opts[0] for p in order if isinstance(p, click.Option)
                         and not p.multiple and not p.count), "the command line")
        return super().parse_args(ctx, args)


class ArenaGroup(click.Group):
    """Turns the UserError a command raises (and click's own usage errors) into a CliError."""

    command_class = ArenaCommand

    def make_context(self, info_name, args, parent=None, **extra):
        try:
            return super().make_context(info_name, args, parent=parent, **extra)
        except click.exceptions.NoArgsIsHelpError:
            raise                               # `arena` alone: its help
        except click.UsageError as e:           # `arena --turbo`
            raise _usage(e) from None
        except UserError as e:
            raise CliError(str(e)) from None

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except UserError as e:
            raise CliError(str(e)) from None
        except click.UsageError as e:
            raise _usage(e) from None
        except StoreWriteError as e:            # a full disk: stop, keep what is stored
            click.echo(error_line(str(e)), err=True)
            sys.exit(EXIT_STORE)
        except sqlite3.DatabaseError as e:
            if (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF in (10, 13):   # IOERR, FULL
                click.echo(error_line(f"results store: {e}; every game stored before it is "
                                      f"kept"), err=True)
                sys.exit(EXIT_STORE)
            raise CliError(f"results store unreadable: {e}") from None   # damaged after opening
        except AllErrorGames as e:
            click.echo(error_line(str(e)), err=True)
            sys.exit(EXIT_ALL_ERRORS)
        except KeyboardInterrupt as e:          # Ctrl-C outside a run's own handling
            interrupted(e)


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
    plugins.load()          # MCTS_ARENA_PLUGINS: games, kinds, statistics from outside


# Ctrl-C from the first moment: a SIGINT ignored by whoever started us (a background job of a
# script) would otherwise be lost until a run installs its own handler, and the run would play
# on (main installs the handler too, for a caller that imported this module long before)
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _terminate(signum, frame) -> None:
    raise Terminated


def main() -> None:
    """Console entry point (`arena`). Exit statuses: see mcts_arena.errors. SIGTERM is handled
    like Ctrl-C (a run stops cleanly and prints how to resume), ending with status 143."""
    signal.signal(signal.SIGTERM, _terminate)
    signal.signal(signal.SIGINT, signal.default_int_handler)    # even if started ignoring it
    try:
        cli(prog_name="arena")
    except KeyboardInterrupt as e:
        interrupted(e)


class Integer(click.ParamType):
    """A count option: the one integer rule (mcts_arena.inputs.integer), one line naming the
    option and its range (`--nodes must be an integer from 0 to ..., got ...`)."""

    name = "integer"

    def __init__(self, low: int, high: int):
        self.low, self.high = low, high

    def convert(self, value, param, ctx):
        if param is None:
            what = "value"
        elif isinstance(param, click.Argument):
            what = param.human_readable_name
        else:
            what = param.opts[0]
        return inputs.integer(value, self.low, self.high, what)

    def get_metavar(self, param, ctx=None) -> str:
        """An argument by its own name (the one its errors use: `GAME DEPTH`), an option N."""
        return param.human_readable_name if isinstance(param, click.Argument) else "N"


SEED = Integer(0, inputs.SEED_MAX)
JOBS = Integer(0, 100_000)                          # more than the usable CPUs is cut to them
GAMES = Integer(1, budgets.GAMES_MAX)
SIMS = Integer(1, budgets.SIMS_MAX)


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
