"""`arena run` end to end (fake players): dry run, summary, option errors, Ctrl-C, replay."""
import importlib
import re
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers import arena_env, stored, wait_for

from mcts_arena import stats
from mcts_arena.cli import cli
from mcts_arena.results.replay import replay_game
from mcts_arena.results.store import Store
from mcts_arena.results.summary import summary_table
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.match import GameRecord
from mcts_arena.runner.writer import Writer

CFG = ("name: c\ngame: breakthrough\nbudget: {sims: 10}\ngames: 6\nseed: 3\n"
       "matches:\n  - {player: 'Random(im0.5)', opponent: Random}\n"
       "  - {player: Boom, opponent: Random}\n")


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    (tmp_path / "c.yaml").write_text(CFG)
    return tmp_path


def run(*args):
    return CliRunner().invoke(cli, ["run", *args])


def test_dry_run_prints_the_plan_and_plays_nothing(cwd):
    res = run("c.yaml", "--dry-run", "--time", "0.5", "--jobs", "1")
    assert res.exit_code == 0, res.output
    assert res.output.splitlines() == [
        "experiment c: breakthrough, 0.5 s/move, openings start, seed 3",
        "  pairing                   games  to play    est. CPU",
        "  Random(im0.5) vs Random       6        6       3m00s",
        "  Boom vs Random                6        6       3m00s",
        ("2 pairings, 12 games, 12 to play; estimated 6m00s CPU, about 6m00s on 1 worker "
        "(at 60 plies per game)"),
        "results: results/c (dry run: nothing played)"]
    assert not (cwd / "results").exists()


def test_run_prints_the_summary_with_errors_reported(cwd):
    res = run("c.yaml", "--quiet", "--jobs", "2")
    assert res.exit_code == 3, res.output       # Boom vs Random: every game an error game
    lines = res.output.splitlines()
    head = lines.index(next(line for line in lines if line.startswith("pairing")))
    assert lines[head].split() == ["pairing", "games", "W", "D", "L", "err", "win", "%", "[95%",
                                   "CI]", "pentanomial", "LL-LD-WL/DD-WD-WW", "pentanomial",
                                   "score", "%", "[95%", "CI]"]
    row = lines[head + 2].split()
    assert row[:3] == ["Random(im0.5)", "vs", "Random"] and row[3] == "6"
    w, d, lo = map(int, row[4:7])
    assert w + d + lo == 6 and row[7] == "0"
    low, high, _ = stats.score_interval(w, d, lo)     # the interval `arena report` prints
    assert row[8:11] == [f"{100 * (w + d / 2) / 6:.2f}", f"[{100 * low:.1f},",
                         f"{100 * high:.1f}]"]
    penta = list(map(int, row[11].split("-")))          # the 3 seat-swapped pairs
    assert len(penta) == 5 and sum(penta) == 3
    plo, phi = stats.pentanomial_interval(penta)
    assert row[12:] == [f"{100 * stats.pentanomial_score(penta):.2f}", f"[{100 * plo:.1f},",
                        f"{100 * phi:.1f}]"]
    assert lines[head + 3].split() == ["Boom", "vs", "Random", "0", "0", "0", "0", "6", "-",
                                       "-", "-"]
    assert "error games (not counted):" in lines
    assert sum("RuntimeError: boom on move 3" in line for line in lines) == 6
    assert lines[-2].startswith("12 games played in ")
    assert lines[-2].endswith("12/12 stored in results/c, 6 of them error games (the next run "
                              "replays them)")
    assert lines[-1] == ("arena: error: every game of 1 pairing(s) is an error game, nothing was "
                         "measured: Boom vs Random (6 of 6); see the errors above, fix the cause "
                         "and run again (error games are replayed)")


@pytest.mark.parametrize("args,message", [
    (["--time", "1", "--sims", "5"], "--time and --sims exclude each other; give one budget"),
    (["--jobs", "-1"], "--jobs must be an integer from 0 to 100000, got -1"),
    (["--games", "0"], "--games must be an integer from 1 to 100000, got 0"),
    (["--time", "-2"], "--time must be a number of seconds from 0.0001 to 3600, got -2.0"),
    (["--sims", "0"], "--sims must be an integer from 1 to 100000000, got 0"),
    (["--jobs", "two"], "--jobs must be an integer from 0 to 100000, got two"),
])
def test_option_errors(cwd, args, message):
    res = run("c.yaml", *args)
    assert res.exit_code == 2 and res.output == f"arena: error: {message}\n"


def test_help_says_what_new_does():
    res = CliRunner().invoke(cli, ["run", "--help"])
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    assert "renamed to <dir>.<YYYYmmdd-HHMMSS> (kept, never deleted)" in text
    assert "0 = every CPU" in text


@pytest.mark.process
def test_sigint_keeps_finished_games_and_says_how_to_resume(tmp_path):
    (tmp_path / "c.yaml").write_text(
        CFG.replace("games: 6", "games: 20").replace("Boom", "'Sleepy(d0.004)'")
        .replace("'Random(im0.5)'", "'Sleepy(d0.004,im0.5)'"))
    cmd = [sys.executable, "-m", "mcts_arena", "run", "c.yaml", "--jobs", "2", "--quiet"]
    db = tmp_path / "results" / "c" / "arena.sqlite"
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=arena_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert wait_for(lambda: stored(db) >= 2 or proc.poll() is not None)
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    kept = stored(db)
    assert 2 <= kept < 40
    assert re.search(rf"arena: interrupted: {kept} of 40 games stored, {40 - kept} to play; "
                     r"resume with: arena run c.yaml --jobs 2\n", err), err
    assert "Traceback" not in err
    assert "pairing" in out                                  # the summary of what is stored
    again = subprocess.run(cmd, cwd=tmp_path, env=arena_env(), capture_output=True, text=True, check=False,
                           timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"{40 - kept} games played" in again.stdout and "40/40 stored" in again.stdout


def test_replay_game(cwd):
    assert run("c.yaml", "--quiet", "--games", "2").exit_code == 3    # Boom: all error games
    exp = config.load("c.yaml", players=importlib.import_module("fakes"))
    gid = plan_mod.make_plan(exp).game_ids()[1]               # Random moves first here
    with Store.open("results/c") as s:
        g = s.game(gid)
    text = replay_game("results/c", gid)
    lines = text.splitlines()
    assert lines[0] == (f"game {gid} (breakthrough): Random (seat 0, White) vs Random(im0.5) "
                        f"(seat 1, Black)")
    assert lines[1] == f"opening: {g['opening']}"
    played = [line.split()[3] for line in lines if re.match(r"^ *\d+\. seat [01] ", line)]
    assert played == g["moves"]
    who = "Random" if g["winner"] == 0 else "Random(im0.5)"
    colour = ("White", "Black")[g["winner"]]
    assert lines[-1] == (f"result: {who} wins (seat {g['winner']}, {colour}) after "
                         f"{g['plies']} plies")
    from mcts_arena.errors import UserError
    with pytest.raises(UserError, match=r"no game 'nope' in results/c; ids look like c/p"):
        replay_game("results/c", "nope")


def test_summary_shows_kalah_pairs(tmp_path):
    def rec(k, swap, winner):
        return GameRecord(game_id=f"k/p1/{k}/{swap}", pairing_id="p1", pair_index=k, swap=swap,
                          seats=("A", "B"), budgets=({"sims": 1},) * 2, seeds=(1, 2), opening="",
                          winner=winner, reason="normal", plies=1, moves=["x"], stats=[{}])
    with Writer.open(tmp_path) as s:
        s.save_experiment("k", '{"game": "kalah"}', {"game": "kalah"},
                          [{"pairing_id": "p1", "player": "A", "opponent": "B", "games": 8}])
        # pairs: player wins both; seat 0 wins both (discarded); draw + draw; player win + draw
        for k, (w0, w1) in enumerate([(0, 1), (0, 0), (None, None), (0, None)]):
            s.add_game(rec(k, 0, w0))
            s.add_game(rec(k, 1, w1))
        table = summary_table(s)
    lines = table.splitlines()
    assert lines[0].endswith("pair rule W-D-L  disc   pair-rule win % [95% CI]")
    # games: W = 0/0,1/1,0/0,3/0 -> wins 4, draws 3, losses 1
    assert lines[2].split()[:8] == ["A", "vs", "B", "8", "4", "3", "1", "0"]
    low, high, _ = stats.score_interval(2, 0, 0)
    assert lines[2].split()[11:] == ["2-1-0", "1", "100.00", f"[{100 * low:.1f},",
                                     f"{100 * high:.1f}]"]
