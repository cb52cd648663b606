"""Tournament state, read from a store: the settings a tournament keeps in its results store,
its bracket (elimination) or cross-table (round robin, gauntlet) rebuilt from the stored games,
and their text. The bracket is never stored; `stored_state` rebuilds it (arena report, and the
runner between rounds: runner/tournament.py plays the matches `State.needed` lists).

Kinds: `elimination` (results/bracket.py, the paper's Appendix B rule; a match counts wins, or
pairs won by the pair rule for a game scored by pairs; ties `first` or `playoff`),
`round_robin` (a cross-table with Bradley-Terry Elo fitted jointly), `gauntlet` (one `player`
against each entrant).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from mcts_arena import games as _games
from mcts_arena import stats
from mcts_arena.budgets import Budget
from mcts_arena.errors import SpecError
from mcts_arena.paper import load_paper_results
from mcts_arena.players import notation
from mcts_arena.results import rows
from mcts_arena.results.bracket import Bracket
from mcts_arena.results.standings import elo_text
from mcts_arena.results.store import pairing_id

KINDS = ("elimination", "round_robin", "gauntlet")
TIE_RULES = ("first", "playoff")
META_KEY = "tournament"


@dataclass
class Tournament:
    """A tournament as its store keeps it (`settings()`, the `tournament` meta entry): enough
    to rebuild its bracket or cross-table from the stored games. The runner's TournamentSpec
    adds what playing it needs (seed, openings, the entrants' own budgets)."""

    name: str                               # the experiment's name (and results folder)
    title: str                              # fet, det, ..., or the YAML's name
    kind: str
    game: str
    entrants: list[tuple[str, str]]         # (label, canonical spec) in bracket order
    budget: Budget
    games: int
    player: tuple[str, str] | None = None   # gauntlet
    tie: str = "first"
    max_playoffs: int = 5
    eval: str | None = None
    paper: str | None = None                # id of the paper's tournament it reproduces

    def settings(self) -> dict:
        return {"name": self.name, "title": self.title, "kind": self.kind, "game": self.game,
                "entrants": [list(e) for e in self.entrants],
                "player": list(self.player) if self.player else None, "games": self.games,
                "tie": self.tie, "max_playoffs": self.max_playoffs, "eval": self.eval,
                "paper": self.paper, "budget": self.budget.as_dict()}

    def spec_of(self, label: str) -> str:
        if self.player and label == self.player[0]:
            return self.player[1]
        return dict(self.entrants)[label]


Results = dict[str, dict[int, dict[int, float | None]]]   # pairing -> pair index -> swap -> score


def stored_results(store) -> Results:
    out: Results = {}
    for r in store.select("game", "game_id, pairing_id, pair_index, swap, score, reason"):
        out.setdefault(r["pairing_id"], {}).setdefault(r["pair_index"], {})[r["swap"]] = (
            None if r["reason"] == "error" else r["score"])
    return out


def _range_games(games: int, step: int) -> range:
    """Pair indices of a match's step: 0 = its `games`, j >= 1 = the j-th playoff pair."""
    half = (games + 1) // 2
    return range(half) if step == 0 else range(half + step - 1, half + step)


def _wins(res: Results, pid: str, pairs: range, games: int, pair_rule: bool, step: int
          ) -> tuple[int, int, int, int] | None:
    """(wins a, wins b, draws, errors) over the pair indices, or None if a game is missing."""
    got = res.get(pid, {})
    wa = wb = dr = err = 0
    singles = []
    for k in pairs:
        want = 2 if step or 2 * k + 1 < games else 1
        g = got.get(k, {})
        if len(g) < want:
            return None
        if pair_rule and want == 2:
            o = stats.pair_outcome(g[0], g[1])
            wa += o == "player"
            wb += o == "opponent"
            dr += o == "draw"
            err += o == "error"
            continue
        singles.extend(g.values())
    t = stats.tally(singles)
    return wa + t.wins, wb + t.losses, dr + t.draws, err + t.errors


@dataclass(frozen=True)
class Match:
    """A match of the tournament: entrants `a` (the pairing's player) and `b`, the games it
    takes so far (playoff pairs included), and the id its games are stored under."""

    id: str
    a: str
    b: str
    games: int


@dataclass
class State:
    """A tournament rebuilt from stored games: what is decided and what still must be played."""

    spec: Tournament
    bracket: Bracket | None = None                  # elimination only
    matches: dict[str, Match] = field(default_factory=dict)       # every match so far, by id
    needed: list[str] = field(default_factory=list)  # pairing ids with games to play
    results: dict[tuple[str, str], tuple[int, int, int, int]] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return not self.needed


def _match(spec: Tournament, a: str, b: str, games: int) -> Match:
    return Match(pairing_id(spec.spec_of(a), spec.spec_of(b)), a, b, games)


def state(spec: Tournament, res: Results) -> State:
    """Replay the tournament over the stored results `res`."""
    st = State(spec)
    pair_rule = _games.pair_rule(spec.game)
    if spec.kind != "elimination":
        if spec.kind == "round_robin":
            matches = list(itertools.combinations([e[0] for e in spec.entrants], 2))
        else:
            matches = [(spec.player[0], e[0]) for e in spec.entrants]
        for a, b in matches:
            p = _match(spec, a, b, spec.games)
            st.matches[p.id] = p
            w = _wins(res, p.id, _range_games(spec.games, 0), spec.games, False, 0)
            if w is None:
                st.needed.append(p.id)
            else:
                st.results[(a, b)] = w
        return st
    b = Bracket([e[0] for e in spec.entrants], tie_rule=spec.tie, max_playoffs=spec.max_playoffs)
    st.bracket = b
    steps: dict[tuple[str, str], int] = {}
    while not b.done:
        missing = False
        for a, c in b.pending_matches():
            j = steps.get((a, c), 0)
            games = spec.games + 2 * j
            p = _match(spec, a, c, games)
            st.matches[p.id] = p
            w = _wins(res, p.id, _range_games(spec.games, j), spec.games, pair_rule, j)
            if w is None:
                st.needed.append(p.id)
                missing = True
                continue
            b.record(a, c, w[0], w[1])
            old = st.results.get((a, c), (0, 0, 0, 0))
            st.results[(a, c)] = tuple(x + y for x, y in zip(old, w))
            steps[(a, c)] = j + 1
        if missing:
            break
        if not b.pending_matches():
            b.advance()
    return st


# ---- rendering -----------------------------------------------------------------------------
def header(spec: Tournament) -> str:
    what = {"elimination": "elimination", "round_robin": "round robin",
            "gauntlet": "gauntlet"}[spec.kind]
    unit = "pairs won (pair rule)" if _games.pair_rule(spec.game) and spec.kind == "elimination" \
        else "wins"
    seats = [s for _, s in spec.entrants] + ([spec.player[1]] if spec.player else [])
    own = sum(map(_names_its_budget, seats))
    at = (", each entrant at its own budget" if own == len(seats) else
          f" at {spec.budget}" + (" where an entrant names none of its own" if own else ""))
    line = (f"tournament {spec.title}: {what}, {spec.game}, {len(seats)} entrants, "
            f"{spec.games} games per match{at}")
    if spec.kind == "elimination":
        line += f", counting {unit}, tie rule {spec.tie}"
    return line


_BUDGET_KEYS = ("time", "sims", "effort")


def _names_its_budget(spec: str) -> bool:
    """Whether a canonical spec carries its own budget per move (`time=`, `sims=`, `effort=`),
    which the tournament's budget then does not replace."""
    try:
        head, args = notation.split(spec)
        if args is None:
            return False
        if head in notation.EXTERNAL_KINDS:
            return any(key in _BUDGET_KEYS for key, _, _ in notation.items(args, spec))
        return any(t.split("=", 1)[0] in _BUDGET_KEYS for t in notation.tokens(args, spec))
    except SpecError:
        return False


def legend(spec: Tournament) -> str | None:
    """What the round lines of an elimination name: each label that is not its canonical spec
    (the paper's printed labels, `mcts_h_fet8 = MCTS(fet8)`), and for the paper's brackets why
    the entrant list is the printed one; None when there is nothing to say."""
    if spec.kind != "elimination":
        return None
    named = [f"{label} = {s}" for label, s in spec.entrants if label != s]
    out = []
    if named:
        out.append("labels: " + ", ".join(named))
    if spec.paper:
        t = load_paper_results().tournament(spec.paper)
        out.append(f"entrants: the {len(spec.entrants)} of the paper's printed bracket "
                   f"({t.section}), which may leave out values of its parameter set "
                   f"(docs/paper.md, section 5)")
    return "\n".join(out) or None


def paper_line(spec: Tournament) -> str | None:
    if not spec.paper:
        return None
    t = load_paper_results().tournament(spec.paper)
    return (f"Paper ({t.section}, {t.games_per_match} games per match at 1 s/move): "
            f"Winner: {t.winner} = {t.winner_spec}")


def render(st: State, with_header: bool = True) -> str:
    spec = st.spec
    out = [header(spec), ""] if with_header else []
    if spec.kind == "elimination":
        out.append(st.bracket.render().rstrip())
        if st.bracket.done:
            out.append(f"({st.bracket.winner} = {spec.spec_of(st.bracket.winner)})")
        else:
            out.append(f"(unfinished: round {st.bracket.round_number} has "
                       f"{len(st.needed)} match(es) to play)")
        pl = paper_line(spec)
        if pl:
            out.append(pl)
    elif spec.kind == "round_robin":
        out += cross_table(st)
    else:
        out += gauntlet_table(st)
    return "\n".join(out) + "\n"


def cross_table(st: State) -> list[str]:
    labels = [e[0] for e in st.spec.entrants]
    score: dict[tuple[str, str], tuple[float, int]] = {}
    for (a, b), (wa, wb, dr, _e) in st.results.items():
        n = wa + wb + dr
        score[(a, b)] = (wa + 0.5 * dr, n)
        score[(b, a)] = (wb + 0.5 * dr, n)
    try:
        elo = stats.bradley_terry({k: (v[0], v[2], v[1]) for k, v in st.results.items()}) \
            if st.results else {}
    except ValueError:
        elo = {}
    order = sorted(range(len(labels)), key=lambda i: -elo.get(labels[i], 0.0))
    width = max(len(x) for x in labels)
    head = f"{'#':>2}  {'entrant':<{width}}  " + "  ".join(f"{i + 1:>5}" for i in order) + \
           "   score   games     Elo (Bradley-Terry)"
    lines = [head, "-" * len(head)]
    for i in order:
        a = labels[i]
        cells, tot, games = [], 0.0, 0
        for j in order:
            if i == j:
                cells.append(f"{'·':>5}")
                continue
            s, n = score.get((a, labels[j]), (0.0, 0))
            cells.append(f"{100 * s / n:5.1f}" if n else f"{'-':>5}")
            tot += s
            games += n
        e = f"{elo[a]:+8.1f}" if a in elo else f"{'-':>8}"
        pct = f"{100 * tot / games:5.1f}%" if games else "    -"
        lines.append(f"{i + 1:>2}  {a:<{width}}  " + "  ".join(cells) + f"  {pct}  {games:>6}  {e}")
    lines.append("cells: score % of the row's entrant against the column's (draws half)")
    if not st.done:
        lines.append(f"(unfinished: {len(st.needed)} match(es) to play)")
    return lines


def gauntlet_table(st: State) -> list[str]:
    p = st.spec.player[0]
    lines = [f"{p} against each entrant:"]
    width = max(len(e[0]) for e in st.spec.entrants)
    for label, _spec in st.spec.entrants:
        r = st.results.get((p, label))
        if r is None:
            lines.append(f"  vs {label:<{width}}  (to play)")
            continue
        wa, wb, dr, _e = r
        n = wa + wb + dr
        sc = stats.score(wa, dr, wb)
        elo = elo_text(wa, dr, wb) if n else "-"
        lines.append(f"  vs {label:<{width}}  +{wa} ={dr} -{wb}  {100 * sc:6.2f}%  Elo {elo}")
    return lines


def from_settings(s: dict) -> Tournament:
    """The tournament a store's `tournament` meta entry describes."""
    return Tournament(name=s["name"], title=s["title"], kind=s["kind"], game=s["game"],
                      entrants=[tuple(e) for e in s["entrants"]],
                      budget=Budget.from_dict(s["budget"]) or Budget(),   # an effort kept too
                      games=s["games"], player=tuple(s["player"]) if s["player"] else None,
                      tie=s["tie"], max_playoffs=s["max_playoffs"], eval=s.get("eval"),
                      paper=s.get("paper"))


_PAIR = rows.list_of(rows.text, 2)
#: The `tournament` meta entry as `settings()` writes it (checked when read: results/rows.py).
SETTINGS = rows.obj(
    required={"name": rows.text, "title": rows.text, "kind": rows.one_of(*KINDS),
              "game": rows.text, "entrants": rows.list_of(_PAIR),
              "budget": rows.obj(optional={"time": rows.opt(rows.number),
                                           "sims": rows.opt(rows.count)}),
              "games": rows.where(rows.count, lambda n: n > 0, "expected games above 0"),
              "player": rows.opt(_PAIR), "tie": rows.one_of(*TIE_RULES),
              "max_playoffs": rows.count},
    optional={"eval": rows.opt(rows.text), "paper": rows.opt(rows.text)})


def stored_settings(store) -> dict | None:
    """The `tournament` meta entry of `store`, checked (None if it holds none)."""
    return store.meta_json(META_KEY, SETTINGS)


def stored_state(store) -> State | None:
    """The tournament in `store` rebuilt from its games (None if it holds none)."""
    settings = stored_settings(store)
    if not settings:
        return None
    try:
        return state(from_settings(settings), stored_results(store))
    except ValueError as e:             # a game or an entrant list no tournament could have
        raise store.corrupt(f"meta {META_KEY!r}", "value", str(e)) from None


def render_stored(store) -> str | None:
    """The bracket / cross-table of the tournament in `store` (None if it holds none)."""
    st = stored_state(store)
    return None if st is None else render(st)
