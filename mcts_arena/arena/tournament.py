"""Tournaments: the paper's elimination brackets (Appendix B), round robins and gauntlets.

A tournament is one results directory (default `results/tournament-<name>-<game>[-efLH]/`) and
one experiment in it: every match is a pairing played by the runner (`run_experiment`), so the
matches of a round run in parallel on the same worker pool and store, and a killed tournament
resumes where it stopped. The tournament's settings are kept in the store's meta table
(`tournament`, JSON); the bracket is never stored, it is rebuilt from the stored games
(`render_stored`, used by `arena report`).

Kinds:
- `elimination`: the bracket rule of docs/paper.md section 5 (`arena.bracket.Bracket`): the i-th
  entrant plays the (n-1-i)-th, a middle bye goes to the end of the next round's list. A match is
  `games` games (seat-swapped pairs); the count that decides it is wins (a game scored by pairs:
  pairs won by the pair rule, as the paper's Kalah brackets count). Ties: `first` (the paper's: the first of the pair
  advances) or `playoff` (one more seat-swapped pair at a time, at most `max_playoffs`).
- `round_robin`: every entrant against every other; a cross-table and Bradley-Terry Elo ratings
  fitted jointly (`stats.bradley_terry`).
- `gauntlet`: one `player` against each of the entrants.

Built-in names (Table 6's parameter sets; where the paper printed a bracket its entrant list and
labels are used, e.g. the 13-entrant fet brackets): `fet`, `det`, `ege` (`MCTS(fetX)`,
`MCTS(egeε)`, ..., with `ipp` for the tournaments the game lists in its tuning `ipp_for`), and
`im`: `MCTS(<baseline>,imα)` with the baseline the game declares per evaluation (its tuning
`im_base`; docs/paper.md lists the paper's). A YAML file
(configs/tournaments/*.yaml) names its own entrants::

    name: small-rr
    kind: round_robin            # elimination | round_robin | gauntlet
    game: GAME                   # or --game
    budget: {sims: 30}
    games: 10                    # per match (even for elimination: seat-swapped pairs)
    entrants: ["MCTS", "MCTS(im0.4)", "Random"]     # or a mapping label: spec
    player: "MCTS(im0.4)"        # gauntlet only: the one against all entrants
    tie: first                   # elimination: first | playoff
"""
from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from mcts_arena import games as _games
from mcts_arena.arena import config as cfg
from mcts_arena.arena.config import Budget, ConfigError, Experiment, Openings, Pairing
from mcts_arena.errors import UserError
from mcts_arena.players.external import display_name

KINDS = ("elimination", "round_robin", "gauntlet")
BUILTINS = ("fet", "det", "ege", "im")
TIE_RULES = ("first", "playoff")
YAML_FIELDS = ("name", "kind", "game", "budget", "games", "seed", "openings", "max_plies",
               "macros", "entrants", "player", "tie", "max_playoffs", "description")
META_KEY = "tournament"


@dataclass
class TournamentSpec:
    """What a tournament plays; `settings()` is what the store keeps."""

    name: str                               # the experiment's name (and results folder)
    title: str                              # fet, det, ..., or the YAML's name
    kind: str
    game: str
    entrants: list[tuple[str, str]]         # (label, canonical spec) in bracket order
    budget: Budget
    games: int
    player: tuple[str, str] | None = None   # gauntlet
    seed: int = 1
    openings: Openings = field(default_factory=Openings)
    max_plies: int = 1000
    macros: tuple[tuple[str, str], ...] = ()
    tie: str = "first"
    max_playoffs: int = 5
    eval: str | None = None
    paper: str | None = None                # id of the paper's tournament it reproduces
    budgets: dict[str, Budget | None] = field(default_factory=dict)   # a spec's own budget

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


# ---- building a spec ---------------------------------------------------------------------
def _canon(parse, text: str, game: str, macros: dict | None, where: str) -> tuple[str, Budget | None]:
    try:
        spec = parse(text, game=game, macros=macros)
    except ValueError as e:
        raise UserError(f"{where}: bad player {text!r}: {e}") from None
    return spec.canonical, Budget.from_dict(cfg.spec_budget(spec))


def builtin(name: str, game: str, evalfn: str | None, players=None) -> TournamentSpec:
    """The paper's tuning tournament `name` for `game` (budget and games filled by the caller)."""
    from mcts_arena.paper import load_paper_results

    if name not in BUILTINS:
        raise UserError(f"unknown tournament {name!r}; valid: {', '.join(BUILTINS)} or a YAML "
                        f"file")
    try:
        game = _games.canonical(game)
        info = _games.info_of(game)
    except ValueError as e:
        raise UserError(str(e)) from None
    # The game's tuning defaults: evaluations a tournament may use (--eval), the baseline of
    # the `im` tournament per evaluation, the tournaments whose entrants use `ipp`, games/match.
    tuning = info.tuning
    evals = tuple(tuning.get("evals", ()))
    if evalfn is not None and not evals:
        raise UserError(f"--eval {evalfn}: the tournaments of {game} use its one evaluation "
                        f"{info.default_eval}")
    if evalfn is not None and evalfn not in evals:
        raise UserError(f"unknown --eval {evalfn!r}; valid: {', '.join(evals)}")
    ev = (evalfn or evals[0]) if evals else None
    lh = ev is not None and ev != evals[0]
    data = load_paper_results()
    paper = None
    pid = f"{game}-{ev.lower()}-{name}" if ev else f"{game}-{name}"
    for t in data.tournaments:
        if t.id == pid:
            paper = t
    if paper is not None:
        values, template, prefix = list(paper.values), paper.spec_template, paper.label_prefix
        n_games = paper.games_per_match
    else:
        values = list(data.parameter_sets[name])
        prefix = "mcts_h_" + ("efv1_" if lh else "") + name
        pre = f"{ev}," if lh else ""
        if name == "im":
            im_base = tuning.get("im_base", {})
            base = im_base.get(ev or "", im_base.get(""))
            template = f"MCTS({base},im{{x}})" if base else "MCTS(im{x})"
        elif name in tuning.get("ipp_for", ()):
            template = f"MCTS({pre}ipp,{name}{{x}})"
        else:
            template = f"MCTS({pre}{name}{{x}})"
        n_games = tuning.get("games", 200)
    parse = (players or cfg.players_provider()).parse
    entrants, budgets = [], {}
    for v in values:
        label = prefix + v
        spec, b = _canon(parse, template.format(x=v), game, None, f"tournament {name}")
        entrants.append((label, spec))
        budgets[label] = b
    suffix = f"-{ev}" if lh else ""
    return TournamentSpec(name=f"tournament-{name}-{game}{suffix}",
                          title=name + suffix, kind="elimination", game=game, entrants=entrants,
                          budget=Budget(time=1.0), games=n_games, eval=ev,
                          paper=paper.id if paper else None, budgets=budgets,
                          openings=Openings(cfg.default_openings(game)))


def from_yaml(path: str | Path, players=None, game: str | None = None) -> TournamentSpec:
    """A tournament file (see the module docstring); ConfigError names the bad field."""
    p = Path(path)
    src = str(path)
    if not p.is_file():
        raise ConfigError(f"{src}: no such file")
    try:
        data = yaml.load(p.read_text(encoding="utf-8"), Loader=cfg._UniqueKeyLoader)
    except yaml.YAMLError as e:
        raise ConfigError(f"{src}: YAML syntax error: {' '.join(str(e).split())}") from None
    v = cfg._Validator(src, players)
    d = v.mapping(data, "", "a mapping at the top level")
    v.known_keys(d, "", YAML_FIELDS)
    for req in ("kind", "entrants"):
        if req not in d:
            v.fail(req, "missing required field")
    kind = d["kind"]
    if kind not in KINDS:
        v.fail("kind", f"unknown kind {cfg._show(kind)}; valid: {', '.join(KINDS)}")
    name = d.get("name", p.stem)
    if not isinstance(name, str) or not cfg.NAME_RE.match(name):
        v.fail("name", f"expected a name of letters, digits, '_', '.', '-', got {cfg._show(name)}")
    game = game or d.get("game")
    if game is None:
        v.fail("game", "missing required field (or give --game)")
    game = v.game(game, "game")
    budget = v.budget(d["budget"], "budget") if "budget" in d else Budget(time=1.0)
    games = v.games(d.get("games", 100), "games", "games per match")
    seed = d.get("seed", 1)
    if not cfg._is_int(seed) or seed < 0:
        v.fail("seed", f"expected a non-negative integer, got {cfg._show(seed)}")
    openings = v.openings(d.get("openings", cfg.default_openings(game)), "openings", game)
    max_plies = v.positive_int(d.get("max_plies", 1000), "max_plies", "plies before a draw")
    macros = v.macros(d.get("macros", {}), "macros")
    tie = d.get("tie", "first")
    if tie not in TIE_RULES:
        v.fail("tie", f"unknown tie rule {cfg._show(tie)}; valid: {', '.join(TIE_RULES)}")
    max_playoffs = d.get("max_playoffs", 5)
    if not cfg._is_int(max_playoffs) or max_playoffs < 0:
        v.fail("max_playoffs", f"expected a non-negative integer, got {cfg._show(max_playoffs)}")
    raw = d["entrants"]
    if isinstance(raw, dict):
        items = [(str(k), val, f"entrants.{k}") for k, val in raw.items()]
    elif isinstance(raw, list):
        items = [(None, val, f"entrants[{i}]") for i, val in enumerate(raw)]
    else:
        v.fail("entrants", f"expected a list of player specs or a mapping label: spec, got "
                           f"{cfg._show(raw)}")
    need = 1 if kind == "gauntlet" and "player" in d else 2
    if len(items) < need:
        v.fail("entrants", f"expected at least {need} entrants, got {len(items)}")
    mdict = dict(macros) or None
    entrants, budgets = [], {}
    for label, text, where in items:
        spec, b = v.player(text, where, game, mdict)
        label = label or display_name(spec)     # an external player by its name
        if label in budgets:
            v.fail(where, f"duplicate entrant {label!r}")
        entrants.append((label, spec))
        budgets[label] = b
    player = None
    if kind == "gauntlet":
        if "player" in d:
            spec, b = v.player(d["player"], "player", game, mdict)
            player = (spec if spec not in budgets else spec + " (player)", spec)
            budgets[player[0]] = b
        else:
            player, entrants = entrants[0], entrants[1:]
    elif "player" in d:
        v.fail("player", "only a gauntlet has a 'player'")
    if kind == "elimination" and games % 2:
        v.fail("games", f"an elimination match is seat-swapped pairs: expected an even number, "
                        f"got {games}")
    return TournamentSpec(name=f"tournament-{name}-{game}", title=name, kind=kind, game=game,
                          entrants=entrants, budget=budget, games=games, player=player, seed=seed,
                          openings=openings, max_plies=max_plies, macros=macros, tie=tie,
                          max_playoffs=max_playoffs, budgets=budgets)


def resolve(name: str, game: str | None = None, evalfn: str | None = None,
            players=None) -> TournamentSpec:
    """NAME of `arena tournament`: a built-in name or a YAML file."""
    if name in BUILTINS:
        return builtin(name, game or _games.names()[0], evalfn, players)
    if name.endswith((".yaml", ".yml")) or Path(name).is_file():
        if evalfn is not None:
            raise UserError("--eval is for the built-in tournaments; a YAML file names its "
                            "players' evaluations itself")
        return from_yaml(name, players, game)
    raise UserError(f"unknown tournament {name!r}; valid: {', '.join(BUILTINS)} or a YAML file "
                    f"(configs/tournaments/*.yaml)")


# ---- results and state ---------------------------------------------------------------------
Results = dict[str, dict[int, dict[int, float | None]]]   # pairing -> pair index -> swap -> score


def stored_results(store) -> Results:
    out: Results = {}
    for r in store.conn.execute("SELECT pairing_id, pair_index, swap, score, reason FROM game"):
        out.setdefault(r["pairing_id"], {}).setdefault(r["pair_index"], {})[r["swap"]] = (
            None if r["reason"] == "error" else r["score"])
    return out


def _pid(a: str, b: str) -> str:
    return cfg.pairing_id(a, b)


def _range_games(games: int, step: int) -> range:
    """Pair indices of a match's step: 0 = its `games`, j >= 1 = the j-th playoff pair."""
    half = (games + 1) // 2
    return range(half) if step == 0 else range(half + step - 1, half + step)


def _wins(res: Results, pid: str, pairs: range, games: int, pair_rule: bool, step: int
          ) -> tuple[int, int, int, int] | None:
    """(wins a, wins b, draws, errors) over the pair indices, or None if a game is missing."""
    from mcts_arena import stats
    from mcts_arena.stats import pair_outcome

    got = res.get(pid, {})
    wa = wb = dr = err = 0
    singles = []
    for k in pairs:
        want = 2 if step or 2 * k + 1 < games else 1
        g = got.get(k, {})
        if len(g) < want:
            return None
        if pair_rule and want == 2:
            o = pair_outcome(g[0], g[1])
            wa += o == "player"
            wb += o == "opponent"
            dr += o == "draw"
            err += o == "error"
            continue
        singles.extend(g.values())
    t = stats.tally(singles)
    return wa + t.wins, wb + t.losses, dr + t.draws, err + t.errors


@dataclass
class State:
    """A tournament rebuilt from stored games: what is decided and what still must be played."""

    spec: TournamentSpec
    bracket: object | None = None                   # elimination: arena.bracket.Bracket
    pairings: dict[str, Pairing] = field(default_factory=dict)      # every match so far
    needed: list[str] = field(default_factory=list)  # pairing ids with games to play
    results: dict[tuple[str, str], tuple[int, int, int, int]] = field(default_factory=dict)

    @property
    def done(self) -> bool:
        return not self.needed


def _pairing(spec: TournamentSpec, a: str, b: str, games: int) -> Pairing:
    sa, sb = spec.spec_of(a), spec.spec_of(b)
    return Pairing(_pid(sa, sb), sa, sb, games, f"{a} vs. {b}", spec.budgets.get(a),
                   spec.budgets.get(b))


def state(spec: TournamentSpec, res: Results) -> State:
    """Replay the tournament over the stored results `res`."""
    from mcts_arena.arena.bracket import Bracket

    st = State(spec)
    pair_rule = _games.pair_rule(spec.game)
    if spec.kind != "elimination":
        if spec.kind == "round_robin":
            matches = list(itertools.combinations([e[0] for e in spec.entrants], 2))
        else:
            matches = [(spec.player[0], e[0]) for e in spec.entrants]
        for a, b in matches:
            p = _pairing(spec, a, b, spec.games)
            st.pairings[p.id] = p
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
            p = _pairing(spec, a, c, games)
            st.pairings[p.id] = p
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


def experiment(spec: TournamentSpec, st: State) -> Experiment:
    return Experiment(name=spec.name, game=spec.game, budget=spec.budget, games=spec.games,
                      seed=spec.seed, openings=spec.openings, max_plies=spec.max_plies,
                      macros=spec.macros, pairings=tuple(st.pairings.values()),
                      source=f"tournament {spec.title}",
                      description=f"{spec.kind} tournament {spec.title}")


# ---- rendering -----------------------------------------------------------------------------
def header(spec: TournamentSpec) -> str:
    what = {"elimination": "elimination", "round_robin": "round robin",
            "gauntlet": "gauntlet"}[spec.kind]
    unit = "pairs won (pair rule)" if _games.pair_rule(spec.game) and spec.kind == "elimination" \
        else "wins"
    n = len(spec.entrants) + (1 if spec.player else 0)
    line = (f"tournament {spec.title}: {what}, {spec.game}, {n} entrants, {spec.games} games "
            f"per match at {spec.budget}")
    if spec.kind == "elimination":
        line += f", counting {unit}, tie rule {spec.tie}"
    return line


def paper_line(spec: TournamentSpec) -> str | None:
    if not spec.paper:
        return None
    from mcts_arena.paper import load_paper_results

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
    from mcts_arena import stats

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
    for rank, i in enumerate(order):
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
    from mcts_arena import stats

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
        e, ee = stats.elo(wa, dr, wb)
        elo = f"{e + 0.0:+.1f} ± {ee:.1f}" if n and abs(e) != float("inf") and ee != float("inf") else "-"
        lines.append(f"  vs {label:<{width}}  +{wa} ={dr} -{wb}  {100 * sc:6.2f}%  Elo {elo}")
    return lines


def spec_from_settings(s: dict) -> TournamentSpec:
    return TournamentSpec(name=s["name"], title=s["title"], kind=s["kind"], game=s["game"],
                          entrants=[tuple(e) for e in s["entrants"]],
                          budget=Budget.from_dict(s["budget"]) or Budget(),
                          games=s["games"], player=tuple(s["player"]) if s["player"] else None,
                          tie=s["tie"], max_playoffs=s["max_playoffs"], eval=s.get("eval"),
                          paper=s.get("paper"))


def stored_state(store) -> State | None:
    """The tournament in `store` rebuilt from its games (None if it holds none)."""
    raw = store.get_meta(META_KEY)
    if not raw:
        return None
    return state(spec_from_settings(json.loads(raw)), stored_results(store))


def render_stored(store) -> str | None:
    """The bracket / cross-table of the tournament in `store` (None if it holds none)."""
    st = stored_state(store)
    return None if st is None else render(st)


# ---- running -------------------------------------------------------------------------------
@dataclass
class TournamentResult:
    state: State
    interrupted: bool
    played: int
    directory: Path


_COMPARED = ("kind", "game", "entrants", "player", "games", "tie", "max_playoffs")


def _check_settings(store, spec: TournamentSpec) -> None:
    raw = store.get_meta(META_KEY)
    if not raw:
        if store.game_count():
            raise UserError(f"{store.directory} holds games of an experiment that is not this "
                            f"tournament; choose another --out DIR")
        return
    old, new = json.loads(raw), json.loads(json.dumps(spec.settings()))
    for k in _COMPARED:
        if old.get(k) != new.get(k):
            raise UserError(f"{store.directory} holds tournament {old.get('title')!r} with other "
                            f"settings: {k} was {json.dumps(old.get(k))[:60]}, now "
                            f"{json.dumps(new.get(k))[:60]}; choose another --out DIR")


def run_tournament(spec: TournamentSpec, directory: str | Path, *, workers: int,
                   players: str | None = None, progress: bool = True,
                   echo: Callable[[str], None] = print,
                   backend_factory: Callable[[], object] | None = None,
                   allow_mixed_builds: bool = False) -> TournamentResult:
    """Play (or resume) the tournament; `echo` gets each finished round (elimination) or the
    final table. Returns when it is finished or interrupted (Ctrl-C). Games of another build
    in the store refuse it unless `allow_mixed_builds` (scheduler.check_builds)."""
    from mcts_arena.arena import scheduler
    from mcts_arena.arena.plan import make_plan
    from mcts_arena.store import Store

    directory = Path(directory)
    with Store.open(directory) as store:
        _check_settings(store, spec)
        store.set_meta(META_KEY, json.dumps(spec.settings(), sort_keys=True))
        res = stored_results(store)
    printed = 0
    played = 0
    while True:
        st = state(spec, res)
        if st.bracket is not None:
            while printed < len(st.bracket.rounds):
                echo(st.bracket.rounds[printed].render() + "\n")
                printed += 1
        if st.done:
            if st.bracket is not None:
                echo(f"Winner: {st.bracket.winner}")
                pl = paper_line(spec)
                if pl:
                    echo(pl)
            else:
                echo(render(st, with_header=False).rstrip())
            return TournamentResult(st, False, played, directory)
        exp = experiment(spec, st)
        plan = make_plan(exp)
        backend = backend_factory() if backend_factory else None
        r = scheduler.run_experiment(exp, plan, directory, workers=workers, backend=backend,
                                     allow_mixed_builds=allow_mixed_builds,
                                     progress=progress, players=players)
        played += r.played
        with Store.open(directory, readonly=True) as store:
            res = stored_results(store)
        if r.interrupted:
            return TournamentResult(state(spec, res), True, played, directory)
        if r.all_error:     # replaying them would loop for ever
            from mcts_arena.errors import AllErrorGames

            raise AllErrorGames(scheduler.all_error_message(r.all_error))
        if r.played == 0 and state(spec, res).needed == st.needed:
            raise UserError(f"tournament {spec.title}: games of "
                            f"{', '.join(st.pairings[p].label for p in st.needed)} could not be "
                            f"stored; see 'arena report {directory}'")
