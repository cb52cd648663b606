"""Helpers the tests share (not tests themselves): the environment of an `arena` subprocess
with the fake players, counting stored games, waiting for a condition, a GameRecord to store."""
import os
import sqlite3
import time
from pathlib import Path

from mcts_arena.runner import config
from mcts_arena.runner.match import GameRecord

ROOT = Path(__file__).resolve().parents[1]
TESTS = Path(__file__).resolve().parent


def record(gid="e/p1/0/0", pair=0, swap=0, winner=0, reason="normal", error=None):
    return GameRecord(game_id=gid, pairing_id="p1", pair_index=pair, swap=swap,
                      seats=("A", "B") if swap == 0 else ("B", "A"), budgets=({"sims": 5},) * 2,
                      seeds=(11, 12), opening="start", winner=winner, reason=reason, error=error,
                      plies=3, moves=["a2-a3", "a7-a6", "b2-b3"],
                      stats=[{"seat": 0, "sims": 5, "wall": 0.001}] * 3, duration=0.01,
                      finished=1.0)


def arena_env():
    env = dict(os.environ)
    env[config.PLAYERS_ENV] = "fakes"
    env["PYTHONPATH"] = os.pathsep.join([str(TESTS), str(ROOT), env.get("PYTHONPATH", "")])
    return env


def stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as c:
            return c.execute("SELECT COUNT(*) FROM game").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


def wait_for(pred, timeout=60.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(0.05)
    return False
