"""Game clocks: the time control's text, the config's rules, each side's clock in the game loop,
the time-management rules (tm=N, MCTS's STOP rule), GTP's time commands, and a loss on time
through the store, the report, the export and a resumed run."""
import json
import re
import uuid

import pytest
from click.testing import CliRunner
from helpers import canon, fake, job, start_text

from mcts_arena import games, players
from mcts_arena.budgets import Budget, Clock, parse_clock
from mcts_arena.cli import cli
from mcts_arena.errors import ConfigError
from mcts_arena.players.timing import SAFETY, ClockLeft, allot
from mcts_arena.runner import config
from mcts_arena.runner.match import SideClock, play_game


@pytest.mark.parametrize("text,clock", [
    ("60+0.5", Clock(60, 0.5, 0)), ("40/60+0", Clock(60, 0, 40)), ("0.5+.1", Clock(0.5, 0.1)),
    (" 5 + 5 ", Clock(5, 5)),
])
def test_clock_text_round_trips(text, clock):
    assert parse_clock(text) == clock
    assert parse_clock(clock.text()) == clock


@pytest.mark.parametrize("text,why", [
    ("60", "expected a time control"), ("1+2", "increment (2 s) exceeds its time (1 s)"),
    ("0/60+0", "moves per period must be at least 1"), ("60+-1", "expected a time control"),
    ("0+0", "base time must be"), (60, "expected a time control"), ("1e9+0", "expected"),
])
def test_bad_clocks_are_refused(text, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        parse_clock(text)


def test_a_clock_budget_travels_as_its_dict_and_says_what_it_is():
    b = Budget(clock="60+0.5", sims=1000)
    assert Budget.of(b.as_dict()) == b and b.as_dict() == {"clock": "60+0.5", "sims": 1000}
    assert b.text() == "clock 60+0.5, 1000 sims" and str(Budget(clock="1+0")) == "clock 1+0"
    assert Budget(sims=5).as_dict() == {"sims": 5}         # budgets without a clock: unchanged


def test_a_side_clock_counts_increments_periods_and_runs_out():
    c = SideClock(Clock(1.0, 0.5))
    assert c.before() == ClockLeft(1.0, 0.5, 0)
    assert c.after(0.4) and c.left == pytest.approx(1.1)
    assert not c.after(1.2)                                  # 1.1 left, 1.2 spent: flag falls
    p = SideClock(Clock(10.0, 0.0, 2))
    assert p.before().to_go == 2 and p.after(3) and p.before().to_go == 1
    assert p.after(3) and p.left == pytest.approx(14.0) and p.before().to_go == 2


def test_the_fraction_rule_and_its_limits():
    assert allot(ClockLeft(60, 0.5), None) == pytest.approx(60 / 30 + 0.5)
    assert allot(ClockLeft(60, 0.0), 10) == pytest.approx(6.0)
    assert allot(ClockLeft(60, 0.0, to_go=3), 30) == pytest.approx(20.0)   # the period's end
    assert allot(ClockLeft(1.0, 5.0), 30) == pytest.approx(SAFETY * 1.0)  # never the whole clock
    assert allot(ClockLeft(60, 0.5), 0) is None                            # tm=0: off


def test_tm_and_stop_are_options_that_leave_existing_specs_alone():
    p = players.parse
    assert p("MCTS(tm=30,stop=0)", game="breakthrough").canonical == \
        p("MCTS", game="breakthrough").canonical
    assert p("MCTS(stop=0.5,tm=10)", game="breakthrough").canonical == "MCTS(tm=10,stop=0.5)"
    with pytest.raises(ValueError):
        p("MCTS(stop=2)", game="breakthrough")


@pytest.mark.parametrize("game", ["breakthrough", "kalah"])
def test_stop_rule_ends_early_and_keeps_the_move(game):
    """With a simulation cap far inside the time budget, the simulations still to come are the
    cap's (not the clock's), so the rule is deterministic: it stops before the cap, and with
    f = 1 the move is the one the whole search plays (the second cannot catch up)."""
    s = games.new_state(game)
    full_move, full = players.make("MCTS", game=game, seed=1).choose(s, time=100, sims=20000)
    move, st = players.make("MCTS(stop=1)", game=game, seed=1).choose(s, time=100, sims=20000)
    again, st2 = players.make("MCTS(stop=1)", game=game, seed=1).choose(s, time=100, sims=20000)
    assert st["settled"] and st["sims"] < full["sims"] == 20000 and "settled" not in full
    assert move == full_move and (again, st2["sims"]) == (move, st["sims"])
    # a smaller f stops sooner; a simulation budget alone never consults the rule
    _, half = players.make("MCTS(stop=0.5)", game=game, seed=1).choose(s, time=100, sims=20000)
    assert half["sims"] <= st["sims"]
    _, plain = players.make("MCTS(stop=1)", game=game, seed=1).choose(s, sims=20000)
    assert plain["sims"] == 20000 and "settled" not in plain


def clocked_game(seats, clock, game="breakthrough", sims=None):
    b = Budget(clock=clock, sims=sims)
    j = job(tuple(canon(x, game) for x in seats), game, budgets=(b, b))
    return play_game(j, j.games[0], start_text(game), players, [])


def test_a_player_that_overruns_its_clock_loses_on_time():
    # 100,000 simulations take ten times the 0.05 s clock on a fast core, so seat 0 overruns
    # on its first move on any machine; the flag may only fall on one of seat 0's moves
    r = clocked_game(("MCTS(tm=0)", "Random"), "0.05+0", sims=100000)
    assert r.reason == "time_forfeit" and r.winner == 1 and r.plies % 2 == 0
    assert "lost on time (clock 0.05+0" in r.error and r.error.startswith("seat 0 MCTS(tm=0)")


def test_time_management_keeps_a_player_on_its_clock():
    r = clocked_game(("MCTS(tm=20)", "MCTS(stop=0.5)"), "1+0.02", game="tictactoe")
    assert r.reason == "normal"
    walls = [s["wall"] for s in r.stats if s.get("seat") == 0]
    left = [s["clock"] for s in r.stats if s.get("seat") == 0]
    assert walls[0] < (1 / 20 + 0.02) * 1.5 + 0.05         # the first move: about left/20 + inc
    assert all(x > 0 for x in left) and left[0] == pytest.approx(1 - walls[0] + 0.02, abs=1e-5)


@pytest.mark.process
def test_a_gtp_engine_is_told_its_clock_and_loses_on_time(tmp_path):
    tag, log = uuid.uuid4().hex, tmp_path / "gtp.log"
    spec = fake("slow", after=2, tag=tag).replace("--tag", f"--log {log} --tag")
    r = clocked_game((spec, "Random"), "0.5+0.1")
    assert r.reason == "time_forfeit" and r.winner == 1
    lines = log.read_text().splitlines()
    assert "time_settings 0.5 0 0" in lines                     # absolute time (GTP 2, 4.2)
    told = [x for x in lines if x.startswith("time_left")]
    assert re.fullmatch(r"time_left [bw] 0\.5 0", told[0]) and len(told) >= 3
    periods = tmp_path / "p.log"
    spec = fake("good", tag=tag).replace("--tag", f"--log {periods} --tag")
    clocked_game((spec, "Random"), "3/2+0")
    lines = periods.read_text().splitlines()
    assert "time_settings 0 2 3" in lines                      # Canadian: 3 moves in 2 s
    assert any(re.fullmatch(r"time_left [bw] 2 3", x) for x in lines)


def write(tmp_path, text, name="c.yaml"):
    p = tmp_path / name
    p.write_text(text)
    return p


BASE = "name: clk\ngame: tictactoe\ngames: 2\n"


@pytest.mark.parametrize("extra,why", [
    ("clock: '1+2'\nmatches: [{player: MCTS, opponent: Random}]\n", "exceeds its time"),
    ("clock: 'fast'\nmatches: [{player: MCTS, opponent: Random}]\n", "expected a time control"),
    ("clock: '60+0'\nbudget: {time: 0.1}\nmatches: [{player: MCTS, opponent: Random}]\n",
     "contradicts"),
    ("budget: {sims: 10}\nmatches: [{player: 'MCTS(time=1)', opponent: Random, clock: '5+0'}]\n",
     "contradicts"),
    ("budget: {sims: 10}\nmatches: [{player: MCTS, opponent: Random, clock: '5+9'}]\n",
     "exceeds its time"),
])
def test_bad_clock_configs_one_line_exit_2_nothing_written(tmp_path, monkeypatch, extra, why):
    monkeypatch.chdir(tmp_path)
    cfg = write(tmp_path, BASE + extra)
    res = CliRunner().invoke(cli, ["run", str(cfg), "--quiet"])
    assert res.exit_code == 2 and why in res.output and len(res.output.strip().splitlines()) == 1
    assert res.output.startswith("arena: error: ") and not (tmp_path / "results").exists()
    with pytest.raises(ConfigError):
        config.load(cfg)


def test_config_clock_per_experiment_match_and_player(tmp_path):
    exp = config.load(write(tmp_path, BASE + "clock: '10+0.1'\nbudget: {sims: 50}\nmatches:\n"
                            "  - {player: 'MCTS(sims=9)', opponent: Random}\n"
                            "  - {player: Greedy, opponent: Random, clock: '3/1+0'}\n"))
    assert exp.budget == Budget(clock="10+0.1", sims=50)
    a, b = exp.pairings
    assert a.player_budget == Budget(clock="10+0.1", sims=9) and a.opponent_budget is None
    assert a.opponent_budget is None                    # the experiment's clocked budget
    assert b.player_budget == b.opponent_budget == Budget(clock="3/1+0", sims=50)
    assert exp.identity()["budget"] == {"clock": "10+0.1", "sims": 50}


@pytest.mark.slow
def test_time_losses_in_the_store_report_export_and_a_resumed_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    cfg = write(tmp_path, "name: flag\ngame: breakthrough\nclock: '0.05+0'\ngames: 2\nmatches:\n"
                          "  - {player: 'MCTS(tm=0,sims=20000)', opponent: Random}\n")
    run = CliRunner().invoke(cli, ["run", str(cfg), "--quiet", "--jobs", "1"])
    assert run.exit_code == 0, run.output
    assert "2 game(s) ended by time forfeit" in run.output
    rep = CliRunner().invoke(cli, ["report", "results/flag", "--format", "json"])
    assert rep.exit_code == 0, rep.output
    (row,) = json.loads(rep.output)
    assert row["time_forfeits"] == 2 and row["losses"] == 2
    assert row["player_budget"] == {"clock": "0.05+0", "sims": 20000}
    text = CliRunner().invoke(cli, ["report", "results/flag"]).output
    assert "clock 0.05+0" in text
    pgn = CliRunner().invoke(cli, ["export", "results/flag", "--format", "pgn"])
    assert pgn.exit_code == 0
    assert pgn.output.count('[Termination "time forfeit: seat ') == 2
    assert pgn.output.count("lost on time (clock 0.05+0") == 2
    again = CliRunner().invoke(cli, ["run", str(cfg), "--quiet", "--jobs", "1"])
    assert again.exit_code == 0 and "0 to play" in again.output
    more = CliRunner().invoke(cli, ["run", str(cfg), "--quiet", "--jobs", "1", "--games", "4"])
    assert more.exit_code == 0, more.output
    assert "4 game(s) ended by time forfeit" in more.output


def test_the_overhead_a_player_keeps_back_is_what_its_clock_charged_beyond_its_search():
    from mcts_arena.players.timing import Overhead

    o = Overhead()
    c1 = ClockLeft(1.0, 0.1)
    assert o.update(c1) == 0.0
    o.given(c1, 0.2)
    c2 = ClockLeft(1.0 + 0.1 - 0.25, 0.1)                   # 0.25 s charged for 0.2 given
    assert o.update(c2) == pytest.approx(0.05)
    assert allot(c2, 10, 0.05) == pytest.approx(0.85 / 10 + 0.1 - 0.05)
    o.given(ClockLeft(0.5, 0, to_go=1), 0.1)                 # the period's last move ...
    assert o.update(ClockLeft(2.4, 0, to_go=3)) == pytest.approx(0.05)   # ... then a refill


def test_the_watchdog_gives_a_clocked_move_the_time_its_clock_can_hold():
    from mcts_arena.runner.watchdog import CLOCK_MOVES, GRACE_S, MARGIN, move_bound

    assert move_bound(Budget(clock="60+0.5")) == MARGIN * (60 + CLOCK_MOVES * 0.5) + GRACE_S
    assert move_bound(Budget(sims=100)) == move_bound(Budget(sims=100, clock=None))
    assert move_bound(Budget(clock="1+0", sims=10**8)) == move_bound(Budget(sims=10**8))
