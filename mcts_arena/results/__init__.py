"""The read side: stored results, read-only (the store's schema and reader, games as DataFrames,
run summaries, SPRT state, tournament state, replays). Never imports the write side (runner/).

    >>> import mcts_arena.results as results
    >>> games = results.load("results/quickstart")          # one row per game
    >>> results.pairing_counts(games)                       # W/D/L per pairing
"""
__all__ = ["COUNT_COLUMNS", "GAME_COLUMNS", "frame", "load", "pairing_counts",
           "require_results_dir"]


def __getattr__(name: str):
    # The DataFrame layer (frames.py: pandas, scipy) loads when first asked for, so the runner's
    # workers, which import this package's light modules (store, sprt), do not pay for it.
    if name in __all__:
        from mcts_arena.results import frames

        return getattr(frames, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
