"""The noise-aware Bayesian tuner (`bo: {sampler: gp}`): a Gaussian process told each trial's
variance finds a known optimum, weighs a noisy trial less than a precise one, asks the same
points again from the same trials, and runs a tune from the same config as TPE."""
import numpy as np
import pytest
from click.testing import CliRunner
from helpers import FAKE_TUNE

from mcts_arena.cli import cli
from mcts_arena.results import gp
from mcts_arena.results import tune as tune_state
from mcts_arena.results.store import Store
from mcts_arena.results.tune import BoSettings, Param, TuneSettings
from mcts_arena.runner import config, tune


def _settings(params, startup=4, batch=4, games=400):
    return TuneSettings("t", "breakthrough", "X", params, "bo", games, 3, "", "", 0, None,
                        BoSettings(8, batch, startup, "gp"))


def _trials(s, f, n, rng, games=8):
    out = []
    for i in range(n):
        x = tune_state.candidates(s, 1, rng)[0]
        values = tune_state.decode(s, x)
        p = f(tune_state.encode(s, values))
        score = rng.binomial(games, p) / games
        out.append({"trial": i, "values": values, "games": games, "score": score})
    return out


def test_gp_estimate_finds_a_noisy_optimum_with_a_range():
    s = _settings((Param("a", "float", 0, 1, start=0.5),
                   Param("n", "int", 1, 1000, log=True, start=10)))
    rng = np.random.default_rng(2)

    def f(x):       # peak 0.8 at a = 0.3, n = 1000^0.6 = 63
        return 0.8 - 0.8 * (x[0] - 0.3) ** 2 - 0.6 * (x[1] - 0.6) ** 2
    e = tune_state.gp_estimate(s, _trials(s, f, 120, rng, games=16), seed=1)
    assert abs(e.values["a"] - 0.3) < 0.15 and 20 <= e.values["n"] <= 200, e
    assert e.low["a"] <= e.values["a"] <= e.high["a"] and e.low["n"] <= e.values["n"] <= \
        e.high["n"]
    assert "Gaussian process over 120 trials" in e.how and "expected score" in e.how


def test_a_noisy_trial_counts_less_than_a_precise_one():
    x = np.array([[0.5], [0.5]])
    precise = gp.fit(x, np.array([0.6, 0.2]), np.array([1e-4, 0.05]))
    mu, _ = precise.posterior(np.array([[0.5]]))
    assert abs(mu[0] - 0.6) < 0.02
    even = gp.fit(x, np.array([0.6, 0.2]), np.array([0.01, 0.01]))
    assert abs(even.posterior(np.array([[0.5]]))[0][0] - 0.4) < 0.02
    # a trial's variance: p(1-p)/n at its score shrunk by one win and one loss
    assert gp.score_variance(1.0, 8) == pytest.approx(0.9 * 0.1 / 8)


def test_ask_gp_asks_the_same_points_from_the_same_trials():
    s = _settings((Param("a", "float", 0, 1, start=0.5), Param("e", "choice",
                                                                 choices=("x", "y"))))
    rng = np.random.default_rng(0)
    done = _trials(s, lambda x: 0.3 + 0.4 * x[0] * x[2], 12, rng)
    first = tune.ask_gp(s, done, 12)
    assert first == tune.ask_gp(s, done, 12)
    assert [t["trial"] for t in first] == [12, 13, 14, 15]
    assert all(0 <= t["values"]["a"] <= 1 and t["values"]["e"] in ("x", "y") for t in first)
    assert len({(t["values"]["a"], t["values"]["e"]) for t in first}) == 4   # the believer
    # before `startup` trials: random points, each from the seed and its trial
    early = tune.ask_gp(s, done[:2], 2)
    assert early == tune.ask_gp(s, done[:3], 2) and len(early) == 4


def test_bad_sampler_one_line_nothing_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = tmp_path / "g.yaml"
    f.write_text(FAKE_TUNE.format(name="g", d=0, games=8, method="bo").replace(
        "startup: 2}", "startup: 2, sampler: cmaes}"))
    res = CliRunner().invoke(cli, ["tune", str(f)])
    assert res.exit_code == 2
    assert res.output == f"arena: error: {f}: bo.sampler: expected tpe or gp, got 'cmaes'\n"
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_gp_tune_end_to_end_from_the_same_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = tmp_path / "g.yaml"
    f.write_text(FAKE_TUNE.format(name="g", d=0, games=12, method="bo").replace(
        "startup: 2}", "startup: 2, sampler: gp}"))
    res = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "2"])
    assert res.exit_code == 0, res.output
    assert "BO: a Gaussian process told each trial's variance, 6 trials of 2 games" in res.output
    assert "value found after 12 games: a " in res.output
    assert "(optimum of a Gaussian process over 6 trials" in res.output
    with Store.open(tmp_path / "results" / "g") as store:
        st = tune_state.read(store)
        assert st.done and st.settings.bo.sampler == "gp" and len(st.trials) == 6
    again = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "2"])
    assert again.exit_code == 0 and "value found after 12 games" in again.output


@pytest.mark.parametrize("sampler", ["tpe", "gp"])
def test_picture_has_a_panel_per_parameter_in_its_units(tmp_path, sampler):
    from mcts_arena.report import tune as tune_report

    s = _settings((Param("a", "float", 0, 1, start=0.5),
                   Param("n", "int", 1, 1000, log=True, start=10),
                   Param("e", "choice", choices=("x", "y"))))
    s = TuneSettings(**{**s.__dict__, "bo": BoSettings(8, 4, 4, sampler)})
    rng = np.random.default_rng(4)
    trials = _trials(s, lambda x: 0.3 + 0.4 * x[0] * x[2], 30, rng)
    st = tune_state.state(s, {}, [])
    st.trials = trials
    fit = tune_state.gp_estimate if sampler == "gp" else tune_state.bo_estimate
    st.estimate = fit(s, trials, seed=1)
    drawn = []
    real = tune_report._figure

    def spy(w, h):
        fig = real(w, h)
        drawn.append(fig)
        return fig
    import unittest.mock as mock
    with mock.patch.object(tune_report, "_figure", spy):
        out = tune_report.picture(st, tmp_path / "t.png")
    assert out.stat().st_size > 1000
    axes = drawn[0].axes
    assert [ax.get_xlabel() for ax in axes] == ["a", "n", "e"]
    assert axes[1].get_xscale() == "log" and axes[0].get_xlim()[1] <= 1.1
    assert [t.get_text() for t in axes[2].get_xticklabels()] == ["x", "y"]


def test_spsa_picture_in_the_parameters_units(tmp_path):
    import unittest.mock as mock

    import yaml

    from mcts_arena.report import tune as tune_report

    spec = tune.loads(yaml.safe_load("""game: kalah
template: "MCTS(fet{n},C={c})"
params:
  n: {low: 1, high: 1000, type: int, log: true, start: 100}
  c: {low: 0.1, high: 2, start: 1}
budget: {sims: 5}
games: 32
method: spsa
"""), "p.yaml", "p")
    results = {k: (1.0, 0.0) for k in range(16)}
    st = tune_state.state(spec.settings, {tune_state.step_id("spsa", k): {k: {0: 1.0, 1: 0.0}}
                                          for k in results}, [])
    drawn = []
    real = tune_report._figure
    with mock.patch.object(tune_report, "_figure",
                           lambda w, h: drawn.append(real(w, h)) or drawn[-1]):
        tune_report.picture(st, tmp_path / "s.png")
    axes = drawn[0].axes
    assert [ax.get_ylabel() for ax in axes] == ["n", "c"]
    assert axes[0].get_yscale() == "log" and axes[0].get_ylim() == (1, 1000)
    assert axes[1].get_yscale() == "linear" and axes[1].get_ylim() == (0.1, 2)
    y = axes[1].lines[0].get_ydata()
    assert y[0] == 1 and all(0.1 <= v <= 2 for v in y)
