"""The local pool and run_experiment with the fake players (tests/fakes.py): every game once,
dead workers replayed, faults as error games or forfeits, repeatable games."""
import itertools
import os

import pytest

from mcts_arena import games as games_mod
from mcts_arena.results.store import Store
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.experiment import run_experiment
from mcts_arena.runner.pool import LocalPoolBackend

PROVIDER = "fakes"


def experiment(matches: str, games: int = 4, budget: str = "{sims: 10}", extra: str = ""):
    text = (f"name: t\ngame: breakthrough\nbudget: {budget}\ngames: {games}\nseed: 7\n"
            f"{extra}matches:\n{matches}")
    import importlib
    return config.loads(text, source="t.yaml", players=importlib.import_module(PROVIDER))


def run(exp, directory, workers=2, backend=None):
    p = plan_mod.make_plan(exp)
    return p, run_experiment(exp, p, directory, workers=workers, progress=False,
                             players=PROVIDER, backend=backend)


def test_two_workers_play_every_game_once(tmp_path):
    exp = experiment("  - {player: Random, opponent: Random(im0.5)}\n"
                     "  - {player: Random(im0.1), opponent: Random}\n", games=6)
    p, res = run(exp, tmp_path / "r", workers=2)
    assert not res.interrupted and res.played == 12 == p.total_games
    with Store.open(tmp_path / "r") as s:
        ids = s.game_ids()
        assert sorted(ids) == sorted(p.game_ids())
        for g in s.games():
            assert g["reason"] == "normal" and g["winner"] in (0, 1)
            assert g["plies"] == len(g["moves"]) == len(g["stats"]) > 0
            assert all(st["sims"] == 10 for st in g["stats"])


@pytest.mark.slow
def test_killed_worker_has_its_games_replayed(tmp_path, monkeypatch):
    marker = tmp_path / "crashed"
    monkeypatch.setenv("FAKE_CRASH_MARKER", str(marker))
    exp = experiment("  - {player: Crash, opponent: Random}\n", games=4)
    backend = LocalPoolBackend(2, players=PROVIDER)
    p, res = run(exp, tmp_path / "r", backend=backend)
    assert marker.exists(), "the fake player never killed its worker"
    assert backend.replayed_games >= 1
    assert res.played == 4 and not res.interrupted
    with Store.open(tmp_path / "r") as s:
        games = s.games()
    assert sorted(g["game_id"] for g in games) == sorted(p.game_ids())
    assert all(g["reason"] == "normal" for g in games)


@pytest.mark.slow
def test_job_that_always_kills_its_worker_becomes_error_games(tmp_path):
    exp = experiment("  - {player: Doom, opponent: Random}\n"
                     "  - {player: Random, opponent: Random(im0.3)}\n", games=2)
    backend = LocalPoolBackend(1, players=PROVIDER, max_deaths=2)
    _p, res = run(exp, tmp_path / "r", backend=backend)
    assert not res.interrupted and res.played == 4
    with Store.open(tmp_path / "r") as s:
        by_pairing = {pp["player"]: s.games(pp["pairing_id"]) for pp in s.pairings()}
    doom = by_pairing["Doom"]
    assert len(doom) == 2 and all(g["reason"] == "error" for g in doom)
    assert doom[0]["error"] == "worker died 2 times playing this game (last exit code -9)"
    assert [g["reason"] for g in by_pairing["Random"]] == ["normal", "normal"]


def test_player_exception_is_an_error_game_and_the_run_continues(tmp_path):
    exp = experiment("  - {player: Boom, opponent: Random}\n"
                     "  - {player: Random, opponent: Random(im0.2)}\n", games=2)
    _p, res = run(exp, tmp_path / "r")
    assert res.played == 4
    with Store.open(tmp_path / "r") as s:
        by_pairing = {pp["player"]: s.games(pp["pairing_id"]) for pp in s.pairings()}
    boom = by_pairing["Boom"]
    assert [g["reason"] for g in boom] == ["error", "error"]
    assert all(g["score"] is None and g["winner"] is None for g in boom)
    assert "RuntimeError: boom on move 3" in boom[0]["error"]
    assert boom[0]["error"].startswith("seat 0 Boom: ")      # Boom moves first in game 0
    assert [g["reason"] for g in by_pairing["Random"]] == ["normal", "normal"]


def test_time_forfeit(tmp_path):
    exp = experiment("  - {player: Slow, opponent: Random}\n", games=1, budget="{time: 0.01}")
    run(exp, tmp_path / "r", workers=1)
    with Store.open(tmp_path / "r") as s:
        (g,) = s.games()
    assert g["reason"] == "time_forfeit" and g["winner"] == 1 and g["score"] == 0.0
    assert g["plies"] == 0 and "limit 0.520 s" in g["error"]


@pytest.mark.slow
def test_same_config_and_seed_store_identical_games(tmp_path):
    exp = experiment("  - {player: Random, opponent: Random(im0.5)}\n", games=4,
                     extra="openings: {random_plies: 4}\n")
    run(exp, tmp_path / "a", workers=2)
    run(exp, tmp_path / "b", workers=1)
    keep = ("game_id", "seat0", "seat1", "opening", "winner", "moves", "seeds", "plies")
    with Store.open(tmp_path / "a") as a, \
            Store.open(tmp_path / "b") as b:
        ga = [{k: g[k] for k in keep} for g in a.games()]
        gb = [{k: g[k] for k in keep} for g in b.games()]
    assert ga == gb and len(ga) == 4
    # pairs share their opening, which is 4 plies deep
    assert ga[0]["opening"] == ga[1]["opening"] != ga[2]["opening"]


def test_backend_stop_keeps_finished_games(tmp_path):
    exp = experiment("  - {player: Sleepy(d0.002), opponent: Random}\n", games=12)
    p = plan_mod.make_plan(exp)
    got = []
    backend = LocalPoolBackend(2, players=PROVIDER)
    complete = backend.run(p.jobs, got.append, should_stop=lambda: len(got) >= 3)
    assert not complete and 3 <= len(got) < 12
    assert len({r.game_id for r in got}) == len(got)


def test_a_kept_pool_plays_every_run_on_the_same_workers_and_ends_them_on_close(tmp_path):
    exp = experiment("  - {player: Random, opponent: Random(im0.5)}\n", games=4)
    p = plan_mod.make_plan(exp)
    with LocalPoolBackend(2, players=PROVIDER, keep_workers=True) as backend:
        runs = []
        for _ in range(3):
            got = []
            assert backend.run(p.jobs, got.append)
            assert sorted(r.game_id for r in got) == sorted(p.game_ids())
            runs.append(sorted(w.process.pid for w in backend._kept))
        kept = [w.process for w in backend._kept]
        assert runs[0] == runs[1] == runs[2] and len(runs[0]) == 2
        assert all(proc.is_alive() for proc in kept)
    assert backend._kept == [] and not any(proc.is_alive() for proc in kept)


def _allowed_cpus(pid: int) -> set[int]:
    return os.sched_getaffinity(pid)


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="needs a process allowed on two CPUs or more")
def test_workers_are_pinned_only_when_the_run_has_every_cpu(tmp_path):
    # a run with fewer workers than CPUs leaves them free to go where the machine is idle; one
    # with a worker on every CPU gives each its own
    cpus = sorted(os.sched_getaffinity(0))
    exp = experiment("  - {player: Random, opponent: Random(im0.5)}\n", games=2 * len(cpus))
    p = plan_mod.make_plan(exp)
    with LocalPoolBackend(1, players=PROVIDER, keep_workers=True) as backend:
        assert backend.run(p.jobs, lambda r: None)
        assert [_allowed_cpus(w.process.pid) for w in backend._kept] == [set(cpus)]
    with LocalPoolBackend(len(cpus), players=PROVIDER, keep_workers=True) as backend:
        assert backend.run(p.jobs, lambda r: None)
        assert sorted(_allowed_cpus(w.process.pid) for w in backend._kept) == \
            [{c} for c in cpus]


def test_a_stopped_run_ends_the_kept_workers_too(tmp_path):
    exp = experiment("  - {player: Sleepy(d0.002), opponent: Random}\n", games=12)
    p = plan_mod.make_plan(exp)
    backend = LocalPoolBackend(2, players=PROVIDER, keep_workers=True)
    assert backend.run(p.jobs[:1], lambda r: None)
    kept = [w.process for w in backend._kept]
    got = []
    assert not backend.run(p.jobs, got.append, should_stop=lambda: len(got) >= 3)
    assert backend._kept == [] and not any(proc.is_alive() for proc in kept)


@pytest.mark.slow
def test_real_players_repeat_with_sims_budget(tmp_path):
    """With the real players API (once it exists): sims budgets + fixed seed -> same games."""
    players = pytest.importorskip("mcts_arena.players")
    if not hasattr(players, "make"):
        pytest.skip("players API not available yet")
    import importlib
    text = ("name: t\ngame: breakthrough\nbudget: {sims: 50}\ngames: 2\nseed: 3\n"
            "matches:\n  - {player: 'MCTS(ipp,im0.4)', opponent: 'MCTS(ipp)'}\n")
    exp = config.loads(text, players=importlib.import_module("mcts_arena.players"))
    out = []
    for d in ("a", "b"):
        p = plan_mod.make_plan(exp)
        run_experiment(exp, p, tmp_path / d, workers=2, progress=False,
                       players="mcts_arena.players")
        with Store.open(tmp_path / d) as s:
            out.append([(g["game_id"], g["moves"], g["winner"]) for g in s.games()])
    assert out[0] == out[1]


def test_kalah_extra_turns_and_pair_scores(tmp_path):
    text = ("name: k\ngame: kalah\nbudget: {sims: 5}\ngames: 6\nseed: 4\n"
            "matches:\n  - {player: Random, opponent: 'Random(im0.5)'}\n")
    import importlib
    exp = config.loads(text, players=importlib.import_module(PROVIDER))
    assert exp.openings.kind == "random_boards"
    run(exp, tmp_path / "r")
    with Store.open(tmp_path / "r") as s:
        rows = s.games()
        pid = rows[0]["pairing_id"]
        outcomes = s.pair_outcomes(pid)
    assert sum(outcomes.values()) == 3
    seats = [[st["seat"] for st in g["stats"]] for g in rows]
    # extra turns: somewhere a side moves twice in a row, and the loop followed it
    assert any(a == b for ss in seats for a, b in itertools.pairwise(ss))
    for g in rows:
        assert g["opening"] == rows[g["pair_index"] * 2]["opening"]     # pairs share a board
        st = games_mod.new_state("kalah", g["opening"])
        for m, stat in zip(g["moves"], g["stats"]):
            assert st.to_move() == stat["seat"]
            st.play(m)
        assert st.is_terminal() and st.winner() == g["winner"]
    from mcts_arena.stats import pair_outcome
    by_pair = {}
    for g in rows:
        by_pair.setdefault(g["pair_index"], {})[g["swap"]] = g["score"]
    want = {}
    for sc in by_pair.values():
        o = pair_outcome(sc[0], sc[1])
        want[o] = want.get(o, 0) + 1
    assert outcomes == want
