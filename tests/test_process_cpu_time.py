"""The watchdog's progress measure (procstat.cpu_seconds) counts the CPU time of the
processes a worker started: a worker waiting for an outside engine that is thinking (gnubg at
2 plies) is making progress, not hung."""
import subprocess
import sys
import time

from mcts_arena.procstat import _children, _own_cpu_seconds, cpu_seconds

SPIN = "while True: pass"
PARENT = (f"import subprocess, sys; subprocess.Popen([sys.executable, '-c', {SPIN!r}]).wait()")


def test_cpu_seconds_counts_a_busy_child_of_an_idle_parent():
    parent = subprocess.Popen([sys.executable, "-c", PARENT])
    try:
        deadline = time.monotonic() + 30
        children = 0.0
        while time.monotonic() < deadline and children < 0.05:
            time.sleep(0.1)
            children = cpu_seconds(parent.pid) - _own_cpu_seconds(parent.pid)
        assert children >= 0.05     # the child spun while the parent only waited
    finally:
        for c in _children(parent.pid):
            subprocess.run(["kill", str(c)], check=False)
        parent.kill()
        parent.wait()


def test_cpu_seconds_of_a_missing_process_is_none():
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    assert cpu_seconds(p.pid) is None
