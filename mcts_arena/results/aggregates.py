"""A store's aggregates: the per-pairing counts every table, standing, pentanomial, rating fit
and picture of the read side is computed from, so that no report reads every game's moves.

Two tables hold them (results/store.py's schema). The writer (runner/writer.py) updates them in
the same transaction as the game or pair they count, so a committed store never holds a game
that they do not count; `recount` computes the same rows from the games themselves (a store made
before the tables existed is read through it, the writer fills the tables from it when it first
opens such a store, and `arena recount` rewrites them from it):

    tally       one row per group of a pairing's games with the same seat of the pairing's
                player (`swap`), `result` for that player (win, draw, loss, error), `reason`,
                `version` and `build` ('' for a game stored before games carried them):
                `games`, the sums over the group's counted games (never error games) of
                `plies` and of each side's moves, simulations, nodes and wall seconds (a game's
                mean wall seconds per move times its moves, as results.frames weighs them)
                with the moves of games that measured wall time (`*_walled`), and over all its
                games the first position in pairing order (`first_game`: 2 x pair index +
                swap) and the first and last finish time
    pair_tally  per pairing, its complete seat-swapped pairs by the paper's pair `outcome`
                (stats.pair_outcome) and `points`, the player's pair score in half points
                (0..4, the pentanomial's bin; -1 for a pair with an error game)

`pairing_counts` turns them into the counts of `results.pairing_counts` (the DataFrame path,
which stays for notebooks): the same integers; means whose sums the DataFrame adds in another
order (wall seconds) may differ in the last bits.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

KEY = ("pairing_id", "swap", "result", "reason", "version", "build")
SIDE = ("moves", "sims", "nodes", "wall", "walled")
SUMS = ("games", "plies") + tuple(f"{who}_{c}" for who in ("player", "opponent") for c in SIDE)
MINS = ("first_game", "first_finished")
MAXES = ("last_finished",)
TALLY_COLUMNS = KEY + SUMS + MINS + MAXES
PAIR_KEY = ("pairing_id", "outcome", "points")
PAIR_COLUMNS = PAIR_KEY + ("pairs",)
RESULTS = {1.0: "win", 0.5: "draw", 0.0: "loss"}


def result_of(score: float | None, reason: str) -> str:
    """win, draw or loss of the pairing's player; error for a game `stats.tally` counts as one."""
    return "error" if score is None or reason == "error" else RESULTS[score]


def side_totals(move_stats: list[dict], seat: int) -> tuple:
    """(moves, simulations, nodes, wall, walled) of the side in `seat` over one game's moves:
    wall is the mean wall seconds of its moves that measured them times its moves, walled its
    moves if any measured them (the weighting of results.frames.pairing_counts)."""
    moves = [st for st in move_stats if st.get("seat") == seat]
    n = len(moves)
    walls = [st["wall"] for st in moves if st.get("wall") is not None]
    return (n, sum(st.get("sims") or 0 for st in moves), sum(st.get("nodes") or 0 for st in moves),
            sum(walls) / len(walls) * n if walls else 0.0, n if walls else 0)


def game_entry(g: Mapping) -> tuple[tuple, tuple]:
    """(the tally key, the values of SUMS + MINS + MAXES) of one game: a mapping with
    pairing_id, pair_index, swap, score, reason, plies, finished, version, build and stats
    (the decoded per-move statistics)."""
    result = result_of(g["score"], g["reason"])
    key = (g["pairing_id"], g["swap"], result, g["reason"], g.get("version") or "",
           g.get("build") or "")
    if result == "error":           # counted in no sum but `games`
        sums = (1, 0) + (0,) * (2 * len(SIDE))
    else:
        sums = ((1, g["plies"]) + side_totals(g["stats"], g["swap"])
                + side_totals(g["stats"], 1 - g["swap"]))
    first = 2 * g["pair_index"] + g["swap"]
    return key, sums + (first, g["finished"], g["finished"])


def pair_entry(pairing_id: str, first: float | None, second: float | None) -> tuple:
    """The pair_tally key of a complete pair: the player's scores where it moved first and
    second (None: an error game)."""
    from mcts_arena import stats  # scipy: not in every process that imports the store

    outcome = stats.pair_outcome(first, second)
    points = -1 if outcome == "error" else round(2 * (first + second))
    return pairing_id, outcome, points


def merge(old: list, new: tuple) -> list:
    """A tally row's values (SUMS + MINS + MAXES) with one game's added."""
    k, m = len(SUMS), len(SUMS) + len(MINS)
    return ([a + b for a, b in zip(old[:k], new[:k])]
            + [min(a, b) for a, b in zip(old[k:m], new[k:m])]
            + [max(a, b) for a, b in zip(old[m:], new[m:])])


class Recount:
    """The aggregates of games and pairs fed one at a time (see `recount`)."""

    def __init__(self):
        self.groups: dict[tuple, list] = {}
        self.pairs: dict[tuple, int] = {}
        self._scores: dict[tuple, dict[int, float | None]] = {}

    def add_game(self, g: Mapping) -> None:
        key, values = game_entry(g)
        old = self.groups.get(key)
        self.groups[key] = list(values) if old is None else merge(old, values)
        by_swap = self._scores.setdefault((g["pairing_id"], g["pair_index"]), {})
        by_swap[g["swap"]] = None if result_of(g["score"], g["reason"]) == "error" else g["score"]

    def tally_rows(self) -> list[dict]:
        return [dict(zip(TALLY_COLUMNS, k + tuple(v))) for k, v in self.groups.items()]

    def pairs_scored(self) -> list[tuple]:
        """The pair table's rows: (pairing_id, pair_index, outcome, points or None) of every
        complete pair (a pair is complete once both its games are stored)."""
        out = []
        for (pid, k), by_swap in self._scores.items():
            if len(by_swap) == 2:
                _pid, outcome, points = pair_entry(pid, by_swap[0], by_swap[1])
                out.append((pid, k, outcome, None if points < 0 else points))
        return out

    def pair_rows(self) -> list[dict]:
        counts: dict[tuple, int] = {}
        for pid, _k, outcome, points in self.pairs_scored():
            key = (pid, outcome, -1 if points is None else points)
            counts[key] = counts.get(key, 0) + 1
        return [dict(zip(PAIR_COLUMNS, k + (n,))) for k, n in counts.items()]


def recount(games: Iterable[Mapping]) -> tuple[list[dict], list[dict]]:
    """(tally rows, pair_tally rows) of `games` (mappings as `game_entry` takes): what the
    writer's tables must hold for a store of these games."""
    r = counted(games)
    return r.tally_rows(), r.pair_rows()


def counted(games: Iterable[Mapping]) -> Recount:
    r = Recount()
    for g in games:
        r.add_game(g)
    return r


def _work(sims_total: float, nodes_total: float, moves: int) -> tuple[float | None, str | None]:
    """Mean simulations per move over all the side's moves; nodes for a side that never
    reports simulations (αβ); None for a side that reports neither (a GTP engine)."""
    if not moves or (sims_total <= 0 and nodes_total <= 0):
        return None, None
    if sims_total > 0:
        return sims_total / moves, "sims"
    return nodes_total / moves, "nodes"


def pairing_counts(tally: list[dict], pairs: list[dict]) -> dict[str, dict]:
    """Per pairing id with stored games, the counts of `results.COUNT_COLUMNS` (see
    results.frames.pairing_counts, which computes them from a DataFrame of every game)."""
    by_pairing: dict[str, list[dict]] = {}
    for r in tally:
        by_pairing.setdefault(r["pairing_id"], []).append(r)
    penta: dict[str, list[int]] = {}
    for p in pairs:
        if p["points"] >= 0:
            penta.setdefault(p["pairing_id"], [0] * 5)[p["points"]] += p["pairs"]
    out = {}
    for pid, groups in by_pairing.items():
        ok = [r for r in groups if r["result"] != "error"]

        def total(col, where=lambda r: True, rows=ok):
            return sum(r[col] for r in rows if where(r))
        n = total("games")
        row = {"games": n,
               **{f"{res}s" if res != "loss" else "losses":
                  total("games", lambda r, res=res: r["result"] == res)
                  for res in ("win", "draw", "loss")},
               "errors": total("games", rows=groups) - n,
               **{col: total("games", lambda r, why=why: r["reason"] == why)
                  for col, why in (("time_forfeits", "time_forfeit"),
                                   ("illegal_moves", "illegal_move"), ("max_plies", "max_plies"))},
               "wins_first": total("games", lambda r: r["swap"] == 0 and r["result"] == "win"),
               "games_first": total("games", lambda r: r["swap"] == 0),
               "wins_second": total("games", lambda r: r["swap"] == 1 and r["result"] == "win"),
               "games_second": total("games", lambda r: r["swap"] == 1),
               "avg_plies": float(total("plies")) / n if n else None}
        for side in ("player", "opponent"):
            row[f"{side}_work"], row[f"{side}_work_unit"] = _work(
                float(total(f"{side}_sims")), float(total(f"{side}_nodes")),
                int(total(f"{side}_moves")))
            timed = total(f"{side}_walled")
            row[f"{side}_time"] = float(total(f"{side}_wall")) / timed if timed else None
        row.update(pair_statistics(penta.get(pid)))
        row["builds"] = {b or "unrecorded": k for (_v, b), k in
                         _ordered_builds(groups, key=lambda r: (r["build"],)).items()}
        out[pid] = row
    return out


def pair_statistics(penta: list[int] | None) -> dict:
    """The pentanomial of a pairing's complete pairs with its score and interval (None: none)."""
    from mcts_arena import stats

    if not penta or not sum(penta):
        return {"pentanomial": None, "pair_games": 0, "pair_score": None,
                "pair_ci_low": None, "pair_ci_high": None}
    low, high = stats.pentanomial_interval(penta)
    return {"pentanomial": list(penta), "pair_games": 2 * sum(penta),
            "pair_score": stats.pentanomial_score(penta), "pair_ci_low": low,
            "pair_ci_high": high}


def _ordered_builds(groups: list[dict], key) -> dict[tuple, int]:
    """{(version or '', build or ''): games} over `groups`, most games first, ties in pairing
    order (pandas' value_counts over the games in pairing order: the report's `builds`)."""
    n: dict[tuple, int] = {}
    first: dict[tuple, int] = {}
    for r in groups:
        k = key(r)
        n[k] = n.get(k, 0) + r["games"]
        first[k] = min(first.get(k, r["first_game"]), r["first_game"])
    return {(None, k[-1]): n[k] for k in sorted(n, key=lambda k: (-n[k], first[k]))}


def builds(tally: list[dict], pairing_id: str | None = None, errors: bool = True
           ) -> dict[tuple[str | None, str | None], int]:
    """{(version, build): games} as `Store.builds` gives them: of one pairing (or all), error
    games included unless not `errors`, oldest build (first finished game) first; None for a
    game stored before games carried their build."""
    n: dict[tuple, int] = {}
    first: dict[tuple, float] = {}
    for r in tally:
        if (pairing_id is not None and r["pairing_id"] != pairing_id) or \
                (not errors and r["reason"] == "error"):
            continue
        k = (r["version"] or None, r["build"] or None)
        n[k] = n.get(k, 0) + r["games"]
        first[k] = min(first.get(k, r["first_finished"]), r["first_finished"])
    return {k: n[k] for k in sorted(n, key=lambda k: first[k])}


def pair_outcomes(pairs: list[dict], pairing_id: str) -> dict[str, int]:
    """{outcome: pairs} of one pairing's complete pairs (the paper's pair rule)."""
    out: dict[str, int] = {}
    for p in pairs:
        if p["pairing_id"] == pairing_id:
            out[p["outcome"]] = out.get(p["outcome"], 0) + p["pairs"]
    return out
