"""Errors a user can cause, and the exit statuses of `arena`.

Every mistake a user can make is a `UserError`: the message names the problem in one line, and
the command line catches `UserError` in one place (mcts_arena.cli) and prints
`arena: error: <message>` with exit status 2. The kinds below say where the mistake was; the
ones raised by parsers are also `ValueError`s, so code that parses text and catches
`ValueError` (a config validator naming the field, a report reading a foreign spec) keeps
working.

Exit statuses (docs/reliability.md): 0 done; 1 the results store could not be written (a full
disk, an I/O error: one line naming the error, every game stored before it stays; run again to
resume), or an unexpected failure (a bug: traceback); 2 a user mistake (one line `arena: error:
...`, nothing changed on disk); 3 the run finished but some pairing's games are all `error`
games (nothing measured; the errors are listed, a new run replays them); 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM): finished games kept, the resume command printed.
"""

EXIT_STORE = 1
EXIT_USER = 2
EXIT_ALL_ERRORS = 3
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143


class UserError(Exception):
    """Bad input from the user: the message names the problem in one line."""


class UnknownGameError(UserError, ValueError):
    """An unknown game or a bad game parameter."""


class PositionError(UserError, ValueError):
    """A position (the game's text form) that the game cannot read."""


class SpecError(UserError, ValueError):
    """A player specification that cannot be parsed; the message names the token."""


class ExternalError(SpecError):
    """An external player (GTP engine, Python class) that cannot be set up; names the player."""


class ConfigError(UserError):
    """A config mistake; the message is one line naming file, field path and expectation."""


class EffortError(UserError):
    """No engine rate for a player of a matched-effort budget, or a malformed rates file."""


class StoreLockedError(UserError):
    """Another `arena run` holds the results directory's lock."""


class StoreWriteError(Exception):
    """The results store could not be written (SQLite's "database or disk is full", an I/O
    error): the run stops at once, every game committed before stays stored. One line, exit
    status EXIT_STORE; `stored` (games stored) and `resume` (the command that resumes) are
    added by the code that knows them."""

    def __init__(self, message: str, stored: int | None = None, resume: str | None = None):
        super().__init__(message)
        self.message = message
        self.stored = stored
        self.resume = resume

    def __str__(self) -> str:
        text = self.message
        if self.stored is not None:
            text += f"; {self.stored} game(s) are stored and kept"
        return text + (f"; free some space, then resume with: {self.resume}" if self.resume
                       else "; free some space, then run the same command again to resume")


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C (finished games kept, the resume command printed) but
    ending with EXIT_TERMINATED."""


class AllErrorGames(Exception):
    """Every game of some pairing failed: one line, exit status EXIT_ALL_ERRORS (not a user
    mistake: the run itself finished)."""
