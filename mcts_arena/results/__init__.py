"""The read side: stored results, read-only (the store's schema and reader, games as DataFrames,
run summaries, SPRT state, tournament state, replays). Never imports the write side (runner/).

    >>> import mcts_arena.results as results
    >>> games = results.load("results/quickstart")          # one row per game
    >>> results.pairing_counts(games)                       # W/D/L per pairing
"""
from mcts_arena.results.frames import (COUNT_COLUMNS, GAME_COLUMNS, require_results_dir, frame,
                                       load, pairing_counts)

__all__ = ["COUNT_COLUMNS", "GAME_COLUMNS", "require_results_dir", "frame", "load",
           "pairing_counts"]
