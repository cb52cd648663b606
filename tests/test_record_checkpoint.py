"""tools/record_checkpoint.py: a tournament stopped mid-bracket, saved while it plays, restored
into a fresh results folder and resumed, ends with exactly the games of one played straight
through; bad input is one line and exit 2."""
import importlib.util
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import stored, wait_for

from mcts_arena.results import archive
from mcts_arena.runner import config

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("record_checkpoint",
                                               ROOT / "tools" / "record_checkpoint.py")
checkpoint = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(checkpoint)

# Kalah's fet bracket: 13 entrants, 12 matches of 4 games (48), a few seconds a run
ARGS = ["tournament", "fet", "--game", "kalah", "--sims", "1500", "--games", "4", "--jobs", "1",
        "--quiet"]


def env() -> dict:
    """The built-in players (not the tests' fakes), from this checkout."""
    e = {k: v for k, v in os.environ.items() if k != config.PLAYERS_ENV}
    e["PYTHONPATH"] = os.pathsep.join([str(ROOT), e.get("PYTHONPATH", "")])
    return e


def tournament(cwd: Path, out: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "mcts_arena", *ARGS, "--out", out]
    return subprocess.run(cmd, cwd=cwd, env=env(), capture_output=True, text=True, timeout=300)


def games_of(path: Path) -> list[tuple]:
    _head, games = archive.read(path)
    return [(g["pairing_id"], g["pair_index"], g["swap"], g["seats"], g["moves"], g["winner"])
            for g in games]


@pytest.mark.process
def test_a_stopped_bracket_saved_and_restored_elsewhere_resumes_to_the_same_games(tmp_path):
    straight = tournament(tmp_path, "straight/tournament-fet-kalah")
    assert straight.returncode == 0, straight.stderr

    here = tmp_path / "here"
    db = here / "tournament-fet-kalah" / "arena.sqlite"
    cmd = [sys.executable, "-m", "mcts_arena", *ARGS, "--out", str(db.parent)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert wait_for(lambda: stored(db) >= 6 or proc.poll() is not None)
    # saved while the run still plays: a consistent snapshot of the store
    assert checkpoint.main(["save", str(tmp_path / "saved"), "--results", str(here),
                            "tournament-fet-kalah"]) == 0
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=60)
    saved = tmp_path / "saved" / "tournament-fet-kalah.jsonl.gz"
    kept = len(games_of(saved))
    assert 6 <= kept < 48

    elsewhere = tmp_path / "elsewhere"                  # another machine: only the saved file
    assert checkpoint.main(["restore", str(tmp_path / "saved"), "--results", str(elsewhere)]) == 0
    assert stored(elsewhere / "tournament-fet-kalah" / "arena.sqlite") == kept
    resumed = tournament(tmp_path, str(elsewhere / "tournament-fet-kalah"))
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.splitlines()[-2:] == straight.stdout.splitlines()[-2:]  # the winner

    for name, d in (("a", "straight"), ("b", "elsewhere")):
        assert checkpoint.main(["save", str(tmp_path / name), "--results", str(tmp_path / d),
                                "tournament-fet-kalah"]) == 0
    a = games_of(tmp_path / "a" / "tournament-fet-kalah.jsonl.gz")
    b = games_of(tmp_path / "b" / "tournament-fet-kalah.jsonl.gz")
    assert len(a) == 48 and a == b

    # a store already there is kept, not overwritten
    assert checkpoint.main(["restore", str(tmp_path / "saved"), "--results", str(elsewhere)]) == 0
    assert stored(elsewhere / "tournament-fet-kalah" / "arena.sqlite") == 48


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert checkpoint.main(["save", str(tmp_path / "out"), "--results", str(tmp_path),
                            "nothing-here"]) == 2
    assert not (tmp_path / "out").exists()
    assert checkpoint.main(["restore", str(tmp_path / "none")]) == 2
    (tmp_path / "empty").mkdir()
    assert checkpoint.main(["restore", str(tmp_path / "empty")]) == 2
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "x.jsonl.gz").write_bytes(b"not gzip")
    assert checkpoint.main(["restore", str(tmp_path / "bad"), "--results",
                            str(tmp_path / "r")]) == 2
    assert not (tmp_path / "r" / "x").exists()
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 4 and all(line.startswith("record_checkpoint: ") for line in err)
    assert "nothing-here: holds no results store" in err[0]
    assert "x.jsonl.gz: not a published games file" in err[3]


def test_a_damaged_store_is_one_line_and_exit_2_and_writes_nothing(tmp_path, capsys):
    (tmp_path / "results" / "broken").mkdir(parents=True)
    (tmp_path / "results" / "broken" / "arena.sqlite").write_bytes(b"not a database" * 100)
    assert checkpoint.main(["save", str(tmp_path / "out"), "--results",
                            str(tmp_path / "results"), "broken"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("record_checkpoint: ")
    assert not list((tmp_path / "out").glob("*.jsonl.gz"))
