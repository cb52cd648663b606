"""Faults: a stopped worker, a killed driver, pairings whose games all fail (players:
tests/fault_fakes.py). Budgets are simulation counts, so every test runs in seconds."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.results.store import Store
from mcts_arena.runner import config, watchdog
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.experiment import run_experiment
from mcts_arena.runner.pool import LocalPoolBackend
from mcts_arena.runner.watchdog import Watchdog

PROVIDER = "fault_fakes"
SAFETY_S = 120      # a hang fails the test instead of stalling the suite (not a speed check)
ORPHAN_S = 15       # an orphan must be gone long before its 60 s move would end


def experiment(matches: str, games: int = 2, budget: str = "{sims: 10}"):
    import importlib
    text = (f"name: f\ngame: breakthrough\nbudget: {budget}\ngames: {games}\nseed: 5\n"
            f"matches:\n{matches}")
    return config.loads(text, source="f.yaml", players=importlib.import_module(PROVIDER))


def run_bounded(exp, directory, backend):
    """run_experiment in a thread; fails (instead of hanging) if it does not end."""
    p = plan_mod.make_plan(exp)
    out = {}

    def go():
        out["res"] = run_experiment(exp, p, directory, workers=1, progress=False,
                                    players=PROVIDER, backend=backend)

    t = threading.Thread(target=go, daemon=True)
    t.start()
    t.join(SAFETY_S)
    assert not t.is_alive(), "the run hung"
    return p, out["res"]


def gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


@pytest.mark.process
def test_stopped_worker_is_killed_and_its_game_is_an_error_game(tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_PID_DIR", str(tmp_path))
    exp = experiment("  - {player: Freeze, opponent: Random}\n"
                     "  - {player: Random, opponent: 'Random(im0.5)'}\n")
    backend = LocalPoolBackend(1, players=PROVIDER, watchdog=Watchdog(grace_s=0.5, setup_s=20))
    p, res = run_bounded(exp, tmp_path / "r", backend)
    assert not res.interrupted and res.played == 4 == p.total_games
    stopped = [int(f.name) for f in tmp_path.iterdir() if f.name.isdigit()]
    assert len(stopped) == 2 and all(gone(pid) for pid in stopped)    # one per Freeze game
    with Store.open(tmp_path / "r") as s:
        by = {pp["player"]: s.games(pp["pairing_id"]) for pp in s.pairings()}
    frozen = by["Freeze"]
    assert [g["reason"] for g in frozen] == ["error", "error"]
    # Freeze sits in seat 0 in game 0 and in seat 1 in game 1, and stops at its first move
    # the bound is 0.5 s; a worker that used CPU since its move began gets a second bound
    # before it is killed (a loaded machine can make that happen), so 1.0 s is right too
    assert re.fullmatch(r"watchdog: no progress within (0\.5|1\.0) s \(waiting for a move from "
                        r"seat 0 Freeze at ply 1, budget 10 sims/move\); its worker was killed",
                        frozen[0]["error"]), frozen[0]["error"]
    assert re.match(r"watchdog: no progress within (0\.5|1\.0) s \(waiting for a move from "
                    r"seat 1 Freeze at ply 2, budget 10 sims/move\)", frozen[1]["error"])
    assert frozen[1]["plies"] == 1
    assert [g["reason"] for g in by["Random"]] == ["normal", "normal"]
    assert res.all_error == (("Freeze vs Random", 2),) and res.errors == 2
    assert backend.hung_games == 2


@pytest.mark.process
def test_stopped_worker_under_a_time_budget(tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_PID_DIR", str(tmp_path))
    exp = experiment("  - {player: Freeze, opponent: Random}\n", games=1,
                     budget="{time: 0.01}")
    backend = LocalPoolBackend(1, players=PROVIDER, watchdog=Watchdog(grace_s=0.5, setup_s=20))
    _p, res = run_bounded(exp, tmp_path / "r", backend)
    with Store.open(tmp_path / "r") as s:
        (g,) = s.games()
    # bound: 2 x the forfeit limit (2 x 0.01 + 0.5 s) + 0.5 s grace; the message gives the time
    # actually waited, which a loaded machine stretches by a poll or two (1.6 s was seen)
    assert g["reason"] == "error" and re.match(
        r"watchdog: no progress within (1\.[5-9]|2\.[0-4]) s \(waiting for a move from seat 0 "
        r"Freeze at ply 1, budget 0\.01 s/move\)", g["error"]), g["error"]
    assert res.all_error == (("Freeze vs Random", 1),)


@pytest.mark.process
def test_slow_but_working_search_is_not_killed(tmp_path):
    """A simulation budget's bound is a guess at speed: a worker still using CPU gets more."""
    exp = experiment("  - {player: 'Spin(d2)', opponent: Random}\n", games=1)
    backend = LocalPoolBackend(1, players=PROVIDER, watchdog=Watchdog(grace_s=0.5, setup_s=20))
    _p, res = run_bounded(exp, tmp_path / "r", backend)
    with Store.open(tmp_path / "r") as s:
        (g,) = s.games()
    assert g["reason"] == "normal" and backend.hung_games == 0 and res.errors == 0


def test_watchdog_bounds_and_clock():
    t = [0.0]
    wd = Watchdog(grace_s=1.0, setup_s=5.0, clock=lambda: t[0], pause_s=5.0)
    assert watchdog.move_bound({"time": 1.0}, 1.0) == 2 * 2.5 + 1.0
    assert watchdog.move_bound({"sims": 100}, 1.0) == 2 * 100 * watchdog.SIM_SECONDS + 1.0
    wd.arm("a", 2.0, "a move")
    wd.arm("b", 3.0, "b move")
    t[0] = 1.0
    wd.tick()
    assert wd.expired() == [] and wd.timeout(10.0) == 1.0
    t[0] = 2.5
    wd.tick()
    assert wd.expired() == [("a", "no progress within 2.5 s (waiting for a move)")]
    assert not wd.armed("a") and wd.armed("b")
    t[0] = 100.0        # the driver itself was stopped for ~100 s: nobody is blamed for that
    wd.tick()
    assert wd.expired() == []
    t[0] = 101.0
    wd.tick()
    assert wd.expired()[0][0] == "b"
    # progress (CPU time) extends a deadline up to the hard bound, never beyond
    cpu = [0.0]
    wd.arm("c", 1.0, "c move", progress=lambda: cpu[0], hard_s=3.0)
    for step in (1.0, 1.0):
        t[0] += step
        cpu[0] += 1.0
        assert wd.expired() == []
    t[0] += 1.0
    cpu[0] += 1.0
    assert [k for k, _ in wd.expired()] == ["c"]
    wd.arm("d", 1.0, "d move", progress=lambda: cpu[0], hard_s=30.0)
    t[0] += 1.0                     # no CPU used: stopped
    assert [k for k, _ in wd.expired()] == ["d"]


DRIVER = textwrap.dedent("""
    import importlib, sys
    sys.path.insert(0, {tests!r})
    from mcts_arena.runner import config, plan
    from mcts_arena.runner.experiment import run_experiment
    text = ("name: k\\ngame: breakthrough\\nbudget: {{sims: 10}}\\ngames: 2\\nseed: 1\\n"
            "matches:\\n  - {{player: 'Nap(d60)', opponent: Random}}\\n")
    exp = config.loads(text, players=importlib.import_module("fault_fakes"))
    run_experiment(exp, plan.make_plan(exp), {out!r}, workers=1, progress=False,
                   players="fault_fakes")
""")


@pytest.mark.process
def test_killed_driver_takes_its_worker_with_it_quietly(tmp_path):
    env = dict(os.environ, FAKE_PID_DIR=str(tmp_path), PYTHONPATH=str(Path(__file__).parent))
    script = DRIVER.format(tests=str(Path(__file__).parent), out=str(tmp_path / "r"))
    driver = subprocess.Popen([sys.executable, "-c", script], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + SAFETY_S
        while not [f for f in tmp_path.iterdir() if f.name.isdigit()]:
            assert driver.poll() is None and time.monotonic() < deadline, driver.stderr.read()
            time.sleep(0.05)
        (worker,) = [int(f.name) for f in tmp_path.iterdir() if f.name.isdigit()]
        assert not gone(worker)
        driver.kill()
        # the worker sleeps 60 s in its move: only the parent-death signal ends it sooner; it
        # holds the driver's stdout and stderr until it dies
        soon = time.monotonic() + ORPHAN_S
        try:
            out, err = driver.communicate(timeout=ORPHAN_S)
        except subprocess.TimeoutExpired:
            pytest.fail("the worker outlived its driver")
    finally:
        if driver.poll() is None:
            driver.kill()
    while not gone(worker):
        assert time.monotonic() < soon, "the worker outlived its driver"
        time.sleep(0.05)
    assert err == "" and out == ""          # no BrokenPipeError traceback from the worker


@pytest.mark.process
def test_die_with_parent_fallback_watch(tmp_path):
    """The parent-pid watch alone (as on systems without prctl) ends an orphan quietly."""
    code = textwrap.dedent(f"""
        import os, sys, time
        from mcts_arena.runner import pool as scheduler
        scheduler.PR_SET_PDEATHSIG = 0          # an unknown prctl option: no parent signal
        pid = os.fork()
        if pid == 0:
            scheduler.die_with_parent(os.getppid(), poll_s=0.05)
            open({str(tmp_path / "child")!r}, "w").write(str(os.getpid()))
            time.sleep(60)
            sys.exit(1)
        while not os.path.exists({str(tmp_path / "child")!r}):
            time.sleep(0.01)
        os._exit(0)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=SAFETY_S)
    assert r.returncode == 0 and r.stderr == ""
    child = int((tmp_path / "child").read_text())
    deadline = time.monotonic() + SAFETY_S
    while not gone(child):
        assert time.monotonic() < deadline, "the orphan kept running"
        time.sleep(0.05)


@pytest.mark.process
def test_each_worker_starts_with_the_drivers_environment_of_that_moment(tmp_path, monkeypatch):
    """A fork server started for an earlier run keeps the environment of its start; the workers
    it forks later still see the driver's environment as it is when they start."""
    exp = experiment("  - {player: 'Nap(d0)', opponent: Random}\n")
    for k in range(2):
        pids = tmp_path / f"pids{k}"
        pids.mkdir()
        monkeypatch.setenv("FAKE_PID_DIR", str(pids))
        run_bounded(exp, tmp_path / f"r{k}", LocalPoolBackend(1, players=PROVIDER))
        assert [f for f in pids.iterdir() if f.name.isdigit()], f"run {k}: no worker pid"


@pytest.mark.process
@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_a_worker_without_the_parent_signal_ends_with_its_driver(tmp_path, method):
    """The watch on the driver's sentinel alone ends a worker whose driver was killed, when a
    fork server started it (its parent pid is the server's, not the driver's) as when spawn
    did."""
    code = textwrap.dedent(f"""
        import multiprocessing as mp, os, sys, time
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        import fault_fakes
        p = mp.get_context({method!r}).Process(target=fault_fakes.orphan_of,
                                                args=({str(tmp_path)!r}, os.getpid()))
        p.start()
        while not [f for f in os.listdir({str(tmp_path)!r}) if f.isdigit()]:
            time.sleep(0.01)
        os._exit(0)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=SAFETY_S)
    assert r.returncode == 0 and r.stderr == ""
    (worker,) = [int(f.name) for f in tmp_path.iterdir() if f.name.isdigit()]
    deadline = time.monotonic() + ORPHAN_S
    while not gone(worker):
        assert time.monotonic() < deadline, "the worker outlived its driver"
        time.sleep(0.05)


# ---- all-error pairings --------------------------------------------------------------------
CFG = ("name: a\ngame: breakthrough\nbudget: {sims: 10}\ngames: 2\nseed: 3\n"
       "matches:\n  - {player: 'Random(im0.5)', opponent: Random}\n")


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, PROVIDER)
    return tmp_path


@pytest.mark.parametrize("extra,status,last", [
    ("  - {player: Boom, opponent: Random}\n", 3,
     "arena: error: every game of 1 pairing(s) is an error game, nothing was measured: Boom vs "
     "Random (2 of 2); see the errors above, fix the cause and run again (error games are "
     "replayed)"),
    ("  - {player: Doom, opponent: Random}\n  - {player: Boom, opponent: 'Random(im0.2)'}\n", 3,
     "arena: error: every game of 2 pairing(s) is an error game, nothing was measured: Doom vs "
     "Random (2 of 2); Boom vs Random(im0.2) (2 of 2); see the errors above, fix the cause and "
     "run again (error games are replayed)"),
    ("", 0, None),
])
def test_all_error_pairings_exit_3(cwd, extra, status, last):
    (cwd / "a.yaml").write_text(CFG + extra)
    res = CliRunner().invoke(cli, ["run", "a.yaml", "--quiet", "--jobs", "1"])
    assert res.exit_code == status, res.output
    lines = res.output.splitlines()
    if last is None:
        assert lines[-1].endswith("2/2 stored in results/a")
    else:
        assert lines[-1] == last
        assert "error games (the next run replays them)" in lines[-2]


def test_all_error_pairings_raise_from_the_api(cwd):
    """The API's exit status 3: a call that measured nothing raises, never returns quietly."""
    from mcts_arena import api
    from mcts_arena.errors import AllErrorGames

    with pytest.raises(AllErrorGames, match=r"Boom vs Random \(2 of 2\); api.load\('results/a'\)"):
        api.play_experiment(yaml.safe_load(CFG + "  - {player: Boom, opponent: Random}\n"))
    assert api.play_experiment(yaml.safe_load(CFG), out="b").played == 2


def test_all_error_tournament_stops_instead_of_looping(cwd):
    (cwd / "t.yaml").write_text("name: tt\nkind: round_robin\ngame: tictactoe\nbudget: {sims: 5}\n"
                                "games: 2\nentrants: [Boom, Random]\n")
    res = CliRunner().invoke(cli, ["tournament", "t.yaml", "--quiet", "--jobs", "1",
                                   "--out", "t"])
    assert res.exit_code == 3, res.output
    assert res.output.splitlines()[-1].startswith(
        "arena: error: every game of 1 pairing(s) is an error game, nothing was measured: ")
