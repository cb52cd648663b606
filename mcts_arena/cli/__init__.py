"""The `arena` command line: one small module per group of commands, each parsing its options,
calling the packages that do the work and printing (no orchestration of its own).

    app.py          the group, the one place user mistakes become `arena: error: ...` (exit 2)
    look.py         games, players, show, perft, bench
    play.py         play, gtp
    run.py          run                     (the workflow: runner/run.py)
    tournament.py   tournament              (runner/tournament.py)
    tune.py         tune                    (runner/tune.py, report/tune.py)
    reproduce.py    reproduce               (runner/reproduce.py, report/reproduction.py)
    report.py       report                  (report/output.py)
    prove.py        prove, solve            (players/search/prover.pyx, runner/suites.py)
    serve.py        serve                   (serve/: the live web page)
    records.py      export, openings        (results/export.py, runner/book.py)
    gameframe.py    gameframe build, check  (players/gameframe.py: the authors' engine)
    fit.py          fit                     (learn/fit.py: evaluations fitted to outcomes)
    train.py        train                   (learn/net.py, runner/selfplay.py: networks)

A new command is a function with `@cli.command(...)` in one of these modules (or a new one
imported below).
"""
import sys

# app first: it handles SIGINT from the moment it is imported (see there); a Ctrl-C during the
# other commands' imports is then one line and status 130, not a traceback
from mcts_arena.cli.app import cli, main

try:
    from mcts_arena.cli import (  # noqa: F401
        fit,
        gameframe,
        look,
        play,
        prove,
        records,
        report,
        reproduce,
        run,
        serve,
        tournament,
        train,
        tune,
    )
except KeyboardInterrupt:
    print("arena: interrupted", file=sys.stderr)
    sys.exit(130)

__all__ = ["cli", "main"]
