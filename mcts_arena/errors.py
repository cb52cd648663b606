"""Errors a user can cause, and the exit statuses of `arena`.

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


class AllErrorGames(Exception):
    """Every game of some pairing failed: one line, exit status EXIT_ALL_ERRORS."""
