"""Tournaments: the paper's elimination brackets (Appendix B), round robins and gauntlets.

A tournament is one results directory (default `results/tournament-<name>-<game>[-efLH]/`) and
one experiment in it: every match is a pairing played by the runner (`run_experiment`), so the
matches of a round run in parallel on the same worker pool and store, and a killed tournament
resumes where it stopped. The tournament's settings are kept in the store's meta table
(`tournament`, JSON); the bracket is never stored, it is rebuilt from the stored games
(results/tournament.py, which `arena report` uses too). This module builds a tournament (the
paper's or a YAML file's) and plays it.

Kinds:
- `elimination`: the bracket rule of docs/paper.md section 5 (results/bracket.py): the i-th
  entrant plays the (n-1-i)-th, a middle bye goes to the end of the next round's list. A match is
  `games` games (seat-swapped pairs); the count that decides it is wins (a game scored by pairs:
  pairs won by the pair rule, as the paper's Kalah brackets count). Ties: `first` (the paper's:
  the first of the pair advances) or `playoff` (one more seat-swapped pair at a time, at most
  `max_playoffs`).
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

import dataclasses
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mcts_arena import budgets, inputs
from mcts_arena import games as _games
from mcts_arena.budgets import Budget
from mcts_arena.errors import AllErrorGames, UserError
from mcts_arena.players.notation import display_name
from mcts_arena.results.store import Store
from mcts_arena.results.tournament import (
    KINDS,
    META_KEY,
    TIE_RULES,
    State,
    Tournament,
    paper_line,
    render,
    state,
    stored_results,
    stored_settings,
)
from mcts_arena.runner import config as cfg
from mcts_arena.runner.config import Experiment, Openings, Pairing

BUILTINS = ("fet", "det", "ege", "im")
YAML_FIELDS = ("name", "kind", "game", "budget", "games", "seed", "openings", "max_plies",
               "macros", "entrants", "player", "tie", "max_playoffs", "description")


@dataclass
class TournamentSpec(Tournament):
    """What a tournament plays: its settings (Tournament, what the store keeps) and what playing
    needs besides."""

    seed: int = 1
    openings: Openings = field(default_factory=Openings)
    max_plies: int = 1000
    macros: tuple[tuple[str, str], ...] = ()
    budgets: dict[str, Budget | None] = field(default_factory=dict)   # a spec's own budget


# ---- building a spec ---------------------------------------------------------------------
def _canon(parse, text: str, game: str, macros: dict | None,
           where: str) -> tuple[str, Budget | None]:
    try:
        spec = parse(text, game=game, macros=macros)
    except ValueError as e:
        raise UserError(f"{where}: bad player {text!r}: {e}") from None
    return spec.canonical, cfg.spec_budget(spec)


def builtin(name: str, game: str, evalfn: str | None, players=None) -> TournamentSpec:
    """The paper's tuning tournament `name` for `game` (budget and games filled by the caller)."""
    from mcts_arena.paper import load_paper_results

    if name not in BUILTINS:
        raise UserError(f"unknown tournament {name!r}; valid: {', '.join(BUILTINS)} or a YAML "
                        f"file")
    game = _games.resolve(game)
    info = game.info
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
    data = inputs.load_yaml(p, "a tournament file (YAML)")
    v = cfg.Validator(src, players)
    d = v.mapping(data, "", "a mapping at the top level")
    v.known_keys(d, "", YAML_FIELDS)
    for req in ("kind", "entrants"):
        if req not in d:
            v.fail(req, "missing required field")
    kind = d["kind"]
    if kind not in KINDS:
        v.fail("kind", f"unknown kind {cfg.shown(kind)}; valid: {', '.join(KINDS)}")
    name = d.get("name", p.stem)
    if not isinstance(name, str) or not cfg.NAME_RE.match(name):
        v.fail("name", f"expected a name of letters, digits, '_', '.', '-', got {cfg.shown(name)}")
    game = game or d.get("game")
    if game is None:
        v.fail("game", "missing required field (or give --game)")
    game = v.game(game, "game")
    budget = v.budget(d["budget"], "budget") if "budget" in d else Budget(time=1.0)
    games = v.games(d.get("games", 100), "games", "games per match")
    seed = d.get("seed", 1)
    if not cfg.is_int(seed) or seed < 0:
        v.fail("seed", f"expected a non-negative integer, got {cfg.shown(seed)}")
    openings = v.openings(d.get("openings", cfg.default_openings(game)), "openings", game)
    max_plies = v.positive_int(d.get("max_plies", 1000), "max_plies", "plies before a draw")
    macros = v.macros(d.get("macros", {}), "macros")
    tie = d.get("tie", "first")
    if tie not in TIE_RULES:
        v.fail("tie", f"unknown tie rule {cfg.shown(tie)}; valid: {', '.join(TIE_RULES)}")
    max_playoffs = d.get("max_playoffs", 5)
    if not cfg.is_int(max_playoffs) or max_playoffs < 0:
        v.fail("max_playoffs", f"expected a non-negative integer, got {cfg.shown(max_playoffs)}")
    raw = d["entrants"]
    if isinstance(raw, dict):
        items = [(str(k), val, f"entrants.{k}") for k, val in raw.items()]
    elif isinstance(raw, list):
        items = [(None, val, f"entrants[{i}]") for i, val in enumerate(raw)]
    else:
        v.fail("entrants", f"expected a list of player specs or a mapping label: spec, got "
                           f"{cfg.shown(raw)}")
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


def default_game() -> str:
    """The game of a built-in tournament without --game: the first registered game that
    declares tuning defaults (breakthrough; not merely the first name, which became backgammon,
    a game the paper's brackets cannot play)."""
    for name in _games.names():
        try:
            if _games.info_of(name).tuning:
                return name
        except ImportError:         # a game that is not built
            continue
    return _games.names()[0]


def resolve(name: str, game: str | None = None, evalfn: str | None = None,
            players=None) -> TournamentSpec:
    """NAME of `arena tournament`: a built-in name or a YAML file."""
    if name in BUILTINS:
        return builtin(name, game or default_game(), evalfn, players)
    if name.endswith((".yaml", ".yml")) or Path(name).is_file():
        if evalfn is not None:
            raise UserError("--eval is for the built-in tournaments; a YAML file names its "
                            "players' evaluations itself")
        return from_yaml(name, players, game)
    raise UserError(f"unknown tournament {name!r}; valid: {', '.join(BUILTINS)} or a YAML file "
                    f"(configs/tournaments/*.yaml)")


def pairings(spec: TournamentSpec, st: State) -> dict[str, Pairing]:
    """The matches of `st` as the runner's pairings (specs and their own budgets), by id."""
    out = {}
    for m in st.matches.values():
        out[m.id] = Pairing(m.id, spec.spec_of(m.a), spec.spec_of(m.b), m.games,
                            f"{m.a} vs. {m.b}", spec.budgets.get(m.a), spec.budgets.get(m.b))
    return out


def experiment(spec: TournamentSpec, st: State) -> Experiment:
    return Experiment(name=spec.name, game=_games.resolve(spec.game), budget=spec.budget,
                      games=spec.games, seed=spec.seed, openings=spec.openings,
                      max_plies=spec.max_plies, macros=spec.macros,
                      pairings=tuple(pairings(spec, st).values()),
                      source=f"tournament {spec.title}",
                      description=f"{spec.kind} tournament {spec.title}")


def prepare(name: str, game: str | None = None, evalfn: str | None = None,
            games: int | None = None, time: float | None = None, sims: int | None = None,
            tie: str | None = None, out: str | None = None,
            dry_run: bool = False) -> tuple[TournamentSpec, Path]:
    """`arena tournament`: the tournament NAME with the command line's overrides, and its
    results directory, checked (UserError) before anything is written (a dry run may look at
    a busy one)."""
    from mcts_arena.runner.writer import check_writable

    spec = resolve(name, game, evalfn)
    changes: dict = {}
    if games is not None:
        changes["games"] = games
    if time is not None or sims is not None:
        changes["budget"] = Budget(time=time, sims=sims)
    if tie is not None:
        changes["tie"] = tie
    spec = dataclasses.replace(spec, **changes)
    if spec.kind == "elimination" and spec.games % 2:
        raise UserError(f"--games must be even for an elimination (seat-swapped pairs), got "
                        f"{spec.games}")
    check_size(spec)
    directory = Path(out) if out else Path("results") / spec.name
    check_writable(directory, busy_ok=dry_run)  # a busy or foreign one refused before output
    if (directory / "arena.sqlite").exists() and (directory / "arena.sqlite").stat().st_size:
        with Store.open(directory) as old:      # another experiment's or tournament's store
            check_settings(old, spec)
    return spec, directory


def most_games(spec: TournamentSpec) -> int:
    """The most games `spec` can play: every match it can hold (playoffs included)."""
    n = len(spec.entrants) + (1 if spec.player else 0)
    if spec.kind == "round_robin":
        matches = n * (n - 1) // 2
    elif spec.kind == "gauntlet":
        matches = len(spec.entrants)
    else:                           # elimination: one match per entrant knocked out
        matches = max(0, n - 1)
    per_match = spec.games + (2 * spec.max_playoffs if spec.tie == "playoff" else 0)
    return matches * per_match


def check_size(spec: TournamentSpec) -> None:
    """A tournament is under the cap of a run (budgets.PLAN_MAX games), refused otherwise
    before anything starts (`--games 100000` started 600,000 games)."""
    total = most_games(spec)
    if total > budgets.PLAN_MAX:
        raise UserError(f"tournament {spec.name}: up to {total:,} games ({spec.games:,} per "
                        f"match), more than the {budgets.PLAN_MAX:,} a run may hold; lower "
                        f"--games")


def dry_run(spec: TournamentSpec, directory: Path, workers: int) -> str:
    """What `arena tournament --dry-run` prints: the entrants, the most games the tournament
    can play (`most_games`), each entrant's move under its budget (measured where it is a
    simulation budget: runner.estimate) and the CPU time those games need at the game's
    typical length. Nothing is played or written."""
    from mcts_arena.runner.estimate import Costs
    from mcts_arena.runner.plan import hms, typical_plies

    costs = Costs(spec.game, dict(spec.macros) or None)
    labels = [label for label, _ in spec.entrants] + ([spec.player[0]] if spec.player else [])
    total = most_games(spec)
    lines = [f"tournament {spec.title}: {spec.kind}, {spec.game}, {spec.budget}, "
             f"{spec.games} games per match, openings {spec.openings}, seed {spec.seed}",
             f"{len(labels)} entrants; at most {total:,} games (every match it can hold"
             f"{', playoffs included' if spec.tie == 'playoff' else ''})",
             "per move (simulation budgets measured at the start position):"]
    seconds = []
    for label in labels:
        spec_text, b = spec.spec_of(label), spec.budgets.get(label) or spec.budget
        if b.time is None and b.sims is None:
            lines.append(f"  {label} = {spec_text}: {b}, no estimate")
            seconds.append(None)
            continue
        c = costs.of(spec_text, b)
        shown = label if label == spec_text else f"{label} = {spec_text}"
        lines.append(f"  {shown}: {c.text(b)}")
        if c.overrides:
            lines.append(f"note: {label} has a fixed depth, which overrides the budget of "
                         f"{b.text()}")
        seconds.append(c.seconds)
    plies = typical_plies(spec.game)
    if None in seconds or not seconds:
        lines.append("CPU time unknown (an external engine's speed is not known before it "
                     "plays)")
    else:
        est = total * plies * sum(seconds) / len(seconds)
        lines.append(f"estimated at most {hms(est)} CPU, about {hms(est / max(1, workers))} "
                     f"on {workers} worker{'s' if workers != 1 else ''} (at {plies} plies per "
                     f"game, the entrants' mean move)")
    if spec.games % 2:
        lines.append(f"note: an odd number of games ({spec.games} per match) leaves the seats "
                     f"unbalanced by one game per match")
    lines.append(f"results: {directory} (dry run: nothing played)")
    return "\n".join(lines)


def tuning_evals() -> list[str]:
    """The evaluations a built-in tournament may be run with (`--eval`), as the games declare
    them (GameInfo.tuning["evals"]), in registry order."""
    out: list[str] = []
    for name in _games.names():
        try:
            evals = _games.info_of(name).tuning.get("evals", ())
        except ImportError:         # a game that is not built
            continue
        out += [e for e in evals if e not in out]
    return out


# ---- running -------------------------------------------------------------------------------
@dataclass
class TournamentResult:
    state: State
    interrupted: bool
    played: int
    directory: Path
    terminated: bool = False        # stopped by SIGTERM (exit 143) rather than Ctrl-C (130)


# what the stored games depend on (a budget too: games played at another one are not this
# tournament's)
_COMPARED = ("kind", "game", "entrants", "player", "games", "tie", "max_playoffs", "budget")


def check_settings(store, spec: TournamentSpec) -> None:
    """Refuse a store holding another experiment or this tournament with other settings."""
    old = stored_settings(store)
    if not old:
        if store.game_count():
            raise UserError(f"{store.directory} holds games of an experiment that is not this "
                            f"tournament; choose another --out DIR")
        return
    new = json.loads(json.dumps(spec.settings()))
    for k in _COMPARED:
        if old.get(k) != new.get(k):
            raise UserError(f"{store.directory} holds tournament {old.get('title')!r} with other "
                            f"settings: {k} was {json.dumps(old.get(k))[:60]}, now "
                            f"{json.dumps(new.get(k))[:60]}; choose another --out DIR")


def run_tournament(spec: TournamentSpec, directory: str | Path, *, workers: int,
                   players: str | None = None, progress: bool = True,
                   echo: Callable[[str], None] = print,
                   backend_factory: Callable[[], object] | None = None,
                   allow_mixed_builds: bool = False,
                   meta: dict[str, str] | None = None) -> TournamentResult:
    """Play (or resume) the tournament; `echo` gets each finished round (elimination) or the
    final table. Returns when it is finished or interrupted (Ctrl-C). Games of another build
    in the store refuse it unless `allow_mixed_builds` (runner.experiment.check_builds).
    `meta`: entries the store keeps besides (a tune's bracket: its config), written with the
    settings, after every check."""
    from mcts_arena.runner.experiment import all_error_message, has_results, run_experiment
    from mcts_arena.runner.plan import make_plan
    from mcts_arena.runner.pool import LocalPoolBackend
    from mcts_arena.runner.preflight import start_each
    from mcts_arena.runner.writer import Writer

    directory = Path(directory)
    # an outside engine that cannot start stops the tournament before its store is made
    seats = spec.entrants + ([spec.player] if spec.player else [])
    start_each([(s, spec.budgets.get(label) or spec.budget) for label, s in seats], spec.game,
               spec.openings.reached_by_moves, dict(spec.macros) or None, players)
    if has_results(directory) and (directory / "arena.sqlite").stat().st_size:
        # refused read-only first: nothing written, no lock rewritten
        with Store.open(directory) as old:
            check_settings(old, spec)
    with Writer.open(directory) as store:
        check_settings(store, spec)
        store.set_meta(META_KEY, json.dumps(spec.settings(), sort_keys=True))
        for key, value in (meta or {}).items():
            store.set_meta(key, value)
        res = stored_results(store)
    printed = 0
    played = 0
    # one set of workers for every round (a round of a small tournament takes seconds)
    with LocalPoolBackend(workers, players=players, keep_workers=True) as pool:
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
            backend = backend_factory() if backend_factory else pool
            r = run_experiment(exp, plan, directory, workers=workers, backend=backend,
                               allow_mixed_builds=allow_mixed_builds,
                               progress=progress, players=players,
                               standings_every=0)   # a round's lines say it: by time alone
            played += r.played
            with Store.open(directory) as store:
                res = stored_results(store)
            if r.halted:
                return TournamentResult(state(spec, res), True, played, directory, r.terminated)
            if r.all_error:     # replaying them would loop for ever
                raise AllErrorGames(all_error_message(r.all_error))
            if r.played == 0 and state(spec, res).needed == st.needed:
                labels = pairings(spec, st)
                raise UserError(f"tournament {spec.title}: games of "
                                f"{', '.join(labels[p].label for p in st.needed)} could not be "
                                f"stored; see 'arena report {directory}'")
