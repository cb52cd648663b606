"""`arena tune`: the config's refusals (one line, exit 2, nothing written), the domains' unit
coordinates, SPSA's update and BO's fit on known objectives, a tune end to end with its report
and picture, and a tune killed with SIGKILL that resumes to the same answer as one never
killed."""
import importlib
import math
import os
import random
import re
import signal
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import FAKE_TUNE, arena_env, stored, wait_for

from mcts_arena.budgets import Budget
from mcts_arena.cli import cli
from mcts_arena.results import tune as tune_state
from mcts_arena.results.store import Store
from mcts_arena.results.tune import Param, SpsaGains, TuneSettings
from mcts_arena.runner import config, tune, tune_config

BASE = """name: t
game: breakthrough
template: "Random(im{a})"
params:
  a: {low: 0, high: 1, start: 0.2}
budget: {sims: 5}
games: 8
method: spsa
"""


def _write(tmp_path, text, name="t.yaml"):
    f = tmp_path / name
    f.write_text(text)
    return f


@pytest.mark.parametrize("change,message", [
    (("Random(im{a})", "Random(im{b})"),
     "t.yaml: template: unknown parameter {b}; the params are a"),
    (("{low: 0, high: 1, start: 0.2}", "{low: 1, high: 1}"),
     "t.yaml: params.a: empty or inverted domain: low 1 must be below high 1"),
    (("{low: 0, high: 1, start: 0.2}", "{low: 0.9, high: 0.1}"),
     "t.yaml: params.a: empty or inverted domain: low 0.9 must be below high 0.1"),
    (("{low: 0, high: 1, start: 0.2}", "{low: 0, high: 2}"),
     "t.yaml: template at a=2: bad player 'Random(im2)': im2: alpha must be in [0, 1]"),
    (("games: 8", "games: 1"),
     "t.yaml: games: SPSA's step is a pair of games: expected at least 2, got 1"),
    (("method: spsa", "method: bo\nbo: {games_per_trial: 10}"),
     "t.yaml: games: one trial plays 10 games; the budget 8 pays for none"),
    (("method: spsa", "method: clop"),
     "t.yaml: method: unknown method 'clop'; valid: spsa, bo, bracket"),
    (("method: spsa", "method: bracket"),
     "t.yaml: params.a.grid: a bracket needs at least two values"),
    (("start: 0.2}", "start: 0.2, grid: [0.1, 1.5]}"),
     "t.yaml: params.a.grid[1]: expected a value in [0, 1], got 1.5"),
    (("{low: 0, high: 1, start: 0.2}", "{choices: [0.1, 0.2]}"),
     "t.yaml: params.a: SPSA tunes numbers; a parameter with choices needs method bo"),
    (("{low: 0, high: 1, start: 0.2}", "{low: 0, high: 1, log: true}"),
     "t.yaml: params.a.low: a log-scaled domain must be positive, got 0"),
    (("{low: 0, high: 1, start: 0.2}", "{low: 0, high: 1, start: 3}"),
     "t.yaml: params.a.start: expected a value in [0, 1], got 3"),
    # the confirmation's SPRT: an experiment's `sprt` keys and checks, and a cap
    (("method: spsa", "method: spsa\nconfirm: {sprt: {elo0: 0, elo1: 20}}"),
     "t.yaml: confirm.games: an SPRT needs a cap: expected an even number of games above 0 "
     "(the most the confirmation plays)"),
    (("method: spsa", "method: spsa\nconfirm: {games: 40, sprt: {elo0: 20, elo1: 0}}"),
     "t.yaml: confirm.sprt.elo1: expected elo1 above elo0 (20), got 0"),
    (("method: spsa", "method: spsa\nconfirm: {games: 40, sprt: {elo1: 20}}"),
     "t.yaml: confirm.sprt.elo0: missing required field (an Elo difference)"),
    (("method: spsa", "method: spsa\nconfirm: {games: 40, sprt: {elo0: 0, elo1: 5, "
                      "beta: 1}}"),
     "t.yaml: confirm.sprt.beta: expected a probability strictly between 0 and 1, got 1"),
    (("method: spsa", "method: spsa\nconfirm: {games: 40, sprt: {elo0: 0, elo1: 5, llr: 3}}"),
     "t.yaml: confirm.sprt.llr: unknown field; valid fields: elo0, elo1, alpha, beta, model"),
    (("method: spsa", "method: spsa\nconfirm: {games: 40, sprt: 20}"),
     "t.yaml: confirm.sprt: expected a mapping with elo0, elo1 and optionally alpha, beta, "
     "model, got 20"),
    # on a clock: the experiment's rules (a malformed clock, a fixed time beside it, a side
    # without time management and without a cap, a margin without a clock)
    (("budget: {sims: 5}", "clock: 'fast'"),
     "t.yaml: clock: expected a time control [MOVES/]BASE[+INC] in seconds (e.g. 60+0.5, 40/60, "
     "0:30+0.1), BASE from 0.0001 to 86400, INC from 0 to BASE, got 'fast' (or inf: no time "
     "limit)"),
    (("budget: {sims: 5}", "budget: {time: 1}\nclock: '10+0.1'"),
     "t.yaml: clock: a clock (10+0.1) decides each move's time, which the fixed budget 1 s "
     "per move contradicts; give the clock alone, or with sims (a cap per move)"),
    (("budget: {sims: 5}", "budget: {sims: 5}\ntimemargin: 100"),
     "t.yaml: timemargin: a time margin is for a clock; give clock or leave it out"),
])
def test_bad_config_one_line_nothing_written(tmp_path, monkeypatch, change, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = _write(tmp_path, BASE.replace(*change))
    res = CliRunner().invoke(cli, ["tune", str(f)])
    assert res.exit_code == 2, res.output
    assert res.output.strip() == f"arena: error: {f}: {message.split(': ', 1)[1]}"
    assert not (tmp_path / "results").exists()


def test_a_tune_on_a_clock(tmp_path, monkeypatch):
    f = _write(tmp_path, BASE.replace("budget: {sims: 5}", "budget: {sims: 5}\n"
                                      "clock: '0:10+0.1'\ntimemargin: 100"))
    spec = tune.load(f, players=importlib.import_module("fakes"))
    assert spec.budget == Budget(clock="10+0.1", sims=5, margin=0.1)
    assert spec.settings.budget == {"clock": "10+0.1", "sims": 5, "margin": 0.1}
    bare = _write(tmp_path, BASE.replace("budget: {sims: 5}", "clock: '40/60'"), "b.yaml")
    assert tune.load(bare, players=importlib.import_module("fakes")).budget == \
        Budget(clock="40/60+0")
    # played: the games on the clock, the report saying so
    monkeypatch.chdir(tmp_path)
    played = _write(tmp_path, "name: tc\ngame: tictactoe\ntemplate: 'MCTS(C={c})'\nparams:\n"
                    "  c: {low: 0.1, high: 2, start: 1}\nclock: '0:01+0.01'\nbudget: {sims: 50}"
                    "\ngames: 4\nmethod: spsa\n", "tc.yaml")
    res = CliRunner().invoke(cli, ["tune", str(played), "--jobs", "1", "--quiet"])
    assert res.exit_code == 0, res.output
    assert "spsa of MCTS(C={c}) on tictactoe, budget clock 1+0.01, 50 sims" in res.output
    with Store.open(tmp_path / "results" / "tc") as store:
        assert store.game_count() == 4
    # a side without time management and without a cap would search on past its clock
    blind = _write(tmp_path, BASE.replace("Random(im{a})", "MCTS(im{a})").replace(
        "budget: {sims: 5}", "clock: '10'\nopponent: 'MCTS(tm=0)'"), "c.yaml")
    with pytest.raises(config.ConfigError, match=re.escape(
            "opponent: MCTS(tm=0) has no time management (tm=0), so on a clock (10+0)")):
        tune.load(blind)


def test_units_round_trip():
    p = Param("n", "int", 1, 1000, log=True, start=10)
    assert p.from_unit(0) == 1 and p.from_unit(1) == 1000 and p.from_unit(0.5) == 32
    assert p.from_unit(p.to_unit(100)) == 100 and p.text(7) == "7"
    f = Param("a", "float", 0, 1, start=0.2)
    assert f.from_unit(0.123456) == 0.1235 and f.text(0.5) == "0.5" and f.text(0.0) == "0"
    assert f.from_unit(1.7) == 1 and f.from_unit(-0.3) == 0


def _settings(method="spsa", games=400, batch=1, params=None):
    params = params or (Param("a", "float", 0, 1, start=0.8),)
    steps = games // 2
    A = 0.1 * steps      # the defaults of runner/tune.py
    spsa = SpsaGains(a=tune_config.FIRST_STEP * 2 * 0.25 * (A + 1) ** 0.602, c=0.25, A=A, batch=batch)
    return TuneSettings("t", "breakthrough", "X({a})", params, method, games, 3, "", "", 0,
                        spsa if method == "spsa" else None, tune_state.BoSettings(8, 4, 10))


def test_spsa_step_by_hand():
    s = _settings(batch=2, games=8)
    results = {0: (1.0, 1.0), 1: (0.0, 0.5), 2: (1.0, 0.0), 3: (0.5, 0.5)}
    steps, path = tune_state.spsa_path(s, results.get)
    g = s.spsa
    theta = 0.8
    for b in (0, 2):       # a batch's steps are played from the θ at its start
        assert steps[b].theta == steps[b + 1].theta == (pytest.approx(theta),)
        for k in (b, b + 1):
            r = 2 * sum(results[k]) - 2
            d = tune_state.delta(3, k, 1)[0]
            theta = min(1, max(0, theta + g.a_k(k) * r / (2 * g.c_k(k)) * d))
    assert len(path) == 5 and path[-1][0] == pytest.approx(theta)
    # θ+ and θ- are the batch's θ moved by ±c_k along Δ_k
    st = steps[2]
    assert st.plus["a"] == pytest.approx(st.theta[0] + st.c[0] * st.delta[0], abs=1e-4)
    # a missing game ends the path at its batch
    steps, path = tune_state.spsa_path(s, {0: (1.0, 1.0)}.get)
    assert len(steps) == 2 and len(path) == 1


@pytest.mark.slow
def test_spsa_finds_the_optimum_of_a_noisy_response():
    """Pairs won with a probability from a smooth response peaked at 0.3: the defaults' gains
    bring θ from 0.8 into [0.15, 0.45] in 400 games, for most seeds."""
    found = []
    for seed in range(5):
        rng = random.Random(seed)

        def score(values):
            return 0.5 + 0.25 * (1 - ((values["a"] - 0.3) / 0.7) ** 2)

        s = _settings(batch=8)
        s = TuneSettings(**{**s.__dict__, "seed": seed})
        cache = {}
        while True:             # a batch's pairs, each won with its probability, in order
            todo = [st for st in tune_state.spsa_path(s, cache.get)[0] if st.k not in cache]
            if not todo:
                break
            for st in todo:
                p = 0.5 + score(st.plus) - score(st.minus)
                cache[st.k] = tuple(float(rng.random() < p) for _ in range(2))
        _, path = tune_state.spsa_path(s, cache.get)
        found.append(tune_state.spsa_estimate(s, path).values["a"])
    assert sum(0.15 <= a <= 0.45 for a in found) >= 4, found


def test_bo_fit_finds_the_optimum_and_asks_the_same_points():
    s = _settings("bo", params=(Param("a", "float", 0, 1, start=0.5),
                                Param("n", "int", 1, 1000, log=True, start=10)))
    rng = np.random.default_rng(1)
    trials = []
    for i in range(60):
        a, n = rng.random(), int(round(1000 ** rng.random()))     # n log-uniform
        u = math.log(n) / math.log(1000)
        y = 0.7 - (a - 0.3) ** 2 - 0.5 * (u - 0.6) ** 2 + rng.normal(0, 0.05)
        trials.append({"trial": i, "values": {"a": round(a, 4), "n": n}, "games": 8,
                       "score": y})
    e = tune_state.bo_estimate(s, trials)
    assert abs(e.values["a"] - 0.3) < 0.1 and 30 <= e.values["n"] <= 160, e
    assert e.low["a"] <= e.values["a"] <= e.high["a"]
    # the sampler is made afresh per batch from the seed and the completed trials
    first = tune.ask_trials(s, trials[:12], 12)
    again = tune.ask_trials(s, trials[:12], 12)
    assert first == again and len(first) == 4 and first[0]["trial"] == 12
    assert all(0 <= t["values"]["a"] <= 1 and 1 <= t["values"]["n"] <= 1000 for t in first)


@pytest.mark.slow
def test_tune_end_to_end_and_resume_plays_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    for method in ("spsa", "bo"):
        f = _write(tmp_path, FAKE_TUNE.format(name=method, d=0, games=8, method=method))
        res = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "2"])
        assert res.exit_code == 0, res.output
        assert "value found after 8 games: a " in res.output
        assert "confirmation: Sleepy(d0,im" in res.output and "2 of 2 games" in res.output
        assert (tmp_path / "results" / method / "tune.png").stat().st_size > 1000
        with Store.open(tmp_path / "results" / method) as store:
            st = tune_state.read(store)
            assert store.game_count() == 10 and st.done and st.search_games == 8
        again = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "2"])
        head = f"tune {method}: {method} of"        # the report, after the progress lines
        assert again.exit_code == 0
        assert again.output[again.output.index(head):] == res.output[res.output.index(head):]
        assert "games" not in again.output[:again.output.index(head)].split("\n", 1)[1]
    shown = CliRunner().invoke(cli, ["report", str(tmp_path / "results" / "bo")])
    assert shown.exit_code == 0 and shown.output.startswith(res.output[res.output.index(
        "tune bo: bo of"):res.output.index("picture:")])
    # fewer games is another tune (more extend it: tests/test_tune_report.py)
    changed = _write(tmp_path, FAKE_TUNE.format(name="spsa", d=0, games=6, method="spsa"))
    res = CliRunner().invoke(cli, ["tune", str(changed)])
    assert res.exit_code == 2
    assert "holds tune 'spsa' with other settings: games was 8, now 6" in res.output


@pytest.mark.process
@pytest.mark.parametrize("method", ["spsa", "bo"])
def test_killed_tune_resumes_to_the_same_answer(tmp_path, method, monkeypatch):
    """A tune SIGKILLed mid-way and run again ends as the same tune never killed: the same
    path or trials, estimate and confirmation. The tune never killed runs in this process
    (its report is what `arena tune` prints); the killed one and its resumption are `arena`
    processes."""
    f = _write(tmp_path, FAKE_TUNE.format(name="k", d=0.002, games=12, method=method))

    def args(out):
        return ["tune", str(f), "--jobs", "2", "--quiet", "--out", out]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    whole = CliRunner().invoke(cli, args("whole"))
    assert whole.exit_code == 0, whole.output
    cmd = [sys.executable, "-m", "mcts_arena", *args("killed")]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=arena_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        db = tmp_path / "killed" / "arena.sqlite"
        assert wait_for(lambda: stored(db) >= 5 or proc.poll() is not None)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
    assert 5 <= stored(db) < 14
    done = subprocess.run(cmd, cwd=tmp_path, env=arena_env(), capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.replace("killed", "DIR") == whole.stdout.replace("whole", "DIR")
    assert stored(db) == 14


@pytest.mark.slow
def test_api_tune_and_seed_option(tmp_path, monkeypatch):
    import yaml

    from mcts_arena import api

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    cfg = yaml.safe_load(FAKE_TUNE.format(name="api", d=0, games=4, method="spsa"))
    t = api.tune(cfg, out=tmp_path / "api")
    assert t.state.done and t.played == 6 and 0 <= t.estimate.values["a"] <= 1
    assert t.report().startswith("tune api: spsa of Sleepy(d0,im{a})")
    assert t.picture(tmp_path / "p.svg").read_text().startswith("<?xml")
    f = _write(tmp_path, FAKE_TUNE.format(name="s", d=0, games=4, method="spsa"))
    res = CliRunner().invoke(cli, ["tune", str(f), "--seed", "7", "--quiet"])
    assert res.exit_code == 0, res.output
    with Store.open(tmp_path / "results" / "s-seed7") as store:
        assert tune_state.read(store).settings.seed == 7


def test_bracket_from_the_same_config(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    text = FAKE_TUNE.format(name="br", d=0, games=4, method="bracket").replace(
        "confirm: {games: 2}\n", "").replace(
        "start: 0.5}", "start: 0.5, grid: [0.1, 0.4, 0.7]}") + "bracket: {games: 2}\n"
    f = _write(tmp_path, text)
    res = CliRunner().invoke(cli, ["tune", str(f), "--quiet"])
    assert res.exit_code == 0, res.output
    assert "Winner: a=" in res.output and "bracket: 4 games at most (2 per match)" in res.output
    with Store.open(tmp_path / "results" / "br") as store:
        assert store.game_count() == 4
        mark = store.meta_json(tune_state.BRACKET_KEY)
    assert mark["param"] == "a" and mark["grid"] == ["0.1", "0.4", "0.7"]
    again = CliRunner().invoke(cli, ["tune", str(f), "--quiet"])     # resumes: nothing to play
    assert again.exit_code == 0, again.output
    assert "Winner: a=" in again.output


class _CtrlCThenFinish:
    """A backend whose batch is already fully under way when Ctrl-C arrives: the signal comes
    with the first game, and every job of the batch still finishes and is stored."""

    def __init__(self):
        from mcts_arena.runner.pool import LocalPoolBackend
        self.inner = LocalPoolBackend(1)

    def run(self, jobs, on_record, should_stop=lambda: False, skip=None):
        sent = []

        def record(r):
            if not sent:
                sent.append(True)
                os.kill(os.getpid(), signal.SIGINT)
            on_record(r)
        return self.inner.run(jobs, record, lambda: False, skip=skip)


@pytest.mark.slow
def test_ctrl_c_during_a_batch_that_finishes_stops_the_tune(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = _write(tmp_path, FAKE_TUNE.format(name="c", d=0, games=8, method="spsa"))
    spec, directory = tune.prepare(str(f))
    r = tune.run_tune(spec, directory, workers=1, echo=lambda *_: None,
                      backend_factory=_CtrlCThenFinish)
    with Store.open(directory) as store:
        games = store.game_count()
    assert r.interrupted and games == 4          # the first batch (2 pairs), no second one
    again = tune.run_tune(spec, directory, workers=1, echo=lambda *_: None)
    assert not again.interrupted and again.state.done and again.played == 6


# ---- a confirmation that is an SPRT ------------------------------------------------------------
# A greedy fake plays the 1-ply greedy move by Breakthrough's evaluation and beats Random in
# every game: against elo0 0, elo1 100 the test accepts H1 after 12 pairs won 2-0, H0 after 9
# lost 0-2 (results/sprt.py's bounds at alpha = beta = 0.05), well inside a cap of 60 games.
def _sprt_text(name, greedy=True, against="Random", cap=60) -> str:
    text = FAKE_TUNE.format(name=name, d=0, games=4, method="spsa").replace(
        "confirm: {games: 2}",
        f'confirm: {{games: {cap}, against: "{against}", sprt: {{elo0: 0, elo1: 100}}}}')
    return text.replace("Sleepy(d0,im", "Sleepy(d0,greedy,im") if greedy else text


def _sprt_tune(tmp_path, name, **kw):
    return _write(tmp_path, _sprt_text(name, **kw), f"{name}.yaml")


def _confirm_games(directory) -> int:
    with Store.open(directory) as store:
        return sum(1 for r in store.select("game", "pairing_id")
                   if r["pairing_id"] == tune_state.CONFIRM)


@pytest.mark.slow
def test_confirmation_sprt_accepts_h1_early_and_resume_plays_nothing(tmp_path, monkeypatch):
    import sqlite3

    from mcts_arena.serve import catalog

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = _sprt_tune(tmp_path, "h1")
    res = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    d = tmp_path / "results" / "h1"
    assert _confirm_games(d) == 24                    # 12 pairs won 2-0 decide; the cap is 60
    assert ("confirmation: Sleepy(d0,greedy,im0.54) vs Random: 24 of 60 games, +24 =0 -0, "
            "score 100.0% [86.2, 100.0] (95%)\n  SPRT: H1 accepted after 24 games (elo >= "
            "100; LLR 2.96 >= 2.94)\n  (SPRT elo0=0 elo1=100 alpha=0.05 beta=0.05: LLR "
            "bounds -2.94, 2.94; at most 60 games)\n") in res.output
    assert "confirmation 24/60 games" in res.output and "SPRT: H1 accepted" in res.output
    report = res.output[res.output.index("tune h1: spsa of"):res.output.index("picture:")]
    shown = CliRunner().invoke(cli, ["report", str(d)])
    assert shown.exit_code == 0 and shown.output.startswith(report)
    # the experiment tables beside it test the confirmation alone, not the search's steps
    assert shown.output.count("SPRT: ") == 2
    with Store.open(d) as store:
        st = tune_state.read(store)
        assert list(store.meta_items("sprt/")) == ["sprt/confirm"]
        counted = tune_state.read_counted(store)
        panel = tune_state.panel(counted)
    c = st.confirmation
    assert st.done and c.decided and c.sprt["decision"] == "H1" and c.sprt["games"] == 24
    assert counted.confirmation == c                  # the live page reads the same test
    assert panel["confirmation"]["sprt"]["decision"] == "H1"
    assert panel["confirmation"]["sprt"]["text"] == c.sprt_line()
    index = catalog.summary(catalog.Entry("h1", d))
    assert (index["state"], index["planned"], index["stored"]) == ("finished", 28, 28)

    again = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "1"])    # resumes: plays nothing
    assert again.exit_code == 0, again.output
    assert "confirmation 24/60" not in again.output and again.output.endswith(
        res.output[res.output.index("tune h1: spsa of"):])
    # the decision is also found from the stored games alone, as they finished
    with sqlite3.connect(d / "arena.sqlite") as conn:
        conn.execute("DELETE FROM meta WHERE key = 'sprt/confirm'")
    conn.close()
    with Store.open(d) as store:
        assert tune_state.read(store).confirmation.sprt == c.sprt
    third = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "1"])
    assert third.exit_code == 0 and _confirm_games(d) == 24


@pytest.mark.slow
def test_confirmation_sprt_accepts_h0_through_the_api(tmp_path, monkeypatch):
    import yaml

    from mcts_arena import api

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    cfg = yaml.safe_load(_sprt_text("h0", greedy=False, against="Random(greedy)"))
    t = api.tune(cfg, out=tmp_path / "h0")
    c = t.confirmation
    assert t.state.done and c.decided and c.sprt["decision"] == "H0"
    assert c.played == 18 and c.losses == 18 and c.sprt["llr"] <= c.sprt["lower"]
    assert "  SPRT: H0 accepted after 18 games (elo <= 0; LLR " in t.report()


@pytest.mark.slow
def test_confirmation_sprt_undecided_at_the_cap(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = _sprt_tune(tmp_path, "cap", greedy=False, cap=4)
    res = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "2"])
    assert res.exit_code == 0, res.output
    d = tmp_path / "results" / "cap"
    assert _confirm_games(d) == 4
    with Store.open(d) as store:
        c = tune_state.read(store).confirmation
    assert c.played == 4 and not c.decided and c.sprt["decision"] is None
    assert c.sprt["lower"] < c.sprt["llr"] < c.sprt["upper"]
    assert (f"  SPRT: no decision after 4 games (LLR {c.sprt['llr']:.2f} in (-2.94, 2.94)); "
            f"undecided at the cap\n") in res.output


class _StopAfterConfirmationGames:
    """A backend that stops dispatching (as a Ctrl-C does) once `n` confirmation games are in."""

    def __init__(self, n):
        from mcts_arena.runner.pool import LocalPoolBackend
        self.inner, self.n, self.seen = LocalPoolBackend(1), n, 0

    def run(self, jobs, on_record, should_stop=lambda: False, skip=None):
        def record(r):
            self.seen += r.pairing_id == tune_state.CONFIRM
            on_record(r)
        return self.inner.run(jobs, record, lambda: should_stop() or self.seen >= self.n,
                              skip=skip)


@pytest.mark.slow
def test_confirmation_sprt_stopped_midway_resumes_to_the_same_decision(tmp_path, monkeypatch):
    """Stopped after 3 of the confirmation's pairs, the tune resumes the test from the stored
    games to the decision an unstopped one makes (test_confirmation_sprt_accepts_h1_early...:
    H1 at 24 games, LLR 2.96)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    spec, directory = tune.prepare(str(_sprt_tune(tmp_path, "stopped")))
    r = tune.run_tune(spec, directory, workers=1, echo=lambda *_: None,
                      backend_factory=lambda: _StopAfterConfirmationGames(6))
    assert r.interrupted and not r.state.done
    c = r.state.confirmation
    assert c.played == 6 and not c.decided and c.sprt["games"] == 6
    r = tune.run_tune(spec, directory, workers=1, echo=lambda *_: None)
    c = r.state.confirmation
    assert r.state.done and r.played == 18 and _confirm_games(directory) == 24
    assert (c.sprt["decision"], c.sprt["games"], round(c.sprt["llr"], 2)) == ("H1", 24, 2.96)
