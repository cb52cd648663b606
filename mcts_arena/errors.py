"""Errors a user can cause, and the exit statuses of `arena`.

Every mistake a user can make is a `UserError`: the message names the problem in one line, and
the command line catches `UserError` in one place (mcts_arena.cli) and prints
`arena: error: <message>` with exit status 2. The kinds below say where the mistake was; the
ones raised by parsers are also `ValueError`s, so code that parses text and catches
`ValueError` (a config validator naming the field, a report reading a foreign spec) keeps
working.

Exit statuses: 0 done; 1 an unexpected failure (a bug: traceback); 2 a user mistake (one line
`arena: error: ...`, nothing changed on disk); 3 the run finished but some pairing's games are
all `error` games (nothing measured; the errors are listed, a new run replays them); 130
interrupted (Ctrl-C), finished games kept.
"""

EXIT_USER = 2
EXIT_ALL_ERRORS = 3
EXIT_INTERRUPTED = 130


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


class AllErrorGames(Exception):
    """Every game of some pairing failed: one line, exit status EXIT_ALL_ERRORS (not a user
    mistake: the run itself finished)."""
