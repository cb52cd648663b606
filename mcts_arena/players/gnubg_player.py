"""GNU Backgammon as a player, `gnubg(plies=N)`: Debian's `gnubg` driven through its `external`
interface (a socket that takes FIBS board strings and answers the move to play).

One engine per game: `new_game` starts `gnubg -t -q -r` (text mode, quiet, no rc file) as a
process of players/gtp_process.py (its own process group, dies with the worker, killed with
its group when the game closes), sets its chequer play to N plies, cubeless, one thread, and
runs `external <socket>` on a Unix socket in a private temporary folder. Each of our moves
sends the position as a FIBS board string of a one point match at 0-0 (so gnubg maximises its
winning chances, as our scoring counts wins; the cube is dead in a one point match) from the
view of the side on roll, and reads the move back (`8/5 6/5`, `25/22` for the bar, `6/0` for
off), which our notation parses.

Faults, as for GTP engines: gnubg missing or not starting is an error game (and `arena run`
refuses to start, one line, through `check_startup`); no answer within the move's limit is a
time forfeit (the engine killed); an answer that is not a legal move is an `illegal_move`
forfeit; a closed socket or a dead process is an error game with gnubg's last stderr lines.
Positions with one legal move (a pass included) are played without asking.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import tempfile
import time as _time

from mcts_arena.errors import ExternalError
from mcts_arena.players.gtp_process import CLOCK_GRACE_S, EngineError, GTPEngine
from mcts_arena.players.player import Player, PlayerForfeit

START_TIMEOUT_S = 60.0      # gnubg loads its networks and bear-off databases first (~0.3 s)
DEFAULT_TIMEOUT_S = 60.0    # one move outside the game loop (which gives its own limit)
COMMAND = "gnubg"


def gnubg_path() -> str:
    """The gnubg command (Debian installs it in /usr/games); ExternalError when missing."""
    found = shutil.which(COMMAND) or shutil.which(COMMAND, path="/usr/games")
    if not found:
        raise ExternalError("gnubg: GNU Backgammon is not installed (apt-get install gnubg)")
    return found


class GnubgEngine:
    """One gnubg process listening on its own socket; `ask` sends a line, returns the answer."""

    def __init__(self, plies: int, who: str = "gnubg"):
        self.dir = tempfile.mkdtemp(prefix="arena-gnubg-")
        self.path = os.path.join(self.dir, "socket")
        self.sock = None
        self.buf = b""
        self.proc = GTPEngine([gnubg_path(), "-t", "-q", "-r"], who)
        try:
            setup = ["set threads 1", f"set evaluation chequerplay evaluation plies {plies}",
                     "set evaluation chequerplay evaluation cubeful off",
                     f"external {self.path}"]
            self.proc.proc.stdin.write(("\n".join(setup) + "\n").encode())
            self.proc.proc.stdin.flush()
            deadline = _time.monotonic() + START_TIMEOUT_S
            while True:
                if self.proc.proc.poll() is not None:
                    raise self.proc._died("while starting")
                if os.path.exists(self.path):
                    try:
                        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                        s.connect(self.path)
                        self.sock = s
                        break
                    except OSError:
                        s.close()
                if _time.monotonic() > deadline:
                    raise EngineError(f"gnubg did not open its socket within "
                                      f"{START_TIMEOUT_S:g} s{self.proc.stderr_tail()}")
                _time.sleep(0.02)
        except (OSError, EngineError):
            self.close()
            raise

    def ask(self, line: str, timeout: float | None) -> str:
        """Send one line; the answer line. socket.timeout when none comes in `timeout` s,
        EngineError when gnubg closed the socket or died."""
        try:
            self.sock.sendall((line + "\n").encode())
            deadline = None if timeout is None else _time.monotonic() + timeout
            while b"\n" not in self.buf:
                if deadline is not None:
                    left = deadline - _time.monotonic()
                    if left <= 0:
                        raise TimeoutError()
                    self.sock.settimeout(left)
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise EngineError(f"gnubg closed its socket{self.proc.stderr_tail()}")
                self.buf += chunk
        except TimeoutError:
            raise
        except OSError as e:
            raise EngineError(f"gnubg: {e}{self.proc.stderr_tail()}") from None
        raw, _, self.buf = self.buf.partition(b"\n")
        return raw.decode("utf-8", "replace").strip()

    def close(self) -> None:
        if self.sock is not None:
            try:
                self.sock.sendall(b"exit\n")
            except OSError:
                pass
            self.sock.close()
            self.sock = None
        self.proc.close()           # quit, then the whole process group killed
        shutil.rmtree(self.dir, ignore_errors=True)


def _points(side: str) -> dict[int, int]:
    """`24:2,13:5,bar:1,off:3` -> {24: 2, 13: 5, 25: 1, 0: 3} (25 the bar, 0 borne off)."""
    out = {}
    for item in side.split(","):
        if not item:
            continue
        where, _, n = item.partition(":")
        out[25 if where == "bar" else 0 if where == "off" else int(where)] = int(n)
    return out


def fibs_board(state) -> str:
    """The FIBS board string of a backgammon decision node, from the view of the side on roll
    (colour 1, moving from 24 to 0, home 0, bar 25), a one point match at 0-0 with the cube in
    the middle (both may-double flags 1: gnubg reads both 0 as a cube just turned), which at
    1-away is the Crawford game, so no cube is used."""
    sides, side, dice, _ = state.to_text().split(" ")
    xs, os_ = sides.split("/")
    me, other = (_points(xs), _points(os_)) if side == "x" else (_points(os_), _points(xs))
    board = [0] * 26
    for p in range(1, 25):
        board[p] = me.get(p, 0) - other.get(25 - p, 0)
    board[25] = me.get(25, 0)
    board[0] = -other.get(25, 0)
    d1, d2 = int(dice[0]), int(dice[1])
    fields = (["board", "You", "gnubg", "1", "0", "0"] + [str(v) for v in board] +
              ["1", str(d1), str(d2), "0", "0", "1", "1", "1", "0", "1", "-1", "0", "25",
               str(me.get(0, 0)), str(other.get(0, 0)), str(me.get(25, 0)),
               str(other.get(25, 0)), "4" if d1 == d2 else "2", "0", "0", "0"])
    return ":".join(fields)


def read_move(answer: str) -> str:
    """gnubg's plain move (`25/22 6/0`, hits marked `6/3* 3/2`) in our notation (`bar/22
    6/off`, the marks kept: they tell which way a checker went); an answer that is not a move
    comes back as it is (the caller forfeits on it)."""
    out = []
    for tok in answer.split():
        parts = tok.split("/")
        points = [re.match(r"^(\d+)(\*?(?:\(\d\))?)$", p) for p in parts]
        if len(parts) < 2 or not all(points):
            return answer
        words = []
        for i, m in enumerate(points):
            where = m.group(1)
            if i == 0 and where == "25":
                where = "bar"
            elif i == len(parts) - 1 and where == "0":
                where = "off"
            words.append(where + m.group(2))
        out.append("/".join(words))
    return " ".join(out)


class GnubgPlayer(Player):
    """GNU Backgammon (see the module docstring)."""

    def __init__(self, spec, seed: int):
        super().__init__(spec, seed)
        self.plies = int(spec.get("plies", 0) or 0)
        self.engine: GnubgEngine | None = None
        self._move_limit: float | None = None

    def new_game(self, state, history, budget, move_limit=None):
        """Start gnubg before the game's clock runs."""
        self.close()
        self._move_limit = move_limit
        self.engine = GnubgEngine(self.plies)

    def close(self):
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def _choose(self, state, time, sims):
        legal = state.move_ids()
        if len(legal) == 1:
            return legal[0], {"time": 0.0}
        if self.engine is None:
            self.engine = GnubgEngine(self.plies)
        limit = self._move_limit if self._move_limit is not None else DEFAULT_TIMEOUT_S
        if self.clock is not None:      # on a clock: killed at its time left and a grace
            limit = self.clock.left + CLOCK_GRACE_S
        board = fibs_board(state)
        t0 = _time.perf_counter()
        try:
            answer = self.engine.ask(board, limit)
        except TimeoutError:
            tail = self.engine.proc.stderr_tail()
            self.close()
            raise PlayerForfeit("time_forfeit", f"gnubg gave no move within {limit:.3f} s "
                                f"(engine killed){tail}") from None
        except EngineError:
            self.close()
            raise
        wall = _time.perf_counter() - t0
        text = read_move(answer)
        try:
            move = state.parse_move(text)
        except (ValueError, TypeError):
            move = None
        if move is None or move not in legal:
            raise PlayerForfeit("illegal_move", f"gnubg answered {answer[:80]!r} to "
                                f"{board} (legal: {' '.join(state.moves()[:8])} ...)")
        return move, {"time": round(wall, 6)}


def check_startup(spec, budget=None, reached_by_moves: bool = True) -> None:
    """Start gnubg once and ask its version (ExternalError naming the problem); the budget and
    the openings do not matter to it (the kind table's start-up check takes them)."""
    try:
        eng = GnubgEngine(int(spec.get("plies", 0) or 0))
    except (EngineError, OSError) as e:
        raise ExternalError(f"gnubg: {e}") from None
    try:
        answer = eng.ask("version", START_TIMEOUT_S)
    except (EngineError, OSError) as e:
        raise ExternalError(f"gnubg: {e}") from None
    finally:
        eng.close()
    if "Interface" not in answer and "Software" not in answer:
        raise ExternalError(f"gnubg: unexpected answer {answer[:80]!r} to 'version'")
