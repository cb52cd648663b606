"""Doubling ladders: the `scaling` match kind (config expansion, bad input), the fit behind the
report (Elo against budget, Elo per doubling, crossovers) on results drawn from known ratings,
and a real ladder played and reported end to end."""
import importlib
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner

from mcts_arena import stats
from mcts_arena.cli import cli
from mcts_arena.report import scaling
from mcts_arena.runner import config

HEAD = "game: breakthrough\nbudget: {sims: 10}\ngames: 2\n"


def fake():
    return importlib.import_module("fakes")


def ladder(body: str, players=None):
    return config.loads(HEAD + "matches:\n  - scaling: " + body + "\n", source="x.yaml",
                        players=players or fake())


def test_a_ladder_needs_no_budget_it_never_uses():
    body = "matches:\n  - scaling: {players: [Random], sims: {from: 10, doublings: 2}}\n"
    exp = config.loads("game: breakthrough\ngames: 2\n" + body, source="x.yaml", players=fake())
    assert [p.label for p in exp.pairings][:2] == ["Random(sims=20) vs Random(sims=10)",
                                                   "Random(sims=40) vs Random(sims=20)"]
    assert exp.budget == config.Budget(sims=10)          # the ladder's first level
    timed = config.loads("game: breakthrough\nmatches:\n  - scaling: {players: [Random], "
                         "time: [0.1, 0.2]}\n", source="x.yaml", players=fake())
    assert timed.budget == config.Budget(time=0.1)
    # an entry that is not a ladder still needs the budget
    with pytest.raises(config.ConfigError, match="budget: missing required field"):
        config.loads("game: breakthrough\n" + body + "  - {player: Random, opponent: Greedy}\n",
                     source="x.yaml", players=fake())


def test_ladder_plays_neighbours_same_level_and_anchor():
    exp = ladder("{players: [Random, 'Random(im0.5)'], sims: {from: 10, doublings: 2}}")
    labels = [p.label for p in exp.pairings]
    assert labels == [
        "Random(sims=20) vs Random(sims=10)", "Random(sims=40) vs Random(sims=20)",
        "Random(im0.5,sims=20) vs Random(im0.5,sims=10)",
        "Random(im0.5,sims=40) vs Random(im0.5,sims=20)",
        "Random(sims=10) vs Random(im0.5,sims=10)", "Random(sims=20) vs Random(im0.5,sims=20)",
        "Random(sims=40) vs Random(im0.5,sims=40)",
        "Random(sims=40) vs Random(sims=10)",
        "Random(im0.5,sims=20) vs Random(sims=10)", "Random(im0.5,sims=40) vs Random(sims=10)"]
    assert exp.pairings[0].player_budget == config.Budget(sims=20)
    assert exp.pairings[0].opponent_budget == config.Budget(sims=10)
    (lad,) = exp.ladders
    assert lad.players == ("Random", "Random(im0.5)") and lad.levels == (10, 20, 40)
    assert lad.anchor == "Random(sims=10)" and lad.kind == "sims"
    assert {p.where for p in exp.pairings} == {"matches[0]"}


def test_ladder_as_a_list_with_an_outside_anchor():
    exp = ladder("{players: [Random], time: [0.5, 1, 2], anchor: 'Slow(sims=5)'}")
    assert [p.label for p in exp.pairings] == [
        "Random(time=1) vs Random(time=0.5)", "Random(time=2) vs Random(time=1)",
        "Random(time=0.5) vs Slow(sims=5)", "Random(time=1) vs Slow(sims=5)",
        "Random(time=2) vs Slow(sims=5)"]
    assert exp.ladders[0].anchor == "Slow(sims=5)"


@pytest.mark.parametrize("body,message", [
    ("{players: [Random], sims: [10, 10]}",
     "matches[0].scaling.sims[1]: a ladder must grow: 10 does not exceed 10"),
    ("{players: [Random], sims: [20, 10]}",
     "matches[0].scaling.sims[1]: a ladder must grow: 10 does not exceed 20"),
    ("{players: [Random], sims: [10]}",
     "matches[0].scaling.sims: expected a list of at least 2 budgets or {from: B, doublings: "
     "K}, got list [10]"),
    ("{players: [Random], sims: {from: 10, doublings: 0}}",
     "matches[0].scaling.sims.doublings: expected an integer from 1 to 20, got 0"),
    ("{players: [Random], sims: {from: 60000000, doublings: 2}}",
     "matches[0].scaling.sims.doublings: the top level 240000000 is out of range: expected an "
     "integer from 1 to 100000000"),
    ("{players: [Random], sims: [10, 20], time: [1, 2]}",
     "matches[0].scaling: expected exactly one ladder: 'sims', 'time', 'effort' or 'clock'"),
    ("{players: ['Random(sims=5)'], sims: [10, 20]}",
     "matches[0].scaling.players[0]: Random(sims=5) carries its own budget (5 sims), which "
     "contradicts the ladder's; leave time=/sims=/effort=/clock= out"),
    ("{players: [Random, Random], sims: [10, 20]}",
     "matches[0].scaling.players[1]: Random is named twice"),
    ("{players: [Random], sims: [10, 20], anchor: Boom}",
     "matches[0].scaling.anchor: expected one of the ladder's players (Random) or a player "
     "with its own budget (time= or sims=), got Boom"),
    ("{players: [Random], sims: [10, 20], anchor: 'Random(sims=20)'}",
     "matches[0].scaling.anchor: Random(sims=20) is a level of the ladder; name its player "
     "instead"),
    ("{players: [Random], sims: [10, 20], size: 3}",
     "matches[0].scaling.size: unknown field; valid fields: players, sims, time, effort, "
     "clock, anchor"),
])
def test_bad_ladder_is_one_line_exit_2_nothing_written(tmp_path, monkeypatch, body, message):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    (tmp_path / "bad.yaml").write_text(HEAD + "matches:\n  - scaling: " + body + "\n")
    res = CliRunner().invoke(cli, ["run", "bad.yaml"])
    assert res.exit_code == 2
    assert res.output == f"arena: error: bad.yaml: {message}\n"
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("body,message", [
    # a ladder of clocks: its rungs scale one clock
    ("{players: [MCTS], clock: ['1+0.01', '2+0.05']}",
     "matches[0].scaling.clock[1]: 2+0.05 is not 1+0.01 scaled: a clock ladder's rungs keep "
     "one increment per second of base time and one number of moves per period, so each "
     "doubling doubles the whole clock"),
    ("{players: [MCTS], clock: ['40/1', '20/2']}",
     "matches[0].scaling.clock[1]: 20/2+0 is not 40/1+0 scaled"),
    ("{players: [MCTS], clock: ['2+0.02', '1+0.01']}",
     "matches[0].scaling.clock[1]: a ladder must grow: 1+0.01 does not exceed 2+0.02"),
    ("{players: [MCTS], clock: ['1+0.01', inf]}",
     "matches[0].scaling.clock[1]: a clock ladder's rungs are time limits; inf is none"),
    ("{players: [MCTS], clock: ['1+0.01', 'fast']}",
     "matches[0].scaling.clock[1]: expected a time control"),
    ("{players: [MCTS], clock: {from: '40000+0', doublings: 2}}",
     "matches[0].scaling.clock.doublings: the top rung's base time 160000 s is out of range"),
    ("{players: [MCTS], clock: '1+0.01'}",
     "matches[0].scaling.clock: expected a list of at least 2 clocks or {from: CLOCK, "
     "doublings: K}, got '1+0.01'"),
    ("{players: ['MCTS(tm=0)'], clock: ['1+0.01', '2+0.02']}",
     "matches[0].scaling.players[0]: MCTS(tm=0) has no time management (tm=0), and a "
     "ladder's player carries no cap of its own"),
    ("{players: [Random], clock: ['1+0.01', '2+0.02']}", "manages no time, so it keeps no clock of its own"),
])
def test_bad_clock_ladder_is_one_line_exit_2_nothing_written(tmp_path, monkeypatch, body,
                                                             message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.yaml").write_text("game: tictactoe\nmatches:\n  - scaling: " + body + "\n")
    res = CliRunner().invoke(cli, ["run", "bad.yaml"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert res.output.startswith("arena: error: bad.yaml: ") and message in res.output
    assert not (tmp_path / "results").exists()


def test_a_ladder_of_clocks_gives_each_level_its_own_clock():
    exp = config.loads("game: tictactoe\ntimemargin: 20\nmatches:\n  - scaling: {players: "
                       "[MCTS, 'MCTS(C=0.5)'], clock: {from: '0:01+0.01', doublings: 2}}\n",
                       source="x.yaml")
    (lad,) = exp.ladders
    assert lad.kind == "clock" and lad.clocks == ("1+0.01", "2+0.02", "4+0.04")
    assert lad.levels == (1.0, 2.0, 4.0)            # each rung's base seconds, for the fit
    assert lad.specs[1] == ("MCTS(C=0.5,clock=1+0.01)", "MCTS(C=0.5,clock=2+0.02)",
                            "MCTS(C=0.5,clock=4+0.04)")
    assert exp.budget == config.Budget(clock="1+0.01", margin=0.02)    # the first rung's
    first = exp.pairings[0]
    assert first.label == "MCTS(clock=2+0.02) vs MCTS(clock=1+0.01)"     # time odds
    assert first.player_budget == config.Budget(clock="2+0.02", margin=0.02)
    assert first.opponent_budget == config.Budget(clock="1+0.01", margin=0.02)
    listed = config.loads("game: tictactoe\nmatches:\n  - scaling: {players: [MCTS], clock: "
                          "['40/1', '40/2', 40/4]}\n", source="x.yaml")
    assert listed.ladders[0].clocks == ("40/1+0", "40/2+0", "40/4+0")


def test_a_ladder_of_clocks_plays_and_reports_elo_per_doubling_of_the_clock(tmp_path,
                                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text(
        "name: c\ngame: tictactoe\ngames: 2\nseed: 5\n"
        "matches:\n  - scaling: {players: [MCTS], clock: {from: 0.05+0.001, doublings: 2}}\n")
    dry = CliRunner().invoke(cli, ["run", "c.yaml", "--dry-run"])
    assert dry.exit_code == 0 and "MCTS(clock=0.1+0.002) vs MCTS(clock=0.05+0.001)" in dry.output
    res = CliRunner().invoke(cli, ["run", "c.yaml", "--quiet", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    out = CliRunner().invoke(cli, ["report", "results/c", "--format", "markdown"]).output
    assert "Strength against budget (matches[0].scaling; Elo relative to " \
           "MCTS(clock=0.05+0.001), 95% intervals, 6 games)" in out
    assert "| MCTS | clock 0.2+0.004 |" in out and "Elo per doubling" in out
    assert "| MCTS | clock 0.05+0.001 → clock 0.1+0.002 |" in out
    (fit,) = [x for x in json.loads(CliRunner().invoke(
        cli, ["report", "results/c", "--format", "json"]).output) if "scaling" in x]
    sc = fit["scaling"]
    assert sc["kind"] == "clock" and sc["clocks"] == ["0.05+0.001", "0.1+0.002", "0.2+0.004"]
    assert [lv["budget"] for lv in sc["levels"]["MCTS"]] == [0.05, 0.1, 0.2]
    assert "elo" in sc["slopes"]["MCTS"] and sc["games"] == 6
    pgn = CliRunner().invoke(cli, ["export", "results/c", "--format", "pgn"]).output
    assert '[WhiteTimeControl "0.1+0.002"]' in pgn and '[BlackTimeControl "0.05+0.001"]' in pgn


def test_gtp_engine_without_simulations_is_refused():
    with pytest.raises(config.ConfigError, match="no {sims} placeholder; use a ladder of time"):
        ladder("{players: ['GTP(cmd=\"engine --level 3\")'], sims: [10, 20]}",
               players=importlib.import_module("mcts_arena.players"))


# ---- the fit ---------------------------------------------------------------------------------
def _rows(true: dict[str, float], pairs: list[tuple[str, str]], n: int, seed: int = 7):
    """Report rows of `n` games per pairing drawn from ratings `true` (no draws)."""
    rng = np.random.default_rng(seed)
    rows = []
    for a, b in pairs:
        w = int(rng.binomial(n, stats.elo_to_score(true[a] - true[b])))
        rows.append({"player_spec": a, "opponent_spec": b, "games": n, "wins": w,
                     "draws": 0, "losses": n - w})
    return rows


def _ladder_of(exp) -> dict:
    lad = exp.ladders[0]
    return {"players": lad.players, "kind": lad.kind, "levels": lad.levels,
            "specs": lad.specs, "anchor": lad.anchor, "where": lad.where}


def test_fit_recovers_elo_per_doubling_and_the_crossover():
    exp = ladder("{players: [Random, 'Random(im0.5)'], sims: {from: 10, doublings: 4}}")
    lad = _ladder_of(exp)
    # A gains 100 Elo a doubling; B starts 150 below A and gains 200: B overtakes A at
    # 1.5 doublings (10 * 2^1.5 = 28.3 sims)
    true = {}
    for k in range(5):
        true[lad["specs"][0][k]] = 100.0 * k
        true[lad["specs"][1][k]] = -150.0 + 200.0 * k
    sc = scaling.fit(lad, _rows(true, [(p.player, p.opponent) for p in exp.pairings], 400))
    assert not sc.note and sc.games == 400 * len(exp.pairings)
    a, b = lad["players"]
    for p, slope in ((a, 100), (b, 200)):
        s = sc.slopes[p]
        assert s["low"] < slope < s["high"] and s["high"] - s["low"] < 60
        assert s["curvature_low"] < 0 < s["curvature_high"]       # a straight line
    for lv in sc.levels[a] + sc.levels[b]:
        assert abs(lv.elo - (true[lv.spec] - true[lad["anchor"]])) < lv.error + 1e-9 or \
            lv.spec == lad["anchor"]
    assert sc.levels[a][0].elo == 0 and sc.levels[a][0].error == 0
    steps = sc.steps[b]
    assert [(s["from"], s["to"]) for s in steps] == [(10, 20), (20, 40), (40, 80), (80, 160)]
    assert all(abs(s["elo"] - 200) < 2 * s["error"] for s in steps)
    (c,) = sc.crossovers
    assert (c["leader_below"], c["leader_above"]) == (a, b)
    assert c["low"] < 10 * 2 ** 1.5 < c["high"] and 20 < c["budget"] < 40
    assert c["share"] > 0.95
    (lo, elo_lo), (hi, elo_hi) = c["gaps"]                  # +150 at 10 sims, -250 at 160
    assert abs(lo - 150) < elo_lo and abs(hi + 250) < elo_hi


def test_fit_without_a_crossover_and_a_shrinking_gain():
    exp = ladder("{players: [Random, 'Random(im0.5)'], sims: {from: 10, doublings: 4}}")
    lad = _ladder_of(exp)
    gains = [0, 300, 500, 600, 650]                 # the gain of a doubling halves each time
    true = {}
    for k in range(5):
        true[lad["specs"][0][k]] = gains[k]
        true[lad["specs"][1][k]] = gains[k] + 200
    sc = scaling.fit(lad, _rows(true, [(p.player, p.opponent) for p in exp.pairings], 400))
    (c,) = sc.crossovers
    assert c["budget"] is None and c["share"] < 0.05
    assert c["leader_below"] == c["leader_above"] == lad["players"][1]
    assert sc.slopes[lad["players"][0]]["curvature_high"] < 0
    texts = [cap for cap, _, _ in scaling.tables(sc)]
    assert any(cap.startswith("Crossover") for cap in texts)
    cross = [rows for cap, _, rows in scaling.tables(sc) if cap.startswith("Crossover")][0]
    assert cross[0][4] == "none in range"


def test_fit_waits_for_every_level():
    exp = ladder("{players: [Random], sims: [10, 20, 40]}")
    lad = _ladder_of(exp)
    rows = _rows({s: 0.0 for s in lad["specs"][0]}, [("Random(sims=20)", "Random(sims=10)")], 10)
    sc = scaling.fit(lad, rows)
    assert sc.note == "not every level has played yet"
    assert scaling.tables(sc)[0][1] == []


def test_covariance_gives_the_ladder_errors():
    results = {("a", "b"): (30, 4, 16), ("b", "c"): (25, 0, 25), ("a", "c"): (10, 2, 8)}
    ratings = stats.bradley_terry(results)
    names, cov = stats.bradley_terry_covariance(results, ratings)
    lad = {x["name"]: x["error"] for x in stats.bradley_terry_ladder(results)}
    for i, n in enumerate(names):
        assert math.isclose(lad[n], 1.96 * math.sqrt(cov[i, i]))
    assert np.allclose(cov.sum(axis=1), 0, atol=1e-9)      # the mean-zero constraint


# ---- a real ladder, played and reported --------------------------------------------------------
@pytest.mark.slow
def test_real_ladder_runs_resumes_and_reports(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(
        "name: s\ngame: tictactoe\nbudget: {sims: 10}\ngames: 4\nseed: 5\n"
        "matches:\n  - scaling: {players: ['MCTS', 'FlatMC'], sims: [2, 8, 32]}\n")
    res = CliRunner().invoke(cli, ["run", "s.yaml", "--quiet", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    again = CliRunner().invoke(cli, ["run", "s.yaml", "--quiet", "--jobs", "1"])
    assert again.exit_code == 0, again.output
    res = CliRunner().invoke(cli, ["report", "results/s", "--format", "markdown"])
    assert res.exit_code == 0, res.output
    out = res.output
    assert "Strength against budget (matches[0].scaling; Elo relative to MCTS(sims=2), 95% " \
           "intervals, 40 games)" in out
    assert "| MCTS | 32 sims |" in out and "| FlatMC | 2 sims → 8 sims |" in out
    assert "Elo gained by each step up the ladder" in out
    assert "Elo per doubling" in out and "| MCTS − FlatMC |" in out
    assert (tmp_path / "results/s/report/scaling-s-0.png").stat().st_size > 1000
    # the same fit, machine-readable: after the pairings' rows, one object per ladder
    res = CliRunner().invoke(cli, ["report", "results/s", "--format", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    (fit,) = [x for x in data if "scaling" in x]
    assert [x for x in data if "scaling" not in x] and fit["experiment"] == "s"
    sc = fit["scaling"]
    assert sc["anchor"] == "MCTS(sims=2)" and sc["kind"] == "sims" and sc["games"] == 40
    assert [lv["budget"] for lv in sc["levels"]["MCTS"]] == [2, 8, 32]
    assert sc["levels"]["MCTS"][0]["elo"] == 0 and "low" in sc["slopes"]["FlatMC"]
    assert markdown_number(out, "MCTS", "32 sims") == round(sc["levels"]["MCTS"][2]["elo"])
    (c,) = sc["crossovers"]
    assert {c["player"], c["other"]} == {"MCTS", "FlatMC"} and len(c["gaps"]) == 2


def markdown_number(text, player, budget):
    """The Elo in the markdown report's row of `player` at `budget`."""
    line = next(x for x in text.splitlines() if x.startswith(f"| {player} | {budget} |"))
    return int(line.split("|")[3])


# ---- per-player budgets: a matched effort per side -------------------------------------------
def real():
    return importlib.import_module("mcts_arena.players")


def test_effort_per_player_is_resolved_for_each_side():
    exp = config.loads(HEAD + "matches:\n  - {player: 'MCTS(bl,effort=0.1)', "
                       "opponent: 'αβ(efLH,effort=0.4)'}\n", players=real())
    (p,) = exp.pairings
    assert p.label == "MCTS(bl,effort=0.1) vs αβ(efLH,effort=0.4)"
    assert p.player_budget.effort == 0.1 and p.player_budget.unit == "sims"
    assert p.opponent_budget.effort == 0.4 and p.opponent_budget.unit == "nodes"
    assert p.player_budget.sims > 0 and p.opponent_budget.sims > 0


def test_effort_ladder_and_an_external_engine_refused():
    exp = ladder("{players: ['MCTS(bl)', 'αβ(efLH)'], effort: {from: 0.025, doublings: 2}}",
                 players=real())
    lad = exp.ladders[0]
    assert lad.specs[0] == ("MCTS(bl,effort=0.025)", "MCTS(bl,effort=0.05)",
                            "MCTS(bl,effort=0.1)")
    sims = [p.player_budget.sims for p in exp.pairings[:2]]
    assert sims[1] > sims[0]                # 0.1 s of effort buys more than 0.05 s
    with pytest.raises(config.ConfigError, match="external player: no engine rate gives it"):
        ladder("{players: ['GTP(cmd=\"engine\")'], effort: [0.1, 0.2]}", players=real())


def test_play_takes_an_effort_per_side():
    res = CliRunner().invoke(cli, ["play", "tictactoe", "MCTS(sims=5)", "Random", "--seed", "2"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, ["play", "tictactoe", "MCTS(effort=0.1)", "Random"])
    assert res.exit_code == 2 and res.output.startswith("arena: error: no engine rate for "
                                                        "MCTS(effort=0.1) in tictactoe")
