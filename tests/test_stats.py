"""Table-driven tests of mcts_arena.stats (intervals, Elo, LOS, GSPRT, Bradley–Terry)."""

import math

import numpy as np
import pytest

from mcts_arena import stats as st

# ------------------------------------------------------------------------------ score / intervals


@pytest.mark.parametrize(
    "w,d,l,expected",
    [
        (10, 0, 0, 1.0),
        (0, 0, 10, 0.0),
        (0, 10, 0, 0.5),
        (3, 2, 5, 0.4),
        (1, 0, 0, 1.0),
        (0, 0, 0, 0.5),
    ],
)
def test_score(w, d, l, expected):
    assert st.score(w, d, l) == pytest.approx(expected)


@pytest.mark.parametrize(
    "k,n,pct,half",
    [
        (943, 1000, 94.30, 1.44),
        (1068, 2000, 53.40, 2.19),
        (823, 1000, 82.30, 2.37),
        (402, 1000, 40.20, 3.04),
        (678, 1000, 67.80, 2.90),
        (849, 1000, 84.90, 2.22),
    ],
)
def test_wald_matches_paper(k, n, pct, half):
    low, high = st.wald_interval(k, n)
    assert round(100 * (low + high) / 2, 2) == pct
    assert round(100 * (high - low) / 2, 2) == half


def test_wald_688_is_one_hundredth_below_the_printed_value():
    # The paper prints 68.80 +- 2.88 for 688/1000, but 1.96*sqrt(.688*.312/1000) = 2.8716:
    # no z near 1.96 with n = 1000 gives 2.88 (n ~ 994 would). We print 2.87 and say so.
    low, high = st.wald_interval(688, 1000)
    assert round(100 * (low + high) / 2, 2) == 68.80
    assert round(100 * (high - low) / 2, 2) == 2.87


@pytest.mark.parametrize(
    "k,n,expected",
    [
        (0, 10, (0.0, 0.0)),
        (10, 10, (1.0, 1.0)),
        (0, 1, (0.0, 0.0)),
        (1, 1, (1.0, 1.0)),
        (0, 0, (0.0, 1.0)),
    ],
)
def test_wald_edges(k, n, expected):
    assert st.wald_interval(k, n) == expected


def test_wald_clipped_to_unit_interval():
    low, high = st.wald_interval(1, 3)  # 0.333 ± 0.533
    assert low == 0.0 and 0.8 < high < 0.9


@pytest.mark.parametrize(
    "k,n", [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (7, 13), (500, 1000), (1, 2)]
)
def test_wilson_matches_scipy(k, n):
    from scipy.stats import binomtest

    ref = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = st.wilson_interval(k, n, z=st.Z95)
    assert low == pytest.approx(ref.low, abs=1e-12)
    assert high == pytest.approx(ref.high, abs=1e-12)


def test_wilson_edges():
    assert st.wilson_interval(0, 0) == (0.0, 1.0)
    low, high = st.wilson_interval(0, 10)
    assert low == 0.0 and 0.2 < high < 0.35  # never degenerate at 0 wins
    low, high = st.wilson_interval(10, 10)
    assert high == 1.0 and 0.65 < low < 0.8


@pytest.mark.parametrize("method", ["wald", "wilson", "auto"])
@pytest.mark.parametrize("w,d,l", [(5, 3, 2), (60, 10, 30), (0, 4, 0), (0, 0, 0), (120, 30, 50)])
def test_interval_draws_half_and_symmetry(method, w, d, l):
    low, high = st.interval(w, d, l, method)
    rlow, rhigh = st.interval(l, d, w, method)
    assert low == pytest.approx(1 - rhigh) and high == pytest.approx(1 - rlow)
    assert 0.0 <= low <= st.score(w, d, l) <= high <= 1.0


def test_interval_auto_switches_at_small_sample():
    assert st.interval(30, 0, 69, "auto") == st.wilson_interval(30, 99)
    assert st.interval(30, 0, 70, "auto") == st.wald_interval(30, 100)


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: st.interval(1, 1, 1, "normal"), "unknown CI method 'normal'"),
        (lambda: st.wald_interval(11, 10), "score_sum must lie in [0, n=10]"),
        (lambda: st.wilson_interval(-1, 10), "score_sum must lie"),
        (lambda: st.score(-1, 0, 0), "wins must be a non-negative number"),
    ],
)
def test_bad_inputs(call, message):
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        call()


# ------------------------------------------------------------------------------ Elo and LOS


def test_elo_cutechess_reference():
    diff, err = st.elo(136, 111, 96)
    assert f"{diff:+.1f} +/- {err:.1f}" == "+40.7 +/- 30.4"
    assert f"{100 * st.los(136, 96):.1f}" == "99.6"


@pytest.mark.parametrize(
    "w,d,l,diff",
    [
        (75, 0, 25, 400 * math.log10(3)),
        (25, 0, 75, -400 * math.log10(3)),
        (50, 0, 50, 0.0),
        (0, 10, 0, 0.0),
        (90, 0, 10, 400 * math.log10(9)),
        (10, 0, 0, math.inf),
        (0, 0, 10, -math.inf),
        (0, 0, 0, 0.0),
    ],
)
def test_elo_diff(w, d, l, diff):
    assert st.elo_diff(w, d, l) == pytest.approx(diff)


@pytest.mark.parametrize("w,d,l", [(10, 0, 0), (0, 0, 10), (0, 0, 0), (0, 5, 0)])
def test_elo_error_undefined_is_infinite(w, d, l):
    assert st.elo_error(w, d, l) == math.inf


def test_elo_error_shrinks_with_games_and_draws():
    assert st.elo_error(600, 0, 400) < st.elo_error(60, 0, 40)
    # same score, more draws -> smaller per-game variance -> smaller bar
    assert st.elo_error(40, 40, 20) < st.elo_error(60, 0, 40)
    assert st.elo_error(60, 0, 40) == pytest.approx(st.elo_error(40, 0, 60))


@pytest.mark.parametrize("w,l", [(136, 96), (10, 10), (0, 5), (5, 0), (1, 0), (300, 250)])
def test_los_is_normal_cdf(w, l):
    from scipy.stats import norm

    assert st.los(w, l) == pytest.approx(norm.cdf((w - l) / math.sqrt(w + l)))


def test_los_no_decisive_games():
    assert st.los(0, 0) == 0.5


# ------------------------------------------------------------------------------ pentanomial


def test_pentanomial_counts():
    pairs = [(1, 1), (1, 0), (0, 1), (0.5, 0.5), (1, 0.5), (0, 0.5), (0, 0), (0.5, 1)]
    assert st.pentanomial(pairs) == (1, 1, 3, 2, 1)
    with pytest.raises(ValueError, match="a game score must be 0, 0.5 or 1"):
        st.pentanomial([(1, 0.3)])


def test_elo_pentanomial_equals_trinomial_for_independent_games():
    # p(win) = 0.6, no draws, games independent: LL .16, WL .48, WW .36 per pair
    n_pairs = 500
    counts = (0.16 * n_pairs, 0, 0.48 * n_pairs, 0, 0.36 * n_pairs)
    diff, err = st.elo_pentanomial(counts)
    tdiff, terr = st.elo(0.6 * 2 * n_pairs, 0, 0.4 * 2 * n_pairs)
    assert diff == pytest.approx(tdiff) and err == pytest.approx(terr)


def test_elo_pentanomial_correlated_pairs_narrower():
    # every pair split 1:1 except a few: the seat effect cancels, the bar is narrow
    diff, err = st.elo_pentanomial((0, 10, 480, 10, 0))
    assert diff == pytest.approx(0.0)
    assert err < st.elo_error(500, 0, 500) / 3
    assert st.elo_pentanomial((0, 0, 0, 0, 0)) == (0.0, math.inf)


# ------------------------------------------------------------------------------ GSPRT


@pytest.mark.parametrize(
    "alpha,beta,lower,upper",
    [
        (0.05, 0.05, math.log(0.05 / 0.95), math.log(0.95 / 0.05)),
        (0.05, 0.1, math.log(0.1 / 0.95), math.log(0.9 / 0.05)),
        (0.01, 0.2, math.log(0.2 / 0.99), math.log(0.8 / 0.01)),
    ],
)
def test_sprt_bounds(alpha, beta, lower, upper):
    assert st.sprt_bounds(alpha, beta) == pytest.approx((lower, upper))
    assert st.sprt_bounds(0.05, 0.05)[1] == pytest.approx(2.944, abs=1e-3)


@pytest.mark.parametrize(
    "alpha,beta,message",
    [
        (0, 0.05, "alpha must lie"),
        (0.05, 1, "beta must lie"),
        (0.6, 0.5, "alpha \\+ beta must be below 1"),
    ],
)
def test_sprt_bounds_invalid(alpha, beta, message):
    with pytest.raises(ValueError, match=message):
        st.sprt_bounds(alpha, beta)


def test_sprt_invalid_elos_and_model():
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        st.sprt(10, 0, 10, 5, 0)
    with pytest.raises(
        ValueError, match="unknown SPRT model 'bayesian'; valid: logistic, normalized"
    ):
        st.sprt(10, 0, 10, 0, 5, model="bayesian")


def _reference_llr(counts, scores, constraint0, constraint1):
    """Independent check: maximise the multinomial log-likelihood under each constraint (SLSQP)."""
    from scipy import optimize  # here, not at the top: the suite's other workers skip it

    counts = np.array([c if c > 0 else 1e-3 for c in counts], float)
    scores = np.asarray(scores, float)

    def best(constraint):
        x0 = counts / counts.sum()
        res = optimize.minimize(
            lambda p: -np.sum(counts * np.log(p)),
            x0,
            method="SLSQP",
            bounds=[(1e-12, 1)] * len(counts),
            constraints=[
                {"type": "eq", "fun": lambda p: np.sum(p) - 1},
                {"type": "eq", "fun": lambda p: constraint(p, scores)},
            ],
            options={"ftol": 1e-14, "maxiter": 1000},
        )
        assert res.success, res.message
        return -res.fun

    return best(constraint1) - best(constraint0)


def _mean_constraint(s):
    return lambda p, a: np.sum(p * a) - s


def _normalized_constraint(t):
    def f(p, a):
        mu = np.sum(p * a)
        return (mu - 0.5) - t * math.sqrt(np.sum(p * (a - mu) ** 2))

    return f


@pytest.mark.parametrize(
    "w,d,l,elo0,elo1",
    [
        (136, 111, 96, 0, 5),
        (60, 20, 40, -3, 1),
        (10, 0, 25, 0, 10),
        (300, 500, 280, 0, 2),
        (7, 0, 0, 0, 5),
    ],
)
def test_llr_logistic_matches_constrained_mle(w, d, l, elo0, elo1):
    ref = _reference_llr(
        (l, d, w),
        st.TRI_SCORES,
        _mean_constraint(st.elo_to_score(elo0)),
        _mean_constraint(st.elo_to_score(elo1)),
    )
    assert st.sprt_llr(w, d, l, elo0, elo1) == pytest.approx(ref, abs=1e-5)


@pytest.mark.parametrize(
    "w,d,l,elo0,elo1", [(136, 111, 96, 0, 5), (60, 20, 40, -3, 1), (300, 500, 280, 0, 2)]
)
def test_llr_normalized_matches_constrained_mle(w, d, l, elo0, elo1):
    k = math.log(10) / 800
    ref = _reference_llr(
        (l, d, w), st.TRI_SCORES, _normalized_constraint(elo0 * k), _normalized_constraint(elo1 * k)
    )
    assert st.sprt_llr(w, d, l, elo0, elo1, model="normalized") == pytest.approx(ref, abs=1e-5)


@pytest.mark.parametrize(
    "counts,elo0,elo1",
    [((10, 20, 40, 25, 15), 0, 5), ((3, 30, 100, 40, 2), -2, 3), ((0, 5, 20, 9, 0), 0, 10)],
)
def test_llr_pentanomial_matches_constrained_mle(counts, elo0, elo1):
    ref = _reference_llr(
        counts,
        st.PENTA_SCORES,
        _mean_constraint(st.elo_to_score(elo0)),
        _mean_constraint(st.elo_to_score(elo1)),
    )
    assert st.sprt_llr_pentanomial(counts, elo0, elo1) == pytest.approx(ref, abs=1e-5)
    k = math.sqrt(2) * math.log(10) / 800
    ref_n = _reference_llr(
        counts, st.PENTA_SCORES, _normalized_constraint(elo0 * k), _normalized_constraint(elo1 * k)
    )
    assert st.sprt_llr_pentanomial(counts, elo0, elo1, "normalized") == pytest.approx(
        ref_n, abs=1e-5
    )


def test_llr_close_to_normal_approximation_for_many_games():
    w, d, l, elo0, elo1 = 4100, 3000, 3900, 0, 5
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    s0, s1 = st.elo_to_score(elo0), st.elo_to_score(elo1)
    approx = n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
    assert st.sprt_llr(w, d, l, elo0, elo1) == pytest.approx(approx, rel=0.01)


@pytest.mark.parametrize(
    "w,d,l,decision",
    [
        (0, 0, 0, None),
        (136, 111, 96, None),
        (700, 0, 500, "H1"),
        (450, 100, 550, "H0"),
        (20, 0, 19, None),
    ],
)
def test_sprt_decisions(w, d, l, decision):
    res = st.sprt(w, d, l, 0, 20)
    assert res.decision == decision
    assert (res.lower, res.upper) == st.sprt_bounds(0.05, 0.05)
    if w + d + l == 0:
        assert res.llr == 0.0


def test_sprt_pentanomial_decisions():
    assert st.sprt_pentanomial((0, 0, 0, 0, 0), 0, 5).llr == 0.0
    assert st.sprt_pentanomial((20, 60, 200, 120, 60), 0, 5).decision == "H1"
    assert st.sprt_pentanomial((60, 120, 200, 60, 20), 0, 5).decision == "H0"
    with pytest.raises(ValueError, match="pentanomial counts need 5 entries"):
        st.sprt_pentanomial((1, 2, 3), 0, 5)


def test_llr_monotone_in_wins():
    values = [st.sprt_llr(w, 0, 100, 0, 5) for w in (80, 90, 100, 110, 120)]
    assert values == sorted(values)


# ------------------------------------------------------------------------------ Bradley–Terry


def _score_equations_hold(results, ratings, prior=0.0):
    points, expected = {}, {}
    for (a, b), (wa, d, wb) in results.items():
        n = wa + d + wb + prior
        pa = 1 / (1 + 10 ** ((ratings[b] - ratings[a]) / 400))
        points[a] = points.get(a, 0) + wa + d / 2 + prior / 2
        points[b] = points.get(b, 0) + wb + d / 2 + prior / 2
        expected[a] = expected.get(a, 0) + n * pa
        expected[b] = expected.get(b, 0) + n * (1 - pa)
    return all(abs(points[k] - expected[k]) < 1e-4 for k in points)


def test_bradley_terry_two_players():
    r = st.bradley_terry({("a", "b"): (75, 0, 25)})
    assert r["a"] == pytest.approx(200 * math.log10(3), abs=1e-6)
    assert r["b"] == pytest.approx(-200 * math.log10(3), abs=1e-6)


def test_bradley_terry_recovers_consistent_strengths():
    # strengths 9 : 3 : 1  ->  a-b 75 %, b-c 75 %, a-c 90 %
    res = {("a", "b"): (75, 0, 25), ("b", "c"): (60, 30, 10), ("c", "a"): (10, 0, 90)}
    r = st.bradley_terry(res)
    assert r["a"] - r["b"] == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert r["b"] - r["c"] == pytest.approx(400 * math.log10(3), abs=1e-4)
    assert sum(r.values()) == pytest.approx(0.0, abs=1e-8)


def test_bradley_terry_score_equations_round_robin():
    res = {
        ("p1", "p2"): (12, 3, 5),
        ("p1", "p3"): (8, 4, 8),
        ("p1", "p4"): (15, 0, 5),
        ("p2", "p3"): (9, 2, 9),
        ("p2", "p4"): (7, 6, 7),
        ("p3", "p4"): (11, 1, 8),
    }
    r = st.bradley_terry(res)
    assert _score_equations_hold(res, r)
    assert max(r, key=r.get) == "p1"


def test_bradley_terry_both_orders_are_added():
    one = st.bradley_terry(
        {("a", "b"): (30, 0, 10), ("b", "c"): (20, 0, 20), ("a", "c"): (25, 0, 15)}
    )
    two = st.bradley_terry(
        {
            ("a", "b"): (20, 0, 5),
            ("b", "a"): (5, 0, 10),
            ("b", "c"): (20, 0, 20),
            ("c", "a"): (15, 0, 25),
        }
    )
    for k in one:
        assert one[k] == pytest.approx(two[k], abs=1e-5)


def test_bradley_terry_perfect_score_gets_finite_rating_with_auto_prior():
    res = {("a", "b"): (10, 0, 0), ("b", "c"): (5, 0, 5), ("a", "c"): (10, 0, 0)}
    r = st.bradley_terry(res)
    assert all(math.isfinite(v) for v in r.values())
    assert r["a"] > r["b"] and r["a"] > r["c"]
    assert _score_equations_hold(res, r, prior=1.0)


@pytest.mark.parametrize(
    "results,message",
    [
        ({("a", "b"): (1, 0, 1), ("c", "d"): (1, 0, 1)}, "unconnected groups"),
        ({("a", "a"): (1, 0, 1)}, "paired with itself"),
        ({("a", "b"): (1, 1)}, "must be \\(wins_a, draws, wins_b\\)"),
    ],
)
def test_bradley_terry_errors(results, message):
    with pytest.raises(ValueError, match=message):
        st.bradley_terry(results)


def test_bradley_terry_trivial():
    assert st.bradley_terry({}) == {}


def test_z95_is_scipys_quantile_to_the_last_bit():
    from scipy.stats import norm

    assert st.Z95 == float(norm.ppf(0.975))
