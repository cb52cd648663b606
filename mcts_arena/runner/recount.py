"""`arena recount DIR`: a store's aggregates (results/aggregates.py) counted again from its
games (with the pair table they score) and written in one transaction, under the lock; the games
are not touched. What a reader says to do when a store's aggregates disagree with its games (a
store changed by hand, or by a build that did not keep them)."""
from __future__ import annotations

import os

from mcts_arena.results.store import AGGREGATE_TABLES, Store
from mcts_arena.runner.writer import Writer, write_aggregates


def recount(directory: str | os.PathLike) -> str:
    """Recount the aggregates of the store in `directory`; one line saying what was found."""
    with Writer.open(directory) as w:
        before = _rows(w)
        with w.transaction("the aggregates"):
            games, pairs = write_aggregates(w.conn, w)
        same = before == _rows(w)
    return (f"{directory}: aggregates counted again from {games} games and {pairs} complete "
            f"pairs; " + ("they agreed with the games" if same else
                          "they had disagreed with the games and are mended"))


def _rows(store: Store) -> tuple:
    """The aggregate tables' rows as stored (unchecked: a damaged value is what a recount
    mends)."""
    return tuple(sorted(repr(tuple(r)) for r in store.conn.execute(f"SELECT * FROM {t}"))
                 for t in (*AGGREGATE_TABLES, "pair"))
