"""GNU Backgammon as a player (players/gnubg_player.py): the FIBS board we send, the moves we
read back, real games against Debian's gnubg (installed by `make test` as root), and its faults
with fake engines: missing, crashing, hanging, answering nonsense."""
from __future__ import annotations

import os
import sys
import textwrap

import pytest
from helpers import needs_gnubg

from mcts_arena import games, players
from mcts_arena.errors import SpecError
from mcts_arena.players import gnubg_player
from mcts_arena.players.gnubg_player import GnubgPlayer, fibs_board, read_move
from mcts_arena.players.gtp_process import EngineError
from mcts_arena.players.player import PlayerForfeit

START = "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5"


def test_fibs_board_of_the_opening():
    s = games.new_state("backgammon", f"{START} x 31 1")
    assert fibs_board(s) == (
        "board:You:gnubg:1:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:"
        "1:3:1:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
    # the side on roll is always "You", moving 24 -> 0; o's checkers are counted in its view
    s = games.new_state("backgammon", "bar:1,24:1,13:5,8:3,6:5/24:2,13:5,8:3,6:4,3:1 o 44 3")
    f = fibs_board(s).split(":")
    board = [int(v) for v in f[6:32]]
    assert board[0] == -1 and board[25] == 0 and board[3] == 1 and board[24] == 2
    assert f[-4] == "4"          # a double moves four checkers


@pytest.mark.parametrize("answer,ours", [("8/5 6/5", "8/5 6/5"), ("25/20 24/22*", "bar/20 24/22*"),
                                         ("6/0 6/5", "6/off 6/5"), ("take", "take"),
                                         ("13/7(2)", "13/7(2)"), ("6/3* 3/2", "6/3* 3/2")])
def test_read_move(answer, ours):
    assert read_move(answer) == ours


def test_a_hit_on_the_way_is_read_as_gnubg_meant_it():
    """gnubg's `6/3* 3/2` moves one checker through a blot it hits; without the mark the
    same checkers could have gone 6/4/2 (recorded in a run: 76 such answers, all legal)."""
    s = games.new_state("backgammon", "13:5,8:3,6:5,off:2/24:2,22:1,13:5,8:3,6:4 x 31 4")
    hit = s.parse_move(read_move("6/3* 3/2"))
    assert hit in s.move_ids() and "*" in s.format_move(hit)


def test_spec_and_refusals():
    assert players.parse("gnubg", "backgammon").canonical == "gnubg"
    assert players.parse("gnubg(plies=1)", "backgammon").canonical == "gnubg(plies=1)"
    with pytest.raises(SpecError, match="gnubg plays backgammon, not pig"):
        players.parse("gnubg", "pig")
    with pytest.raises(SpecError, match="out of range"):
        players.parse("gnubg(plies=3)", "backgammon")


def test_missing_gnubg_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(gnubg_player, "COMMAND", str(tmp_path / "no-gnubg-here"))
    with pytest.raises(SpecError, match=r"^gnubg: GNU Backgammon is not installed"):
        players.parse("gnubg", "backgammon")
    from click.testing import CliRunner

    from mcts_arena.cli import cli

    r = CliRunner().invoke(cli, ["play", "backgammon", "gnubg", "Random"])
    assert r.exit_code == 2
    assert r.output.strip() == ("arena: error: gnubg: GNU Backgammon is not installed "
                                "(apt-get install gnubg)")


@needs_gnubg
@pytest.mark.process
def test_gnubg_plays_book_moves_and_leaves_nothing_behind():
    p = players.make("gnubg(plies=1)", "backgammon", seed=1)
    s = games.new_state("backgammon", f"{START} x 31 1")
    move, _ = p.choose(s, time=1.0)
    assert s.format_move(move) == "8/5 6/5"
    s = games.new_state("backgammon", "6:2,5:2,off:11/24:2,13:5,8:3,6:5 x 61 30")
    assert s.format_move(p.choose(s, time=1.0)[0]) == "6/5 6/off"
    eng = p.engine
    pid, folder = eng.proc.proc.pid, eng.dir
    p.close()
    assert not os.path.exists(folder)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


@needs_gnubg
@pytest.mark.process
def test_a_whole_game_against_random():
    from mcts_arena.budgets import Budget
    from mcts_arena.runner.match import play_one

    rec = play_one(games.resolve("backgammon"), ("gnubg", "Random"),
                   (Budget(sims=1), Budget(sims=1)), 3, None, players)
    assert rec.reason == "normal" and rec.winner == 0, rec.error


def fake(tmp_path, body: str) -> str:
    """A fake gnubg: reads the commands from stdin, opens the socket named by `external`, and
    then does what `body` says with the connection `c`."""
    path = tmp_path / "fake-gnubg"
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent('''
        import socket, sys, time
        for line in sys.stdin:
            if line.startswith("external "):
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.bind(line.split()[1]); s.listen(1)
                c, _ = s.accept()
                break
        ''') + textwrap.dedent(body))
    path.chmod(0o755)
    return str(path)


@pytest.mark.process
@pytest.mark.parametrize("body,reason,text", [
    ("c.recv(1000); c.sendall(b'nonsense\\n'); time.sleep(30)\n", "illegal_move",
     "gnubg answered 'nonsense'"),
    ("c.recv(1000); time.sleep(30)\n", "time_forfeit", "gave no move within 0.500 s"),
])
def test_faults_become_forfeits(tmp_path, monkeypatch, body, reason, text):
    monkeypatch.setattr(gnubg_player, "COMMAND", fake(tmp_path, body))
    p = GnubgPlayer(players.parse("gnubg", "backgammon"), 1)
    s = games.new_state("backgammon", f"{START} x 31 1")
    p.new_game(s, [], None, 0.5)
    pid = p.engine.proc.proc.pid
    with pytest.raises(PlayerForfeit, match=text) as e:
        p.choose(s, time=0.1)
    assert e.value.forfeit == reason
    p.close()
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


@pytest.mark.process
def test_on_a_clock_a_hung_gnubg_is_killed_at_its_time_left_and_a_grace(tmp_path, monkeypatch):
    """The game loop gives a clocked game no per-move limit; the clock is the limit."""
    from mcts_arena.budgets import Budget
    from mcts_arena.players.timing import ClockLeft

    monkeypatch.setattr(gnubg_player, "COMMAND", fake(tmp_path, "c.recv(1000); time.sleep(30)\n"))
    p = GnubgPlayer(players.parse("gnubg", "backgammon"), 1)
    s = games.new_state("backgammon", f"{START} x 31 1")
    p.new_game(s, [], Budget(clock="0.3+0"), None)
    with pytest.raises(PlayerForfeit, match=r"gave no move within 1\.300 s") as e:
        p.choose(s, clock=ClockLeft(0.3, 0.0))
    assert e.value.forfeit == "time_forfeit"
    p.close()


@pytest.mark.process
def test_a_crash_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(gnubg_player, "COMMAND", fake(tmp_path, "c.recv(1000); sys.exit(3)\n"))
    p = GnubgPlayer(players.parse("gnubg", "backgammon"), 1)
    s = games.new_state("backgammon", f"{START} x 31 1")
    p.new_game(s, [], None, 5.0)
    with pytest.raises(EngineError, match="gnubg closed its socket"):
        p.choose(s, time=0.1)
    assert p.engine is None
    dead = tmp_path / "dead-gnubg"
    dead.write_text(f"#!{sys.executable}\nimport sys\nsys.exit(4)\n")
    dead.chmod(0o755)
    monkeypatch.setattr(gnubg_player, "COMMAND", str(dead))
    with pytest.raises(EngineError, match=r"engine exited \(exit status 4\) while starting"):
        p.new_game(s, [], None, 5.0)


@pytest.mark.process
def test_startup_check_refuses_nonsense_in_one_line(tmp_path, monkeypatch):
    """`arena run` starts every engine once before it writes anything (players.check_startup):
    a gnubg that answers nonsense to `version` stops it with one line."""
    from mcts_arena.budgets import Budget

    monkeypatch.setattr(gnubg_player, "COMMAND",
                        fake(tmp_path, "c.recv(1000); c.sendall(b'nonsense\\n'); time.sleep(30)\n"))
    with pytest.raises(SpecError, match=r"^gnubg: unexpected answer 'nonsense' to 'version'$"):
        players.check_startup("gnubg", "backgammon", Budget(time=0.1))
