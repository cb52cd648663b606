"""The fake players provider the runner tests share (MCTS_ARENA_PLAYERS=fakes; worker processes
and Ray nodes import it by that name, so tests/ is on their Python path).

It has the players API (`parse`, `make`) and players with known faults, so the runner's handling
of each fault is tested without the real searches:
  Random         uniform random legal move from its seed
  Boom           raises RuntimeError on its 3rd move            -> an `error` game
  Slow           sleeps 0.6 s on its first move                 -> forfeits at time 0.01
  Crash          SIGKILLs its own worker on its first move, once per marker file
                 ($FAKE_CRASH_MARKER)                           -> the job is replayed
  Doom           SIGKILLs its worker on every first move        -> error games after max_deaths
  Sleepy(dX)     sleeps X seconds before each random move       -> games that take time
  Escape         raises a BaseException on its first move, which the game loop does not
                 catch                                          -> the job itself fails
  NodeKill       on a Ray node whose processes have $FAKE_NODE_KILL (a file holding the pid
                 of the node's raylet): SIGKILLs that raylet and its own worker on its first
                 move, once (the file is renamed *.done); elsewhere plays like Sleepy(d0.05)
                                                                -> a node dies mid-job
Options: imX (X in [0, 1]), dX (seconds), time=S / sims=N (the spec's own budget), greedy (the
1-ply greedy move by the game's evaluation instead of a random one: a player far stronger than
a random one, for tests whose result must be lopsided); an option that names a macro is
replaced by the macro's expansion.
"""
from __future__ import annotations

import os
import random
import signal
import time
from dataclasses import dataclass
from pathlib import Path

NAMES = ("Random", "Boom", "Slow", "Crash", "Doom", "Sleepy", "Escape", "NodeKill")


class EscapeError(BaseException):
    """Not an Exception: gets past the game loop's `except Exception`."""


@dataclass(frozen=True)
class FakeSpec:
    name: str
    options: tuple[str, ...]
    budget: dict | None

    @property
    def canonical(self) -> str:
        return f"{self.name}({','.join(self.options)})" if self.options else self.name


def _num(text: str, token: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"bad number in option {token!r}") from None


def parse(text, game=None, macros=None):
    if isinstance(text, FakeSpec):
        return text
    text = text.strip()
    name, _, rest = text.partition("(")
    if name not in NAMES:
        raise ValueError(f"unknown player {name!r}; valid players: {', '.join(NAMES)}")
    if rest and not rest.endswith(")"):
        raise ValueError(f"missing ')' in {text!r}")
    raw = [t.strip() for t in rest[:-1].split(",") if t.strip()] if rest else []
    opts, budget = [], None
    for tok in raw:
        for t in (macros or {}).get(tok, tok).split(","):
            if t.startswith("im"):
                a = _num(t[2:], t)
                if not 0 <= a <= 1:
                    raise ValueError(f"{t}: alpha must be in [0, 1]")
                opts.append(f"im{a:g}")
            elif t == "greedy":
                opts.append(t)
            elif t.startswith("d"):
                opts.append(f"d{_num(t[1:], t):g}")
            elif t.startswith("time="):
                budget = {"time": _num(t[5:], t)}
                opts.append(f"time={budget['time']:g}")
            elif t.startswith("sims="):
                budget = {"sims": int(_num(t[5:], t))}
                opts.append(f"sims={budget['sims']}")
            else:
                raise ValueError(f"unknown option {t!r}; valid: imX, dX, time=S, sims=N, "
                                 f"greedy")
    return FakeSpec(name, tuple(opts), budget)


class FakePlayer:
    def __init__(self, spec: FakeSpec, seed: int):
        self.spec = spec
        self.rng = random.Random(seed)
        self.moves = 0

    def choose(self, state, time=None, sims=None):
        self.moves += 1
        name = self.spec.name
        if name == "Boom" and self.moves == 3:
            raise RuntimeError("boom on move 3")
        if name == "Slow" and self.moves == 1:
            _sleep(0.6)
        if name == "Crash" and self.moves == 1:
            marker = Path(os.environ["FAKE_CRASH_MARKER"])
            if not marker.exists():
                marker.write_text("crashed once\n")
                os.kill(os.getpid(), signal.SIGKILL)
        if name == "Doom":
            os.kill(os.getpid(), signal.SIGKILL)
        if name == "Escape":
            raise EscapeError("escaped the game loop")
        if name == "NodeKill":
            order = os.environ.get("FAKE_NODE_KILL")
            if self.moves == 1 and order and Path(order).exists():
                pid = int(Path(order).read_text())
                os.replace(order, order + ".done")
                os.kill(pid, signal.SIGKILL)
                os.kill(os.getpid(), signal.SIGKILL)     # and this worker: the node is gone
            _sleep(0.05)
        for o in self.spec.options:
            if o.startswith("d"):
                _sleep(float(o[1:]))
        if "greedy" in self.spec.options:
            move = state.py_best_successor(seed=self.rng.randrange(1 << 30))
            return move, {"sims": sims or 1, "nodes": 1, "depth": 1, "time": 0.0}
        move = self.rng.choice(state.move_ids())
        return move, {"sims": sims or 1, "nodes": 1, "depth": 1, "time": 0.0}


def _sleep(s: float) -> None:
    time.sleep(s)


def make(spec_or_text, game=None, seed=0, macros=None):
    return FakePlayer(parse(spec_or_text, game=game, macros=macros), seed)
