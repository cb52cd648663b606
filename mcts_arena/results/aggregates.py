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

`pairing_counts` turns them into each pairing's statistics: `STATISTICS`, the one definition
of each (its name, meaning, value from a pairing's rows and its value without games), which
the report's rows, its JSON and CSV, and `results.pairing_counts` (the DataFrame path, which
stays for notebooks: a frame's games are counted into the same rows first) all follow. A new
statistic derived from the counts is one entry there (or `register` from outside); the
report's text tables and the live page show the columns they name.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

KEY = ("pairing_id", "swap", "result", "reason", "version", "build")
SIDE = ("moves", "sims", "nodes", "wall", "walled")
SUMS = ("games", "plies") + tuple(f"{who}_{c}" for who in ("player", "opponent") for c in SIDE)
MINS = ("first_game", "first_finished")
MAXES = ("last_finished",)
TALLY_COLUMNS = KEY + SUMS + MINS + MAXES


def _sql_type(column: str) -> str:
    """A tally column's SQL type: text keys, real seconds and times, and no type for the sums
    of simulations and nodes (a player may report either as an integer or a float: kept as
    given)."""
    if column in ("pairing_id", "result", "reason", "version", "build"):
        return "TEXT "
    if column.endswith(("_sims", "_nodes")):
        return ""
    return "REAL " if column.endswith(("_wall", "_finished")) else "INTEGER "


#: The store's `tally` table (results/store.py's SCHEMA), written from the columns above.
TALLY_TABLE = ("CREATE TABLE IF NOT EXISTS tally (\n    "
               + ", ".join(f"{c} {_sql_type(c)}NOT NULL" for c in TALLY_COLUMNS)
               + f",\n    PRIMARY KEY ({', '.join(KEY)}))")
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
        self.add(*game_entry(g), g["pair_index"], g["score"])

    def add(self, key: tuple, values: tuple, pair_index: int, score: float | None) -> None:
        """One game's tally key and values (as `game_entry` gives them), its pair and score."""
        old = self.groups.get(key)
        self.groups[key] = list(values) if old is None else merge(old, values)
        by_swap = self._scores.setdefault((key[0], pair_index), {})
        by_swap[key[1]] = None if key[2] == "error" else score

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


class Pairing:
    """One pairing's aggregates as a statistic reads them: its tally rows (`rows`, error games
    included; `counted`, without them) and the pentanomial of its complete pairs (`penta`:
    LL, LD, WL+DD, WD, WW; None without one). Values several statistics share are computed
    once (`shared`)."""

    def __init__(self, rows: list[dict], penta: list[int] | None):
        self.rows = rows
        self.counted = [r for r in rows if r["result"] != "error"]
        self.penta = penta
        self._shared: dict = {}

    def total(self, column: str, errors: bool = False, **match) -> int | float:
        """The sum of `column` over the counted rows (every row with `errors`) whose columns
        equal `match`."""
        return sum(r[column] for r in (self.rows if errors else self.counted)
                   if all(r[k] == v for k, v in match.items()))

    def shared(self, name: str, compute: Callable[[Pairing], object]):
        if name not in self._shared:
            self._shared[name] = compute(self)
        return self._shared[name]


@dataclass(frozen=True)
class Statistic:
    """One column of a pairing's counts: its name, what it means, its value for a pairing
    (`value(Pairing)`) and for a pairing without a stored game (`empty`). With a `heading`, the
    report's tables and the live page show it in a column of its own after the built-in ones
    (the built-in statistics have their places there already), written by `text`."""

    name: str
    meaning: str
    value: Callable[[Pairing], object]
    empty: object = None
    heading: str = ""
    text: Callable[[object], str] | None = None

    def cell(self, value) -> str:
        """The value as a table cell: `text(value)`, else "-" for None, 3 digits for a float."""
        if self.text is not None:
            return self.text(value)
        if value is None:
            return "-"
        return f"{value:.3g}" if isinstance(value, float) else str(value)


def _work(p: Pairing, side: str) -> tuple[float | None, str | None]:
    """Mean simulations per move over all the side's moves; nodes for a side that never
    reports simulations (αβ); None for a side that reports neither (a GTP engine)."""
    sims, nodes = float(p.total(f"{side}_sims")), float(p.total(f"{side}_nodes"))
    moves = int(p.total(f"{side}_moves"))
    if not moves or (sims <= 0 and nodes <= 0):
        return None, None
    if sims > 0:
        return sims / moves, "sims"
    return nodes / moves, "nodes"


def _time(p: Pairing, side: str) -> float | None:
    timed = p.total(f"{side}_walled")
    return float(p.total(f"{side}_wall")) / timed if timed else None


def _pairs(p: Pairing) -> dict:
    return p.shared("pairs", lambda p: pair_statistics(p.penta))


def _builds(p: Pairing) -> dict[str, int]:
    return {b or "unrecorded": k for (_v, b), k in
            _ordered_builds(p.rows, key=lambda r: (r["build"],)).items()}


def _side_statistics(side: str) -> list[Statistic]:
    return [Statistic(f"{side}_work", f"the {side}'s mean simulations per move (nodes where "
                      "it reports none)", lambda p: p.shared(side, lambda p: _work(p, side))[0]),
            Statistic(f"{side}_work_unit", f"sims or nodes: what {side}_work counts",
                      lambda p: p.shared(side, lambda p: _work(p, side))[1])]


#: The statistics of a pairing, in the order every table, row and frame lists them: the one
#: definition of each that the DataFrame path (results.frames), the report's rows and the JSON
#: and CSV reports follow. `register` adds one.
STATISTICS: list[Statistic] = [
    Statistic("games", "counted games (error games never count)", lambda p: p.total("games"),
              0),
    Statistic("wins", "the player's wins", lambda p: p.total("games", result="win"), 0),
    Statistic("draws", "draws", lambda p: p.total("games", result="draw"), 0),
    Statistic("losses", "the player's losses", lambda p: p.total("games", result="loss"), 0),
    Statistic("errors", "error games (counted in no other column)",
              lambda p: p.total("games", errors=True) - p.total("games"), 0),
    Statistic("time_forfeits", "games lost on time",
              lambda p: p.total("games", reason="time_forfeit"), 0),
    Statistic("illegal_moves", "games lost by an illegal move",
              lambda p: p.total("games", reason="illegal_move"), 0),
    Statistic("max_plies", "games ended at the ply limit",
              lambda p: p.total("games", reason="max_plies"), 0),
    Statistic("wins_first", "the player's wins where it moved first",
              lambda p: p.total("games", swap=0, result="win"), 0),
    Statistic("games_first", "games where the player moved first",
              lambda p: p.total("games", swap=0), 0),
    Statistic("wins_second", "the player's wins where it moved second",
              lambda p: p.total("games", swap=1, result="win"), 0),
    Statistic("games_second", "games where the player moved second",
              lambda p: p.total("games", swap=1), 0),
    Statistic("avg_plies", "mean plies of the counted games",
              lambda p: float(p.total("plies")) / n if (n := p.total("games")) else None),
    Statistic("player_time", "the player's mean wall seconds per move",
              lambda p: _time(p, "player")),
    Statistic("opponent_time", "the opponent's mean wall seconds per move",
              lambda p: _time(p, "opponent")),
    *_side_statistics("player"),
    *_side_statistics("opponent"),
    Statistic("pentanomial", "the complete pairs' pentanomial (LL, LD, WL+DD, WD, WW)",
              lambda p: _pairs(p)["pentanomial"]),
    Statistic("pair_games", "games in complete pairs", lambda p: _pairs(p)["pair_games"], 0),
    Statistic("pair_score", "the pair score", lambda p: _pairs(p)["pair_score"]),
    Statistic("pair_ci_low", "its 95% interval's low end", lambda p: _pairs(p)["pair_ci_low"]),
    Statistic("pair_ci_high", "its high end", lambda p: _pairs(p)["pair_ci_high"]),
    Statistic("builds", "{build fingerprint (or unrecorded): games}, error games included",
              _builds, {}),
]


def register(statistic: Statistic) -> None:
    """Add a statistic (its name not taken): every pairing's counts, the report's rows, its JSON
    and CSV and `results.pairing_counts` carry it from then on."""
    if any(s.name == statistic.name for s in STATISTICS):
        raise ValueError(f"a statistic named {statistic.name!r} exists")
    STATISTICS.append(statistic)


def count_columns() -> tuple[str, ...]:
    """The statistics' names, in order (results.COUNT_COLUMNS: the built-in ones)."""
    return tuple(s.name for s in STATISTICS)


def no_games() -> dict:
    """The counts of a pairing with no stored game."""
    return {s.name: s.empty for s in STATISTICS}


def shown() -> list[Statistic]:
    """The statistics with a column of their own in the tables and the live page (`heading`)."""
    return [s for s in STATISTICS if s.heading]


def cells(row: Mapping) -> list[str]:
    """A report row's cells of the `shown` statistics."""
    return [s.cell(row.get(s.name)) for s in shown()]


def pairing_counts(tally: list[dict], pairs: list[dict]) -> dict[str, dict]:
    """Per pairing id with stored games, its statistics (STATISTICS, by name) from its tally
    rows and its complete pairs (pair_tally rows)."""
    by_pairing: dict[str, list[dict]] = {}
    for r in tally:
        by_pairing.setdefault(r["pairing_id"], []).append(r)
    penta: dict[str, list[int]] = {}
    for p in pairs:
        if p["points"] >= 0:
            penta.setdefault(p["pairing_id"], [0] * 5)[p["points"]] += p["pairs"]
    out = {}
    for pid, groups in by_pairing.items():
        view = Pairing(groups, penta.get(pid))
        out[pid] = {s.name: s.value(view) for s in STATISTICS}
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
