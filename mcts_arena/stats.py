"""Match statistics: scores, confidence intervals, Elo, LOS, GSPRT and Bradley–Terry ratings.

Small pure functions, one job each, so the reporter, the runner (SPRT early stop) and the
tournament driver share one definition of every number they print.

Conventions
-----------
* A *score* counts a win as 1, a draw as 1/2, a loss as 0. Fractions are in [0, 1].
* Counts are those of the *first* player named (``wins`` are its wins).
* Intervals are two-sided, 95 % by default. ``wald_interval`` is the normal approximation the
  paper prints (``1.96*sqrt(p(1-p)/n)``: 943/1000 -> 94.30 ± 1.44); ``wilson_interval`` is the
  Wilson score interval, better for small samples and for scores near 0 or 1. (One printed ± of
  the paper is off by a hundredth: 688/1000 gives 68.80 ± 2.87 by the formula, the paper says
  2.88; every other ± in Table 2 is reproduced exactly.)
* Elo difference, its error bar and the likelihood of superiority (LOS) follow cutechess-cli and
  fastchess: ``elo = -400*log10(1/mu - 1)`` of the mean score ``mu``; the error bar maps
  ``mu ± z*sigma`` (``sigma`` from the trinomial per-game variance) through the same curve and
  takes half the width; ``LOS = (1 + erf((w - l) / sqrt(2 (w + l)))) / 2``. +136 -96 =111 gives
  +40.7 ± 30.4 Elo and LOS 99.6 %.
* The GSPRT is the generalized sequential probability ratio test of Michel Van den Bergh, as
  fishtest and fastchess compute it: the log-likelihood ratio of the maximum-likelihood
  multinomial distributions whose expected score is that of ``elo0`` and of ``elo1``
  (``model="logistic"``), or whose normalized Elo is ``elo0`` / ``elo1`` (``model="normalized"``),
  on game results (trinomial) or on seat-swapped pair results (pentanomial). Zero counts are
  regularized to 1e-3 as fastchess does. Stop when ``LLR >= upper`` (accept H1: the first player
  is at least ``elo1`` stronger) or ``LLR <= lower`` (accept H0: at most ``elo0``).
  Reference: M. Van den Bergh, "Comments on Normalized Elo",
  https://www.cantate.be/Fishtest/normalized_elo_practical.pdf (propositions 1.1 and section 4.1).

Degenerate inputs have defined outputs: no games -> score 0.5, interval (0, 1), Elo 0 with an
infinite error bar, LOS 0.5, LLR 0; a perfect or null score -> Elo ±inf with an infinite error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

# scipy is imported where it is used: it costs about a second and a half of CPU to import, which
# every `arena` command and every worker process paid before it drew a single game.

#: z for a two-sided 95 % interval, exactly: scipy.stats.norm.ppf(0.975), written out
#: (tests/test_stats.py checks the two are the same float).
Z95: float = 1.959963984540054
#: Z95 as the paper rounds it: the score intervals (the paper's ±) and the Bradley-Terry ladder
#: use it, so a score printed beside the paper's has its digits.
Z95_ROUNDED: float = 1.96

#: Below this many games ``interval(method="auto")`` uses Wilson, at or above it Wald.
SMALL_SAMPLE: int = 100

CI_METHODS = ("auto", "wald", "wilson")
SPRT_MODELS = ("logistic", "normalized")

#: Per-pair score of each pentanomial class (LL, LD, WL+DD, WD, WW) as a fraction of 2 games.
PENTA_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
TRI_SCORES = (0.0, 0.5, 1.0)  # loss, draw, win

_REGULARIZE = 1e-3  # stand-in for a zero count in the GSPRT (fastchess does the same)


def _check_counts(**counts: float) -> None:
    for name, value in counts.items():
        if value < 0 or not math.isfinite(value):
            raise ValueError(f"{name} must be a non-negative number, got {value!r}")


# --------------------------------------------------------------------------------------------
# Scores and intervals
# --------------------------------------------------------------------------------------------


def score(wins: float, draws: float, losses: float) -> float:
    """Score fraction of the first player: ``(wins + draws/2) / games``; 0.5 when no games."""
    _check_counts(wins=wins, draws=draws, losses=losses)
    n = wins + draws + losses
    if n == 0:
        return 0.5
    return (wins + 0.5 * draws) / n


def _check_sum(score_sum: float, n: float) -> None:
    _check_counts(n=n)
    if score_sum < 0 or score_sum > n:
        raise ValueError(f"score_sum must lie in [0, n={n}], got {score_sum!r}")


def wald_half_width(p: float, n: float, z: float = Z95_ROUNDED) -> float:
    """``z*sqrt(p(1-p)/n)``: the paper's ± for a score fraction p over n games (n > 0)."""
    return z * math.sqrt(max(p * (1.0 - p), 0.0) / n)


def wald_interval(score_sum: float, n: float, z: float = Z95_ROUNDED) -> tuple[float, float]:
    """Normal-approximation (Wald) interval ``p ± z*sqrt(p(1-p)/n)`` as fractions in [0, 1].

    This is the paper's ± (with ``z = 1.96``): 943/1000 -> (0.92863, 0.95737), i.e. 94.30 ± 1.44.
    It has zero width at ``p = 0`` or ``p = 1``; prefer Wilson for small samples. ``n = 0`` gives
    the uninformative ``(0, 1)``.
    """
    _check_sum(score_sum, n)
    if n == 0:
        return (0.0, 1.0)
    p = score_sum / n
    half = wald_half_width(p, n, z)
    return (max(0.0, p - half), min(1.0, p + half))


def wilson_interval(score_sum: float, n: float, z: float = Z95_ROUNDED) -> tuple[float, float]:
    """Wilson score interval as fractions in [0, 1] (no continuity correction).

    ``centre = (p + z²/2n) / (1 + z²/n)``, ``half = z/(1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)``.
    Never degenerate: 0 wins out of n still gives an upper bound above 0. ``n = 0`` gives (0, 1).
    """
    _check_sum(score_sum, n)
    if n == 0:
        return (0.0, 1.0)
    p = score_sum / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    low = 0.0 if score_sum == 0 else max(0.0, centre - half)
    high = 1.0 if score_sum == n else min(1.0, centre + half)
    return (low, high)


def interval(
    wins: float, draws: float, losses: float, method: str = "auto", z: float = Z95_ROUNDED
) -> tuple[float, float]:
    """Confidence interval of the score (draws half) as fractions in [0, 1].

    ``method``: ``"wald"`` (the paper's), ``"wilson"``, or ``"auto"`` — Wilson below
    ``SMALL_SAMPLE`` games, Wald from there on (so paper-sized runs print the paper's ±).
    """
    if method not in CI_METHODS:
        raise ValueError(f"unknown CI method {method!r}; valid: {', '.join(CI_METHODS)}")
    _check_counts(wins=wins, draws=draws, losses=losses)
    n = wins + draws + losses
    s = wins + 0.5 * draws
    if method == "auto":
        method = "wilson" if n < SMALL_SAMPLE else "wald"
    if method == "wald":
        return wald_interval(s, n, z)
    return wilson_interval(s, n, z)


def looks_z(looks: int, alpha: float = 0.05) -> float:
    """The z of a two-sided interval whose error `alpha` is split evenly over `looks` looks
    (Bonferroni): intervals at this z hold the true score at every look at once with chance at
    least 1 - alpha, so the one read at a look chosen by the data (a sequential stop) still
    covers at 1 - alpha. One look: the plain two-sided z."""
    from scipy.stats import norm

    if looks < 1:
        raise ValueError(f"looks_z: looks must be at least 1, got {looks}")
    return float(norm.ppf(1.0 - alpha / 2.0 / looks))


def mean_variance(counts: Sequence[float], scores: Sequence[float]) -> tuple[float, float]:
    """(mean, variance of the mean) of units scored `scores` seen `counts` times each: the
    plug-in (maximum-likelihood) variance over the number of units. Pentanomial counts with
    PENTA_SCORES, games (L, D, W) with TRI_SCORES, decisive pairs (lost, won) with (0, 1).
    No units: (0.5, inf)."""
    n = float(sum(counts))
    if n <= 0:
        return 0.5, math.inf
    mu = sum(c * x for c, x in zip(counts, scores)) / n
    var = sum(c * (x - mu) ** 2 for c, x in zip(counts, scores)) / n
    return mu, var / n


# --------------------------------------------------------------------------------------------
# Elo and LOS
# --------------------------------------------------------------------------------------------


def score_to_elo(p: float) -> float:
    """Logistic Elo difference of a score fraction: ``-400*log10(1/p - 1)``; ±inf at 1 and 0."""
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def elo_to_score(elo: float) -> float:
    """Expected score of a logistic Elo difference: ``1 / (1 + 10^(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_bounds(low: float, high: float) -> tuple[float, float]:
    """The Elo interval of a score interval [low, high]: its ends through `score_to_elo`, which
    is increasing, so the Elo interval covers exactly when the score's does (the same Wilson,
    Wald or likelihood-ratio interval printed beside it); ±inf where an end is 0 or 1."""
    return score_to_elo(low), score_to_elo(high)


def elo_diff(wins: float, draws: float, losses: float) -> float:
    """Elo difference of the first player from its score (0 when no games, ±inf at 0 or 100 %)."""
    return score_to_elo(score(wins, draws, losses))


def _elo_error_from(mu: float, stdev: float, z: float) -> float:
    if stdev == 0.0 or mu <= 0.0 or mu >= 1.0:
        return math.inf
    return (score_to_elo(mu + z * stdev) - score_to_elo(mu - z * stdev)) / 2.0


def elo_error(wins: float, draws: float, losses: float, z: float = Z95) -> float:
    """Half-width of the Elo interval, as cutechess and fastchess print it.

    ``sigma = sqrt(sum_k f_k (x_k - mu)²) / sqrt(n)`` over win/draw/loss frequencies ``f_k`` with
    scores ``x_k`` in {1, 1/2, 0}; the error is ``(elo(mu + z sigma) - elo(mu - z sigma)) / 2``.
    Infinite when it is undefined (no games, a score of 0 or 1, or a bound outside (0, 1)).
    """
    _check_counts(wins=wins, draws=draws, losses=losses)
    n = wins + draws + losses
    if n == 0:
        return math.inf
    mu = score(wins, draws, losses)
    var = (wins * (1.0 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu**2) / n
    return _elo_error_from(mu, math.sqrt(var / n), z)


def elo(wins: float, draws: float, losses: float, z: float = Z95) -> tuple[float, float]:
    """``(elo_diff, elo_error)`` of the first player."""
    return elo_diff(wins, draws, losses), elo_error(wins, draws, losses, z)


def los(wins: float, losses: float) -> float:
    """Likelihood of superiority ``(1 + erf((w - l) / sqrt(2 (w + l)))) / 2`` in [0, 1].

    Draws do not enter it. 0.5 when there are no decisive games.
    """
    from scipy.special import erf
    _check_counts(wins=wins, losses=losses)
    if wins + losses == 0:
        return 0.5
    return float(0.5 * (1.0 + erf((wins - losses) / math.sqrt(2.0 * (wins + losses)))))


# --------------------------------------------------------------------------------------------
# Pentanomial (seat-swapped pairs)
# --------------------------------------------------------------------------------------------


def pentanomial(pairs: Iterable[tuple[float, float]]) -> tuple[int, int, int, int, int]:
    """Count seat-swapped pairs by the first player's pair score.

    Each pair is ``(score_game_1, score_game_2)`` with scores in {0, 0.5, 1}. The result counts
    pairs scoring 0, 0.5, 1, 1.5 and 2 points — (LL, LD, WL+DD, WD, WW), fastchess's order.
    """
    counts = [0, 0, 0, 0, 0]
    for pair in pairs:
        first, second = pair
        for s in (first, second):
            if s not in (0, 0.5, 1):
                raise ValueError(f"a game score must be 0, 0.5 or 1, got {s!r} in pair {pair!r}")
        counts[round(2 * (first + second))] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4])


def _check_penta(counts: Sequence[float]) -> None:
    if len(counts) != 5:
        raise ValueError(
            f"pentanomial counts need 5 entries (LL, LD, WL+DD, WD, WW), got {len(counts)}"
        )
    _check_counts(**{f"counts[{i}]": c for i, c in enumerate(counts)})


def elo_pentanomial(counts: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """``(elo_diff, elo_error)`` from pentanomial pair counts (LL, LD, WL+DD, WD, WW).

    The mean is the per-game score; the error bar uses the per-pair variance, which accounts for
    the correlation between the two games of a pair (narrower than the trinomial bar when seat
    swapping cancels opening bias).
    """
    _check_penta(counts)
    n = float(sum(counts))
    if n == 0:
        return 0.0, math.inf
    mu = sum(c * x for c, x in zip(counts, PENTA_SCORES)) / n
    var = sum(c * (x - mu) ** 2 for c, x in zip(counts, PENTA_SCORES)) / n
    return score_to_elo(mu), _elo_error_from(mu, math.sqrt(var / n), z)


def pentanomial_score(counts: Sequence[float]) -> float:
    """The per-game score of pair counts (LL, LD, WL+DD, WD, WW); 0.5 with no pairs."""
    _check_penta(counts)
    n = float(sum(counts))
    if n == 0:
        return 0.5
    return sum(c * x for c, x in zip(counts, PENTA_SCORES)) / n


def pentanomial_interval(counts: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """The 95 % (by default) interval of the per-game score from pair counts (LL, LD, WL+DD, WD,
    WW): the likelihood-ratio (profile likelihood) interval of the pentanomial's mean, i.e. the
    scores ``s`` whose maximum-likelihood pentanomial with mean ``s`` (Van den Bergh's 1.1, as
    the GSPRT uses, zero counts regularized to 1e-3) is not rejected against the empirical one
    at ``2 * log LR <= z**2``.

    Why this and not ``mean ± z * sigma / sqrt(pairs)`` (fishtest's): the normal interval
    collapses to a point when every pair scores alike (20 pairs won 2-0: [1, 1]); the
    likelihood-ratio interval stays honest there (20 pairs won 2-0: [0.908, 1], close to the
    Wilson interval of 40 won games, [0.912, 1]) and agrees with the normal one for many pairs.
    It is narrower than a per-game interval when seat swapping cancels a first-move advantage
    (the pair's games are negatively correlated). No pairs: (0, 1).
    """
    from scipy import optimize
    _check_penta(counts)
    n = float(sum(counts))
    if n == 0:
        return 0.0, 1.0
    obs = np.asarray(counts, dtype=float)
    reg = np.array([c if c > 0 else _REGULARIZE for c in counts], dtype=float)
    probs = reg / reg.sum()
    scores = np.asarray(PENTA_SCORES)
    seen = obs > 0
    emp = obs[seen] / n
    centre = float(np.sum(probs * scores))
    crit = z * z

    def excess(s: float) -> float:           # 2 log LR - z^2: < 0 inside the interval
        p = _mle_mean(scores, probs, s)
        return 2.0 * float(np.sum(obs[seen] * np.log(emp / p[seen]))) - crit

    eps = 1e-9
    lo = 0.0 if excess(eps) <= 0 else optimize.brentq(excess, eps, centre, xtol=1e-10)
    hi = 1.0 if excess(1 - eps) <= 0 else optimize.brentq(excess, centre, 1 - eps, xtol=1e-10)
    return max(0.0, lo), min(1.0, hi)


# --------------------------------------------------------------------------------------------
# GSPRT
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SprtResult:
    """One look at a running GSPRT: the LLR, the bounds, and the decision (None = go on)."""

    llr: float
    lower: float
    upper: float
    decision: str | None  # "H0", "H1" or None


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds ``(ln(beta/(1-alpha)), ln((1-beta)/alpha))`` on the log-likelihood ratio."""
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    if not 0.0 < beta < 1.0:
        raise ValueError(f"beta must lie strictly between 0 and 1, got {beta!r}")
    if alpha + beta >= 1.0:
        raise ValueError(f"alpha + beta must be below 1, got {alpha + beta!r}")
    return (math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def _check_sprt(elo0: float, elo1: float, model: str) -> None:
    if model not in SPRT_MODELS:
        raise ValueError(f"unknown SPRT model {model!r}; valid: {', '.join(SPRT_MODELS)}")
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, got elo0={elo0!r}, elo1={elo1!r}")


def _solve_theta(func, lo: float, hi: float) -> float:
    """Root of a function decreasing from +inf at ``lo`` to -inf at ``hi`` (open interval)."""
    from scipy import optimize
    for delta in (1e-9, 1e-12, 1e-15):
        a = lo + (hi - lo) * delta
        b = hi - (hi - lo) * delta
        fa, fb = func(a), func(b)
        if fa > 0 > fb:
            return optimize.brentq(func, a, b, xtol=1e-15, rtol=1e-14, maxiter=500)
        if fa == 0:
            return a
        if fb == 0:
            return b
    raise ArithmeticError("GSPRT: could not bracket the Lagrange multiplier")


def _mle_mean(scores: np.ndarray, probs: np.ndarray, s: float) -> np.ndarray:
    """Multinomial MLE with expected score ``s`` given empirical ``probs`` (Van den Bergh, 1.1)."""
    d = scores - s
    theta = _solve_theta(
        lambda t: float(np.sum(probs * d / (1.0 + t * d))), -1.0 / d.max(), -1.0 / d.min()
    )
    return probs / (1.0 + theta * d)


def _mle_normalized(scores: np.ndarray, probs: np.ndarray, t_star: float) -> np.ndarray:
    """Multinomial MLE with normalized score ``(mu - 1/2)/sigma = t_star`` (Van den Bergh, 4.1)."""
    p = np.full(len(scores), 1.0 / len(scores))
    for _ in range(10_000):
        mu = float(np.sum(p * scores))
        sigma = math.sqrt(float(np.sum(p * (scores - mu) ** 2)))
        phi = scores - 0.5 - 0.5 * t_star * sigma * (1.0 + ((scores - mu) / sigma) ** 2)
        theta = _solve_theta(
            lambda t, phi=phi: float(np.sum(probs * phi / (1.0 + t * phi))),
            -1.0 / phi.max(),
            -1.0 / phi.min(),
        )
        new = probs / (1.0 + theta * phi)
        done = float(np.max(np.abs(new - p))) < 1e-12
        p = new
        if done:
            break
    return p


def _llr(
    counts: Sequence[float],
    scores: Sequence[float],
    elo0: float,
    elo1: float,
    model: str,
    nelo_scale: float,
) -> float:
    if sum(counts) == 0:
        return 0.0
    reg = np.array([c if c > 0 else _REGULARIZE for c in counts], dtype=float)
    total = float(reg.sum())
    probs = reg / total
    a = np.asarray(scores, dtype=float)
    if model == "logistic":
        p0 = _mle_mean(a, probs, elo_to_score(elo0))
        p1 = _mle_mean(a, probs, elo_to_score(elo1))
    else:
        k = nelo_scale / (800.0 / math.log(10.0))
        p0 = _mle_normalized(a, probs, elo0 * k)
        p1 = _mle_normalized(a, probs, elo1 * k)
    return total * float(np.sum(probs * (np.log(p1) - np.log(p0))))


def sprt_llr(
    wins: float, draws: float, losses: float, elo0: float, elo1: float, model: str = "logistic"
) -> float:
    """GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) from game counts."""
    _check_counts(wins=wins, draws=draws, losses=losses)
    _check_sprt(elo0, elo1, model)
    return _llr((losses, draws, wins), TRI_SCORES, elo0, elo1, model, 1.0)


def sprt_llr_pentanomial(
    counts: Sequence[float], elo0: float, elo1: float, model: str = "logistic"
) -> float:
    """GSPRT log-likelihood ratio from pair counts (LL, LD, WL+DD, WD, WW).

    For ``model="normalized"`` the per-pair normalized Elo is ``sqrt(2)`` times the per-game one,
    as in fastchess.
    """
    _check_penta(counts)
    _check_sprt(elo0, elo1, model)
    return _llr(tuple(counts), PENTA_SCORES, elo0, elo1, model, math.sqrt(2.0))


def sprt_decision(llr: float, lower: float, upper: float) -> str | None:
    """ "H1" when ``llr >= upper``, "H0" when ``llr <= lower``, else None (keep playing)."""
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return None


def sprt(
    wins: float,
    draws: float,
    losses: float,
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    model: str = "logistic",
) -> SprtResult:
    """GSPRT on game results: LLR, bounds and decision."""
    lower, upper = sprt_bounds(alpha, beta)
    llr = sprt_llr(wins, draws, losses, elo0, elo1, model)
    return SprtResult(llr, lower, upper, sprt_decision(llr, lower, upper))


def sprt_pentanomial(
    counts: Sequence[float],
    elo0: float,
    elo1: float,
    alpha: float = 0.05,
    beta: float = 0.05,
    model: str = "logistic",
) -> SprtResult:
    """GSPRT on seat-swapped pair results (LL, LD, WL+DD, WD, WW): LLR, bounds and decision."""
    lower, upper = sprt_bounds(alpha, beta)
    llr = sprt_llr_pentanomial(counts, elo0, elo1, model)
    return SprtResult(llr, lower, upper, sprt_decision(llr, lower, upper))


# --------------------------------------------------------------------------------------------
# Bradley–Terry ratings for a round robin
# --------------------------------------------------------------------------------------------

_LN10_400 = math.log(10.0) / 400.0


def bradley_terry(
    results: Mapping[tuple[str, str], tuple[float, float, float]],
    prior_draws: float | None = None,
) -> dict[str, float]:
    """Maximum-likelihood Elo ratings (mean 0) of all players from pairwise results.

    ``results[(a, b)] = (wins_a, draws, wins_b)``; a pairing may appear under both orders (the
    counts are added). Draws count half a win to each side. The model is
    ``P(a beats b) = 1 / (1 + 10^((elo_b - elo_a)/400))``.

    The MLE exists only when every player both scored and conceded points in a way that links
    everyone (the graph "a took points from b" is strongly connected). ``prior_draws`` adds that
    many virtual draws to every pairing that was played; ``None`` (default) adds none when the
    MLE exists and 1 otherwise, so a perfect score gives a large finite rating, not infinity.
    Players that never met anyone linked to the others raise ValueError.
    """
    from scipy import optimize, sparse
    from scipy.sparse import csgraph
    names: list[str] = []
    index: dict[str, int] = {}
    for a, b in results:
        for name in (a, b):
            if name not in index:
                index[name] = len(names)
                names.append(name)
    n = len(names)
    if n == 0:
        return {}
    games = np.zeros((n, n))
    points = np.zeros((n, n))  # points[i, j] = score of i against j
    for (a, b), counts in results.items():
        if a == b:
            raise ValueError(f"bradley_terry: player {a!r} paired with itself")
        if len(counts) != 3:
            raise ValueError(
                f"bradley_terry: results[{a!r}, {b!r}] must be (wins_a, draws, wins_b)"
            )
        wa, d, wb = counts
        _check_counts(wins_a=wa, draws=d, wins_b=wb)
        i, j = index[a], index[b]
        games[i, j] += wa + d + wb
        games[j, i] += wa + d + wb
        points[i, j] += wa + 0.5 * d
        points[j, i] += wb + 0.5 * d
    if n == 1:
        return {names[0]: 0.0}
    played = sparse.csr_matrix(games > 0)
    n_parts, labels = csgraph.connected_components(played, directed=False)
    if n_parts > 1:
        groups = [sorted(names[k] for k in range(n) if labels[k] == g) for g in range(n_parts)]
        raise ValueError(f"bradley_terry: players fall into unconnected groups {groups}")
    if prior_draws is None:
        took = sparse.csr_matrix(points > 0)
        strong, _ = csgraph.connected_components(took, directed=True, connection="strong")
        prior_draws = 0.0 if strong == 1 else 1.0
    if prior_draws < 0:
        raise ValueError(f"prior_draws must be non-negative, got {prior_draws!r}")
    mask = games > 0
    games = games + prior_draws * mask
    points = points + 0.5 * prior_draws * mask
    total_points = points.sum(axis=1)

    def unpack(x: np.ndarray) -> np.ndarray:
        return np.append(x, -x.sum())  # mean-zero anchor

    def nll(x: np.ndarray) -> tuple[float, np.ndarray]:
        r = unpack(x) * _LN10_400
        diff = r[:, None] - r[None, :]
        # log P(i beats j) = -log(1 + exp(-(r_i - r_j)))
        ll = -np.sum(points * np.logaddexp(0.0, -diff))
        expected = np.sum(games / (1.0 + np.exp(-diff)), axis=1)
        grad_r = (total_points - expected) * _LN10_400  # d ll / d elo_i
        grad_x = grad_r[:-1] - grad_r[-1]
        return -float(ll), -grad_x

    res = optimize.minimize(
        nll, np.zeros(n - 1), jac=True, method="BFGS", options={"gtol": 1e-10, "maxiter": 10_000}
    )
    ratings = unpack(res.x)
    return {name: float(ratings[index[name]]) for name in names}


# ---- the pair rule (docs/paper.md; games that declare scoring="pairs") ------------------------
PAIR_OUTCOMES = ("player", "opponent", "draw", "discarded", "error")


def pair_outcome(first: float | None, second: float | None) -> str:
    """Score one seat-swapped pair by the paper's Kalah rule.

    `first`, `second`: the pairing player's score (1 win, 0.5 draw, 0 loss; None for an error
    game) in the game where it moved first and the game where it moved second. A player wins the
    pair if it won one game and at least drew the other; if the same *side* (seat) won both games
    the pair is discarded (in a seat-swapped pair that is a win and a loss for each player); two
    draws are a drawn pair.
    """
    if first is None or second is None:
        return "error"
    for s in (first, second):
        if s not in (0, 0.5, 1):
            raise ValueError(f"a game score must be 0, 0.5 or 1, got {s!r}")
    total = first + second
    if {first, second} == {0, 1}:
        return "discarded"
    if total > 1:
        return "player"
    if total < 1:
        return "opponent"
    return "draw"


# ---- counting games and the one interval rule ------------------------------------------------
@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses of the first-named player; error games are not counted in them."""

    wins: int = 0
    draws: int = 0
    losses: int = 0
    errors: int = 0
    time_forfeits: int = 0
    max_plies: int = 0
    illegal_moves: int = 0          # games forfeited by an illegal move (external engines)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return self.wins + 0.5 * self.draws


def tally(games: Iterable) -> Tally:
    """Count W/D/L/errors (and time forfeits, games drawn at the ply limit, illegal-move
    forfeits). Each item is a game
    as the store keeps it (a mapping with `score` and `reason`) or just its score: 1 win, 0.5
    draw, 0 loss, None an error game. The run summary, the report and tournaments all count
    with this."""
    w = d = lo = err = tf = mp = im = 0
    for g in games:
        if isinstance(g, Mapping):
            sc, reason = g["score"], g.get("reason")
        else:
            sc, reason = g, None
        if sc is None or reason == "error":
            err += 1
            continue
        w += sc == 1.0
        d += sc == 0.5
        lo += sc == 0.0
        tf += reason == "time_forfeit"
        mp += reason == "max_plies"
        im += reason == "illegal_move"
    return Tally(w, d, lo, err, tf, mp, im)


def score_interval(wins: float, draws: float, losses: float, method: str = "auto"
                   ) -> tuple[float, float, str]:
    """(low, high, method used) of the score's 95 % interval, clipped to [0, 1]: the one rule
    `arena run`'s summary and `arena report` print (auto: Wilson below SMALL_SAMPLE games, the
    paper's Wald from there)."""
    n = wins + draws + losses
    used = method if method != "auto" else ("wilson" if n < SMALL_SAMPLE else "wald")
    lo, hi = interval(wins, draws, losses, used)
    return max(0.0, lo), min(1.0, hi), used


def bradley_terry_covariance(results: Mapping[tuple[str, str], tuple[float, float, float]],
                             ratings: Mapping[str, float]) -> tuple[list[str], np.ndarray]:
    """(names, covariance of their Elo ratings) at fitted `ratings` (`bradley_terry`): the
    pseudo-inverse of the observed Fisher information, which is the covariance under the
    mean-zero constraint, so the variance of a difference of two ratings is
    cov[a, a] + cov[b, b] - 2 cov[a, b] whichever player is taken as the zero."""
    names = list(ratings)
    idx = {a: i for i, a in enumerate(names)}
    n = len(names)
    games = np.zeros((n, n))
    for (a, b), (wa, d, wb) in results.items():
        games[idx[a], idx[b]] += wa + d + wb
        games[idx[b], idx[a]] += wa + d + wb
    r = np.array([ratings[a] for a in names]) * _LN10_400
    p = 1.0 / (1.0 + np.exp(-(r[:, None] - r[None, :])))
    w = games * p * (1.0 - p) * _LN10_400 ** 2
    info = np.diag(w.sum(axis=1)) - w
    return names, (np.linalg.pinv(info) if n > 1 else np.zeros((1, 1)))


def bradley_terry_ladder(results: Mapping[tuple[str, str], tuple[float, float, float]],
                         z: float = Z95_ROUNDED) -> list[dict]:
    """Bradley–Terry Elo ratings (mean 0, `stats.bradley_terry`) with the half-width of their
    95% interval, best first: [{"name", "elo", "error", "games"}, ...].

    `results[(a, b)] = (wins_a, draws, wins_b)`. The error is z times the standard error from
    the observed Fisher information at the fitted ratings (`bradley_terry_covariance`); None
    when it is not finite.
    """
    ratings = bradley_terry(results)
    names, cov = bradley_terry_covariance(results, ratings)
    games: dict[str, float] = dict.fromkeys(names, 0.0)
    for (a, b), counts in results.items():
        games[a] += sum(counts)
        games[b] += sum(counts)
    out = []
    for i, a in enumerate(names):
        var = cov[i, i]
        err = z * math.sqrt(var) if var > 0 and math.isfinite(var) else None
        out.append({"name": a, "elo": ratings[a], "error": err, "games": int(games[a])})
    out.sort(key=lambda e: -e["elo"])
    return out
