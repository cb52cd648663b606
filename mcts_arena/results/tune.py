"""A tune's state read from its store: the parameters and their domains, the SPSA trajectory or
the Bayesian-optimisation trials with their scores, the value found with its interval, and the
confirmation match. Read-only; runner/tune.py plays the games and `arena tune` / report/tune.py
show what is here.

A tune keeps its settings in the store's meta table (`tune`, JSON: `TuneSettings.as_json`) and,
for `bo`, the point of every trial asked (`tune/trials`); everything else is rebuilt from the
stored games, so a killed tune resumes from what it stored and reaches the same answer. A
confirmation with an SPRT (`confirm.sprt`) stops once the test decides: the runner keeps the
decision as for any experiment (`sprt/confirm` in the meta table, results/sprt.py), and the
state reads it back, or replays the test from the confirmation's stored games.

Parameters live in unit coordinates: u in [0, 1] per parameter, linear in the value or in its
logarithm (`log: true`), so one SPSA gain and one response surface fit every parameter. An
integer parameter is rounded only when it is written into a player spec.

SPSA (Spall 1998; fishtest's form): step k plays one seat-swapped pair between θ+c_kΔ_k and
θ-c_kΔ_k on opening k (Δ_k: ±1 per parameter, drawn from the seed and k); its result r_k is the
pair's wins minus losses of θ+ (in [-2, 2]); θ ← θ + a_k r_k Δ_k / (2 c_k), clipped to [0, 1].
Gains a_k = a / (A + k + 1)^α, c_k = c / (k + 1)^γ, one a and c for every parameter or each
its own (made from fishtest's per-parameter c_end and r_end: `fishtest_inputs` gives the
translation both ways). An integer parameter at θ±c_kΔ_k is rounded at random, up with the
chance of its fraction, from a draw of the seed, k, the side and its name (fishtest's rule: the
two sides never round into one integer for a whole stretch of θ). Steps are played `batch` at a
time from the θ at the batch's start (the batch's pairs run in parallel), their updates applied
in step order: the trajectory depends on the seed and `batch`, not on how many workers played
it.
"""
from __future__ import annotations

import json
import math
import random
import string
from dataclasses import asdict, dataclass, field

import numpy as np

from mcts_arena import stats
from mcts_arena.results import rows
from mcts_arena.results.sprt import Sprt, pairing_sprt, sprt_text
from mcts_arena.results.tournament import stored_results as scores_by_pair

META_KEY = "tune"
TRIALS_KEY = "tune/trials"
BRACKET_KEY = "tune/bracket"    # method bracket: the tune config's template, parameter, grid
METHODS = ("spsa", "bo", "bracket")
CONFIRM = "confirm"             # the confirmation match's pairing id
DIGITS = 4                      # decimals of a continuous value written into a spec


@dataclass(frozen=True)
class Param:
    """One tuned parameter: a continuous or integer range (linear or log-scaled) or a list of
    choices; `start` is its value in the starting (reference) player."""

    name: str
    kind: str                       # "float" | "int" | "choice"
    low: float = 0.0
    high: float = 1.0
    log: bool = False
    choices: tuple[str, ...] = ()
    start: float | str = 0.0
    grid: tuple = ()                # method bracket: the values its entrants take

    def to_unit(self, x: float) -> float:
        if self.log:
            return (math.log(x) - math.log(self.low)) / (math.log(self.high) - math.log(self.low))
        return (x - self.low) / (self.high - self.low)

    def exact(self, u: float) -> float:
        """The value at unit coordinate u (clipped to [0, 1]), not rounded."""
        u = min(1.0, max(0.0, float(u)))
        if self.log:
            return math.exp(math.log(self.low) + u * (math.log(self.high) - math.log(self.low)))
        return self.low + u * (self.high - self.low)

    def from_unit(self, u: float, draw: float | None = None) -> float | int:
        """The value at unit coordinate u (clipped to [0, 1]); an integer rounded to the
        nearest, or with `draw` (uniform in [0, 1)) at random: down or up with the chances
        that make its mean the exact value (fishtest's rounding of θ±cΔ)."""
        x = self.exact(u)
        if self.kind == "int":
            r = round(x) if draw is None else math.floor(x + draw)
            return int(min(self.high, max(self.low, r)))
        return round(x, DIGITS)

    def unit_span(self) -> float:
        """The parameter's own units per unit coordinate: the range, or for a log-scaled
        one its slope at the start (start x ln(high/low))."""
        if self.log:
            return float(self.start) * math.log(self.high / self.low)
        return self.high - self.low

    def text(self, x) -> str:
        """How value x is written into the player template."""
        if self.kind == "choice":
            return str(x)
        if self.kind == "int":
            return str(int(x))
        s = f"{round(float(x), DIGITS):.{DIGITS}f}".rstrip("0").rstrip(".")
        return "0" if s in ("-0", "") else s


@dataclass(frozen=True)
class SpsaGains:
    """SPSA's gain sequences (see the module docstring) and how many steps run at once."""

    a: float
    c: float
    A: float
    alpha: float = 0.602
    gamma: float = 0.101
    batch: int = 8
    tail: float = 0.25              # the part of the trajectory the estimate averages
    #: each parameter's own c and a (unit coordinates, in the params' order), made from its
    #: `c_end` and `r_end` (fishtest's inputs; `fishtest_inputs`); empty: all take c and a
    c_each: tuple[float, ...] = ()
    a_each: tuple[float, ...] = ()
    #: how an integer parameter is rounded at θ±c_kΔ: "random" (fishtest's: no dead zone where
    #: θ+ and θ- round to one integer) or "nearest" (stores made before random rounding)
    rounding: str = "nearest"

    def a_k(self, k: int, i: int = 0) -> float:
        return (self.a_each[i] if self.a_each else self.a) / (self.A + k + 1) ** self.alpha

    def c_k(self, k: int, i: int = 0) -> float:
        return (self.c_each[i] if self.c_each else self.c) / (k + 1) ** self.gamma


#: The samplers a BO tune asks with: Optuna's TPE, or the Gaussian process below.
SAMPLERS = ("tpe", "gp")


@dataclass(frozen=True)
class BoSettings:
    """Optuna's TPE sampler: `startup` random trials first, `batch` trials asked at once (the
    later ones of a batch see the earlier as running: the constant liar), each trial a match of
    `games_per_trial` games against the opponent."""

    games_per_trial: int = 8
    batch: int = 4
    startup: int = 10
    #: "tpe" (Optuna's TPE) or "gp" (a Gaussian process told each trial's variance: results/
    #: gp.py; its estimate the model's optimum)
    sampler: str = "tpe"


@dataclass(frozen=True)
class TuneSettings:
    """What a tune is (what its store keeps): changing any of it changes its games."""

    name: str
    game: str
    template: str
    params: tuple[Param, ...]
    method: str
    games: int                      # the game budget of the search (confirmation apart)
    seed: int
    opponent: str                   # bo: every trial's opponent (canonical spec)
    reference: str                  # the confirmation's opponent (canonical spec)
    confirm_games: int              # with confirm_sprt: the most it plays
    spsa: SpsaGains | None = None
    bo: BoSettings | None = None
    budget: dict = field(default_factory=dict)
    confirm_sprt: Sprt | None = None    # the confirmation stops once this test decides
    #: the game budgets the tune had before it was extended to `games` (oldest first): its
    #: gains stay those of the first, and its confirmation is its own pairing (`confirm_id`)
    extends: tuple[int, ...] = ()

    @property
    def confirm_id(self) -> str:
        """The confirmation's pairing id: CONFIRM, or for a tune extended to more games
        `confirm-<games>` (the confirmation of the shorter tune stays in the store apart)."""
        return f"{CONFIRM}-{self.games}" if self.extends else CONFIRM

    @property
    def steps(self) -> int:
        """SPSA steps or BO trials the game budget pays for."""
        if self.method == "spsa":
            return self.games // 2
        return self.games // self.bo.games_per_trial

    @property
    def batch(self) -> int:
        return self.spsa.batch if self.method == "spsa" else self.bo.batch

    def as_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, d: dict) -> TuneSettings:
        d = dict(d)
        d["params"] = tuple(Param(**{**p, "choices": tuple(p["choices"]),
                                     "grid": tuple(p.get("grid", ()))}) for p in d["params"])
        d["spsa"] = SpsaGains(**{**d["spsa"], "c_each": tuple(d["spsa"].get("c_each", ())),
                                 "a_each": tuple(d["spsa"].get("a_each", ()))}) \
            if d.get("spsa") else None
        d["bo"] = BoSettings(**d["bo"]) if d.get("bo") else None
        d["confirm_sprt"] = Sprt(**d["confirm_sprt"]) if d.get("confirm_sprt") else None
        d["extends"] = tuple(d.get("extends", ()))
        return cls(**d)

    def spec_text(self, values: dict) -> str:
        """The template with every parameter's value written in."""
        return self.template.format(**{p.name: p.text(values[p.name]) for p in self.params})

    def start_values(self) -> dict:
        return {p.name: p.start for p in self.params}

    def unit_values(self, u) -> dict:
        return {p.name: p.from_unit(x) for p, x in zip(self.params, u)}


# ---- SPSA ------------------------------------------------------------------------------------
def delta(seed: int, k: int, n: int) -> list[int]:
    """Step k's perturbation signs (a Rademacher vector: ±1 each), from the seed and k alone."""
    rng = random.Random(f"spsa/{seed}/{k}")
    return [rng.choice((-1, 1)) for _ in range(n)]


def fishtest_inputs(s: TuneSettings) -> list[tuple[float, float]]:
    """Each parameter's SPSA gains as fishtest takes them: (c_end, r_end), c_end in the
    parameter's own units (Param.unit_span) and r_end as fishtest's (the last step moves θ by
    r_end x c_end per unit of result). With N steps, in unit coordinates: c_end = c / N^gamma,
    r_end = a / (2 (A + N)^alpha c_end^2), since SPSA here moves θ by a_k r / (2 c_k) where
    fishtest moves it by (a_k / c_k^2) c_k r."""
    g, n = s.spsa, s.steps
    out = []
    for i, p in enumerate(s.params):
        c_end = g.c_k(n - 1, i)
        out.append((c_end * p.unit_span(), g.a_k(n - 1, i) / (2 * c_end ** 2)))
    return out


def gains_from_fishtest(c_end: float, r_end: float, steps: int, A: float, alpha: float,
                        gamma: float) -> tuple[float, float]:
    """A parameter's (c, a) in unit coordinates from fishtest's c_end (unit coordinates) and
    r_end: `fishtest_inputs` inverted."""
    return c_end * steps ** gamma, 2 * r_end * c_end ** 2 * (A + steps) ** alpha


def _rounding_draw(seed: int, k: int, side: str, name: str) -> float:
    """The uniform draw that rounds integer parameter `name` at step k's θ+ or θ-."""
    return random.Random(f"spsa-round/{seed}/{k}/{side}/{name}").random()


def _point(s: TuneSettings, u: list[float], k: int, side: str) -> dict:
    """The values at unit coordinates u of step k's θ+ or θ- (integers rounded as set)."""
    rand = s.spsa.rounding == "random"
    return {p.name: p.from_unit(x, _rounding_draw(s.seed, k, side, p.name)
                                if rand and p.kind == "int" else None)
            for p, x in zip(s.params, u)}


@dataclass(frozen=True)
class SpsaStep:
    k: int
    theta: tuple[float, ...]        # unit coordinates the step was played from
    delta: tuple[int, ...]
    c: tuple[float, ...]            # each parameter's c_k
    plus: dict                      # the values of θ+cΔ and θ-cΔ
    minus: dict
    result: float | None            # wins minus losses of θ+ over the pair; None: not played


def spsa_path(s: TuneSettings, pair_scores) -> tuple[list[SpsaStep], list[tuple[float, ...]]]:
    """The steps (played or next to play, up to the first batch with a game missing) and the
    trajectory θ_0, θ_1, ... after each complete step. `pair_scores(k)`: the two scores of θ+
    in step k's pair, or None while one is missing."""
    g = s.spsa
    theta = [p.to_unit(p.start) for p in s.params]
    path = [tuple(theta)]
    steps: list[SpsaStep] = []
    for b0 in range(0, s.steps, g.batch):
        base = list(theta)
        batch = []
        for k in range(b0, min(s.steps, b0 + g.batch)):
            d = delta(s.seed, k, len(s.params))
            ck = tuple(g.c_k(k, i) for i in range(len(s.params)))
            plus = _point(s, [t + c * x for t, c, x in zip(base, ck, d)], k, "+")
            minus = _point(s, [t - c * x for t, c, x in zip(base, ck, d)], k, "-")
            sc = pair_scores(k)
            r = None if sc is None else 2 * sum(sc) - 2
            batch.append(SpsaStep(k, tuple(base), tuple(d), ck, plus, minus, r))
        steps += batch
        if any(st.result is None for st in batch):
            break
        for st in batch:
            theta = [min(1.0, max(0.0, t + g.a_k(st.k, i) * st.result / (2 * c) * x))
                     for i, (t, c, x) in enumerate(zip(theta, st.c, st.delta))]
            path.append(tuple(theta))
    return steps, path


# ---- the estimate ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Estimate:
    """The value found per parameter with a 95% range, and how it was made."""

    values: dict
    low: dict
    high: dict
    how: str


def spsa_estimate(s: TuneSettings, path: list[tuple[float, ...]]) -> Estimate:
    """The mean of the last `tail` of the trajectory (in unit coordinates), and the 2.5 and
    97.5 percentiles of that part of it (the spread of θ as SPSA kept moving, not a confidence
    interval: neighbouring points of a trajectory are not independent)."""
    n = max(1, int(math.ceil(len(path) * s.spsa.tail)))
    tail = np.array(path[-n:])
    mean = tail.mean(axis=0)
    lo, hi = np.percentile(tail, 2.5, axis=0), np.percentile(tail, 97.5, axis=0)
    ps = s.params
    return Estimate({p.name: p.from_unit(m) for p, m in zip(ps, mean)},
                    {p.name: p.from_unit(x) for p, x in zip(ps, lo)},
                    {p.name: p.from_unit(x) for p, x in zip(ps, hi)},
                    f"mean of the last {n} of {len(path)} points of the trajectory; range: "
                    f"their 2.5-97.5 percentiles")


def _features(u: np.ndarray) -> np.ndarray:
    """A full quadratic in the unit coordinates: 1, u_i, u_i u_j (i <= j)."""
    cols = [np.ones(len(u))] + [u[:, i] for i in range(u.shape[1])]
    cols += [u[:, i] * u[:, j] for i in range(u.shape[1]) for j in range(i, u.shape[1])]
    return np.stack(cols, axis=1)


def _grid(d: int, rng: np.random.Generator) -> np.ndarray:
    if d == 1:
        return np.linspace(0, 1, 201)[:, None]
    if d == 2:
        a = np.linspace(0, 1, 51)
        return np.array([(x, y) for x in a for y in a])
    return rng.random((4000, d))


def response_fit(u: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray | None:
    """Coefficients of the weighted least-squares quadratic response (None: too few trials)."""
    X = _features(u)
    if len(u) < X.shape[1] + 1:
        return None
    sw = np.sqrt(w)
    return np.linalg.lstsq(X * sw[:, None], y * sw, rcond=None)[0]


def response_at(coef: np.ndarray, u: np.ndarray) -> np.ndarray:
    return _features(u) @ coef


def _argmax(u: np.ndarray, y: np.ndarray, w: np.ndarray, grid: np.ndarray) -> np.ndarray | None:
    coef = response_fit(u, y, w)
    return None if coef is None else grid[int(np.argmax(response_at(coef, grid)))]


def bo_estimate(s: TuneSettings, trials: list[dict], seed: int = 0,
                resamples: int = 200) -> Estimate:
    """The optimum of a quadratic response surface fitted to the trials' scores (weighted by
    their games), as CLOP fits one, and its 95% range: the 2.5-97.5 percentiles of the optimum
    over `resamples` bootstrap resamples of the trials. A categorical parameter takes the choice
    whose trials scored best on average, the surface is fitted to those trials; too few trials
    for a surface: the best trial."""
    done = [t for t in trials if t.get("games")]
    if not done:
        v = s.start_values()
        return Estimate(v, v, v, "no trial played")
    chosen = {}
    for p in s.params:
        if p.kind == "choice":
            means = {c: np.mean([t["score"] for t in done if t["values"][p.name] == c] or [-1])
                     for c in p.choices}
            chosen[p.name] = max(p.choices, key=lambda c: means[c])
    done = [t for t in done if all(t["values"][k] == v for k, v in chosen.items())]
    num = [p for p in s.params if p.kind != "choice"]
    best = max(done, key=lambda t: t["score"])
    if not num:
        return Estimate(dict(best["values"]), dict(best["values"]), dict(best["values"]),
                        "the choice whose trials scored best")
    u = np.array([[p.to_unit(t["values"][p.name]) for p in num] for t in done])
    y = np.array([t["score"] for t in done])
    w = np.array([t["games"] for t in done], dtype=float)
    rng = np.random.default_rng(seed)
    grid = _grid(len(num), rng)
    top = _argmax(u, y, w, grid)
    if top is None:
        v = dict(best["values"])
        return Estimate(v, v, v, f"the best of {len(done)} trials (too few for a surface)")
    boots = []
    for _ in range(resamples):
        i = rng.integers(0, len(done), len(done))
        m = _argmax(u[i], y[i], w[i], grid)
        if m is not None:
            boots.append(m)
    boots = np.array(boots) if boots else top[None, :]
    lo, hi = np.percentile(boots, 2.5, axis=0), np.percentile(boots, 97.5, axis=0)
    vals, lows, highs = dict(chosen), dict(chosen), dict(chosen)
    for i, p in enumerate(num):
        vals[p.name], lows[p.name], highs[p.name] = (p.from_unit(top[i]), p.from_unit(lo[i]),
                                                     p.from_unit(hi[i]))
    return Estimate(vals, lows, highs,
                    f"optimum of a quadratic response surface over {len(done)} trials; range: "
                    f"2.5-97.5 percentiles over {len(boots)} bootstrap resamples of the trials")


# ---- the Gaussian process (bo with sampler gp) ------------------------------------------------
GP_DRAWS = 200                  # posterior draws the optimum's range is read from
GP_SUBSET = 100                 # the candidates (best by mean + 2 sd) the draws are made at


def encode(s: TuneSettings, values: dict) -> np.ndarray:
    """A point's coordinates for the GP: each number's unit coordinate, each choice one-hot."""
    out: list[float] = []
    for p in s.params:
        if p.kind == "choice":
            out += [float(str(values[p.name]) == c) for c in p.choices]
        else:
            out.append(p.to_unit(values[p.name]))
    return np.array(out)


def decode(s: TuneSettings, x: np.ndarray) -> dict:
    """`encode` inverted: the values at GP coordinates x (a choice: its largest coordinate)."""
    out, i = {}, 0
    for p in s.params:
        if p.kind == "choice":
            out[p.name] = p.choices[int(np.argmax(x[i:i + len(p.choices)]))]
            i += len(p.choices)
        else:
            v = p.from_unit(x[i])
            out[p.name] = round(v, DIGITS) if p.kind == "float" else v
            i += 1
    return out


def candidates(s: TuneSettings, n: int, rng: np.random.Generator) -> np.ndarray:
    """n random points for the GP: numbers uniform in unit coordinates, choices one-hot."""
    cols = []
    for p in s.params:
        if p.kind == "choice":
            cols.append(np.eye(len(p.choices))[rng.integers(0, len(p.choices), n)])
        else:
            cols.append(rng.random((n, 1)))
    return np.hstack(cols)


def gp_model(s: TuneSettings, trials: list[dict], seed: int = 0):
    """The GP of the trials played (each its mean score and the variance of that mean)."""
    from mcts_arena.results import gp

    x = np.array([encode(s, t["values"]) for t in trials])
    y = np.array([t["score"] for t in trials])
    noise = np.array([gp.score_variance(t["score"], t["games"]) for t in trials])
    return gp.fit(x, y, noise, seed)


def _gp_points(s: TuneSettings, rng: np.random.Generator) -> np.ndarray:
    """Where the GP's optimum is looked for: the numbers on `_grid`, with every choice's
    value (at most 64 combinations, drawn beyond)."""
    import itertools

    num = [p for p in s.params if p.kind != "choice"]
    grid = _grid(len(num), rng) if num else np.zeros((1, 0))
    names = [p.name for p in s.params if p.kind == "choice"]
    combos = list(itertools.product(*[p.choices for p in s.params if p.kind == "choice"]))
    if len(combos) > 64:
        combos = [combos[i] for i in sorted(rng.choice(len(combos), 64, replace=False))]
    rows = []
    for combo in combos:
        for g in grid:
            values = {**dict(zip(names, combo)),
                      **{p.name: p.exact(g[j]) for j, p in enumerate(num)}}
            rows.append(encode(s, values))
    return np.array(rows)


def gp_estimate(s: TuneSettings, trials: list[dict], seed: int = 0) -> Estimate:
    """The optimum of the GP's mean over the trials played (what chess-tuning-tools reports)
    and its 95% range: the 2.5-97.5 percentiles of the optimum of GP_DRAWS joint draws of the
    posterior (at the GP_SUBSET likeliest candidates); the expected score there with its
    standard deviation."""
    done = [t for t in trials if t.get("games")]
    if len(done) < 2:
        v = dict(done[0]["values"]) if done else s.start_values()
        return Estimate(v, v, v, "too few trials for a model" if done else "no trial played")
    rng = np.random.default_rng(seed)
    model = gp_model(s, done, seed)
    pts = _gp_points(s, rng)
    mu, var = model.posterior(pts)
    top = int(np.argmax(mu))
    keep = np.unique(np.append(np.argsort(-(mu + 2 * np.sqrt(var)))[:GP_SUBSET], top))
    draws = model.samples(pts[keep], GP_DRAWS, rng)
    best = [decode(s, pts[keep][j]) for j in np.argmax(draws, axis=1)]
    values = decode(s, pts[top])
    low, high = dict(values), dict(values)
    for p in s.params:
        if p.kind != "choice":
            u = np.array([p.to_unit(b[p.name]) for b in best])
            low[p.name] = p.from_unit(np.percentile(u, 2.5))
            high[p.name] = p.from_unit(np.percentile(u, 97.5))
    return Estimate(values, low, high,
                    f"optimum of a Gaussian process over {len(done)} trials, each with its own "
                    f"noise variance: expected score {100 * mu[top]:.1f}% ± "
                    f"{100 * math.sqrt(var[top]):.1f}; range: 2.5-97.5 percentiles of the "
                    f"optimum of {GP_DRAWS} draws of the posterior")


# ---- the state of a store --------------------------------------------------------------------
@dataclass
class Confirmation:
    tuned: str
    reference: str
    games: int                  # planned (with an SPRT: the cap)
    wins: float = 0
    draws: float = 0
    losses: float = 0
    # with an SPRT: the test as results/sprt.py keeps it (`decision` "H1", "H0" or None,
    # `games`, `llr`, `lower`, `upper` and the test's parameters)
    sprt: dict | None = None

    @property
    def played(self) -> int:
        return int(self.wins + self.draws + self.losses)

    @property
    def decided(self) -> bool:
        """The SPRT has accepted a hypothesis: the confirmation plays nothing more."""
        return self.sprt is not None and self.sprt.get("decision") is not None

    @property
    def finished(self) -> bool:
        return self.decided or self.played >= self.games

    def sprt_line(self) -> str | None:
        """The SPRT's outcome in `arena report`'s words (results/sprt.py's sprt_text), the
        cap named when the test ended undecided there; None without an SPRT."""
        if self.sprt is None:
            return None
        cap = "" if self.decided or self.played < self.games else "; undecided at the cap"
        return f"{sprt_text(self.sprt)}{cap}"

    def interval(self) -> tuple[float, float, float]:
        """The tuned player's score and its 95% interval (stats.score_interval)."""
        lo, hi, _ = stats.score_interval(self.wins, self.draws, self.losses)
        return stats.score(self.wins, self.draws, self.losses), lo, hi


@dataclass
class TuneState:
    settings: TuneSettings
    steps: list[SpsaStep] = field(default_factory=list)       # spsa
    path: list[tuple[float, ...]] = field(default_factory=list)
    trials: list[dict] = field(default_factory=list)          # bo: values, score, games
    search_games: int = 0           # games of the search stored (confirmation apart)
    estimate: Estimate | None = None
    confirmation: Confirmation | None = None

    @property
    def search_done(self) -> bool:
        if self.settings.method == "spsa":
            return len(self.path) == self.settings.steps + 1
        return (len(self.trials) == self.settings.steps
                and all(t["games"] == self.settings.bo.games_per_trial for t in self.trials))

    @property
    def done(self) -> bool:
        c = self.confirmation
        return self.search_done and (c is None or c.finished)


def step_id(method: str, k: int) -> str:
    """The pairing id of SPSA step k or BO trial k."""
    return f"{method}-{k:06d}"


def _pair(res: dict, pid: str, k: int) -> tuple[float, float] | None:
    g = res.get(pid, {}).get(k, {})
    if g.get(0) is None or g.get(1) is None:
        return None
    return g[0], g[1]


def _flag(v):
    if not isinstance(v, bool):
        raise rows.Bad(f"expected true or false, got {v!r}")
    return v


def _param_ok(p: dict) -> bool:
    if p["kind"] == "choice":
        return bool(p["choices"]) and p["start"] in p["choices"]
    return (isinstance(p["start"], (int, float)) and p["low"] <= p["start"] <= p["high"]
            and p["low"] < p["high"] and (not p["log"] or p["low"] > 0))


_PARAM = rows.where(rows.obj(required={
    "name": rows.where(rows.text, str.isidentifier, "expected a word"),
    "kind": rows.one_of("float", "int", "choice"), "low": rows.number, "high": rows.number,
    "log": _flag, "choices": rows.list_of(rows.text), "start": rows.anything,
    "grid": rows.list_of(rows.anything)}, closed=True), _param_ok,
    "a domain no tune config makes (low below high, start in it)")
_POSITIVE = rows.where(rows.number, lambda x: x > 0, "expected a positive number")
_GAINS = rows.obj(required={k: _POSITIVE for k in ("a", "c", "alpha", "gamma", "tail")}
                  | {"A": rows.where(rows.number, lambda x: x >= 0, "expected A >= 0"),
                     "batch": rows.integer(1)},
                  optional={"c_each": rows.list_of(_POSITIVE), "a_each": rows.list_of(_POSITIVE),
                            "rounding": rows.one_of("nearest", "random")}, closed=True)
_BO = rows.where(rows.obj(required={"games_per_trial": rows.integer(2), "batch": rows.integer(1),
                                    "startup": rows.integer(1)},
                          optional={"sampler": rows.one_of(*SAMPLERS)}, closed=True),
                 lambda b: b["games_per_trial"] % 2 == 0, "expected an even games_per_trial")


def _template_fields(t: str) -> set | None:
    try:
        return {f for _, f, _, _ in string.Formatter().parse(t) if f is not None}
    except ValueError:
        return None


def _settings_ok(d: dict) -> bool:
    names = [p["name"] for p in d["params"]]
    ok = bool(names) and len(set(names)) == len(names) and \
        _template_fields(d["template"]) == set(names)
    return ok and (d["method"] == "bracket" or d[d["method"]] is not None)


#: the `tune` meta entry: every field of TuneSettings as `as_json` writes it
SETTINGS = rows.where(rows.obj(required={
    "name": rows.text, "game": rows.text, "template": rows.text,
    "params": rows.list_of(_PARAM), "method": rows.one_of(*METHODS), "games": rows.count,
    "seed": rows.count, "opponent": rows.text, "reference": rows.text,
    "confirm_games": rows.count, "spsa": rows.opt(_GAINS), "bo": rows.opt(_BO),
    "budget": rows.BUDGET, "confirm_sprt": rows.opt(rows.SPRT)},
    optional={"extends": rows.list_of(rows.count)}, closed=True), _settings_ok,
    "settings no tune config makes (the template's fields, the parameters and the method's "
    "section disagree)")


def settings_of(store) -> TuneSettings | None:
    """The tune's settings kept in `store` (None: not a tune's store), every field checked:
    damaged settings are one line naming the store and the entry."""
    d = store.meta_json(META_KEY, SETTINGS)
    return None if d is None else TuneSettings.from_json(d)


def stored_trials(store) -> list[dict]:
    return store.meta_json(TRIALS_KEY, rows.list_of(rows.obj())) or []


def state(s: TuneSettings, res: dict, trial_points: list[dict]) -> TuneState:
    """The tune's state from its stored games `res` (scores_by_pair) and, for bo, the trials'
    points (stored_trials)."""
    st = TuneState(s)
    if s.method == "spsa":
        st.steps, st.path = spsa_path(s, lambda k: _pair(res, step_id("spsa", k), k))
        st.search_games = 2 * (len(st.path) - 1)
        st.estimate = spsa_estimate(s, st.path)
    else:
        per = s.bo.games_per_trial // 2
        for t in trial_points:
            pid = step_id("bo", t["trial"])
            got = [g for k in range(t["trial"] * per, (t["trial"] + 1) * per)
                   for g in res.get(pid, {}).get(k, {}).values() if g is not None]
            st.trials.append({"trial": t["trial"], "values": t["values"], "games": len(got),
                              "score": sum(got) / len(got) if got else None})
        st.search_games = sum(t["games"] for t in st.trials)
        fit = gp_estimate if s.bo.sampler == "gp" else bo_estimate
        st.estimate = fit(s, [t for t in st.trials if t["games"] == s.bo.games_per_trial],
                          seed=s.seed)
    if s.confirm_games and st.search_done:
        tuned = s.spec_text(st.estimate.values)
        c = Confirmation(tuned, s.reference, s.confirm_games)
        for g in res.get(s.confirm_id, {}).values():
            for score in g.values():
                if score is None:
                    continue
                c.wins += score == 1
                c.draws += score == 0.5
                c.losses += score == 0
        st.confirmation = c
    return st


def state_of(store, s: TuneSettings, res: dict) -> TuneState:
    """`state` of the tune in `store` from its games `res`, with the trials' points and the
    confirmation's SPRT read from the store (results/sprt.py's pairing_sprt: the decision the
    runner kept, else the test replayed from the confirmation's games as they finished)."""
    st = state(s, res, stored_trials(store))
    c = st.confirmation
    if c is not None and s.confirm_sprt is not None:
        try:
            c.sprt = pairing_sprt(store, s.confirm_sprt, s.confirm_id)
        except (ArithmeticError, ValueError) as e:     # a test no config could ask
            raise store.corrupt(f"meta {META_KEY!r}", "value", f"confirm_sprt: {e}") from None
    return st


def read(store) -> TuneState | None:
    """The tune a store holds (None: the store is not a tune's)."""
    s = settings_of(store)
    if s is None:
        return None
    return state_of(store, s, scores_by_pair(store))


SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0, "error": None}


def _first_pair(s: TuneSettings, pairing_id: str) -> int:
    """The pair index a pairing's games start at (runner/tune.py's plan): SPSA step k's pair
    is pair k, BO trial i's pairs start at i x games_per_trial / 2, the confirmation's at 0."""
    method, _, k = pairing_id.rpartition("-")
    if method == "spsa" and k.isdigit():
        return int(k)
    if method == "bo" and k.isdigit():
        return int(k) * (s.bo.games_per_trial // 2)
    return 0


def scores_from_tally(s: TuneSettings, tally: list[dict]) -> dict:
    """The stored games' scores in `scores_by_pair`'s shape, rebuilt from the store's
    aggregates (`Store.tally`: a row per pairing, seat and result) instead of from every game:
    what a tune's state needs, read in time that grows with the steps and trials, not the
    games. An SPSA step is one pair, so its two scores are exact; a BO trial's or the
    confirmation's games are placed in the pairing's pairs in result order (win, draw, loss,
    error), which keeps their counts and sums, all that `state` reads of them."""
    counts: dict[tuple[str, int], dict[str, int]] = {}
    for r in tally:
        c = counts.setdefault((r["pairing_id"], r["swap"]), {})
        c[r["result"]] = c.get(r["result"], 0) + r["games"]
    out: dict = {}
    for (pid, swap), c in sorted(counts.items()):
        k = _first_pair(s, pid)
        for result in SCORES:
            for _ in range(c.get(result, 0)):
                out.setdefault(pid, {}).setdefault(k, {})[swap] = SCORES[result]
                k += 1
    return out


def read_counted(store, tally: list[dict] | None = None) -> TuneState | None:
    """`read` from the store's aggregates (`tally`, where the caller has read it already):
    the same state without reading every game (what `arena serve` polls)."""
    s = settings_of(store)
    if s is None:
        return None
    return state_of(store, s, scores_from_tally(s, store.tally() if tally is None else tally))


def progress_line(st: TuneState) -> str:
    """One plain line: games so far and the current point (SPSA: θ; BO: the best trial so
    far; once the search is done: the estimate), or the confirmation's score and its SPRT."""
    s = st.settings
    c = st.confirmation
    if c is not None and c.played:
        score, lo, hi = c.interval()
        test = f"; {c.sprt_line()}" if c.sprt is not None else ""
        return (f"confirmation {c.played}/{c.games} games: {c.tuned} vs {c.reference} "
                f"{100 * score:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]{test}")
    if st.search_done:
        now, where = st.estimate.values, "done"
    elif s.method == "spsa":
        now, where = s.unit_values(st.path[-1]), f"step {len(st.path) - 1}/{s.steps}"
    else:
        scored = [t for t in st.trials if t["score"] is not None]
        best = max(scored, key=lambda t: t["score"], default=None)
        now = best["values"] if best else s.start_values()
        where = f"trial {len(scored)}/{s.steps}, best so far"
    vals = ", ".join(f"{p.name} {p.text(now[p.name])}" for p in s.params)
    return f"{s.method} {where} ({st.search_games} games): {vals}"


# ---- plain data for the live page (`arena serve`) ----------------------------------------------
PATH_POINTS = 200               # the most points of SPSA's path the page is sent


def _values(s: TuneSettings, values: dict) -> dict:
    return {p.name: p.text(values[p.name]) for p in s.params}


def _now(st: TuneState) -> tuple[str, dict]:
    """Where the search stands: SPSA's θ, BO's best trial so far, or the estimate once done."""
    s = st.settings
    if st.search_done:
        return "estimate", st.estimate.values
    if s.method == "spsa":
        return "theta", s.unit_values(st.path[-1])
    scored = [t for t in st.trials if t["score"] is not None]
    best = max(scored, key=lambda t: t["score"], default=None)
    return ("best trial", best["values"]) if best else ("start", s.start_values())


def index_facts(st: TuneState) -> dict:
    """The index's line of a tune: method, template, games of the budget, where it stands."""
    s = st.settings
    what, now = _now(st)
    c = st.confirmation
    return {"method": s.method, "template": s.template, "games": s.steps * (
        2 if s.method == "spsa" else s.bo.games_per_trial), "search_games": st.search_games,
        "confirm_games": s.confirm_games, "confirm_played": c.played if c else 0,
        "confirm_decided": c.decided if c else False,
        "search_done": st.search_done, "done": st.done, "now": _values(s, now), "now_is": what,
        "line": progress_line(st)}


def bracket_facts(mark: dict, tournament_state) -> dict:
    """The index's line of a bracket a tune config made (`mark`: runner/tune.py's
    bracket_mark; `tournament_state`: results.tournament's State): matches decided of those
    an elimination over the grid plays, and the winner once there is one."""
    b = tournament_state.bracket
    pending = set(b.pending_matches()) if b is not None and not b.done else set()
    decided = sum(1 for m in tournament_state.results if m not in pending)
    winner = b.winner if b is not None and tournament_state.done else None
    return {"method": "bracket", "template": mark.get("template"), "param": mark.get("param"),
            "grid": mark.get("grid"), "matches": max(0, len(mark.get("grid") or ()) - 1),
            "decided": decided, "done": tournament_state.done, "winner": winner}


def sprt_facts(s: TuneSettings, c: Confirmation) -> dict | None:
    """The confirmation's SPRT for a reader: the test, its outcome in `arena report`'s words,
    the decision (H1, H0 or None), LLR and bounds; None without an SPRT."""
    if c.sprt is None:
        return None
    r = c.sprt
    return {"test": str(s.confirm_sprt), "text": c.sprt_line(), "decision": r.get("decision"),
            "games": r["games"], "llr": r["llr"], "lower": r["lower"], "upper": r["upper"]}


def panel(st: TuneState) -> dict:
    """Everything the page's tune panel shows: settings, games of the budget, where the
    search stands, SPSA's path (at most PATH_POINTS points, by games) or BO's trials, the
    estimate with its range, the confirmation with its 95% interval and its SPRT."""
    s = st.settings
    out = index_facts(st)
    out.update(game=s.game, seed=s.seed, budget=s.budget, steps=s.steps,
               opponent=s.opponent if s.method == "bo" else None, reference=s.reference,
               params=[{"name": p.name, "kind": p.kind, "low": p.text(p.low) if p.kind !=
                        "choice" else None, "high": p.text(p.high) if p.kind != "choice"
                        else None, "log": p.log, "choices": list(p.choices),
                        "start": p.text(p.start)} for p in s.params])
    if s.method == "spsa":
        every = max(1, math.ceil(len(st.path) / PATH_POINTS))
        keep = [i for i in range(len(st.path)) if i % every == 0 or i == len(st.path) - 1]
        out["path"] = [{"games": 2 * i, "unit": list(st.path[i]),
                        "values": _values(s, s.unit_values(st.path[i]))} for i in keep]
    else:
        out["trials"] = [{"trial": t["trial"], "games": t["games"], "score": t["score"],
                          "values": _values(s, t["values"])} for t in st.trials]
    e = st.estimate
    out["estimate"] = {"values": _values(s, e.values), "low": _values(s, e.low),
                       "high": _values(s, e.high), "how": e.how, "final": st.search_done}
    c = st.confirmation
    if c is None:
        out["confirmation"] = None
    else:
        score, lo, hi = c.interval() if c.played else (None, None, None)
        out["confirmation"] = {"tuned": c.tuned, "reference": c.reference, "games": c.games,
                               "played": c.played, "wins": c.wins, "draws": c.draws,
                               "losses": c.losses, "score": score, "low": lo, "high": hi,
                               "sprt": sprt_facts(s, c)}
    return out
