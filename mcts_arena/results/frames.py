"""Stored games as pandas DataFrames: the table layer under `arena report`.

    >>> import mcts_arena.results as results
    >>> games = results.load("results/quickstart")          # one row per game
    >>> games.groupby("pairing")["result"].value_counts()
    >>> from mcts_arena.report.render import report_frame   # the report's rows (its CSV)
    >>> rows = report_frame(["results/quickstart"])

`load(DIR)` reads a results directory (read-only) into a DataFrame with one row per stored game
(error games included; their `result` is "error"), without the games' moves (`load(DIR,
moves=True)` adds them as a column `moves`, each game's list of moves in notation). Columns
(`GAME_COLUMNS`):

    experiment, game        experiment name, game name
    game_id, pairing        the game's id, its pairing's id
    pair_index, swap        seat-swapped pair number; swap 0: the pairing's player sat in seat 0
    player, opponent        canonical specs of the pairing's player and opponent
    seat0, seat1            specs in seat 0 (moves first) and seat 1
    player_seat             0 or 1, the seat of the pairing's player (= swap)
    player_budget, opponent_budget   each side's budget in this game as stored, JSON text
                            ('{"sims": 40}', '{"time": 1.0}', '{"effort": 1, "sims": 5000, ...}')
    opening                 the opening (moves or position) the game started from
    winner                  winning seat (<NA>: draw or error)
    result                  for the pairing's player: "win", "draw", "loss" or "error"
    score                   1, 0.5, 0 for the player (NaN for an error game)
    reason                  how the game ended (e.g. "terminal", "max_plies", "time_forfeit",
                            "error")
    plies                   game length in plies
    player_moves, opponent_moves       moves each side made
    player_sims, opponent_sims         mean simulations per move of each side (0 for a player
                                       that reports none, e.g. αβ)
    player_nodes, opponent_nodes       mean nodes per move of each side
    player_time, opponent_time         mean seconds per move as the player reported it (NaN if not)
    player_wall, opponent_wall         mean wall seconds per move as the match measured it
    duration                wall seconds of the whole game
    version, build          the mcts_arena version and build fingerprint that played the game
                            (None for a game stored before games carried their build)

`pairing_counts(games)` aggregates it per pairing (W/D/L, errors, per-seat wins, mean plies,
work per move) as `arena report` counts: the games are counted into the store's aggregates and
those into the statistics of results/aggregates.py, the one definition of each, which the
report reads from the store's aggregates instead of every game. This module sits below the
report: it imports the store and the aggregates only.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from mcts_arena.errors import UserError
from mcts_arena.results import aggregates
from mcts_arena.results.store import DB_NAME, GAME_TABLE_COLUMNS, Store

GAME_COLUMNS = ("experiment", "game", "game_id", "pairing", "pair_index", "swap", "player",
                "opponent", "seat0", "seat1", "player_seat", "player_budget", "opponent_budget",
                "opening", "winner", "result", "score", "reason", "plies", "player_moves",
                "opponent_moves", "player_sims", "opponent_sims", "player_nodes",
                "opponent_nodes", "player_time", "opponent_time", "player_wall",
                "opponent_wall", "duration", "version", "build")
RESULTS = {1.0: "win", 0.5: "draw", 0.0: "loss"}
#: The built-in statistics' names (results/aggregates.py defines each).
COUNT_COLUMNS = aggregates.count_columns()


def _side(stats: list[dict], seat: int) -> dict:
    moves = [st for st in stats if st.get("seat") == seat]
    n = len(moves)

    def mean(key):
        vals = [st[key] for st in moves if st.get(key) is not None]
        return float(np.mean(vals)) if vals else np.nan
    return {"moves": n,
            "sims": sum(st.get("sims") or 0 for st in moves) / n if n else np.nan,
            "nodes": sum(st.get("nodes") or 0 for st in moves) / n if n else np.nan,
            "time": mean("time"), "wall": mean("wall")}


def _budget(b) -> str | None:
    return None if b is None else json.dumps(
        {k: v for k, v in b.items() if v is not None}, sort_keys=True, ensure_ascii=False)


#: The game table's columns a frame reads without the moves (the per-move statistics give
#: each side's moves and work).
_READ = ", ".join(c for c in GAME_TABLE_COLUMNS if c not in ("moves_json", "seeds_json"))


def frame(store: Store, moves: bool = False) -> pd.DataFrame:
    """The games of an open `store.Store` as a DataFrame (see the module docstring); with
    `moves`, a last column `moves` holds each game's moves."""
    exp = store.experiment() or {}
    cfg = exp.get("config", {})
    pairings = {p["pairing_id"]: (p["player"], p["opponent"]) for p in store.pairings()}
    recs = []
    columns = _READ + (", moves_json" if moves else "")
    if not store.has_column("game", "build"):
        columns = ", ".join(c for c in columns.split(", ") if c not in ("version", "build"))
    for g in store.iter_select("game", columns, order="pairing_id, pair_index, swap"):
        player, opponent = pairings.get(g["pairing_id"], (None, None))
        seats = list(g["budgets"]) + [None, None]
        pbt, obt = _budget(seats[g["swap"]]), _budget(seats[1 - g["swap"]])
        err = g["reason"] == "error"
        mine, theirs = _side(g["stats"], g["swap"]), _side(g["stats"], 1 - g["swap"])
        recs.append({
            "experiment": exp.get("name", store.directory.name), "game": cfg.get("game"),
            "game_id": g["game_id"], "pairing": g["pairing_id"], "pair_index": g["pair_index"],
            "swap": g["swap"], "player": player, "opponent": opponent, "seat0": g["seat0"],
            "seat1": g["seat1"], "player_seat": g["swap"], "player_budget": pbt,
            "opponent_budget": obt, "opening": g["opening"], "winner": g["winner"],
            "result": "error" if err else RESULTS[g["score"]],
            "score": np.nan if err else g["score"], "reason": g["reason"], "plies": g["plies"],
            **{f"player_{k}": v for k, v in mine.items()},
            **{f"opponent_{k}": v for k, v in theirs.items()},
            "duration": g["duration"], "version": g.get("version"), "build": g.get("build"),
            **({"moves": g["moves"]} if moves else {})})
    df = pd.DataFrame.from_records(recs, columns=list(GAME_COLUMNS) + (["moves"] if moves
                                                                          else []))
    df["winner"] = df["winner"].astype("Int64")
    for c in ("pair_index", "swap", "player_seat", "plies", "player_moves", "opponent_moves"):
        df[c] = df[c].astype("int64")
    return df


def require_results_dir(path: str | Path) -> Path:
    """`path` as a Path if it is a results directory (holds arena.sqlite), else a UserError."""
    d = Path(path)
    if not d.is_dir() or not (d / DB_NAME).exists():
        what = "no such directory" if not d.exists() else (
            "not a directory" if not d.is_dir() else f"no {DB_NAME} in it")
        raise UserError(f"{path}: not a results directory ({what}); give a folder that "
                        f"'arena run' or 'arena tournament' wrote, e.g. results/<name>")
    return d


def load(directory: str | Path, moves: bool = False) -> pd.DataFrame:
    """The stored games of the results directory `directory` (read-only), one row per game;
    with `moves`, their moves too (see the module docstring)."""
    with Store.open(require_results_dir(directory)) as store:
        return frame(store, moves)


def _side_sums(r, side: str) -> tuple:
    """(moves, sims, nodes, wall, walled) of a side in one game's frame row, as
    aggregates.side_totals sums its moves (the frame keeps means per move)."""
    n = int(getattr(r, f"{side}_moves"))

    def times_n(v) -> float:
        return 0.0 if pd.isna(v) else float(v) * n
    wall = getattr(r, f"{side}_wall")
    return (n, times_n(getattr(r, f"{side}_sims")), times_n(getattr(r, f"{side}_nodes")),
            times_n(wall), 0 if pd.isna(wall) else n)


def pairing_counts(games: pd.DataFrame) -> pd.DataFrame:
    """Per pairing (index: pairing id), the statistics `arena report` shows (COUNT_COLUMNS and
    any registered since: results.aggregates.STATISTICS, where each is defined): the frame's
    games are counted into the store's aggregates (aggregates.Recount) and those into the
    statistics, as the report counts a store. W/D/L of the player over the counted games
    (error games are never counted, `errors` says how many), time forfeits and ply-limit
    draws, wins and games per seat, mean plies, each side's mean simulations per move
    (`*_work`; nodes where a side reports no simulations, `*_work_unit` says which) and wall
    seconds per move; the complete pairs' pentanomial, pair score and interval; `builds`."""
    r = aggregates.Recount()
    for g in games.itertuples():
        err = g.result == "error"
        key = (g.pairing, g.swap, "error" if err else g.result, g.reason,
               g.version if isinstance(g.version, str) else "",
               g.build if isinstance(g.build, str) else "")
        sums = ((1, 0) + (0,) * 10 if err else
                (1, int(g.plies)) + _side_sums(g, "player") + _side_sums(g, "opponent"))
        r.add(key, sums + (2 * g.pair_index + g.swap, 0.0, 0.0), g.pair_index,
              None if err else g.score)
    counts = aggregates.pairing_counts(r.tally_rows(), r.pair_rows())
    return pd.DataFrame.from_dict(counts, orient="index",
                                  columns=list(aggregates.count_columns()))
