"""A GTP engine as a process: started in its own process group (and with a parent-death
signal), spoken to over stdin/stdout with a deadline per answer, its last stderr lines kept for
the record, and killed with its whole process group when the game is over or the worker that
started it is terminated (SIGTERM), so no engine outlives its game.

An answer's limit is wall-clock seconds, or (`cpu=True`, for a move under a work budget, whose
length does not depend on the machine's load) seconds of the engine's own CPU time: a loaded
machine that gives the engine a small share then slows its move without forfeiting it, while an
engine that computes too long, or stops computing for the limit's length of wall time (hung,
stopped), is still caught.

The protocol above it (colours, the start-up conversation, moves) is players/gtp_player.py.
"""
from __future__ import annotations

import collections
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time as _time
import weakref

from mcts_arena.procstat import cpu_seconds

QUIT_WAIT_S = 1.0               # how long `quit` may take before the engine is killed
STDERR_LINES = 8                # engine stderr lines kept for the record
CLOCK_GRACE_S = 1.0             # past its time left, an engine on a clock is killed (GTP, gnubg)
CPU_POLL_S = 0.5                # how often an answer under a CPU-time limit reads the engine's CPU


class EngineError(RuntimeError):
    """The engine broke the conversation: it died, or sent what is not a GTP response."""


class EngineTimeout(EngineError):
    """No complete answer within the time allowed (`allowed`: how that limit reads)."""

    def __init__(self, message: str, allowed: str = "the time allowed"):
        super().__init__(message)
        self.allowed = allowed


class GTPRefused(EngineError):
    """The engine answered `? ...` to a command."""


_LIVE: weakref.WeakSet = weakref.WeakSet()
_OLD_SIGTERM = None


def _on_sigterm(signum, frame):          # a worker terminated: take its engines along
    for eng in list(_LIVE):
        eng.kill()
    signal.signal(signal.SIGTERM, _OLD_SIGTERM if callable(_OLD_SIGTERM) else signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)


def _guard_sigterm() -> None:
    global _OLD_SIGTERM
    if threading.current_thread() is not threading.main_thread():
        return
    cur = signal.getsignal(signal.SIGTERM)
    if cur is _on_sigterm:
        return
    if cur in (signal.SIG_DFL, None) or callable(cur):
        _OLD_SIGTERM = cur
        signal.signal(signal.SIGTERM, _on_sigterm)


def _death_signal():
    """A preexec_fn that makes the engine die with the process that started it (Linux
    PR_SET_PDEATHSIG), so even a worker killed outright (SIGKILL) leaves no engine behind."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        prctl = libc.prctl
    except (OSError, AttributeError):
        return None

    def child() -> None:                # runs in the child between fork and exec
        prctl(1, signal.SIGKILL)        # PR_SET_PDEATHSIG = 1

    return child


_PREEXEC = _death_signal()


def _autogroup_nice(pid: str | int = "self") -> int | None:
    """The nice value of a process's autogroup (Linux with the scheduler's autogroups:
    /proc/PID/autogroup reads "/autogroup-N nice K"), or None where there is none."""
    try:
        with open(f"/proc/{pid}/autogroup") as f:
            return int(f.read().split()[-1])
    except (OSError, ValueError, IndexError):
        return None


def _keep_priority(pid: int) -> None:
    """Give the engine's autogroup this process's nice. The engine runs in a session of its own
    (so that it can be stopped whole), and under autogroups a new session is a new group at
    nice 0: an engine started by a run at nice 19 would otherwise take a whole core from the
    foreground (the authors' engine did, beside a test suite)."""
    nice = _autogroup_nice()
    if nice:
        try:
            with open(f"/proc/{pid}/autogroup", "w") as f:
                f.write(str(nice))
        except OSError:                 # a kernel without autogroups, or not allowed: no harm
            pass


class _WallLimit:
    """An answer's limit in wall-clock seconds."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.deadline = _time.monotonic() + seconds

    def left(self) -> float:
        """Seconds to wait before asking again (<= 0: the limit has passed)."""
        return self.deadline - _time.monotonic()

    def allowed(self) -> str:
        return "the time allowed"


class _CpuLimit:
    """An answer's limit in seconds of the engine's CPU time (its process and the processes it
    started); also passed when the engine has not computed for `seconds` of wall time."""

    def __init__(self, pid: int, seconds: float):
        self.pid = pid
        self.seconds = seconds
        self.start = self.last = cpu_seconds(pid) or 0.0
        self.since = _time.monotonic()         # when the engine's CPU time last grew
        self.stalled = False

    def left(self) -> float:
        now = _time.monotonic()
        cpu = cpu_seconds(self.pid)
        if cpu is None:                         # the engine is gone: its output ends soon
            return CPU_POLL_S
        if cpu > self.last:
            self.last, self.since = cpu, now
        used = self.last - self.start
        idle = now - self.since
        if idle >= self.seconds:
            self.stalled = True
            return 0.0
        if used >= self.seconds:
            return 0.0
        return min(CPU_POLL_S, self.seconds - used, self.seconds - idle)

    def allowed(self) -> str:
        if self.stalled:
            return f"{self.seconds:g} s in which the engine did not compute"
        return f"{self.seconds:g} s of the engine's CPU time"


class GTPEngine:
    """One engine process and the GTP conversation with it (stdin/stdout pipes, stderr kept)."""

    def __init__(self, argv: list[str], who: str):
        self.argv = argv
        self.who = who
        self.stderr = collections.deque(maxlen=STDERR_LINES)
        self.proc = None
        self._buf = b""
        self._err_thread = None
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, start_new_session=True,
                                         close_fds=True, preexec_fn=_PREEXEC)
        except FileNotFoundError:
            raise EngineError(f"cannot start {argv[0]!r}: no such command") from None
        except PermissionError:
            raise EngineError(f"cannot start {argv[0]!r}: permission denied") from None
        except OSError as e:
            raise EngineError(f"cannot start {argv[0]!r}: {e.strerror or e}") from None
        _keep_priority(self.proc.pid)
        _LIVE.add(self)
        _guard_sigterm()
        self._err_thread = threading.Thread(target=self._drain_stderr, daemon=True)
        self._err_thread.start()

    def _drain_stderr(self) -> None:
        try:
            for raw in iter(self.proc.stderr.readline, b""):
                line = raw.decode("utf-8", "replace").rstrip()
                if line:
                    self.stderr.append(line)
        except (OSError, ValueError):
            pass

    def stderr_tail(self) -> str:
        if self._err_thread is not None and self.proc is not None and self.proc.poll() is not None:
            self._err_thread.join(0.5)
        lines = list(self.stderr)
        return "; engine stderr: " + " | ".join(lines) if lines else "; engine stderr: (empty)"

    def _died(self, doing: str) -> EngineError:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        status = f"exit status {code}" if code is not None and code >= 0 else \
            f"killed by signal {-code}" if code is not None else "closed its output"
        return EngineError(f"engine exited ({status}) {doing}{self.stderr_tail()}")

    def send(self, command: str, timeout: float | None, cpu: bool = False) -> str:
        """Send one command; the text of its `=` answer. GTPRefused on `?`, EngineTimeout when
        no complete answer comes within `timeout` seconds (with `cpu`, seconds of the engine's
        CPU time, or as many wall seconds in which it did not compute), EngineError
        otherwise."""
        if self.proc is None or self.proc.poll() is not None:
            raise self._died(f"before {command!r}")
        try:
            self.proc.stdin.write((command + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(f"before {command!r}") from None
        if timeout is None:
            limit = None
        elif cpu and cpu_seconds(self.proc.pid) is not None:
            limit = _CpuLimit(self.proc.pid, timeout)
        else:
            limit = _WallLimit(timeout)
        lines: list[str] = []
        while True:
            line = self._readline(limit, command)
            if not lines and not line.strip():
                continue                    # blank lines before an answer
            if lines and not line.strip():
                break                       # the blank line that ends the answer
            lines.append(line)
        head = lines[0]
        m = re.match(r"^([=?])(\d*)(?:\s+(.*))?$", head)
        if not m or (m.group(2) == "" and len(head) > 1 and not head[1].isspace()):
            raise EngineError(f"malformed GTP response to {command!r}: {head[:80]!r} (an answer "
                              "starts with '=' or '?')")
        text = "\n".join([(m.group(3) or "").strip()] + [ln.rstrip() for ln in lines[1:]]).strip()
        if m.group(1) == "?":
            raise GTPRefused(f"engine answered '? {text}' to {command!r}")
        return text

    def _readline(self, limit, command: str) -> str:
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            left = None if limit is None else limit.left()
            if left is not None and left <= 0:
                raise EngineTimeout(f"no answer to {command!r} within {limit.allowed()}",
                                    limit.allowed())
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise self._died(f"while answering {command!r}")
            self._buf += chunk
        raw, _, self._buf = self._buf.partition(b"\n")
        return raw.decode("utf-8", "replace").replace("\r", "").replace("\t", " ")

    def kill(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            self.proc.kill()
        except OSError:
            pass

    def close(self) -> None:
        """`quit`, then kill the engine's whole process group; wait for it (no zombie)."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
                self.proc.wait(timeout=QUIT_WAIT_S)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self.kill()              # what is left of its process group, even after a clean quit
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        if self._err_thread is not None:
            self._err_thread.join(1.0)
        try:
            self.proc.stderr.close()
        except OSError:
            pass
        _LIVE.discard(self)
        self.proc = None
