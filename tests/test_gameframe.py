"""The paper authors' engine as a player, `gameframe(LABEL)`: its spec, its effort budget from its
label's own rates entry, its build checks (one line, exit 2, nothing written), and games through
its GTP front end — against a stand-in `java` that speaks the front end's dialect everywhere, and
against the real engine where a build of it exists ($MCTS_ARENA_GAMEFRAME)."""
import json
import os
import stat
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import job, start_text

from mcts_arena import players
from mcts_arena.budgets import Budget
from mcts_arena.cli import cli
from mcts_arena.errors import EffortError, ExternalError
from mcts_arena.players import SpecError, gameframe
from mcts_arena.runner import effort
from mcts_arena.runner.match import play_game

# A stand-in for `java -cp BUILD experiments.ArenaGtp ...`: it writes its argv to $GF_ARGV,
# then plays the first legal move, answering `arena_stats` as the front end does; GF_MODE=illegal
# answers a move that is not one.
STAND_IN = r'''#!{python}
import json, os, sys
from mcts_arena import games
with open(os.environ["GF_ARGV"], "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\n")
game = sys.argv[sys.argv.index("--game") + 1]
state = games.new_state(game)
def say(text=""):
    sys.stdout.write("= " + text + "\n\n"); sys.stdout.flush()
for line in sys.stdin:
    w = line.split()
    if not w:
        continue
    cmd = w[0]
    if cmd == "list_commands":
        say("\n".join(["protocol_version", "name", "boardsize", "clear_board", "play",
                       "genmove", "set_position", "arena_stats", "quit"]))
    elif cmd == "name":
        say("gameframe-stand-in")
    elif cmd == "clear_board":
        state = games.new_state(game); say()
    elif cmd == "set_position":
        state = games.new_state(game, line.split(None, 1)[1].strip()); say()
    elif cmd == "play":
        state.play(state.parse_move(w[2])); say()
    elif cmd == "genmove":
        if os.environ.get("GF_MODE") == "illegal":
            say("z9-z9"); continue
        mv = state.moves()[0]; state.play(state.parse_move(mv)); say(mv)
    elif cmd == "arena_stats":
        say("sims=42 stopped=1")
    elif cmd == "quit":
        say(); break
    else:
        say("2" if cmd == "protocol_version" else "")
'''


@pytest.fixture
def stand_in(tmp_path, monkeypatch):
    """A build folder that passes the checks and a `java` on the PATH that is the stand-in;
    returns the file the stand-in writes its command lines to."""
    build = tmp_path / "build"
    build.mkdir()
    (build / "BUILD.json").write_text(json.dumps({
        "commit": gameframe.COMMIT, "patch": gameframe.PATCH.name,
        "patch_sha": gameframe._sha(gameframe.PATCH), "front_end": gameframe.FRONT_END.name,
        "front_end_sha": gameframe._sha(gameframe.FRONT_END), "java": "stand-in"}))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    java = bin_dir / "java"
    java.write_text(STAND_IN.replace("{python}", sys.executable))
    java.chmod(java.stat().st_mode | stat.S_IXUSR)
    argv_file = tmp_path / "argv.jsonl"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv(gameframe.BUILD_ENV, str(build))
    monkeypatch.setenv("GF_ARGV", str(argv_file))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(p for p in sys.path if p))
    return argv_file


def test_the_spec_round_trips_and_names_the_player():
    sp = players.parse("gameframe( ab_tt_ev1 )", "breakthrough")
    assert (sp.kind, sp.target, sp.canonical) == ("gameframe", "ab_tt_ev1",
                                                    "gameframe(ab_tt_ev1)")
    assert sp.display_name == "gameframe(ab_tt_ev1)"
    named = players.parse("gameframe(mcts_s_h_pd4, name=theirs, sims=500)", "kalah")
    assert named.canonical == "gameframe(mcts_s_h_pd4,name=theirs,sims=500)"
    assert named.display_name == "theirs" and named.budget.sims == 500
    assert players.parse(named.canonical, "kalah").canonical == named.canonical


@pytest.mark.parametrize("text,game,message", [
    ("gameframe(uct_x)", "breakthrough", "'uct_x' is not a label of the engine"),
    ("gameframe(mcts_s_sl)", "breakthrough", "leave _sl out of the label"),
    ("gameframe(name=x)", "breakthrough", "the first argument must be the engine's label"),
    ("gameframe(ab, depth=3)", "breakthrough", "unknown option 'depth'"),
    ("gameframe(ab)", "hex", "gameframe plays breakthrough, kalah, not hex"),
    ("gameframe(ab)", "kalah(stones=3)", "with its default parameters only"),
    ("gameframe(ab)", "backgammon", "cannot play backgammon"),
])
def test_bad_gameframe_specs_are_one_line(text, game, message):
    with pytest.raises(SpecError) as e:
        players.parse(text, game)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_matched_effort_gives_the_label_its_own_entry():
    sp = players.parse("gameframe(ab_ev0)", "breakthrough")
    entry = effort.rate_by_label("breakthrough", "ab_ev0")
    b = effort.resolve(sp, 0.1, players.parse)
    assert (b.sims, b.unit, b.rate_of) == (round(0.1 * entry.per_second), "nodes", entry.player)
    ours = effort.resolve(players.parse("αβ(efMS,tt=0,hh=0)", "breakthrough"), 0.1,
                          players.parse)
    assert ours.sims == b.sims           # like for like: the same nodes a move
    mcts = effort.resolve(players.parse("gameframe(mcts_s_h_pd4)", "kalah"), 1.0, players.parse)
    assert mcts.unit == "sims"
    with pytest.raises(EffortError, match="no engine rate for the label ab_ev9 in breakthrough "
                                          r"\(labels measured: .*ab_ev0"):
        effort.resolve(players.parse("gameframe(ab_ev9)", "breakthrough"), 1.0, players.parse)


def test_missing_build_or_java_is_one_line_exit_2(tmp_path, monkeypatch):
    monkeypatch.setenv(gameframe.BUILD_ENV, str(tmp_path / "none"))
    res = CliRunner().invoke(cli, ["gameframe", "check"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "the authors' engine is not built in" in res.output
    res = CliRunner().invoke(cli, ["play", "breakthrough", "gameframe(ab_ev0)", "Random",
                                   "--sims", "10"])
    assert res.exit_code == 2 and "Traceback" not in res.output
    monkeypatch.setenv("PATH", str(tmp_path))        # no java anywhere
    with pytest.raises(ExternalError, match="no Java runtime"):
        gameframe.check_build(tmp_path)


def test_a_run_with_no_build_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(gameframe.BUILD_ENV, str(tmp_path / "none"))
    cfg = tmp_path / "c.yaml"
    cfg.write_text("game: breakthrough\nbudget: {effort: 0.01}\ngames: 2\nmatches:\n"
                   "  - {player: 'gameframe(ab_ev0)', opponent: 'αβ(efMS,tt=0,hh=0)'}\n")
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "out")])
    assert res.exit_code == 2 and "not built" in res.output
    assert not (tmp_path / "out").exists()


def test_build_refuses_what_is_not_a_clone_and_writes_nothing(tmp_path):
    res = CliRunner().invoke(cli, ["gameframe", "build", "--src", str(tmp_path),
                                   "--out", str(tmp_path / "b")])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "is not a git clone of tpepels/mcts_gameframe" in res.output
    assert not (tmp_path / "b").exists()


def test_a_build_folder_that_is_a_file_is_one_line(tmp_path, monkeypatch):
    (tmp_path / "clone" / ".git").mkdir(parents=True)
    (tmp_path / "afile").write_text("x")
    monkeypatch.setenv(gameframe.BUILD_ENV, str(tmp_path / "afile"))
    res = CliRunner().invoke(cli, ["gameframe", "build", "--src", str(tmp_path / "clone")])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "is a file, not a build folder" in res.output
    assert (tmp_path / "afile").read_text() == "x"


def test_a_build_from_another_patch_is_refused(stand_in):
    build = Path(os.environ[gameframe.BUILD_ENV])
    meta = json.loads((build / "BUILD.json").read_text())
    (build / "BUILD.json").write_text(json.dumps({**meta, "patch_sha": "0" * 16}))
    with pytest.raises(ExternalError, match="built from another patch or front end"):
        gameframe.check_build()


def _game(spec, opp, budget, game="breakthrough"):
    j = job((spec, opp), game, budgets=(budget, budget))
    return play_game(j, j.games[0], start_text(game), players, [])


def test_a_game_through_the_front_end_records_the_engines_work(stand_in):
    rec = _game("gameframe(ab_ev0)", "Random", {"sims": 1234})
    assert rec.reason == "normal", rec.error
    mine = [m for m in rec.stats if m.get("seat") == 0]
    assert mine and all(m["sims"] == 42 for m in mine)
    argv = json.loads(stand_in.read_text().splitlines()[-1])
    assert argv[argv.index("--work") + 1] == "1234" and argv[argv.index("--label") + 1] == "ab_ev0"
    assert "--time" not in argv
    _game("gameframe(mcts_s)", "Random", {"time": 0.05})
    argv = json.loads(stand_in.read_text().splitlines()[-1])
    assert argv[argv.index("--time") + 1] == "0.05" and "--warmup" in argv


def test_a_kalah_random_board_reaches_the_engine_by_set_position(stand_in):
    from mcts_arena import games

    board = games.new_state("kalah", "3,5,4,4,6,2,0/4,4,3,5,4,4,0 0")
    j = job(("gameframe(mcts_s_h_pd4)", "Random"), "kalah", budgets=({"sims": 9}, {"sims": 9}))
    rec = play_game(j, j.games[0], board.to_text(), players, None)   # no moves reach it
    assert rec.reason == "normal", rec.error


def test_an_illegal_answer_is_a_recorded_forfeit(stand_in, monkeypatch):
    monkeypatch.setenv("GF_MODE", "illegal")
    rec = _game("gameframe(ab_ev0)", "Random", {"sims": 100})
    assert rec.reason == "illegal_move" and "z9-z9" in rec.error


# ---- the real engine, where it is built --------------------------------------------------------
def _real_build() -> bool:
    try:
        gameframe.check_build()
        return True
    except ExternalError:
        return False


real = pytest.mark.skipif(not _real_build(), reason="the authors' engine is not built here "
                          "(arena gameframe build --src CLONE; $MCTS_ARENA_GAMEFRAME)")


@real
@pytest.mark.process
@pytest.mark.parametrize("game,spec,opp,budget", [
    ("breakthrough", "gameframe(mcts_s_h_efv0_ege0.1_det0.5_im0.4)", "MCTS(ipp)", {"sims": 300}),
    ("breakthrough", "gameframe(ab_tt_ev1)", "αβ(efLH,hh=0)", {"sims": 20000}),
    ("kalah", "gameframe(mcts_s_h_pd4)", "MCTS(fet4)", {"sims": 300}),
    ("kalah", "gameframe(ab)", "αβ(efRS,tt=0,hh=0)", {"sims": 20000}),
])
def test_the_authors_engine_plays_whole_legal_games_and_repeats_at_fixed_work(game, spec, opp,
                                                                              budget):
    from mcts_arena import games

    first = games.new_state(game) if game == "breakthrough" else \
        games.new_state(game, "2,6,4,3,5,4,0/4,4,5,3,4,4,0 0")
    runs = []
    for _ in range(2):
        j = job((spec, opp), game, budgets=(budget, budget))
        rec = play_game(j, j.games[0], first.to_text(), players,
                        [] if game == "breakthrough" else None)
        assert rec.reason == "normal", rec.error
        work = "nodes" if "ab" in spec else "sims"
        assert all(m[work] <= budget["sims"] for m in rec.stats if m.get("seat") == 0)
        runs.append((rec.moves, rec.winner))
    assert runs[0] == runs[1]       # the engine's generator is seeded by the game's seed


@real
@pytest.mark.process
def test_the_engines_breakthrough_board_follows_ours_move_for_move():
    """30 games of random moves and engine moves: after every move the engine's board (its
    showboard) is ours, every move it chooses is legal here, and it knows when a game is over."""
    import random
    import subprocess

    from mcts_arena import games

    argv = gameframe.argv("mcts_s", "breakthrough", 1, Budget(sims=30))
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)

    def send(command):
        p.stdin.write(command + "\n")
        p.stdin.flush()
        out = []
        while True:
            line = p.stdout.readline()
            if not line.strip() and out:
                return "\n".join(out)
            out.append(line.rstrip("\n"))

    rng = random.Random(5)
    try:
        for _ in range(30):
            s = games.new_state("breakthrough")
            send("clear_board")
            while not s.is_terminal():
                board = "/".join(row[1:] for row in send("showboard").splitlines()[1:9])
                assert board == s.to_text().split()[0]
                color = "wb"[s.to_move()]
                if rng.random() < 0.2:
                    move = send(f"genmove {color}")[2:].strip()
                    assert move in s.moves()
                else:
                    move = rng.choice(s.moves())
                    assert send(f"play {color} {move}").startswith("=")
                s.play(s.parse_move(move))
            assert send(f"genmove {'wb'[s.to_move()]}").startswith("?")
    finally:
        p.kill()
