"""A players provider for the fault tests (MCTS_ARENA_PLAYERS=fault_fakes): the fake players of
tests/fakes.py plus
  Freeze     SIGSTOPs its own worker on its first move (writes its pid to $FAKE_PID_DIR first)
  Spin(dX)   burns X seconds of CPU on its first move (a slow but working search)
  Nap(dX)    writes its pid to $FAKE_PID_DIR, then sleeps X seconds before every move
Budgets are simulation counts, so every test runs in seconds.
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import fakes as base

NAMES = base.NAMES + ("Freeze", "Spin", "Nap")


def parse(text, game=None, macros=None):
    if isinstance(text, base.FakeSpec):
        return text
    name = text.strip().partition("(")[0]
    if name in ("Freeze", "Spin", "Nap"):
        spec = base.parse("Random" + text.strip()[len(name):], game, macros)
        return base.FakeSpec(name, spec.options, spec.budget)
    return base.parse(text, game, macros)


def _pid_note() -> None:
    d = os.environ.get("FAKE_PID_DIR")
    if d:
        Path(d, str(os.getpid())).write_text("worker\n")


class FaultPlayer(base.FakePlayer):
    def choose(self, state, time=None, sims=None):
        name = self.spec.name
        if self.moves == 0 and name == "Freeze":
            _pid_note()
            os.kill(os.getpid(), signal.SIGSTOP)
        if self.moves == 0 and name == "Spin":
            end = _time() + float(self.spec.options[0][1:])
            while _time() < end:
                pass
        if name == "Nap":
            _pid_note()
            base._sleep(float(self.spec.options[0][1:]))
        self.moves += 1
        move = self.rng.choice(state.move_ids())
        return move, {"sims": sims or 1, "nodes": 1, "depth": 1, "time": 0.0}


def _time() -> float:
    return time.process_time()


def make(spec_or_text, game=None, seed=0, macros=None):
    spec = parse(spec_or_text, game=game, macros=macros)
    if spec.name in ("Freeze", "Spin", "Nap"):
        return FaultPlayer(spec, seed)
    return base.FakePlayer(spec, seed)


def orphan_of(pid_dir: str, driver: int) -> None:
    """A worker's body for the parent-watch test: no parent-death signal (prctl is given an
    option it does not know), only the watch on `driver`; writes its pid, then sleeps 60 s."""
    from mcts_arena.runner import pool

    pool.PR_SET_PDEATHSIG = 0
    pool.die_with_parent(driver)
    Path(pid_dir, str(os.getpid())).write_text("")
    time.sleep(60)
