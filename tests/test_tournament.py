"""Tournaments: built-in entrant lists, YAML validation, elimination end to end with its bracket
printed and re-rendered by `arena report`, playoffs, round robin, gauntlet, resume after SIGKILL."""
import importlib
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner
from helpers import arena_env, stored, wait_for

from mcts_arena.cli import cli
from mcts_arena.errors import UserError
from mcts_arena.paper import load_paper_results
from mcts_arena.results import tournament as tournament_state
from mcts_arena.results.store import Store
from mcts_arena.runner import config, tournament

REAL = importlib.import_module("mcts_arena.players")


@pytest.mark.parametrize("name,game,ev,n,first,spec_of_4", [
    ("fet", "kalah", None, 13, "mcts_h_fet0", "MCTS(fet4)"),
    ("fet", "breakthrough", None, 13, "mcts_h_fet0", "MCTS(ipp,fet4)"),
    ("fet", "breakthrough", "efLH", 15, "mcts_h_efv1_fet0", "MCTS(efLH,ipp,fet4)"),
    ("det", "breakthrough", None, 19, "mcts_h_det0.1", None),
    ("ege", "kalah", None, 13, "mcts_h_ege0.0", None),
    ("im", "kalah", None, 15, "mcts_h_im0", None),
])
def test_builtin_entrants(name, game, ev, n, first, spec_of_4):
    t = tournament.builtin(name, game, ev, REAL)
    labels = [lab for lab, _ in t.entrants]
    assert len(labels) == n and labels[0] == first and t.kind == "elimination"
    if spec_of_4:
        assert dict(t.entrants)[first.replace("0", "4", 1) if "fet0" in first else first] \
            == spec_of_4
    if t.paper:
        paper = load_paper_results().tournament(t.paper)
        assert labels == paper.entrants
        assert t.games == paper.games_per_match


def test_builtin_specs_per_game():
    assert dict(tournament.builtin("im", "kalah", None, REAL).entrants)["mcts_h_im0.4"] \
        == "MCTS(fet4,im0.4)"
    assert dict(tournament.builtin("im", "breakthrough", None, REAL).entrants)["mcts_h_im0.4"] \
        == "MCTS(bl,im0.4)"
    assert dict(tournament.builtin("im", "breakthrough", "efLH", REAL).entrants)[
        "mcts_h_efv1_im0.6"] == "MCTS(bl',im0.6)"
    assert dict(tournament.builtin("ege", "breakthrough", "efLH", REAL).entrants)[
        "mcts_h_efv1_ege0.3"] == "MCTS(efLH,ipp,ege0.3)"   # the authors: mcts_s_h_efv1_ege (h = ipp)
    t = tournament.builtin("det", "breakthrough", None, REAL)
    assert t.name == "tournament-det-breakthrough" and t.paper == "breakthrough-efms-det"


@pytest.mark.parametrize("args,message", [
    (["fet", "--game", "kalah", "--eval", "efLH"],
     "--eval efLH: the tournaments of kalah use its one evaluation efRS"),
    (["nosuch"], "unknown tournament 'nosuch'; valid: fet, det, ege, im or a YAML file"),
    (["fet", "--game", "chess"], "unknown game 'chess'"),
    (["fet", "--games", "3", "--sims", "5"], "--games must be even for an elimination"),
    (["fet", "--time", "1", "--sims", "5"], "--time and --sims exclude each other"),
])
def test_cli_mistakes_are_one_line(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["tournament", *args])
    assert res.exit_code == 2 and message in res.output, res.output
    assert not (tmp_path / "results").exists()


@pytest.mark.parametrize("body,message", [
    ("kind: swiss\nentrants: [Random, Random]\n", "kind: unknown kind 'swiss'"),
    ("kind: elimination\n", "entrants: missing required field"),
    ("kind: elimination\nentrants: [Random]\n", "entrants: expected at least 2 entrants"),
    ("kind: elimination\nentrants: [Random, Nope]\n", "entrants[1]: bad player 'Nope'"),
    ("kind: elimination\ngames: 3\nentrants: [Random, 'Random(im0.1)']\n",
     "games: an elimination match is seat-swapped pairs"),
    ("kind: round_robin\nentrants: [Random, 'Random(im0.1)']\ntie: coin\n", "tie: unknown tie"),
    ("kind: round_robin\nentrants: [Random, 'Random(im0.1)']\nplayer: Random\n",
     "player: only a gauntlet has a 'player'"),
])
def test_yaml_mistakes(tmp_path, monkeypatch, body, message):
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = tmp_path / "t.yaml"
    f.write_text("game: tictactoe\nbudget: {sims: 5}\n" + body)
    with pytest.raises(UserError) as e:
        tournament.resolve(str(f))
    assert message in str(e.value) and str(e.value).startswith(f"{f}: ")


def test_an_entrants_own_clock_without_time_management_needs_a_cap(tmp_path, monkeypatch):
    """An entrant on its own clock with tm=0 and no sims= would search each move to no cap:
    refused in one line, nothing written, like the experiment config refuses it."""
    monkeypatch.chdir(tmp_path)
    f = _tour(tmp_path, "kind: round_robin\nentrants: ['MCTS(tm=0,clock=1)', Random]\n")
    res = CliRunner().invoke(cli, ["tournament", str(f)])
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert "MCTS(tm=0,clock=1+0) has no time management (tm=0)" in res.output
    assert not (tmp_path / "results").exists()
    ok = tournament.resolve(str(_tour(tmp_path, "kind: round_robin\nentrants: "
                                                "['MCTS(clock=1+0.01)', Random]\n")))
    assert ok.budgets["MCTS(clock=1+0.01)"] == config.Budget(clock="1+0.01")


def _tour(tmp_path, body, name="t"):
    f = tmp_path / f"{name}.yaml"
    f.write_text(f"name: {name}\ngame: tictactoe\nbudget: {{sims: 5}}\n" + body)
    return f


@pytest.mark.slow
def test_elimination_end_to_end_and_report_rerenders_the_bracket(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["tournament", "fet", "--game", "tictactoe", "--sims", "10",
                                   "--games", "2", "--jobs", "2", "--quiet"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert out.startswith("tournament fet: elimination, tictactoe, 15 entrants, 2 games per "
                          "match at 10 sims/move, counting wins, tie rule first\n")
    assert "round 1\nwinner mcts_h_" in out and "mcts_h_fet10 gets a by" in out
    assert "round 4\nwinner " in out and "\nWinner: mcts_h_fet" in out
    bracket = out[out.index("round 1"):out.index("Winner:")]
    d = tmp_path / "results" / "tournament-fet-tictactoe"
    with Store.open(d) as s:
        assert s.game_count() == 2 * 14                # 15 entrants: 14 matches
        text = tournament_state.render_stored(s)
    assert bracket in text
    rep = CliRunner().invoke(cli, ["report", str(d)])
    assert bracket in rep.stdout and "Winner: mcts_h_fet" in rep.output
    again = CliRunner().invoke(cli, ["tournament", "fet", "--game", "tictactoe", "--sims", "10",
                                     "--games", "2", "--jobs", "2", "--quiet"])
    assert again.exit_code == 0 and again.stdout == out      # finished: nothing replayed
    other = CliRunner().invoke(cli, ["tournament", "fet", "--game", "tictactoe", "--sims", "10",
                                     "--games", "4", "--quiet"])
    assert other.exit_code == 2 and "games was 2, now 4" in other.output


@pytest.mark.slow
def test_playoffs_break_ties_up_to_the_cap(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = _tour(tmp_path, "kind: elimination\ngames: 2\ntie: playoff\nmax_playoffs: 2\n"
                        "entrants: [Random, 'Random(im0.1)', 'Random(im0.2)', 'Random(im0.3)', "
                        "'Random(im0.4)']\n")
    res = CliRunner().invoke(cli, ["tournament", str(f), "--jobs", "2", "--quiet"])
    assert res.exit_code == 0, res.output
    d = tmp_path / "results" / "tournament-t-tictactoe"
    with Store.open(d) as s:
        spec = tournament_state.from_settings(__import__("json").loads(s.get_meta("tournament")))
        st = tournament_state.state(spec, tournament_state.stored_results(s))
        games = s.pairing_games_count()
    assert st.done and st.bracket.done
    for rnd in st.bracket.rounds:
        for m in rnd.matches:
            assert not m.tied or m.playoffs == 2
            pid = next(p.id for p in st.matches.values() if (p.a, p.b) == (m.a, m.b))
            assert games[pid] == 2 + 2 * m.playoffs


@pytest.mark.slow
def test_round_robin_and_gauntlet(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = _tour(tmp_path, "kind: round_robin\ngames: 4\nentrants: [Random, 'Random(im0.1)', "
                        "'Random(im0.2)']\n", "rr")
    res = CliRunner().invoke(cli, ["tournament", str(f), "--jobs", "2", "--quiet"])
    assert res.exit_code == 0, res.output
    assert "Elo (Bradley-Terry)" in res.output and "Random(im0.2)" in res.output
    lines = [ln for ln in res.output.splitlines() if ln[:2].strip().isdigit()]
    assert len(lines) == 3 and all(ln.split()[-2] == "8" for ln in lines)   # 2 x 4 games
    g = _tour(tmp_path, "kind: gauntlet\ngames: 2\nplayer: 'Random(im0.5)'\n"
                        "entrants: [Random, 'Random(im0.1)']\n", "g")
    res = CliRunner().invoke(cli, ["tournament", str(g), "--jobs", "2", "--quiet"])
    assert res.exit_code == 0, res.output
    assert "Random(im0.5) against each entrant:" in res.output
    assert res.output.count("  vs Random") == 2


@pytest.mark.process
def test_resume_after_sigkill(tmp_path):
    f = tmp_path / "slow.yaml"
    f.write_text("name: slow\nkind: elimination\ngame: breakthrough\nbudget: {sims: 5}\n"
                 "games: 4\nentrants: ['Sleepy(d0.002)', 'Sleepy(d0.002,im0.1)', "
                 "'Sleepy(d0.002,im0.2)', 'Sleepy(d0.002,im0.3)']\n")
    cmd = [sys.executable, "-m", "mcts_arena", "tournament", "slow.yaml", "--jobs", "2", "--quiet"]
    db = tmp_path / "results" / "tournament-slow-breakthrough" / "arena.sqlite"
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=arena_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert wait_for(lambda: stored(db) >= 3 or proc.poll() is not None)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(10)
    first = stored(db)
    assert 3 <= first < 12
    done = subprocess.run(cmd, cwd=tmp_path, env=arena_env(), capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "round 1\n" in done.stdout and "round 2\n" in done.stdout
    assert "\nWinner: Sleepy(d0.002" in done.stdout
    with Store.open(db.parent) as s:
        ids = [g["game_id"] for g in s.games()]
    assert len(ids) == len(set(ids)) == 12               # 3 matches x 4 games, none twice


def test_builtin_default_game_is_the_first_with_tuning():
    # alphabetical registration put backgammon first; the brackets need a game they can tune
    assert tournament.default_game() == "breakthrough"
    assert tournament.resolve("fet", players=REAL).name == "tournament-fet-breakthrough"


@pytest.mark.parametrize("entrants,player,said", [
    ([("a", "MCTS(sims=560)"), ("b", "MCMS(c5,sims=86000)")], None,
     "4 games per match, each entrant at its own budget"),
    ([("a", "MCTS(sims=560)"), ("b", "Star2(sims=130000)")], ("g", "gnubg(plies=1)"),
     "4 games per match at 1 s/move where an entrant names none of its own"),
    ([("a", "MCTS(bl)"), ("b", "GTP(cmd=\"x, time=3\",name=e)")], None,
     "4 games per match at 1 s/move"),
])
def test_the_header_says_the_budget_the_entrants_play_at(entrants, player, said):
    from mcts_arena.budgets import Budget

    kind = "gauntlet" if player else "round_robin"
    spec = tournament_state.Tournament(name="t", title="t", kind=kind, game="backgammon",
                                       entrants=entrants, budget=Budget.of({"time": 1.0}),
                                       games=4, player=player)
    assert tournament_state.header(spec).endswith(said)
