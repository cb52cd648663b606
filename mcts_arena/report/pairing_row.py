"""The report's row: one pairing of one results directory, as `report/tables.py` builds it and
every reader takes it (the formats of `arena report`, its pictures, the doubling-ladder fits, the
record's pages, `arena serve`'s live page, the notebook API's DataFrame).

`PairingRow` is a TypedDict, not a dataclass, because the row *is* the JSON interface:
`arena report --format json` writes its keys in this order, `arena serve` hands it to the live
page's JavaScript unchanged, and the CSV columns and `api.load`'s DataFrame are flattened from
it. A TypedDict gives each field a name, a type and its documentation in one place, checked by
a type checker, while the value stays the dict those exits write as they are: no conversion at
any of them, and nothing for a reader of the JSON to learn twice. It cannot be frozen: a row is
completed after it is built, by the sweep it belongs to (`find_sweeps` sets `sweep`) and by the
paper's rows beside it (`compare_paper` sets `paper`).

Fractions are in [0, 1]; counts are the pairing *player's*, the first spec named.
"""

from typing import NotRequired, TypedDict

from mcts_arena.results import aggregates


class Judged(TypedDict):
    """The interval a verdict on a row uses."""

    #: "pair rule" (games scored by pairs: Kalah), "pairs" (the pentanomial, where complete
    #: seat-swapped pairs exist) or "games"
    basis: str
    score: float
    ci_low: float
    ci_high: float
    #: what it counts: decisive pairs, games of complete pairs, or games
    n: int


class PairRule(TypedDict):
    """The paper's pair rule (Kalah): a board played twice with seats swapped, won by the side
    that won one game and at least drew the other; scored over the decisive pairs."""

    won: int
    drawn: int
    lost: int
    #: pairs each side won once (the paper discards them)
    discarded: int
    #: pairs with an error game
    errors: int
    #: won / (won + lost); 0.5 without a decisive pair
    score: float
    ci_low: float
    ci_high: float


class Precision(TypedDict):
    """`arena reproduce --precision`'s last decision for a row (runner/reproduce.py)."""

    games: int
    #: "precision" (the interval is narrow enough), "decided" (it excludes 50%, or the paper's
    #: value when the rule aims at it), "cap" (the most games allowed), or None (playing on)
    stop: str | None
    half_width: float | None
    basis: str
    rule: str
    #: the looks the rule allowed the row (its z splits 5% over them: stats.looks_z); records
    #: written before it was kept say it in `rule` ("split over the 4 looks")
    looks: NotRequired[int]


class SprtState(TypedDict):
    """The SPRT of a pairing as the run left it (results/sprt.py)."""

    #: "H0", "H1", or None (no decision yet)
    decision: str | None
    games: int
    llr: float
    lower: float
    upper: float
    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str
    #: how the report writes it ("SPRT: H1 accepted after 12 games ...")
    text: str


class SweepPoint(TypedDict):
    """The sweep point a pairing is."""

    #: the swept variable's name (recorded) or its token's prefix ("im")
    param: str
    value: float


class PaperEntry(TypedDict):
    """One published row of the paper beside ours (`--compare paper`)."""

    table: str
    id: str
    #: the player's win rate in percent
    win_pct: float
    games: int | None
    seconds: float | None
    #: report/verdict.judge's text on the `judged` interval; None when our pairing has no
    #: games or its budget is far from the paper's (then `note` says why)
    verdict: str | None
    #: each side's budget within a factor tables.BUDGET_FACTOR of the paper's seconds
    comparable: bool
    #: "no games", "budget differs: ours 0.05 s, paper 1 s", or None
    note: str | None
    #: the paper names the pairing with the seats the other way round
    reversed: bool
    #: the `judged` basis the verdict used
    basis: str | None


class PairingRow(TypedDict):
    """One pairing of one results directory (the `--format json` interface, key for key)."""

    #: experiment name
    experiment: str
    #: the results directory
    directory: str
    #: the game's name
    game: str
    #: the runner's pairing id
    pairing_id: str
    #: the player as reports name it: the canonical spec; an external GTP/py player's `name`,
    #: else its command
    player: str
    #: the opponent, likewise
    opponent: str
    #: the player's canonical spec
    player_spec: str
    #: the opponent's canonical spec
    opponent_spec: str
    #: the budget both sides played with ("1 s", "30 sims"; "P / O" when they differ)
    budget: str
    #: {"time": s} or {"sims": n} (or {"effort": s}, ...) of the player
    player_budget: dict | None
    #: likewise of the opponent
    opponent_budget: dict | None
    #: games the config asks for
    planned: int
    #: games counted (no error games)
    games: int
    #: the player's wins
    wins: int
    #: draws
    draws: int
    #: the player's losses
    losses: int
    #: error games (never counted)
    errors: int
    #: games ended by a time forfeit (counted as losses/wins)
    time_forfeits: int
    #: games forfeited by an illegal move (external engines; counted likewise)
    illegal_moves: int
    #: games drawn at the ply limit
    max_plies: int
    #: (wins + draws/2) / games; score, ci_low, ci_high, ci_method and los are None for a
    #: pairing without counted games (no percentage is shown for it)
    score: float | None
    #: the low end of the score's 95% interval
    ci_low: float | None
    #: its high end
    ci_high: float | None
    #: the interval's rule: "wald" or "wilson"
    ci_method: str | None
    #: Elo difference of the player (None at a score of 0 or 1, or without games)
    elo: float | None
    #: the low end of its 95% interval: ci_low through the Elo function (stats.elo_bounds;
    #: None where an end is unbounded)
    elo_low: float | None
    #: its high end: ci_high through the Elo function
    elo_high: float | None
    #: how every table and `arena serve` write it (results.standings: "+381.7 [+63.0, +667.3]",
    #: "≥ +113 (all won)")
    elo_text: str | None
    #: likelihood of superiority of the player (0.5 with no decisive games)
    los: float | None
    #: the player's wins when it moved first
    wins_first: int
    #: counted games in which the player moved first
    games_first: int
    #: the player's wins when it moved second
    wins_second: int
    #: counted games in which it moved second
    games_second: int
    #: mean game length in plies (counted games)
    avg_plies: float | None
    #: mean wall seconds per move of the player, measured by the game loop for every player
    #: alike (None with no moves)
    player_time: float | None
    #: likewise of the opponent
    opponent_time: float | None
    #: mean simulations per move of the player (nodes for a side that reports no simulations,
    #: e.g. αβ; None for a side that reports neither, e.g. a GTP engine)
    player_work: float | None
    #: which of the two player_work counts ("sims", "nodes")
    player_work_unit: str | None
    #: likewise of the opponent
    opponent_work: float | None
    #: likewise of the opponent
    opponent_work_unit: str | None
    #: the complete seat-swapped pairs (both games counted) by the player's pair score:
    #: [LL, LD, WL+DD, WD, WW]; None without a complete pair
    pentanomial: list[int] | None
    #: 2 x the complete pairs
    pair_games: int
    #: their mean score per game
    pair_score: float | None
    #: the low end of pair_score's 95% interval (stats.pentanomial_interval: the
    #: likelihood-ratio interval of the pentanomial; tighter than the per-game one when seat
    #: swapping cancels a first-move advantage)
    pair_ci_low: float | None
    #: its high end
    pair_ci_high: float | None
    #: Elo of pair_score
    pair_elo: float | None
    #: pair_ci_low through the Elo function
    pair_elo_low: float | None
    #: pair_ci_high through the Elo function
    pair_elo_high: float | None
    #: how the tables write pair_elo and its interval
    pair_elo_text: str | None
    #: the interval a verdict uses (tables.judged); None with nothing counted
    judged: Judged | None
    #: {build fingerprint: games} of the stored games ("unrecorded" for games stored before
    #: games carried their build); more than one key: mixed builds
    builds: dict[str, int]
    #: `arena reproduce --precision`'s last decision for the row (None otherwise)
    precision: Precision | None
    #: the paper's pair rule over decisive pairs: Kalah only (else None)
    pairs: PairRule | None
    #: the pairing's SPRT, or None
    sprt: SprtState | None
    #: the sweep point this pairing is, or None
    sweep: SweepPoint | None
    #: only with --compare paper: the paper's rows of this pairing (possibly none)
    paper: NotRequired[list[PaperEntry]]
    #: while the rows are built: the recorded sweep's (variable, value) pairs; find_sweeps
    #: reads and removes it
    _sweep_vars: NotRequired[list[tuple[str, str]]]
    #: likewise: the config entry that made the pairing ("matches[2]")
    _sweep_entry: NotRequired[str]


#: The fields `arena report --format json` writes for every row, in order (`paper` too with
#: --compare paper).
ROW_FIELDS = tuple(k for k in PairingRow.__annotations__
                   if k in PairingRow.__required_keys__)


def row_fields() -> tuple[str, ...]:
    """ROW_FIELDS, then each statistic registered beyond PairingRow's fields
    (results.aggregates.register): what the JSON and CSV reports write, in order."""
    return ROW_FIELDS + tuple(s for s in aggregates.count_columns()
                              if s not in PairingRow.__annotations__)


def work_text(r) -> str:
    """What each side searched a move on average: "165 / 813n" (n: nodes; "-": unknown)."""
    def one(v, u):
        if v is None:
            return "-"
        return f"{v:.0f}" + ("n" if u == "nodes" else "")
    return f"{one(r.get('player_work'), r.get('player_work_unit'))} / " \
           f"{one(r.get('opponent_work'), r.get('opponent_work_unit'))}"


def work_differs(r) -> bool:
    """Whether a side searched on average other than its budget's simulations or nodes (why:
    budgets.WORK_NOTE)."""
    for work, budget in ((r.get("player_work"), r.get("player_budget")),
                         (r.get("opponent_work"), r.get("opponent_budget"))):
        sims = budget.get("sims") if isinstance(budget, dict) else None
        if work is not None and sims and round(work) != sims:
            return True
    return False
