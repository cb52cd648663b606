"""CPU time of a process and of the processes it started, read from Linux's /proc.

Two readers need it: the runner's watchdog (is a worker still computing, or stopped?) and a GTP
engine's move limit under a work budget (how much of the machine the engine has had, whatever
else the machine runs). Where /proc cannot be read the answer is None and callers fall back to
the wall clock.
"""
from __future__ import annotations

import os


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) of process `pid` and the processes it started, recursively,
    None where unknown. The children count because an outside engine (gnubg, a GTP program)
    thinks in a process of its own while the worker waits for its answer."""
    own = _own_cpu_seconds(pid)
    if own is None:
        return None
    return own + sum(cpu_seconds(c) or 0.0 for c in _children(pid))


def _own_cpu_seconds(pid: int) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _children(pid: int) -> list[int]:
    """The processes `pid` started that are alive (every thread's children file)."""
    out: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/children") as f:
                out.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return out
