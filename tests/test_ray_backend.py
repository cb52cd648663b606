"""The Ray backend on a local multi-node cluster (`ray.cluster_utils.Cluster`): same games as the
local pool, faults (a node killed, the driver killed and restarted, Ctrl-C, a task that raises),
the build check on every node, quiet output, and one-line errors for bad input.

One cluster serves the module: a head without CPUs, on which the first test finds no CPU to play
on, then two worker nodes of one CPU each for the rest; games are tictactoe with the fake
players of tests/fakes.py (made importable on the nodes through PYTHONPATH), or the real
players with simulation budgets.
"""
import importlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import stored

from mcts_arena import provenance
from mcts_arena.cli import cli
from mcts_arena.results.store import DB_NAME, Store
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.experiment import run_experiment

pytestmark = pytest.mark.ray

TESTS = Path(__file__).resolve().parent
PROVIDER = "fakes"

CONFIG = """\
name: ray_small
game: tictactoe
budget: {sims: 30}
games: 4
seed: 3
matches:
  - {player: "MCTS", opponent: "Random"}
"""


def fake_config(matches: str, games: int) -> str:
    return (f"name: rayfake\ngame: tictactoe\nbudget: {{sims: 10}}\ngames: {games}\nseed: 5\n"
            f"matches:\n{matches}")


def _games(directory):
    with Store.open(directory) as s:
        return sorted((g["game_id"], g["winner"], tuple(g["moves"])) for g in s.games())


def _no_ray_lines(text: str) -> None:
    for line in text.splitlines():
        assert not any(w in line for w in ("raylet", "INFO", "WARNING", " W ", "(pid=",
                                           "Ray")), line


def _node_env(mp: pytest.MonkeyPatch, **env) -> None:
    """The environment a node starts with (its raylet's, which its workers inherit): they import
    the fake players from tests/."""
    mp.setenv("PYTHONPATH", os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")]))
    for k, v in env.items():
        mp.setenv(k, v)


def _add_node(cluster, **env):
    with pytest.MonkeyPatch.context() as mp:
        _node_env(mp, **env)
        node = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    return node


@pytest.fixture(scope="module")
def ray_head():
    """The module's cluster as it starts: a head node without CPUs."""
    pytest.importorskip("ray")
    from ray.cluster_utils import Cluster

    with pytest.MonkeyPatch.context() as mp:
        _node_env(mp)
        cluster = Cluster(initialize_head=True,
                          head_node_args={"num_cpus": 0, "include_dashboard": False})
    yield cluster
    import ray

    ray.shutdown()
    cluster.shutdown()


@pytest.fixture(scope="module")
def ray_cluster(ray_head):
    """The module's cluster with two worker nodes of one CPU each joined."""
    _add_node(ray_head)
    _add_node(ray_head)
    return ray_head


def test_cluster_without_cpus(tmp_path, ray_head):
    """(First in the module: the worker nodes join the head after it.)"""
    assert not ray_head.worker_nodes, "run before the tests that add the worker nodes"
    address = ray_head.address
    line = _bad(tmp_path, "--backend", "ray", "--ray-address", address, new=True)
    assert line == f"arena: error: the Ray cluster at {address} has no CPUs to play " \
                   "games on; start worker nodes with --num-cpus N"


@pytest.fixture
def fake_players(monkeypatch):
    monkeypatch.setenv(config.PLAYERS_ENV, PROVIDER)
    return importlib.import_module(PROVIDER)


def _backend(cluster, **kw):
    from mcts_arena.runner.ray_backend import RayBackend

    return RayBackend(address=cluster.address, players=PROVIDER, **kw)


def test_ray_backend_matches_local_pool_quietly(tmp_path, ray_cluster, capfd):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG)
    r1 = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "local"), "--quiet",
                                  "--jobs", "1"])
    assert r1.exit_code == 0, r1.output
    r2 = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "ray"),
                                  "--backend", "ray", "--ray-address", ray_cluster.address])
    assert r2.exit_code == 0, r2.output
    assert _games(tmp_path / "local") == _games(tmp_path / "ray")
    assert len(_games(tmp_path / "ray")) == 4
    assert "Ray cluster with 2 CPU(s)" in r2.output
    # the last standings (plain lines: the output is not a terminal): the cluster's CPUs,
    # games per hour, the pairing's score
    assert re.search(r"standings after 4/4 games \(2 CPUs, [\d,]+ games/h, .*\n  MCTS vs "
                     r"Random: 4 games \+\d", r2.output), r2.output
    _no_ray_lines(capfd.readouterr().err)


def test_ctrl_c_cancels_tasks_and_keeps_finished_games(tmp_path, ray_cluster, fake_players):
    import ray

    exp = config.loads(fake_config('  - {player: "Sleepy(d0.02)", opponent: Random}\n'
                                   '  - {player: "Sleepy(d3)", opponent: Random(im0.5)}\n', 4),
                       source="t.yaml", players=fake_players)
    p = plan_mod.make_plan(exp)
    backend = _backend(ray_cluster)
    run = backend.run

    def run_and_interrupt(jobs, on_record, should_stop, skip=None):
        def record(rec):
            on_record(rec)
            if not should_stop():
                signal.raise_signal(signal.SIGINT)  # Ctrl-C, through the runner's handler
        return run(jobs, record, should_stop, skip)

    backend.run = run_and_interrupt
    try:
        res = run_experiment(exp, p, tmp_path / "r", workers=2, backend=backend, progress=False)
        assert res.interrupted and backend.cancelled >= 1
        # the cancelled tasks (games of 3 s per move) give their CPUs back at once

        def idle() -> bool:
            return ray.available_resources().get("CPU", 0) == ray.cluster_resources()["CPU"]

        deadline = time.monotonic() + 20
        while not idle() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert idle()
    finally:
        backend.close()
    with Store.open(tmp_path / "r") as s:
        games = s.games()
    assert 1 <= len(games) == res.played < 8
    assert len({g["game_id"] for g in games}) == len(games)
    assert set(g["game_id"] for g in games) <= set(p.game_ids())
    assert all(g["reason"] == "normal" and g["plies"] > 0 for g in games)


def test_task_that_raises_is_an_error_game_and_the_run_goes_on(tmp_path, ray_cluster,
                                                                 fake_players):
    exp = config.loads(fake_config('  - {player: Escape, opponent: Random}\n'
                                   '  - {player: Random, opponent: Random(im0.2)}\n', 2),
                       source="t.yaml", players=fake_players)
    p = plan_mod.make_plan(exp)
    backend = _backend(ray_cluster)
    try:
        res = run_experiment(exp, p, tmp_path / "r", workers=2, backend=backend, progress=False)
    finally:
        backend.close()
    assert not res.interrupted and res.played == 4
    with Store.open(tmp_path / "r") as s:
        by_pairing = {pp["player"]: s.games(pp["pairing_id"]) for pp in s.pairings()}
    escaped = by_pairing["Escape"]
    assert [g["reason"] for g in escaped] == ["error", "error"]
    assert all(g["score"] is None for g in escaped)
    assert escaped[0]["error"] == "task raised on Ray: fakes.EscapeError: escaped " \
                                  "the game loop"
    assert [g["reason"] for g in by_pairing["Random"]] == ["normal", "normal"]


def test_hung_task_is_cancelled_by_the_watchdog_and_the_run_goes_on(tmp_path, ray_cluster,
                                                                    fake_players):
    """A task stuck far beyond its job's bound (a player that sleeps 600 s a move) is cancelled
    by the driver's watchdog: its games are error games that say so, the other pairing's games
    are played, and the CPU comes back."""
    import ray

    from mcts_arena.runner.watchdog import Watchdog

    text = fake_config('  - {player: "Sleepy(d600)", opponent: Random}\n'
                       '  - {player: Random, opponent: Random(im0.5)}\n', 2) + "max_plies: 9\n"
    exp = config.loads(text, source="t.yaml", players=fake_players)
    p = plan_mod.make_plan(exp)
    # bound per game: 0.5 s set-up + 9 plies x 2 ms (10 sims) + 0.2 s; the task gets twice its
    # 2 games' bound, about 2.9 s
    backend = _backend(ray_cluster, watchdog=Watchdog(grace_s=0.2, setup_s=0.5))
    t0 = time.monotonic()
    try:
        res = run_experiment(exp, p, tmp_path / "r", workers=2, backend=backend, progress=False)
        assert time.monotonic() - t0 < 120          # not the 600 s the stuck move would take
        deadline = time.monotonic() + 20            # the cancelled task gives its CPU back
        while ray.available_resources().get("CPU", 0) < ray.cluster_resources()["CPU"] and \
                time.monotonic() < deadline:
            time.sleep(0.1)
        assert ray.available_resources().get("CPU", 0) == ray.cluster_resources()["CPU"]
    finally:
        backend.close()
    assert not res.interrupted and res.played == 4 and backend.hung == 1
    with Store.open(tmp_path / "r") as s:
        by = {pp["player"]: s.games(pp["pairing_id"]) for pp in s.pairings()}
    hung = by["Sleepy(d600)"]
    assert [g["reason"] for g in hung] == ["error", "error"]
    assert all(re.fullmatch(r"watchdog: no progress within \d+\.\d s \(waiting for 2 game\(s\) "
                            r"of Sleepy\(d600\) vs Random on Ray, budget 10 sims/move\); its "
                            r"Ray task was cancelled", g["error"]) for g in hung), hung[0]["error"]
    assert [g["reason"] for g in by["Random"]] == ["normal", "normal"]


def _arena(args, **kw):
    env = dict(os.environ, PYTHONPATH=str(TESTS), **{config.PLAYERS_ENV: PROVIDER})
    return subprocess.Popen([sys.executable, "-m", "mcts_arena", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def test_driver_killed_then_run_again_resumes(tmp_path, ray_cluster, fake_players):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(fake_config('  - {player: "Sleepy(d0.1)", opponent: Random}\n', 16))
    out = tmp_path / "r"
    args = ["run", str(cfg), "--out", str(out), "--quiet", "--backend", "ray",
            "--ray-address", ray_cluster.address]
    proc = _arena(args)
    deadline = time.monotonic() + 90
    while stored(out / DB_NAME) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate()
    at_kill = stored(out / DB_NAME)
    assert proc.returncode == -signal.SIGKILL and 3 <= at_kill < 16, (at_kill, err)
    # a terminal's view of the killed run: our one line, nothing from Ray
    assert re.match(r"rayfake: 1 pairing\(s\), 16 games \(0 stored, 16 to play\), Ray cluster "
                    r"with \d+ CPU\(s\), results in ", err.splitlines()[0]), err
    _no_ray_lines("\n".join(err.splitlines()[1:]))
    again = _arena(args + ["--verbose"])        # and this time Ray's lines are let through
    stdout, stderr = again.communicate(timeout=120)
    assert again.returncode == 0, stderr
    assert f"({at_kill} stored, {16 - at_kill} to play)" in stderr
    assert "Connected to Ray cluster" in stderr
    assert f"{16 - at_kill} games played" in stdout
    exp = config.load(str(cfg))
    with Store.open(out) as s:
        ids = s.game_ids()
    assert sorted(ids) == sorted(plan_mod.make_plan(exp).game_ids())


def test_node_with_another_build_stops_the_run(tmp_path, ray_cluster, fake_players,
                                               monkeypatch):
    from mcts_arena.errors import UserError

    version, build = provenance.build_identity()
    odd = _add_node(ray_cluster, **{provenance.FAKE_BUILD_ENV: "0ther0build0"})
    try:
        cfg = tmp_path / "c.yaml"
        cfg.write_text(fake_config('  - {player: Random, opponent: Random(im0.2)}\n', 24))
        out = tmp_path / "r"
        r = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--quiet",
                                     "--backend", "ray", "--ray-address", ray_cluster.address])
        assert r.exit_code == 2
        line = r.output.strip()
        assert len(r.output.splitlines()) == 1
        assert line.startswith("arena: error: node ")
        assert line.endswith(f"runs mcts_arena {version} build 0ther0build0, this driver runs "
                             f"{version} build {build}: install the same mcts_arena on every "
                             "node")
        assert not out.exists()
        # a node that joins after the check is caught by its first result
        import collections

        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        exp = config.loads(cfg.read_text(), source="t.yaml", players=fake_players)
        job = plan_mod.make_plan(exp).jobs[0]
        backend = _backend(ray_cluster, check_builds=False)
        try:
            on_odd = NodeAffinitySchedulingStrategy(odd.node_id, soft=False)
            ref = backend.task.options(scheduling_strategy=on_odd).remote(job, PROVIDER)
            with pytest.raises(UserError, match="build 0ther0build0, this driver"):
                backend._collect(ref, job, collections.deque())
        finally:
            backend.close()
    finally:
        ray_cluster.remove_node(odd)


def test_worker_node_killed_mid_run(tmp_path, ray_cluster, fake_players, capfd):
    """A node dies while it plays a job (its raylet is killed by the game); a fresh node joins;
    every planned game is stored once. (Last of the cluster's tests: Ray takes a while to count
    the dead node out of the cluster's resources.)"""
    from ray._private import ray_constants

    order = tmp_path / "kill-raylet"
    doomed = _add_node(ray_cluster, FAKE_NODE_KILL=str(order))   # only its processes see it
    raylet = doomed.all_processes[ray_constants.PROCESS_TYPE_RAYLET][0].process
    order.write_text(str(raylet.pid))
    exp = config.loads(fake_config('  - {player: NodeKill, opponent: Random}\n', 12),
                       source="t.yaml", players=fake_players)
    p = plan_mod.make_plan(exp)
    backend = _backend(ray_cluster)
    assert backend.workers == 3
    fresh = []
    run = backend.run

    def run_and_add_node(jobs, on_record, should_stop, skip=None):
        def record(rec):
            on_record(rec)
            if backend.replayed_games and not fresh:
                fresh.append(_add_node(ray_cluster))
        return run(jobs, record, should_stop, skip)

    backend.run = run_and_add_node
    try:
        res = run_experiment(exp, p, tmp_path / "r", workers=2, backend=backend, progress=False)
    finally:
        backend.close()
        for node in [doomed] + fresh:
            ray_cluster.remove_node(node, allow_graceful=False)
    assert Path(f"{order}.done").exists(), "no job ran on the doomed node"
    assert raylet.poll() is not None
    assert backend.replayed_games >= 2 and fresh
    assert not res.interrupted and res.played == 12
    with Store.open(tmp_path / "r") as s:
        games = s.games()
    assert sorted(g["game_id"] for g in games) == sorted(p.game_ids())
    assert all(g["reason"] == "normal" for g in games), [g["error"] for g in games]
    out, err = capfd.readouterr()          # Ray's "node marked dead" notes are not shown
    _no_ray_lines(out + err)


# ---- bad input: one line, exit status 2, nothing on disk -----------------------------------
def _bad(tmp_path, *extra, new=False):
    tmp_path.mkdir(exist_ok=True)
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG)
    out = tmp_path / "x"
    if new:
        out.mkdir()
        (out / "keep").write_text("old results\n")
    args = ["run", str(cfg), "--out", str(out), "--quiet", *extra] + (["--new"] if new else [])
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2, r.output
    assert len(r.output.splitlines()) == 1, r.output
    if new:
        assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml", "x"]
        assert [p.name for p in out.iterdir()] == ["keep"]
    else:
        assert not out.exists()
    return r.output.strip()


def test_ray_address_needs_ray_backend(tmp_path):
    assert _bad(tmp_path, "--ray-address", "auto") == \
        "arena: error: --ray-address needs --backend ray"


def test_unreachable_ray_address(tmp_path, monkeypatch):
    pytest.importorskip("ray")
    with __import__("socket").socket() as s:     # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    line = _bad(tmp_path, "--backend", "ray", "--ray-address", f"127.0.0.1:{port}", new=True)
    assert line == f"arena: error: cannot reach the Ray cluster at 127.0.0.1:{port}: " \
                   "Connection refused"
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")     # what 'auto' stands for
    assert re.fullmatch(rf"arena: error: cannot reach the Ray cluster at auto \([\d.]+:{port}\): "
                        "Connection refused",
                        _bad(tmp_path / "z", "--backend", "ray", "--ray-address", "auto"))
    assert _bad(tmp_path / "y", "--backend", "ray", "--ray-address", "nowhere") == \
        "arena: error: --ray-address must be 'auto' or HOST:PORT (or ray://HOST:PORT), " \
        "got 'nowhere'"


def test_ray_not_installed(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)       # import ray -> ImportError
    assert _bad(tmp_path, "--backend", "ray", new=True) == \
        "arena: error: the Ray backend needs Ray: pip install 'mcts_arena[ray]'"

