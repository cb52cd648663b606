"""SPSA as a fishtest user gives it: each parameter's own c_end and r_end (and today's shared
c and first step shown in those terms), integer parameters rounded at random at θ±cΔ, and the
refusals of those inputs (one line, exit 2, nothing written)."""
import pytest
import yaml
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.results import tune as tune_state
from mcts_arena.runner import tune

CFG = """name: f
game: breakthrough
template: "MCTS(im{a},fet{n})"
params:
  a: {low: 0, high: 1, start: 0.5}
  n: {low: 1, high: 100, type: int, start: 20}
budget: {sims: 5}
games: 400
method: spsa
"""


def _spec(tmp_path, text=CFG):
    return tune.loads(yaml.safe_load(text), str(tmp_path / "f.yaml"), "f")


def test_shared_gains_shown_as_fishtest_inputs_and_back(tmp_path):
    s = _spec(tmp_path).settings
    g, n = s.spsa, s.steps
    (ca, ra), (cn, rn) = tune_state.fishtest_inputs(s)
    # the shared c: c_end = c / N^gamma of each range; r_end the same for both
    assert ca == pytest.approx(0.25 / n ** 0.101) and cn == pytest.approx(99 * ca)
    assert ra == pytest.approx(rn)
    assert tune_state.gains_from_fishtest(ca, ra, n, g.A, g.alpha, g.gamma) == \
        (pytest.approx(g.c), pytest.approx(g.a))


def test_each_parameter_its_own_c_end_and_r_end_moves_as_fishtest(tmp_path):
    text = CFG.replace("start: 0.5}", "start: 0.5, c_end: 0.05, r_end: 0.002}") \
        .replace("start: 20}", "start: 20, c_end: 4}")
    s = _spec(tmp_path, text).settings
    g, n = s.spsa, s.steps
    (ca, ra), (cn, rn) = tune_state.fishtest_inputs(s)
    assert (ca, ra, cn) == (pytest.approx(0.05), pytest.approx(0.002), pytest.approx(4))
    # n's r_end is the shared one (what the defaults give)
    shared = tune_state.fishtest_inputs(_spec(tmp_path).settings)[1][1]
    assert rn == pytest.approx(shared)
    # the last step moves each parameter by fishtest's R c r = r_end c_end r (its own units)
    r, k = 2.0, n - 1
    for i, (c_end, r_end, span) in enumerate(((ca, ra, 1.0), (cn, rn, 99.0))):
        move = g.a_k(k, i) * r / (2 * g.c_k(k, i)) * span
        assert move == pytest.approx(r_end * c_end * r)
    # the path applies each parameter's gains: step 0 from the start, its pair won
    steps, path = tune_state.spsa_path(s, {k: (1.0, 1.0) for k in range(8)}.get)
    d = steps[0].delta
    assert steps[0].c == (pytest.approx(g.c_k(0, 0)), pytest.approx(g.c_k(0, 1)))
    assert path[1][0] == pytest.approx(0.5 + g.a_k(0, 0) * 2 / (2 * g.c_k(0, 0)) * d[0])
    assert path[1][1] == pytest.approx(path[0][1] + g.a_k(0, 1) * 2 / (2 * g.c_k(0, 1)) * d[1])


def test_integers_rounded_at_random_at_theta_plus_and_minus(tmp_path):
    """θ±c_kΔ of an integer parameter within half an integer of its start (c_end 0.2 of an
    integer): rounded to the nearest, both sides play n = 20, a pair that says nothing; at
    random, θ+ and θ- differ in most steps, and a rounded value's mean is the exact one."""
    text = CFG.replace("start: 20}", "start: 20, c_end: 0.2}")
    s = _spec(tmp_path, text).settings
    assert s.spsa.rounding == "random"
    steps, _ = tune_state.spsa_path(s, lambda k: None)     # the first batch, from the start
    p = s.params[1]
    for st in steps:
        exact = p.exact(st.theta[1] + st.c[1] * st.delta[1])
        assert 19.5 < exact < 20.5 and st.plus["n"] in (19, 20, 21)
    assert sum(st.plus["n"] != st.minus["n"] for st in steps) >= 3, steps
    nearest = tune_state.TuneSettings(**{**s.__dict__, "spsa": tune_state.SpsaGains(
        **{**s.spsa.__dict__, "rounding": "nearest"})})
    near, _ = tune_state.spsa_path(nearest, lambda k: None)
    assert {st.plus["n"] for st in near} == {st.minus["n"] for st in near} == {20}
    draws = [p.from_unit(p.to_unit(20.3), tune_state._rounding_draw(1, k, "+", "n"))
             for k in range(2000)]
    assert set(draws) == {20, 21} and sum(draws) / len(draws) == pytest.approx(20.3, abs=0.03)


def test_a_store_made_before_random_rounding_resumes_rounding_to_the_nearest():
    old = {"a": 0.1, "c": 0.25, "A": 2.0, "alpha": 0.602, "gamma": 0.101, "batch": 8,
           "tail": 0.25}
    assert tune_state.SpsaGains(**old).rounding == "nearest"


@pytest.mark.parametrize("change,message", [
    (("start: 20}", "start: 20, c_end: 0}"),
     "params.n.c_end: expected a positive number, got 0"),
    (("start: 20}", "start: 20, c_end: 60}"),
     "params.n.c_end: expected at most half the parameter's range (49.5), got 60"),
    (("start: 0.5}", "start: 0.5, r_end: -1}"),
     "params.a.r_end: expected a positive number, got -1"),
    (("method: spsa", "method: spsa\nspsa: {rounding: up}"),
     "spsa.rounding: expected random or nearest, got 'up'"),
])
def test_bad_fishtest_inputs_one_line_nothing_written(tmp_path, monkeypatch, change, message):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "f.yaml"
    f.write_text(CFG.replace(*change))
    res = CliRunner().invoke(cli, ["tune", str(f)])
    assert res.exit_code == 2, res.output
    assert res.output.strip() == f"arena: error: {f}: {message}"
    assert not (tmp_path / "results").exists()


def test_c_end_refused_for_bo(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "f.yaml"
    f.write_text(CFG.replace("start: 0.5}", "start: 0.5, c_end: 0.1}")
                 .replace("method: spsa", "method: bo"))
    res = CliRunner().invoke(cli, ["tune", str(f)])
    assert res.exit_code == 2
    assert res.output.strip() == f"arena: error: {f}: params.a.c_end: SPSA's gain; method bo " \
                                 f"takes none"
    assert not (tmp_path / "results").exists()
