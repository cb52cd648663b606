"""Store: idempotent inserts, pair scores, the lock, config-change refusal, resume after SIGKILL."""
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import arena_env, record, stored, wait_for

from mcts_arena import games
from mcts_arena.cli import cli
from mcts_arena.errors import StoreLockedError
from mcts_arena.results.store import Store
from mcts_arena.runner import config
from mcts_arena.runner.writer import Writer, acquire_lock

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def test_insert_is_idempotent(tmp_path):
    with Writer.open(tmp_path) as s:
        assert s.add_game(record()) is True
        assert s.add_game(record(winner=1)) is False       # same id: the first stays
        assert s.game_count() == 1
        g = s.game("e/p1/0/0")
        assert g["winner"] == 0 and g["score"] == 1.0 and g["moves"] == ["a2-a3", "a7-a6", "b2-b3"]
        assert g["seeds"] == [11, 12] and g["stats"][0]["sims"] == 5


def test_error_game_is_replaced_by_a_later_play_and_not_done(tmp_path):
    with Writer.open(tmp_path) as s:
        s.add_game(record(winner=None, reason="error", error="seat 0 A: RuntimeError: x"))
        assert s.done_ids() == set()                        # resume retries it
        assert s.game("e/p1/0/0")["score"] is None
        assert s.add_game(record(winner=1)) is True
        assert s.game_count() == 1 and s.game("e/p1/0/0")["reason"] == "normal"
        assert s.done_ids() == {"e/p1/0/0"}


@pytest.mark.parametrize("w0,w1,outcome", [
    (0, 0, "discarded"),    # seat 0 won both games: the same side
    (0, 1, "player"),       # the player (seat 0 in game 0, seat 1 in game 1) won both
    (1, 0, "opponent"),
    (None, None, "draw"),
    (0, None, "player"),
])
def test_pair_outcome_is_stored_when_both_games_are(tmp_path, w0, w1, outcome):
    with Writer.open(tmp_path) as s:
        s.add_game(record("e/p1/0/0", swap=0, winner=w0))
        assert s.pair_outcomes("p1") == {}
        s.add_game(record("e/p1/0/1", swap=1, winner=w1))
        assert s.pair_outcomes("p1") == {outcome: 1}


def test_wal_and_full_sync(tmp_path):
    with Writer.open(tmp_path) as s:
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert s.conn.execute("PRAGMA synchronous").fetchone()[0] == 2       # FULL
        s.save_experiment("e", "{}", {"game": "breakthrough"},
                          [{"pairing_id": "p1", "player": "A", "opponent": "B", "games": 2}])
        exp = s.experiment()
        assert exp["name"] == "e" and exp["identity"] == {"game": "breakthrough"}
        assert exp["machine"]["cores"] == os.cpu_count() and exp["version"]


def test_reading_a_closed_store_leaves_no_file_behind(tmp_path):
    """A reader (arena report, show, serve) of a store no writer has open makes no -wal or
    -shm beside it (a plain mode=ro connection to a WAL database creates both and leaves
    them); a folder whose name needs quoting in a URI is still read."""
    d = tmp_path / "odd?name#%20x"
    with Writer.open(d) as s:
        s.add_game(record())
    before = sorted(p.name for p in d.iterdir())
    assert before == [".lock", "arena.sqlite"]
    with Store.open(d) as s:
        assert s.game_count() == 1 and s.game("e/p1/0/0")["plies"] == 3
        assert [g["game_id"] for g in s.game_list("p1")] == ["e/p1/0/0"]
    assert sorted(p.name for p in d.iterdir()) == before


def test_second_writer_is_refused(tmp_path):
    with Writer.open(tmp_path):
        with pytest.raises(StoreLockedError, match="in use by another 'arena run'"):
            Writer.open(tmp_path)
        with Store.open(tmp_path) as r:     # readers are welcome
            assert r.game_count() == 0
    Writer.open(tmp_path).close()                            # released on close


# ---- through the command line -----------------------------------------------------------
CFG = ("name: s\ngame: breakthrough\nbudget: {sims: 10}\ngames: 4\nseed: 5\n"
       "matches:\n  - {player: 'Random(im0.5)', opponent: Random}\n")


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    (tmp_path / "s.yaml").write_text(CFG)
    return tmp_path


def invoke(*args):
    return CliRunner().invoke(cli, ["run", *args, "--quiet", "--jobs", "1"])


def test_config_change_is_refused_unless_new(cwd):
    assert invoke("s.yaml").exit_code == 0
    (cwd / "s.yaml").write_text(CFG.replace("sims: 10", "sims: 20"))
    res = invoke("s.yaml")
    assert res.exit_code == 2
    assert res.output == ('arena: error: results/s holds games of a different config: budget was '
                          '{"sims": 10}, now {"sims": 20}; run with --new to move the old results '
                          'aside, or choose another --out DIR\n')
    res = invoke("s.yaml", "--time", "0.5")                 # a command-line budget is a change too
    assert res.exit_code == 2 and "budget was" in res.output
    (cwd / "s.yaml").write_text(CFG.replace("opponent: Random}", "opponent: Boom}"))
    res = invoke("s.yaml")
    assert res.exit_code == 2
    assert res.output == ("arena: error: results/s holds 4 games of Random(im0.5) vs Random, which "
                          "the config no longer has; run with --new to move the old results "
                          "aside, or choose another --out DIR\n")
    res = invoke("s.yaml", "--new")
    assert res.exit_code == 3, res.output           # Boom's games are all error games
    moved = [p for p in (cwd / "results").iterdir() if p.name.startswith("s.")]
    assert len(moved) == 1 and (moved[0] / "arena.sqlite").exists()
    assert f"moved the old results to results/{moved[0].name}" in res.output
    with Store.open(cwd / "results" / "s") as s:
        assert {p["opponent"] for p in s.pairings()} == {"Boom"}


@pytest.mark.slow
def test_more_games_and_pairings_extend(cwd):
    assert invoke("s.yaml").exit_code == 0
    (cwd / "s.yaml").write_text(CFG.replace("games: 4", "games: 6")
                                + "  - {player: Random, opponent: 'Random(im0.9)'}\n")
    res = invoke("s.yaml")
    assert res.exit_code == 0, res.output
    assert "8 games played" in res.output and "12/12 stored" in res.output
    res = invoke("s.yaml", "--games", "2")                  # fewer: nothing to play
    assert res.exit_code == 0 and "0 games played" in res.output


def test_locked_experiment_refuses_a_second_run(cwd):
    d = cwd / "results" / "s"
    d.mkdir(parents=True)
    fd = acquire_lock(d)
    try:
        res = invoke("s.yaml")
    finally:
        os.close(fd)
    assert res.exit_code == 2
    assert res.output == ("arena: error: results/s is in use by another 'arena run' (lock "
                          "results/s/.lock is held); wait for it to finish\n")


# ---- resume after a real SIGKILL ----------------------------------------------------------
SLOW_CFG = ("name: k\ngame: breakthrough\nbudget: {sims: 10}\ngames: 16\nseed: 9\n"
            "openings: {random_plies: 2}\n"
            "matches:\n  - {player: 'Sleepy(d0.003)', opponent: Random}\n"
            "  - {player: 'Sleepy(d0.003,im0.1)', opponent: Random}\n")


@pytest.mark.process
def test_resume_after_sigkill(tmp_path):
    (tmp_path / "k.yaml").write_text(SLOW_CFG)
    cmd = [sys.executable, "-m", "mcts_arena", "run", "k.yaml", "--jobs", "2", "--quiet"]
    db = tmp_path / "results" / "k" / "arena.sqlite"
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=arena_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        assert wait_for(lambda: stored(db) >= 3 or proc.poll() is not None)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(10)
    first = stored(db)
    assert 3 <= first < 32
    done = subprocess.run(cmd, cwd=tmp_path, env=arena_env(), capture_output=True, text=True, check=False,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "32/32 stored" in done.stdout
    with Store.open(tmp_path / "results" / "k") as s:
        rows = s.games()
        ids = [g["game_id"] for g in rows]
        assert len(ids) == len(set(ids)) == 32
        import importlib

        from mcts_arena.runner import plan as plan_mod
        exp = config.load(tmp_path / "k.yaml", players=importlib.import_module("fakes"))
        assert sorted(ids) == sorted(plan_mod.make_plan(exp).game_ids())
        for g in rows:                                      # every stored game is whole
            assert g["reason"] == "normal" and g["plies"] == len(g["moves"]) == len(g["stats"])
            st = games.new_state("breakthrough", g["opening"])
            for m in g["moves"]:
                st.play(m)
            assert st.is_terminal() and st.winner() == g["winner"]
