"""Errors a user can cause. The CLI turns each into one line on stderr and exit status 2."""


class UserError(Exception):
    """Bad input from the user: the message names the problem in one line."""
