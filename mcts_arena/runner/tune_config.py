"""A tune's config (`arena tune CONFIG`, runner/tune.py plays it): its fields validated, one
line naming the field for every mistake (ConfigError), into a `TuneSpec` — the settings the
store keeps and what playing needs besides. The template is parsed at every point of the
parameters' domains before anything is played (`_probe_points`)."""
from __future__ import annotations

import dataclasses
import math
import string
from dataclasses import dataclass
from pathlib import Path

from mcts_arena import inputs
from mcts_arena.budgets import Budget
from mcts_arena.results.sprt import Sprt
from mcts_arena.results.tune import (
    DIGITS,
    METHODS,
    SAMPLERS,
    BoSettings,
    Param,
    SpsaGains,
    TuneSettings,
    gains_from_fishtest,
)
from mcts_arena.runner import config as cfg
from mcts_arena.runner.config import Openings

FIELDS = ("name", "description", "game", "template", "params", "budget", "games", "method",
          "seed", "opponent", "confirm", "spsa", "bo", "bracket", "openings", "max_plies",
          "macros", "clock", "timemargin")
PARAM_FIELDS = ("low", "high", "type", "log", "start", "choices", "grid", "c_end", "r_end")
SPSA_FIELDS = ("a", "c", "A", "alpha", "gamma", "batch", "tail", "first_step", "rounding")
FISHTEST_FIELDS = ("c_end", "r_end")    # a parameter's own SPSA gains, as fishtest takes them
BO_FIELDS = ("games_per_trial", "batch", "startup", "sampler")
BRACKET_FIELDS = ("games", "tie")
FIRST_STEP = 0.02


@dataclass(frozen=True)
class TuneSpec:
    """A validated tune: its settings (what the store keeps) and what playing needs besides."""

    settings: TuneSettings
    budget: Budget
    openings: Openings
    max_plies: int
    macros: tuple[tuple[str, str], ...]
    description: str = ""
    bracket: dict | None = None     # method bracket: games per match, tie rule

    @property
    def name(self) -> str:
        return self.settings.name


def _number(v: cfg.Validator, x, path: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x):
        v.fail(path, f"expected a finite number, got {cfg.shown(x)}")
    return float(x)


def _param(v: cfg.Validator, name: str, d, path: str) -> Param:
    d = v.mapping(d, path, "a mapping with low and high, or choices")
    v.known_keys(d, path, PARAM_FIELDS)
    if "choices" in d:
        ch = d["choices"]
        if not isinstance(ch, list) or not ch or any(not isinstance(c, (str, int, float))
                                                     or isinstance(c, bool) for c in ch):
            v.fail(f"{path}.choices", f"expected a non-empty list of values, got {cfg.shown(ch)}")
        ch = tuple(str(c) for c in ch)
        if len(set(ch)) != len(ch):
            v.fail(f"{path}.choices", "a choice is listed twice")
        extra = [k for k in d if k not in ("choices", "start", "grid")]
        if extra:
            v.fail(f"{path}.{extra[0]}", "a parameter with choices has no range")
        start = str(d.get("start", ch[0]))
        if start not in ch:
            v.fail(f"{path}.start", f"expected one of the choices, got {cfg.shown(d['start'])}")
        return Param(name, "choice", choices=ch, start=start,
                     grid=_grid(v, d, f"{path}.grid", lambda x: str(x) in ch, ch, str))
    for req in ("low", "high"):
        if req not in d:
            v.fail(f"{path}.{req}", "missing required field (or give choices)")
    kind = d.get("type", "float")
    if kind not in ("float", "int"):
        v.fail(f"{path}.type", f"expected float or int, got {cfg.shown(kind)}")
    low, high = _number(v, d["low"], f"{path}.low"), _number(v, d["high"], f"{path}.high")
    for k in ("low", "high"):
        _written(v, kind, d[k], f"{path}.{k}")
    if not low < high:
        v.fail(path, f"empty or inverted domain: low {d['low']} must be below high {d['high']}")
    log = d.get("log", False)
    if not isinstance(log, bool):
        v.fail(f"{path}.log", f"expected true or false, got {cfg.shown(log)}")
    if log and low <= 0:
        v.fail(f"{path}.low", f"a log-scaled domain must be positive, got {d['low']}")
    p = Param(name, kind, low, high, log)
    start = d.get("start", p.from_unit(0.5))
    s = _number(v, start, f"{path}.start")
    if not low <= s <= high or (kind == "int" and not cfg.is_int(start)):
        v.fail(f"{path}.start", f"expected {'an integer' if kind == 'int' else 'a value'} in "
                                f"[{d['low']}, {d['high']}], got {cfg.shown(start)}")
    if "start" in d:
        _written(v, kind, start, f"{path}.start")
    grid = _grid(v, d, f"{path}.grid", lambda x: not isinstance(x, (bool, str)) and low <= x
                 <= high and (kind != "int" or cfg.is_int(x)), f"[{d['low']}, {d['high']}]",
                 p.text)
    for i, x in enumerate(grid):
        _written(v, kind, x, f"{path}.grid[{i}]")
    return dataclasses.replace(p, start=int(s) if kind == "int" else s, grid=grid)


def _written(v: cfg.Validator, kind: str, x, path: str) -> None:
    """A bound, start or grid value as the spec will hold it: an integer, or a number of at
    most DIGITS decimals (the tuner writes values with DIGITS; a value with more would be
    written as another, perhaps outside the domain: [0.00001, 0.00004] as 0)."""
    if kind == "int" and not cfg.is_int(x):
        v.fail(path, f"expected an integer, got {cfg.shown(x)}")
    if kind == "float" and round(x, DIGITS) != x:
        v.fail(path, f"expected at most {DIGITS} decimals (values are written into the spec "
                     f"with {DIGITS}), got {cfg.shown(x)}; rescale the parameter")


def _grid(v: cfg.Validator, d: dict, path: str, ok, domain, written) -> tuple:
    """A parameter's `grid` (method bracket: its entrants), every value in its domain and no
    two written alike (`written`: the value as the spec holds it: 1 and 1.0 are one)."""
    g = d.get("grid", [])
    if not isinstance(g, list):
        v.fail(path, f"expected a list of values, got {cfg.shown(g)}")
    for i, x in enumerate(g):
        if not ok(x):
            v.fail(f"{path}[{i}]", f"expected a value in {domain}, got {cfg.shown(x)}")
    if len({written(x) for x in g}) != len(g):
        v.fail(path, "a value is listed twice")
    return tuple(g)


def _positive(v: cfg.Validator, d: dict, key: str, path: str, default, integer=False):
    x = d.get(key, default)
    if integer:
        return v.positive_int(x, f"{path}.{key}", key)
    x = _number(v, x, f"{path}.{key}")
    if x <= 0:
        v.fail(f"{path}.{key}", f"expected a positive number, got {cfg.shown(d[key])}")
    return x


def _spsa(v: cfg.Validator, d, steps: int, params: tuple[Param, ...], raw: dict) -> SpsaGains:
    """SPSA's gains: the shared `spsa:` section, and each parameter's own `c_end` and `r_end`
    (`raw`: the params' mappings) where any is given (results/tune.py's fishtest_inputs)."""
    d = v.mapping(d, "spsa", "a mapping of SPSA gains")
    v.known_keys(d, "spsa", SPSA_FIELDS)
    c = _positive(v, d, "c", "spsa", 0.25)
    A = d.get("A", round(0.1 * steps, 1))
    A = _number(v, A, "spsa.A")
    if A < 0:
        v.fail("spsa.A", f"expected a non-negative number, got {cfg.shown(d['A'])}")
    alpha = _positive(v, d, "alpha", "spsa", 0.602)
    gamma = _positive(v, d, "gamma", "spsa", 0.101)
    first = _positive(v, d, "first_step", "spsa", FIRST_STEP)
    a = _positive(v, d, "a", "spsa", first * 2 * c * (A + 1) ** alpha)
    tail = _positive(v, d, "tail", "spsa", 0.25)
    if tail > 1:
        v.fail("spsa.tail", f"expected a part of the trajectory in (0, 1], got {tail:g}")
    batch = _positive(v, d, "batch", "spsa", 8, integer=True)
    rounding = d.get("rounding", "random")
    if rounding not in ("random", "nearest"):
        v.fail("spsa.rounding", f"expected random or nearest, got {cfg.shown(rounding)}")
    gains = SpsaGains(a=a, c=c, A=A, alpha=alpha, gamma=gamma, batch=batch, tail=tail,
                      rounding=rounding)
    if not any(k in raw[p.name] for p in params for k in FISHTEST_FIELDS):
        return gains
    # fishtest's per-parameter inputs; a parameter without one takes the shared gains' value
    c_end = c / steps ** gamma
    r_end = a / (2 * (A + steps) ** alpha * c_end ** 2)
    each = []
    for p in params:
        r, path = raw[p.name], f"params.{p.name}"
        cu = _positive(v, r, "c_end", path, 1.0) / p.unit_span() if "c_end" in r else c_end
        if cu > 0.5:
            v.fail(f"{path}.c_end", f"expected at most half the parameter's range "
                                    f"({0.5 * p.unit_span():.4g}), got {cfg.shown(r['c_end'])}")
        each.append(gains_from_fishtest(cu, _positive(v, r, "r_end", path, r_end), steps, A,
                                        alpha, gamma))
    return dataclasses.replace(gains, c_each=tuple(c for c, _ in each),
                               a_each=tuple(a for _, a in each))


def _bo(v: cfg.Validator, d) -> BoSettings:
    d = v.mapping(d, "bo", "a mapping of the optimiser's settings")
    v.known_keys(d, "bo", BO_FIELDS)
    g = _positive(v, d, "games_per_trial", "bo", 8, integer=True)
    if g % 2:
        v.fail("bo.games_per_trial", f"expected an even number (seat-swapped pairs), got {g}")
    sampler = d.get("sampler", "tpe")
    if sampler not in SAMPLERS:
        v.fail("bo.sampler", f"expected {' or '.join(SAMPLERS)}, got {cfg.shown(sampler)}")
    return BoSettings(g, _positive(v, d, "batch", "bo", 4, integer=True),
                      _positive(v, d, "startup", "bo", 10, integer=True), sampler)


def _template(v: cfg.Validator, d: dict, params: dict) -> str:
    t = d["template"]
    if not isinstance(t, str) or not t.strip():
        v.fail("template", f"expected a player spec with {{name}} fields, got {cfg.shown(t)}")
    try:
        parts = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(t)
                 if f is not None]
    except ValueError as e:
        v.fail("template", f"bad template {t!r}: {e}")
    for f, spec, conv in parts:     # the tuner writes each value as text itself
        if spec or conv:
            v.fail("template", f"{{{f}{'!' + conv if conv else ''}{':' + spec if spec else ''}"
                               f"}}: a field is a parameter's name alone, as {{{f}}} (the "
                               f"tuner writes its value)")
    fields = {f for f, _, _ in parts}
    for f in sorted(fields):
        if f not in params:
            v.fail("template", f"unknown parameter {{{f}}}; the params are "
                               f"{', '.join(params) or 'none'}")
    for name in params:
        if name not in fields:
            v.fail(f"params.{name}", f"not used by the template {t!r}")
    return t.strip()


def _budget(v: cfg.Validator, d: dict) -> Budget | None:
    """The tune's budget: `budget`, on the `clock` when one is given (`budget: {sims: N}` its
    cap), with the clock's `timemargin`, as an experiment's (runner/config.py)."""
    budget = v.budget(d["budget"], "budget") if "budget" in d else None
    if "timemargin" in d:
        if "clock" not in d:
            v.fail("timemargin", "a time margin is for a clock; give clock or leave it out")
        v._margin = v.timemargin(d["timemargin"], "timemargin")
    if "clock" in d:
        budget = v.clocked(budget, v.clock(d["clock"], "clock"), "clock")
    v._budget = budget              # a matched effort resolves each player's own simulations
    return budget


def _check_template(v: cfg.Validator, probe: TuneSettings, plist: tuple[Param, ...],
                    budget: Budget | None) -> None:
    """The template makes a player at every probe point (`_probe_points`), one that manages a
    clock, and no two choices or grid values of a parameter make the same player."""
    made: dict[tuple[str, str], str] = {}   # (parameter, canonical spec) -> its choice
    for where, values, distinct in _probe_points(plist):
        spec_, own = v.player(probe.spec_text(values), f"template at {where}", v._game,
                              v._macros)
        v.managed(spec_, own or budget, f"template at {where}")
        pname = where.partition("=")[0]
        if distinct and made.setdefault((pname, spec_), where) != where:
            v.fail(f"params.{pname}", f"{made[pname, spec_]} and {where} make the same player "
                                      f"{spec_}")


def _method(v: cfg.Validator, d: dict, method: str, games: int, plist: tuple[Param, ...],
            raw: dict) -> tuple[SpsaGains | None, BoSettings | None]:
    """The method's own settings: SPSA's gains or BO's, a bracket's checks."""
    spsa = bo = None
    if method == "spsa":
        cats = [p.name for p in plist if p.kind == "choice"]
        if cats:
            v.fail(f"params.{cats[0]}", "SPSA tunes numbers; a parameter with choices needs "
                                        "method bo")
        if games < 2:
            v.fail("games", f"SPSA's step is a pair of games: expected at least 2, got {games}")
        spsa = _spsa(v, d.get("spsa", {}), games // 2, plist, raw)
    else:
        given = [(k, f) for k in raw for f in FISHTEST_FIELDS if f in raw[k]]
        if given:
            v.fail(f"params.{given[0][0]}.{given[0][1]}", f"SPSA's gain; method {method} "
                                                          f"takes none")
    if method == "bo":        # (a config may keep both sections: one method reads its own)
        bo = _bo(v, d.get("bo", {}))
        if games < bo.games_per_trial:
            v.fail("games", f"one trial plays {bo.games_per_trial} games; the budget {games} "
                            f"pays for none")
    if method == "bracket":
        _bracket_check(v, d, plist)
    return spsa, bo


def _confirm(v: cfg.Validator, d: dict, start_spec: str, budget: Budget | None
             ) -> tuple[int, Sprt | None, str]:
    """The confirmation: its games, its SPRT, and the player it is played against (the
    template at its start unless `against` names one)."""
    conf = v.mapping(d.get("confirm", {}), "confirm", "a mapping with games and against")
    v.known_keys(conf, "confirm", ("games", "against", "sprt"))
    games = conf.get("games", 0)
    if not cfg.is_int(games) or games < 0 or games % 2:
        v.fail("confirm.games", f"expected an even number of games (seat-swapped pairs) or "
                                f"0, got {cfg.shown(games)}")
    reference = start_spec
    if "against" in conf:
        reference, own = v.player(conf["against"], "confirm.against", v._game, v._macros)
        v.managed(reference, own or budget, "confirm.against")
    return games, _confirm_sprt(v, conf, games), reference


def loads(data, source: str, default_name: str, players=None) -> TuneSpec:
    """A tune config's data validated (ConfigError, one line naming the field)."""
    v = cfg.Validator(source, players)
    if data is None:
        v.fail("", "empty config; expected a mapping with game, template, params, budget, "
                   "games and method")
    d = v.mapping(data, "", "a mapping at the top level")
    v.known_keys(d, "", FIELDS)
    for req in ("game", "template", "params", "method") + (() if "clock" in d else ("budget",)):
        if req not in d:
            v.fail(req, "missing required field")
    if "games" not in d and d["method"] != "bracket":
        v.fail("games", "missing required field (the search's game budget)")
    name = d.get("name", default_name)
    if not isinstance(name, str) or not cfg.NAME_RE.match(name):
        v.fail("name", f"expected a name of letters, digits, '_', '.', '-' (it names the "
                       f"results directory), got {cfg.shown(name)}")
    game = v.game(d["game"], "game")
    budget = _budget(v, d)
    method = d["method"]
    if method not in METHODS:
        v.fail("method", f"unknown method {cfg.shown(method)}; valid: {', '.join(METHODS)}")
    raw = v.mapping(d["params"], "params", "a mapping name: domain")
    if not raw:
        v.fail("params", "expected at least one parameter")
    params = {}
    for k, dom in raw.items():
        if not isinstance(k, str) or not k.isidentifier():
            v.fail("params", f"a parameter name must be a word, got {cfg.shown(k)}")
        params[k] = _param(v, k, dom, f"params.{k}")
    template = _template(v, d, params)
    games = v.games(d["games"], "games", "the search's game budget") if "games" in d else 0
    seed = v.seed(d.get("seed", 1), "seed")
    macros = v.macros(d.get("macros", {}), "macros")
    mdict = dict(macros) or None
    plist = tuple(params.values())
    probe = TuneSettings(name, str(game), template, plist, method, games, seed, "", "", 0)
    v._game, v._macros = game, mdict
    _check_template(v, probe, plist, budget)
    spsa, bo = _method(v, d, method, games, plist, raw)
    start_spec, _ = v.player(probe.spec_text(probe.start_values()), "template",
                                        game, mdict)
    opponent = start_spec
    if "opponent" in d:
        opponent, own = v.player(d["opponent"], "opponent", game, mdict)
        v.managed(opponent, own or budget, "opponent")
    confirm_games, confirm_sprt, reference = _confirm(v, d, start_spec, budget)
    openings = v.openings(d.get("openings", cfg.default_openings(game)), "openings", game)
    max_plies = v.positive_int(d.get("max_plies", 1000), "max_plies",
                               "plies before a game is drawn")
    description = d.get("description", "")
    if not isinstance(description, str):
        v.fail("description", f"expected a string, got {cfg.shown(description)}")
    settings = TuneSettings(name, str(game), template, plist, method, games, seed, opponent,
                            reference, confirm_games, spsa, bo, budget.as_dict(), confirm_sprt)
    br = None
    if method == "bracket":
        b = d.get("bracket", {})
        br = {"games": b.get("games", 200), "tie": b.get("tie", "first")}
    return TuneSpec(settings, budget, openings, max_plies, macros, description, br)


def _confirm_sprt(v: cfg.Validator, conf: dict, games: int) -> Sprt | None:
    """The confirmation's `sprt`, checked as an experiment's is; `games` is then its cap."""
    if conf.get("sprt") is None:
        return None
    sprt = v.sprt(conf["sprt"], "confirm.sprt")
    if not games:
        v.fail("confirm.games", "an SPRT needs a cap: expected an even number of games above "
                                "0 (the most the confirmation plays)")
    return sprt


def _bracket_check(v: cfg.Validator, d: dict, params: tuple[Param, ...]) -> None:
    if len(params) != 1:
        v.fail("params", f"a bracket tunes one parameter over a grid, got {len(params)}; "
                         f"tune several at once with spsa or bo")
    if len(params[0].grid) < 2:
        v.fail(f"params.{params[0].name}.grid", "a bracket needs at least two values")
    if "confirm" in d:      # never accepted and left unplayed
        v.fail("confirm", "a bracket plays no confirmation: its final decides between the "
                          "last two values (play one with 'arena run' against the winner, or "
                          "tune with spsa or bo)")
    b = v.mapping(d.get("bracket", {}), "bracket", "a mapping with games and tie")
    v.known_keys(b, "bracket", BRACKET_FIELDS)
    g = b.get("games", 200)
    if not cfg.is_int(g) or g < 2 or g % 2:
        v.fail("bracket.games", f"expected an even number of games per match, got "
                                f"{cfg.shown(g)}")
    if b.get("tie", "first") not in ("first", "playoff"):
        v.fail("bracket.tie", f"expected first or playoff, got {cfg.shown(b['tie'])}")


def _probe_points(params: tuple[Param, ...]):
    """(where, values, distinct) for every point the template must parse at: the start, every
    end of every range and a value between them with decimals (an option that takes integers
    only refuses it), every choice and every value of a grid (the others at their start).
    `distinct`: a choice or a grid value, which must make a player no other one makes."""
    start = {p.name: p.start for p in params}
    yield "the start", start, False
    for p in params:
        if p.kind != "choice":
            for x in (p.from_unit(0.0), p.from_unit(1.0), p.from_unit(0.3781)):
                yield f"{p.name}={p.text(x)}", {**start, p.name: x}, False
        for x in (*p.choices, *p.grid):
            yield f"{p.name}={p.text(x)}", {**start, p.name: x}, True


def load(path: str | Path, players=None) -> TuneSpec:
    p = Path(path)
    data = inputs.load_yaml(p, "a tune config (YAML)")
    return loads(data, str(path), p.stem, players)
