"""`arena tune CONFIG`: a player's parameters tuned by SPSA or Bayesian optimisation on
seat-swapped pairs, every game played by the runner (`run_experiment`: the worker pool or Ray,
the one writer, resume) into one results directory, then a confirmation match.

A config::

    name: bt-alpha-spsa
    game: breakthrough
    template: "MCTS(bl,im{alpha})"       # one {name} per parameter
    params:
      alpha: {low: 0, high: 1, start: 0.2}                # continuous
      n: {low: 1, high: 1000, type: int, log: true}       # integer, log-scaled
      e: {choices: [efMS, efLH]}                          # categorical (bo only)
    budget: {sims: 300}                  # or {time: s} or {effort: paper-seconds}
    # clock: "10+0.1"                    # or every game on a clock (budget sims: a cap)
    games: 400                           # the search's game budget (confirmation apart)
    method: spsa                         # or bo
    seed: 1
    opponent: "MCTS(bl)"                 # bo: every trial's opponent [default: the start]
    confirm: {games: 400, against: "MCTS(bl,im0.4)"}   # [default: 0 games; the start]
    # confirm: {games: 400, sprt: {elo0: 0, elo1: 20}}   # a GSPRT, stopped once it decides
    spsa: {c: 0.25, a: ..., A: ..., alpha: 0.602, gamma: 0.101, batch: 8, tail: 0.25}
    bo: {games_per_trial: 8, batch: 4, startup: 10, sampler: tpe}    # or sampler: gp
    openings: ..., max_plies: ..., macros: ...          # as in a run's config

`start` defaults to the middle of the domain (the geometric middle when log-scaled; the first
choice). The SPSA defaults and why (unit coordinates: every range is [0, 1]):
- alpha 0.602, gamma 0.101: Spall's practical exponents (the asymptotically optimal 1 and 1/6
  decay too fast for the few hundred steps a tune affords), as fishtest uses them;
- A = 10% of the steps: Spall's and fishtest's rule, so the first steps are not the largest;
- c = 0.25: θ±c probes a quarter of each range at the start (0.15 after 200 steps). A wide
  probe is what makes a pair's result say something about the slope when one pair is nearly a
  coin toss: on a simulated response as steep as Breakthrough's α (score 50% to 75%), 400
  games, 20 seeds, c = 0.1 ended in [0.15, 0.45] around the optimum 0.3 in 11 of 20, c = 0.25
  in 18 of 20 (tests/test_tune.py replays five of them);
- a: chosen so that the first step moves θ by `first_step` = 0.02 of the range per unit of
  result (one pair won 1.5-0.5): a = first_step * 2c * (A + 1)^alpha. In the same simulation
  (c = 0.2) a first step of 0.05 left the estimates spread wider over the seeds (standard
  deviation 0.14) than 0.02 did (0.10).
BO: Optuna's TPE sampler (tree-structured Parzen estimators; multivariate, seeded). It handles
continuous, log, integer and categorical parameters at once, needs nothing beyond Optuna (the
GP sampler needs torch; CMA-ES the `cmaes` package and no categorical parameters), and copes
with noisy objectives because it models the density of good and bad trials rather than fitting
the noise. A trial's objective is its mean score against the opponent over `games_per_trial`
games (seat-swapped pairs). The sampler is made afresh for each batch of trials, seeded from
the seed and the batch, and given the completed trials: so a resumed tune asks exactly the
points an uninterrupted one asked.
`sampler: gp` asks with a Gaussian process told each trial's variance instead (`ask_gp`,
results/gp.py; docs/tuning.md says why a GP of our own).
The confirmation's `sprt` (the keys and checks of an experiment's `sprt`, runner/config.py)
makes it a GSPRT with `games` as its cap: its batch is an experiment with that test, whose
runner stops dispatching the confirmation's pairs once the test decides and keeps the decision.
"""
from __future__ import annotations

import dataclasses
import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from mcts_arena import inputs
from mcts_arena.budgets import Budget
from mcts_arena.errors import AllErrorGames, ConfigError, UserError
from mcts_arena.results import rows
from mcts_arena.results.sprt import Sprt
from mcts_arena.results.store import Store
from mcts_arena.results.tune import (
    BRACKET_KEY,
    DIGITS,
    META_KEY,
    TRIALS_KEY,
    TuneSettings,
    TuneState,
    progress_line,
    scores_by_pair,
    settings_of,
    state_of,
    step_id,
    stored_trials,
)
from mcts_arena.runner import config as cfg
from mcts_arena.runner.config import Experiment, Pairing
from mcts_arena.runner.plan import Job, Plan, derive_seed, pair_games, pair_openings
from mcts_arena.runner.tournament import check_settings
from mcts_arena.runner.tune_config import TuneSpec, loads
from mcts_arena.runner.tune_config import load as load  # re-exported: tune.load(path)

GP_KAPPA = 1.96                 # the GP asks where mean + GP_KAPPA sd is highest
GP_CANDIDATES = 2000            # random points that acquisition is maximised over
CONFIRM_PART = 20               # pairs of the confirmation played between two progress lines


def bracket(spec: TuneSpec, config: dict | None = None):
    """Method bracket: the paper's elimination tournament (runner/tournament.py) over the
    parameter's grid, from the tune's config: entrants `name=value` in grid order, the same
    budget, seed, openings and macros."""
    from mcts_arena.runner.tournament import TournamentSpec

    s = spec.settings
    p = s.params[0]
    make = _Specs(spec)
    entrants, budgets = [], {}
    for x in p.grid:
        label = f"{p.name}={p.text(x)}"
        entrants.append((label, make(s.spec_text({p.name: x}), f"params.{p.name}.grid")[0]))
        budgets[label] = make.made[s.spec_text({p.name: x})][1]
    b = spec.bracket
    return TournamentSpec(name=s.name, title=s.name, kind="elimination", game=s.game,
                          entrants=entrants, budget=spec.budget, games=b["games"],
                          tie=b["tie"], seed=s.seed, openings=spec.openings,
                          max_plies=spec.max_plies, macros=spec.macros, budgets=budgets)


# ---- playing -------------------------------------------------------------------------------
@dataclass
class TuneResult:
    state: TuneState
    interrupted: bool
    played: int
    directory: Path
    terminated: bool = False


def _experiment(spec: TuneSpec, pairings: list[Pairing], sprt: Sprt | None = None
                ) -> Experiment:
    """The batch's experiment: every pairing of the tune so far (the store checks a resumed
    run against all of them); `sprt`: the confirmation's test, for its batch (it tests the
    confirmation alone, not the search's steps)."""
    s = spec.settings
    from mcts_arena import games as _games

    return Experiment(name=s.name, game=_games.resolve(s.game), budget=spec.budget,
                      games=2, seed=s.seed, openings=spec.openings, max_plies=spec.max_plies,
                      macros=spec.macros, pairings=tuple(pairings), source=f"tune {s.name}",
                      description=spec.description or f"{s.method} tune of {s.template}",
                      sprt=sprt, sprt_pairings=(s.confirm_id,) if sprt is not None else ())


def _jobs(exp: Experiment, wanted: list[tuple[Pairing, range]]) -> Plan:
    """Jobs for each pairing's pair indices: the openings of pair k as every run's (so step k
    and trial k's pairs start from their own openings, not all from pair 0's)."""
    jobs = []
    for p, ks in wanted:
        for k in ks:
            jobs.append(Job(job_id=f"{exp.name}/{p.id}/{k}", game=exp.game,
                            openings=pair_openings(exp, k),
                            opening_seed=derive_seed(exp.seed, "opening", k), pair_index=k,
                            max_plies=exp.max_plies, macros=exp.macros,
                            games=pair_games(exp, dataclasses.replace(p, games=2 * k + 2), k)))
    return Plan(exp, tuple(jobs))


class _Specs:
    """Player specs made at run time (θ±cΔ, a trial's point, the tuned player): canonical, with
    their own budgets (a matched effort: their simulations), each parsed once per run."""

    def __init__(self, spec: TuneSpec, players=None):
        self.v = cfg.Validator(f"tune {spec.name}", players)
        self.v._budget = spec.budget
        self.game, self.macros = spec.settings.game, dict(spec.macros) or None
        self.made: dict[str, tuple[str, Budget | None]] = {}

    def __call__(self, text: str, where: str) -> tuple[str, Budget | None]:
        if text not in self.made:
            try:
                self.made[text] = self.v.player(text, where, self.game, self.macros)
            except ConfigError as e:
                raise UserError(str(e)) from None
        return self.made[text]


def _spsa_pairings(s: TuneSettings, st: TuneState, make: _Specs) -> list[tuple[Pairing, range]]:
    out = []
    for step in st.steps:
        a, ab = make(s.spec_text(step.plus), f"step {step.k} θ+")
        b, bb = make(s.spec_text(step.minus), f"step {step.k} θ-")
        out.append((Pairing(step_id("spsa", step.k), a, b, 2, f"spsa step {step.k}", ab, bb),
                    range(step.k, step.k + 1)))
    return out


def ask_trials(s: TuneSettings, done: list[dict], first: int) -> list[dict]:
    """The points of trials first.. first+batch-1 (Optuna's TPE sampler seeded from the seed
    and the batch, told the completed trials `done`)."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    dists = {}
    for p in s.params:
        if p.kind == "choice":
            dists[p.name] = optuna.distributions.CategoricalDistribution(list(p.choices))
        elif p.kind == "int":
            dists[p.name] = optuna.distributions.IntDistribution(int(p.low), int(p.high),
                                                                 log=p.log)
        else:
            dists[p.name] = optuna.distributions.FloatDistribution(p.low, p.high, log=p.log)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")         # multivariate and constant_liar: experimental
        sampler = optuna.samplers.TPESampler(
            seed=derive_seed(s.seed, "bo", first) % 2**32, n_startup_trials=s.bo.startup,
            multivariate=True, constant_liar=True)
        study = optuna.create_study(direction="maximize", sampler=sampler)
        for t in done:
            study.add_trial(optuna.trial.create_trial(params=t["values"], distributions=dists,
                                                      value=t["score"]))
        out = []
        for i in range(first, min(s.steps, first + s.bo.batch)):
            trial = study.ask(dists)
            values = {p.name: (trial.params[p.name] if p.kind != "float"
                               else round(trial.params[p.name], DIGITS)) for p in s.params}
            out.append({"trial": i, "values": values})
    return out


def ask_gp(s: TuneSettings, done: list[dict], first: int) -> list[dict]:
    """The points of trials first.. first+batch-1 by the noise-aware GP (results/gp.py): at
    random (seeded from the seed and the trial) until `startup` trials are done, then where
    the GP of the completed trials `done` has the highest mean + GP_KAPPA sd among
    GP_CANDIDATES random points (seeded from the seed and the batch), each later point of a
    batch asked of the model told the earlier ones' means (the kriging believer)."""
    import numpy as np

    from mcts_arena.results.gp import score_variance
    from mcts_arena.results.tune import candidates, decode, gp_model

    out = []
    model = gp_model(s, done, first) if len(done) >= max(2, s.bo.startup) else None
    noise = float(np.median([score_variance(t["score"], t["games"]) for t in done])) \
        if done else 0.0
    rng = np.random.default_rng(derive_seed(s.seed, "gp", first) % 2**32)
    for i in range(first, min(s.steps, first + s.bo.batch)):
        if model is None:
            x = candidates(s, 1, np.random.default_rng(derive_seed(s.seed, "gp", i)
                                                       % 2**32))[0]
        else:
            pts = candidates(s, GP_CANDIDATES, rng)
            mu, var = model.posterior(pts)
            x = pts[int(np.argmax(mu + GP_KAPPA * np.sqrt(var)))]
            model = model.believe(x, noise)
        out.append({"trial": i, "values": decode(s, x)})
    return out


def _ask_next(s: TuneSettings, st: TuneState, store) -> None:
    """Ask the batch of the first trial not complete (again, after a kill: the same points) and
    record the trials' points in the store's meta."""
    complete = {t["trial"] for t in st.trials if t["games"] == s.bo.games_per_trial}
    missing = next(i for i in range(s.steps) if i not in complete)
    first = missing - missing % s.bo.batch
    ask = ask_gp if s.bo.sampler == "gp" else ask_trials
    points = ask(s, [t for t in st.trials if t["trial"] < first], first)
    stored = {t["trial"]: t for t in stored_trials(store)}
    lib = "numpy or scipy" if s.bo.sampler == "gp" else "Optuna"
    for t in points:
        old = stored.get(t["trial"])
        if old is not None and old["values"] != t["values"]:
            raise UserError(f"{store.directory}: trial {t['trial']} was played at "
                            f"{json.dumps(old['values'])}, asked now at "
                            f"{json.dumps(t['values'])} (another {lib} version?); choose "
                            f"another --out DIR")
        stored[t["trial"]] = t
    store.set_meta(TRIALS_KEY, json.dumps([stored[k] for k in sorted(stored)], sort_keys=True))


def _bo_pairings(s: TuneSettings, st: TuneState, make: _Specs) -> list[tuple[Pairing, range]]:
    per = s.bo.games_per_trial // 2
    opponent, ob = make(s.opponent, "opponent")
    out = []
    for t in st.trials:
        i = t["trial"]
        spec_text, b = make(s.spec_text(t["values"]), f"trial {i}")
        out.append((Pairing(step_id("bo", i), spec_text, opponent, 2 * per, f"bo trial {i}",
                            b, ob), range(i * per, (i + 1) * per)))
    return out


def _confirm_pairing(s: TuneSettings, st: TuneState, make: _Specs, upto: int | None = None
                     ) -> list[tuple[Pairing, range]]:
    tuned, tb = make(s.spec_text(st.estimate.values), "the tuned player")
    ref, rb = make(s.reference, "confirm.against")
    pairs = s.confirm_games // 2 if upto is None else min(upto, s.confirm_games // 2)
    label = "confirmation" if not s.extends else f"confirmation after {s.games} games"
    return [(Pairing(s.confirm_id, tuned, ref, s.confirm_games, label, tb, rb),
             range(pairs))]


def pairings(s: TuneSettings, st: TuneState, make: _Specs, upto: int | None = None
             ) -> list[tuple[Pairing, range]]:
    """Every pairing of the tune so far (the store's check of a resumed run wants all of them)
    and its pair indices: the steps or trials played and next to play, the confirmation once
    the search is done (its pairs below `upto`: a part of it at a time, to report on)."""
    out = _spsa_pairings(s, st, make) if s.method == "spsa" else _bo_pairings(s, st, make)
    if st.search_done and st.confirmation is not None:
        out += _confirm_pairing(s, st, make, upto)
    return out


def _earlier_confirmations(s: TuneSettings, directory: Path, make: _Specs
                           ) -> list[tuple[Pairing, range]]:
    """The confirmations an extended tune played at its earlier budgets (nothing more to play:
    the store checks a run against every pairing it holds), each of the estimate the tune
    had then."""
    out = []
    for i, g in enumerate(s.extends):
        then = dataclasses.replace(s, games=g, extends=s.extends[:i])
        st = _read(directory, then)
        if st.confirmation is not None:
            out += [(p, range(0)) for p, _ in _confirm_pairing(then, st, make)]
    return out


def _check_settings(store, spec: TuneSpec) -> None:
    old = settings_of(store)
    if old is None:
        if store.get_meta(BRACKET_KEY) is not None or store.game_count():
            raise UserError(f"{store.directory} holds games of an experiment that is not this "
                            f"tune; choose another --out DIR")
        return
    grown = spec.settings.games > old.games and spec.settings.extends == (
        *old.extends, old.games) and dataclasses.replace(
        spec.settings, games=old.games, extends=old.extends) == old
    if old != spec.settings and not grown:
        a, b = json.loads(old.as_json()), json.loads(spec.settings.as_json())
        k = next(k for k in sorted(a, key=lambda k: (k == "extends", k)) if a[k] != b.get(k))
        raise UserError(f"{store.directory} holds tune {old.name!r} with other settings: {k} "
                        f"was {json.dumps(a[k])[:60]}, now {json.dumps(b.get(k))[:60]}; "
                        f"choose another --out DIR")


def _read(directory: Path, s: TuneSettings) -> TuneState:
    with Store.open(directory) as store:
        return state_of(store, s, scores_by_pair(store))


def prepare(path: str, out: str | None = None, players=None, seed: int | None = None
            ) -> tuple[TuneSpec, Path]:
    """`arena tune`: the config (its seed replaced by `seed`, default directory
    results/<name>-seed<seed>) and its results directory, checked before anything is
    written; a config that asks a stored tune for more games extends it (`extended`)."""
    if out is not None and not out.strip():
        raise UserError("--out must name a directory, got ''")
    data = inputs.load_yaml(Path(path), "a tune config (YAML)")

    def made(games: int | None = None) -> TuneSpec:
        d = data if games is None or not isinstance(data, dict) else {**data, "games": games}
        spec = loads(d, str(path), Path(path).stem, players)
        if seed is not None:
            s = dataclasses.replace(spec.settings, seed=seed, name=f"{spec.name}-seed{seed}")
            spec = dataclasses.replace(spec, settings=s)
        return spec
    spec = made()
    directory = Path(out) if out else Path("results") / spec.name
    spec = extended(spec, directory, made)
    return spec, check_directory(spec, out)


def extended(spec: TuneSpec, directory: Path, made: Callable[[int], TuneSpec]) -> TuneSpec:
    """`spec` as the extension of the SPSA or BO tune stored in `directory`, where the config
    asks for more games and is otherwise the stored tune's config (`made(games)`: the config
    with another game budget): the stored settings, gains included (SPSA's A and a were made
    for the first budget; the path so far stays as played), with the new budget, the old ones
    in `extends`. Anything else: `spec` as it is (the directory's check refuses a conflict)."""
    db = directory / "arena.sqlite"
    new = spec.settings
    if new.method == "bracket" or not db.is_file() or not db.stat().st_size:
        return spec
    with Store.open(directory) as store:
        old = settings_of(store)
    if old is None or old == new or new.games < old.games:
        return spec
    first = old.extends[0] if old.extends else old.games
    try:
        base = made(first).settings
    except ConfigError:
        return spec
    if base != dataclasses.replace(old, games=first, extends=()):
        return spec
    if new.games == old.games:
        return dataclasses.replace(spec, settings=old)
    return dataclasses.replace(spec, settings=dataclasses.replace(
        old, games=new.games, extends=(*old.extends, old.games)))


def check_directory(spec: TuneSpec, out: str | None) -> Path:
    """The tune's results directory, usable and holding nothing but this tune."""
    from mcts_arena.runner.writer import check_writable

    directory = Path(out) if out else Path("results") / spec.name
    check_writable(directory)
    db = directory / "arena.sqlite"
    if db.exists() and db.stat().st_size:
        with Store.open(directory) as old:
            if spec.settings.method == "bracket":
                _check_bracket(old, spec)
                check_settings(old, bracket(spec))      # the tournament's own settings
            else:
                _check_settings(old, spec)
    return directory


def bracket_mark(spec: TuneSpec) -> str:
    """What a bracket's store keeps of the tune config that made it (BRACKET_KEY): the
    template and the parameter its entrants vary, so that readers show it as a tune."""
    s = spec.settings
    p = s.params[0]
    return json.dumps({"name": s.name, "template": s.template, "param": p.name,
                       "grid": [p.text(x) for x in p.grid], "start": p.text(p.start)},
                      sort_keys=True)


def _check_bracket(store, spec: TuneSpec) -> None:
    other = settings_of(store)
    if other is not None:
        raise UserError(f"{store.directory} holds tune {other.name!r} ({other.method}), not a "
                        f"bracket; choose another --out DIR")
    old = store.meta_json(BRACKET_KEY, rows.obj())       # damaged: one line naming it
    if old is not None and old != json.loads(bracket_mark(spec)):
        raise UserError(f"{store.directory} holds the bracket of another tune config "
                        f"({old.get('template')!r} over {old.get('param')!r}); choose another "
                        f"--out DIR")


def run_tune(spec: TuneSpec, directory: str | Path, *, workers: int, players: str | None = None,
             echo: Callable[[str], None] = print,
             backend_factory: Callable[[], object] | None = None,
             allow_mixed_builds: bool = False) -> TuneResult:
    """Play (or resume) the tune: batches of SPSA steps or BO trials, then the confirmation;
    `echo` gets a line per batch. Returns when done or interrupted (Ctrl-C, SIGTERM)."""
    from mcts_arena.runner.experiment import all_error_message, run_experiment
    from mcts_arena.runner.pool import LocalPoolBackend
    from mcts_arena.runner.writer import Writer

    directory = Path(directory)
    s = spec.settings
    make = _Specs(spec, cfg.players_provider(players) if players else None)
    start_engines(spec, make, players)      # an engine that cannot start: nothing written
    with Writer.open(directory) as store:
        _check_settings(store, spec)
        store.set_meta(META_KEY, spec.settings.as_json())
    played = 0
    st = _read(directory, s)
    # one set of workers for every batch (a batch is a few games: starting workers for each
    # would cost more than some batches take)
    with LocalPoolBackend(workers, players=players, keep_workers=True) as pool:
        upto, pairs = 0, s.confirm_games // 2
        earlier = _earlier_confirmations(s, directory, make)
        while not st.done:
            if not st.search_done and s.method == "bo":
                with Writer.open(directory) as store:
                    _ask_next(s, st, store)
                st = _read(directory, s)
            if st.search_done:      # the confirmation a part at a time, a line after each
                upto = min(pairs, max(upto, st.confirmation.played // 2)
                           + max(CONFIRM_PART, 4 * workers))
            wanted = pairings(s, st, make, upto if st.search_done else None) + earlier
            exp = _experiment(spec, [p for p, _ in wanted],
                              s.confirm_sprt if st.search_done else None)
            plan = _jobs(exp, wanted)
            backend = backend_factory() if backend_factory else pool
            r = run_experiment(exp, plan, directory, workers=workers, backend=backend,
                               progress=False, players=players,
                               allow_mixed_builds=allow_mixed_builds)
            played += r.played
            before, st = st, _read(directory, s)
            if r.halted:
                return TuneResult(st, True, played, directory, r.terminated)
            if r.all_error:
                raise AllErrorGames(all_error_message(r.all_error))
            if r.played == 0 and _progress(before) == _progress(st) and not (
                    st.search_done and upto < pairs):
                raise UserError(f"tune {s.name}: no game could be stored; see 'arena report "
                                f"{directory}'")
            echo(progress_line(st))
    return TuneResult(st, False, played, directory)


def start_engines(spec: TuneSpec, make: _Specs, players: str | None = None) -> None:
    """Start every outside engine the tune will play once, before its store is made (as a
    run's preflight does): the tuned player at its start, BO's opponent and the
    confirmation's opponent where it plays."""
    from mcts_arena.runner.preflight import start_each

    s = spec.settings
    specs = [make(s.spec_text(s.start_values()), "template")]
    if s.method == "bo":
        specs.append(make(s.opponent, "opponent"))
    if s.confirm_games:
        specs.append(make(s.reference, "confirm.against"))
    start_each([(text, own or spec.budget) for text, own in specs], s.game,
               spec.openings.reached_by_moves, dict(spec.macros) or None, players)


def _progress(st: TuneState) -> tuple:
    c = st.confirmation
    return st.search_games, len(st.trials), c.played if c else 0, c is not None and c.decided


# ---- the plan (`arena tune --dry-run`) -----------------------------------------------------
def _game_seconds(spec: TuneSpec, seats: tuple[str, str], make: _Specs, costs) -> float | None:
    """CPU seconds of one game between two player texts at the game's typical length: a move
    costs its time budget, or what runner/estimate.py measured at the start position."""
    from mcts_arena.runner.plan import typical_plies

    total = 0.0
    for text in seats:
        canon, own = make(text, "the plan")
        b = own or spec.budget
        cost = b.time if b.time is not None else costs.of(canon, b).seconds
        if cost is None:
            return None
        total += cost
    return typical_plies(spec.settings.game) / 2 * total


def dry_run(spec: TuneSpec, directory: Path, workers: int, players=None) -> str:
    """What `arena tune --dry-run` prints after the settings (report/tune.py's
    settings_text): the plan (the games of the search and of the confirmation, or the
    bracket's matches), the games stored, and the CPU it should take (each search game timed
    as the start player's, the confirmation's as the start against the reference). Plays and
    writes nothing."""
    from mcts_arena.runner.estimate import Costs
    from mcts_arena.runner.plan import hms, typical_plies

    s = spec.settings
    make = _Specs(spec, cfg.players_provider(players) if players else None)
    costs = Costs(s.game, dict(spec.macros) or None)
    start = s.spec_text(s.start_values())
    lines = []
    if s.method == "bracket":
        from mcts_arena.runner.tournament import most_games

        search, confirm = most_games(bracket(spec)), 0
        p = s.params[0]
        lines.append(f"tune {s.name}: bracket of {s.template} on {s.game} over {p.name} in "
                     f"{', '.join(p.text(x) for x in p.grid)}: {len(p.grid) - 1} matches of "
                     f"{spec.bracket['games']} games, at most {search:,} games")
        opponent = start
    else:
        search = s.steps * (2 if s.method == "spsa" else s.bo.games_per_trial)
        confirm = s.confirm_games
        opponent = s.opponent if s.method == "bo" else start
        what = (f"{s.steps} steps of a pair, θ+cΔ vs θ-cΔ" if s.method == "spsa" else
                f"{s.steps} trials of {s.bo.games_per_trial} games against {s.opponent}")
        lines.append(f"search: {search:,} games ({what})")
        if confirm:
            test = f", stopped once its {s.confirm_sprt} decides" if s.confirm_sprt else ""
            lines.append(f"confirmation: {'at most ' if test else ''}{confirm:,} games of the "
                         f"tuned player against {s.reference}{test}")
    stored = 0
    if (directory / "arena.sqlite").is_file():
        with Store.open(directory) as store:
            stored = store.game_count()
    per_search = _game_seconds(spec, (start, opponent), make, costs)
    per_confirm = _game_seconds(spec, (start, s.reference), make, costs) if confirm else 0.0
    left = max(0, search + confirm - stored)
    line = f"{search + confirm:,} games, {stored:,} stored, {left:,} to play"
    if per_search is None or per_confirm is None:
        line += "; CPU time unknown (an external engine's speed is not known before it plays)"
    else:
        whole = per_search * search + per_confirm * confirm
        est = whole * left / max(1, search + confirm)
        line += (f"; estimated {hms(est)} CPU, about {hms(est / max(1, workers))} on {workers} "
                 f"worker{'s' if workers != 1 else ''} (at {typical_plies(s.game)} plies per "
                 f"game, the tuned player timed at its start, at the start position)")
    lines.append(line)
    lines.append(f"results: {directory} (dry run: nothing played)")
    return "\n".join(lines) + "\n"
