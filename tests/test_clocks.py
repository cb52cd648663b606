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
from mcts_arena.budgets import MARGIN_DEFAULT, TIME_MAX, Budget, Clock, parse_clock
from mcts_arena.cli import cli
from mcts_arena.errors import ConfigError
from mcts_arena.players.timing import SAFETY, ClockLeft, allot
from mcts_arena.runner import config
from mcts_arena.runner.match import SideClock, play_game


@pytest.mark.parametrize("text,clock", [
    ("60+0.5", Clock(60, 0.5, 0)), ("40/60+0", Clock(60, 0, 40)), ("0.5+.1", Clock(0.5, 0.1)),
    (" 5 + 5 ", Clock(5, 5)),
    # cutechess-cli's spellings: no increment, minutes:seconds, hours:minutes:seconds
    ("60", Clock(60)), ("40/60", Clock(60, 0, 40)), ("0:30+0.1", Clock(30, 0.1)),
    ("1:00:00+5", Clock(3600, 5)), ("2:30", Clock(150)),
])
def test_clock_text_round_trips(text, clock):
    assert parse_clock(text) == clock
    assert parse_clock(clock.text()) == clock


@pytest.mark.parametrize("text,why", [
    ("fast", "expected a time control"), ("1+2", "increment (2 s) exceeds its time (1 s)"),
    ("0/60+0", "moves per period must be at least 1"), ("60+-1", "expected a time control"),
    ("0+0", "base time must be"), (60, "expected a time control"), ("1e9+0", "expected"),
    ("0:60", "below 60"), ("1:60:00", "below 60"), ("inf", "expected a time control"),
    ("1:2:3:4", "expected a time control"), ("60+", "expected a time control"),
])
def test_bad_clocks_are_refused(text, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        parse_clock(text)


def test_a_clock_budget_travels_as_its_dict_and_says_what_it_is():
    b = Budget(clock="60+0.5", sims=1000)
    assert Budget.of(b.as_dict()) == b and b.as_dict() == {"clock": "60+0.5", "sims": 1000}
    assert b.text() == "clock 60+0.5, 1000 sims" and str(Budget(clock="1+0")) == "clock 1+0"
    assert Budget(sims=5).as_dict() == {"sims": 5}         # budgets without a clock: unchanged


def test_a_clock_is_written_for_pgn_as_cutechess_writes_it():
    assert [parse_clock(t).pgn() for t in ("60+0", "60+0.5", "40/60+0", "40/60+1")] == \
        ["60", "60+0.5", "40/60", "40/60+1"]


def test_the_margin_forgives_an_overrun_within_it_and_no_more():
    c = SideClock(Clock(1.0, 0.1), margin=0.05)
    assert c.before() == ClockLeft(1.0, 0.1, 0, 0.05)
    assert c.after(1.03) and c.left == pytest.approx(0.07)  # 0.03 s over, carried; + inc
    assert not c.after(0.13)                                 # 0.06 s over: lost on time


def test_an_overrun_is_carried_so_the_margin_is_spent_once_as_cutechess_spends_it():
    """cutechess-cli's clock: the time left may go below 0 by less than the margin, and what
    a move overran stays owed, so a side at 0 s without an increment cannot play on move
    after move inside the margin (a fresh 50 ms a move would be a time budget of its own)."""
    c = SideClock(Clock(1.0, 0.0), margin=0.05)
    assert c.after(1.0) and c.left == 0.0
    assert c.after(0.03) and c.left == pytest.approx(-0.03)   # within the margin: owed
    assert c.before().left == pytest.approx(-0.03)            # the player is told so
    assert not c.after(0.03)                                   # 0.06 s over in all: flagged
    assert Budget(clock="1+0").margin_s() == MARGIN_DEFAULT
    assert Budget(clock="1+0", margin=0.2).as_dict() == {"clock": "1+0", "margin": 0.2}
    assert Budget(clock="1+0", margin=0.2).text() == "clock 1+0, margin 0.2 s"


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


def test_a_clock_blind_side_is_stopped_at_its_time_left_plus_the_margin():
    """tm=0 with a cap far beyond the clock: the search is given the hard limit (time left +
    margin) and stops there, so the side loses on time at once instead of searching on."""
    b = Budget(clock="0.2+0", sims=5_000_000, margin=0.05)
    j = job((canon("MCTS(tm=0)"), "Random"), budgets=(b, b))
    r = play_game(j, j.games[0], start_text("breakthrough"), players, [])
    assert r.reason == "time_forfeit" and r.winner == 1 and r.plies == 0
    assert r.duration < 0.2 + 0.05 + 3.0             # not the 30 s or so 5,000,000 sims take
    assert "margin 0.05 s" in r.error


@pytest.mark.parametrize("kind", ["MCTS(tm=0)", "ab(tm=0)", "Star2(tm=0)"])
def test_every_search_takes_the_hard_limit(kind):
    game = "pig" if kind.startswith("Star") else "breakthrough"
    p = players.make(kind, game=game, seed=1)
    s = games.new_state(game)
    while s.is_chance_node():
        s.play(s.outcome_at(0.5))
    _, st = p.choose(s, sims=50_000_000, clock=ClockLeft(0.1, 0.0, 0, 0.05))
    assert p.hard == pytest.approx(0.15) and st["time"] < 0.15 + 3.0   # not minutes


@pytest.mark.parametrize("clock,tm", [("5000+0", "tm=1"), ("86400+3600", "tm=30"),
                                      ("1/7200+0", "tm=30")])
def test_a_move_longer_than_a_time_budget_can_be_is_no_error_on_a_long_clock(clock, tm):
    """A long clock gives a move more than budgets.TIME_MAX: the move is played (its sims cap
    ends it), not turned into an error game; the hard limit is what bounds it."""
    p = players.make(f"MCTS({tm})", game="tictactoe", seed=1)
    c = parse_clock(clock)
    left = ClockLeft(c.base, c.inc, 1 if c.moves else 0, MARGIN_DEFAULT)
    _, st = p.choose(games.new_state("tictactoe"), sims=200, clock=left)
    assert st["sims"] <= 200 and p.hard > TIME_MAX
    r = clocked_game((f"MCTS({tm})", "Random"), clock, game="tictactoe", sims=100)
    assert r.reason == "normal", r.error


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
    # a side without time management and without a cap would search on past its clock
    ("clock: '5+0.5'\nmatches: [{player: 'MCTS(tm=0)', opponent: Random}]\n",
     "has no time management (tm=0)"),
    ("budget: {time: 1}\nmatches: [{player: MCTS, opponent: 'ab(tm=0)', clock: '5+0'}]\n",
     "contradicts"),
    ("clock: '5+0'\nmatches: [{player: MCTS, opponent: 'ab(tm=0)'}, {player: Greedy, "
     "opponent: 'MCTS(tm=0,sims=9)'}]\n", "matches[0].opponent: αβ(efTTT,tm=0) has no time management"),
    ("clock: '5+0'\ntimemargin: -1\nmatches: [{player: MCTS, opponent: Random}]\n",
     "timemargin: expected a number of milliseconds from 0 to 60000"),
    ("clock: '5+0'\ntimemargin: '50ms'\nmatches: [{player: MCTS, opponent: Random}]\n",
     "timemargin: expected a number of milliseconds"),
    ("budget: {sims: 10}\ntimemargin: 100\nmatches: [{player: MCTS, opponent: Random}]\n",
     "timemargin: no game of this config is on a clock"),
    ("clock: inf\nmatches: [{player: MCTS, opponent: Random}]\n", "clock inf sets no time limit"),
    ("clock: '0:75'\nmatches: [{player: MCTS, opponent: Random}]\n", "below 60"),
    ("budget: {sims: 10}\nmatches: [{player: MCTS, opponent: Random, clock: {player: '5+0', "
     "foe: '1+0'}}]\n", "clock.foe: unknown field"),
    ("budget: {sims: 10}\nmatches: [{round_robin: [MCTS, Random, Greedy], clock: {player: '5+0'}}]"
     "\n", "a round_robin entry takes one clock"),
    ("budget: {sims: 10}\nmatches: [{player: MCTS, opponent: Random, clock: {player: '5+x'}}]\n",
     "clock.player: expected a time control"),
    # a player's own clock
    ("budget: {sims: 10}\nmatches: [{player: 'MCTS(clock=10+0.1,clock=5)', opponent: Random}]\n",
     "clock given twice"),
    ("budget: {sims: 10}\nmatches: [{player: 'MCTS(clock=fast)', opponent: Random}]\n",
     "bad clock in 'clock=fast'"),
    ("budget: {sims: 10}\nmatches: [{player: 'MCTS(clock=1+2)', opponent: Random}]\n",
     "exceeds its time"),
    ("budget: {sims: 10}\nmatches: [{player: 'MCTS(clock=inf)', opponent: Random}]\n",
     "clock=inf in"),
    ("budget: {sims: 10}\nmatches: [{player: 'MCTS(clock=5,time=1)', opponent: Random}]\n",
     "contradict"),
    ("budget: {sims: 10}\nmatches: [{player: 'Random(clock=5)', opponent: MCTS}]\n",
     "manages no time, so it keeps no clock of its own"),
    ("budget: {sims: 10}\nmatches: [{player: 'MCTS(tm=0,clock=5)', opponent: Random}]\n",
     "has no time management (tm=0)"),
    ("clock: '9+0'\nmatches: [{player: 'MCTS(clock=5)', opponent: Random, clock: '3+0'}]\n",
     "has a clock of its own (5+0) and the entry gives its side the clock 3+0"),
    ("clock: '9+0'\nmatches: [{player: 'MCTS(clock=5)', opponent: Random, clock: {player: 3}}]\n",
     "has a clock of its own"),
    ("budget: {sims: 10}\nmatches: [{scaling: {players: ['MCTS(clock=5)'], sims: [1, 2]}}]\n",
     "carries its own budget (clock 5+0)"),
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


def test_config_time_odds_inf_and_timemargin(tmp_path):
    exp = config.load(write(tmp_path, BASE + "clock: '1:00+0.5'\nbudget: {sims: 50}\n"
                            "timemargin: 200\nmatches:\n"
                            "  - {player: MCTS, opponent: Random, clock: {player: '40/60', "
                            "opponent: '30+0.5'}}\n"
                            "  - {player: Greedy, opponent: Random, clock: inf}\n"
                            "  - {gauntlet: {player: Greedy, opponents: [MCTS]}, "
                            "clock: {opponent: '10'}}\n"))
    assert exp.budget == Budget(clock="60+0.5", sims=50, margin=0.2)
    odds, plain, gauntlet = exp.pairings
    assert odds.player_budget == Budget(clock="40/60+0", sims=50, margin=0.2)
    assert odds.opponent_budget == Budget(clock="30+0.5", sims=50, margin=0.2)
    assert plain.player_budget == plain.opponent_budget == Budget(sims=50)     # inf: no clock
    assert gauntlet.player_budget == Budget(clock="60+0.5", sims=50, margin=0.2)
    assert gauntlet.opponent_budget == Budget(clock="10+0", sims=50, margin=0.2)
    # the default margin (50 ms) written out is the margin left out: the same identity
    same = config.load(write(tmp_path, BASE + "clock: '60'\ntimemargin: 50\nmatches:\n"
                             "  - {player: 'MCTS(tm=0,sims=9)', opponent: Random}\n", "d.yaml"))
    assert same.budget == Budget(clock="60+0") and same.budget.as_dict() == {"clock": "60+0"}


@pytest.mark.slow
def test_time_losses_in_the_store_report_export_and_a_resumed_run(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # a cap no search reaches within the clock: the hard limit stops it, and it loses on time
    # (a smaller cap may end a search inside the margin on a fast machine, and lose later)
    cfg = write(tmp_path, "name: flag\ngame: breakthrough\nclock: '0.05+0'\ngames: 2\nmatches:\n"
                          "  - {player: 'MCTS(tm=0,sims=20000000)', opponent: Random}\n")
    run = CliRunner().invoke(cli, ["run", str(cfg), "--quiet", "--jobs", "1"])
    assert run.exit_code == 0, run.output
    assert "2 game(s) ended by time forfeit" in run.output
    rep = CliRunner().invoke(cli, ["report", "results/flag", "--format", "json"])
    assert rep.exit_code == 0, rep.output
    (row,) = json.loads(rep.output)
    assert row["time_forfeits"] == 2 and row["losses"] == 2
    assert row["player_budget"] == {"clock": "0.05+0", "sims": 20000000}
    text = CliRunner().invoke(cli, ["report", "results/flag"]).output
    assert "clock 0.05+0" in text
    pgn = CliRunner().invoke(cli, ["export", "results/flag", "--format", "pgn"])
    assert pgn.exit_code == 0
    # PGN as cutechess-cli writes it: Termination's fixed words, the time control, the time
    # left after each move; what the forfeit was is the last comment
    assert pgn.output.count('[Termination "time forfeit"]') == 2
    assert pgn.output.count('[TimeControl "0.05"]') == 2
    assert re.search(r"\{\[%clk 0:00:00\.\d{3}\] nodes=1 ", pgn.output)    # Random's moves
    assert len(re.findall(r"\{seat \d MCTS\(tm=0,sims=20000000\): lost on time \(clock 0\.05\+0",
                          pgn.output)) == 2
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

    assert move_bound(Budget(clock="60+0.5")) == \
        pytest.approx(MARGIN * (60 + CLOCK_MOVES * 0.5 + MARGIN_DEFAULT) + GRACE_S)
    # a long clock's move may take more than budgets.TIME_MAX: its worker is not killed for it
    assert move_bound(Budget(clock="86400+3600")) > 86400 + 3600
    assert move_bound(Budget(sims=100)) == move_bound(Budget(sims=100, clock=None))
    assert move_bound(Budget(clock="1+0", sims=10**8)) == move_bound(Budget(sims=10**8))


def test_arena_play_on_a_clock():
    ok = CliRunner().invoke(cli, ["play", "tictactoe", "MCTS", "Random", "--clock", "0:02+0.1",
                                  "--sims", "200"])
    assert ok.exit_code == 0, ok.output
    assert ok.output.splitlines()[0] == "MCTS (first) vs Random (second), clock 2+0.1"


@pytest.mark.parametrize("args,why", [
    (["--clock", "fast"], "--clock: expected a time control"),
    (["--clock", "5", "--time", "1"], "--clock and --time exclude each other"),
    (["--clock", "5"], "MCTS(tm=0) has no time management (tm=0)"),
])
def test_arena_play_bad_clocks_one_line_exit_2(args, why):
    res = CliRunner().invoke(cli, ["play", "tictactoe", "MCTS(tm=0)", "Random", *args])
    assert res.exit_code == 2 and why in res.output, res.output
    assert res.output.startswith("arena: error: ") and len(res.output.strip().splitlines()) == 1


def test_arena_play_with_a_players_own_clock():
    ok = CliRunner().invoke(cli, ["play", "tictactoe", "MCTS(clock=2+0.1,sims=200)",
                                  "MCTS(sims=50)"])
    assert ok.exit_code == 0, ok.output
    assert ok.output.splitlines()[0] == ("MCTS(clock=2+0.1,sims=200) (first) vs MCTS(sims=50) "
                                         "(second), clock 2+0.1 / none")
    for args, why in ((["MCTS(clock=2)", "Random", "--clock", "5"],
                       "MCTS(clock=2+0) has a clock of its own (2+0) beside --clock 5+0"),
                      (["MCTS(tm=0,clock=2)", "Random"], "has no time management (tm=0)")):
        res = CliRunner().invoke(cli, ["play", "tictactoe", *args])
        assert res.exit_code == 2 and why in res.output, res.output
        assert res.output.startswith("arena: error: ") and res.output.count("\n") == 1


def test_a_clock_written_as_a_bare_number_is_seconds_as_cutechess_reads_it(tmp_path):
    """YAML reads `clock: 60` (cutechess's tc=60) and `clock: 0.5` as numbers, not text."""
    exp = config.load(write(tmp_path, BASE + "clock: 60\nmatches:\n"
                            "  - {player: MCTS, opponent: Random, clock: {opponent: 0.5}}\n"))
    assert exp.budget == Budget(clock="60+0")
    assert exp.pairings[0].opponent_budget == Budget(clock="0.5+0")


def test_a_players_own_clock_gives_it_time_odds_in_every_kind_of_entry(tmp_path):
    exp = config.load(write(tmp_path, BASE + "budget: {sims: 10}\ntimemargin: 100\nmatches:\n"
                            "  - {player: 'MCTS(clock=0:02+0.02)', opponent: Random}\n"
                            "  - round_robin: ['MCTS(clock=1,sims=99)', 'FlatMC(clock=40/2)',"
                            " Greedy]\n"))
    a, rr1, rr2, rr3 = exp.pairings
    assert a.player == "MCTS(clock=2+0.02)"             # one text form, like the config's
    assert a.player_budget == Budget(clock="2+0.02", margin=0.1)
    assert a.opponent_budget is None                    # the experiment's 10 sims a move
    assert rr1.player_budget == Budget(clock="1+0", sims=99, margin=0.1)   # sims: a cap
    assert rr1.opponent_budget == Budget(clock="40/2+0", margin=0.1)
    # on a clocked experiment the player's own clock is its side's, the other side keeps
    # the experiment's
    exp = config.load(write(tmp_path, BASE + "clock: '5+0.05'\nmatches:\n"
                            "  - {player: 'MCTS(clock=1+0.01)', opponent: MCTS}\n"))
    assert exp.pairings[0].player_budget == Budget(clock="1+0.01")
    assert exp.pairings[0].opponent_budget is None and exp.budget == Budget(clock="5+0.05")




def test_a_players_own_clock_plays_is_stored_exported_and_reported(tmp_path, monkeypatch):
    """Time odds given in the spec: each side's clock counts its own time, the store keeps each
    side's budget, PGN says each side's control as cutechess-cli does, the report shows both."""
    monkeypatch.chdir(tmp_path)
    cfg = write(tmp_path, "name: odds\ngame: tictactoe\ngames: 2\nbudget: {sims: 20}\n"
                          "matches:\n  - {player: 'MCTS(clock=30+0.5,sims=40)', "
                          "opponent: 'MCTS(clock=0:20)'}\n")
    run = CliRunner().invoke(cli, ["run", str(cfg), "--quiet", "--jobs", "1"])
    assert run.exit_code == 0, run.output
    rep = CliRunner().invoke(cli, ["report", "results/odds", "--format", "json"])
    (row,) = json.loads(rep.output)
    assert row["games"] == 2 and row["time_forfeits"] == 0
    assert row["player_budget"] == {"clock": "30+0.5", "sims": 40}
    assert row["opponent_budget"] == {"clock": "20+0"}
    text = CliRunner().invoke(cli, ["report", "results/odds"]).output
    assert re.search(r"MCTS\(clock=30\+0.5,sims=40\) vs MCTS\(clock=20\+0\) +clock 30\+0.5, 40 "
                     r"sims +clock 20\+0\n", text)
    pgn = CliRunner().invoke(cli, ["export", "results/odds", "--format", "pgn"]).output
    assert "[TimeControl " not in pgn
    # seat-swapped: the player is White in one game, Black in the other
    assert pgn.count('[WhiteTimeControl "30+0.5"]') == pgn.count('[BlackTimeControl "20"]') == 1
    assert pgn.count('[WhiteTimeControl "20"]') == pgn.count('[BlackTimeControl "30+0.5"]') == 1
    assert re.search(r"\{\[%clk 0:00:(19|2\d|3\d)\.\d{3}\] sims=", pgn)
