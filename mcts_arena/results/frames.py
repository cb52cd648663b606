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
work per move) as `arena report` counts; the report reads the same counts from the store's
aggregates (results/aggregates.py) instead of every game, and tests hold the two equal. This
module sits below the report: it imports the store and the statistics leaf only.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from mcts_arena import stats
from mcts_arena.errors import UserError
from mcts_arena.results.store import DB_NAME, GAME_TABLE_COLUMNS, Store

GAME_COLUMNS = ("experiment", "game", "game_id", "pairing", "pair_index", "swap", "player",
                "opponent", "seat0", "seat1", "player_seat", "player_budget", "opponent_budget",
                "opening", "winner", "result", "score", "reason", "plies", "player_moves",
                "opponent_moves", "player_sims", "opponent_sims", "player_nodes",
                "opponent_nodes", "player_time", "opponent_time", "player_wall",
                "opponent_wall", "duration", "version", "build")
RESULTS = {1.0: "win", 0.5: "draw", 0.0: "loss"}
COUNT_COLUMNS = ("games", "wins", "draws", "losses", "errors", "time_forfeits", "illegal_moves",
                 "max_plies", "wins_first", "games_first", "wins_second", "games_second",
                 "avg_plies", "player_time", "opponent_time", "player_work", "player_work_unit",
                 "opponent_work", "opponent_work_unit", "pentanomial", "pair_games",
                 "pair_score", "pair_ci_low", "pair_ci_high", "builds")


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


def _work(sims_total: float, nodes_total: float, moves: int) -> tuple[float | None, str | None]:
    """Mean simulations per move over all the side's moves; nodes for a side that never
    reports simulations (αβ)."""
    if not moves or (sims_total <= 0 and nodes_total <= 0):   # no search reported (GTP)
        return None, None
    if sims_total > 0:
        return sims_total / moves, "sims"
    return nodes_total / moves, "nodes"


def pairing_counts(games: pd.DataFrame) -> pd.DataFrame:
    """Per pairing (index: pairing id), the counts `arena report` shows (`COUNT_COLUMNS`):
    W/D/L of the player (counted by `stats.tally`, as the run summary and tournaments count)
    over the counted games (error games are never counted, `errors`
    says how many), time forfeits and ply-limit draws, wins and games per seat, mean plies,
    and each side's mean simulations per move (`*_work`; nodes where a side reports no
    simulations, `*_work_unit` says which; pooled over all moves of the counted games).

    Pair statistics over the complete seat-swapped pairs (both games stored, neither an error
    game): `pentanomial` (LL, LD, WL+DD, WD, WW as a list), `pair_games` (2 per pair),
    `pair_score` and its 95% interval `pair_ci_low`/`pair_ci_high`
    (`stats.pentanomial_interval`); None for a pairing without a complete pair. `builds`:
    {build fingerprint (or "unrecorded"): games} of every stored game, error games included."""
    out = {}
    for pid, g in games.groupby("pairing", sort=False):
        t = stats.tally({"score": None if r.result == "error" else r.score, "reason": r.reason}
                        for r in g.itertuples())
        ok = g[g["result"] != "error"]
        n = len(ok)
        assert n == t.games
        first = ok[ok["swap"] == 0]
        second = ok[ok["swap"] == 1]
        row = {"games": t.games, "wins": t.wins, "draws": t.draws, "losses": t.losses,
               "errors": t.errors, "time_forfeits": t.time_forfeits,
               "illegal_moves": t.illegal_moves, "max_plies": t.max_plies,
               "wins_first": int((first["result"] == "win").sum()), "games_first": len(first),
               "wins_second": int((second["result"] == "win").sum()), "games_second": len(second),
               "avg_plies": float(ok["plies"].mean()) if n else None}
        for side in ("player", "opponent"):
            moves = ok[f"{side}_moves"]
            w, u = _work(float((ok[f"{side}_sims"].fillna(0) * moves).sum()),
                         float((ok[f"{side}_nodes"].fillna(0) * moves).sum()), int(moves.sum()))
            row[f"{side}_work"], row[f"{side}_work_unit"] = w, u
            # wall seconds per move, as the match loop measured it (external engines too)
            walls = ok[f"{side}_wall"]
            timed = int(moves[walls.notna()].sum())
            row[f"{side}_time"] = (float((walls.fillna(0) * moves).sum()) / timed
                                   if timed else None)
        row.update(pair_statistics(ok))
        row["builds"] = {str(b) if isinstance(b, str) else "unrecorded": int(k)
                         for b, k in g["build"].value_counts(dropna=False).items()}
        out[pid] = row
    return pd.DataFrame.from_dict(out, orient="index", columns=list(COUNT_COLUMNS))


def pair_statistics(counted: pd.DataFrame) -> dict:
    """The pentanomial of the complete pairs among `counted` (one pairing's games without
    error games) with its score and interval (see pairing_counts)."""
    by_pair = counted.groupby("pair_index")["score"]
    pairs = [tuple(v) for _, v in by_pair if len(v) == 2]
    if not pairs:
        return {"pentanomial": None, "pair_games": 0, "pair_score": None,
                "pair_ci_low": None, "pair_ci_high": None}
    penta = stats.pentanomial((float(a), float(b)) for a, b in pairs)
    low, high = stats.pentanomial_interval(penta)
    return {"pentanomial": list(penta), "pair_games": 2 * len(pairs),
            "pair_score": stats.pentanomial_score(penta), "pair_ci_low": low,
            "pair_ci_high": high}
