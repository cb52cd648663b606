"""Learned knowledge: the games' features against a simple recomputation from the text form, a
linear evaluation that encodes efLH playing move for move as efLH (so everything but the
evaluation is the game's own knowledge, exactly), `arena fit` from a real store and from a
published file, and the refusals (one line, exit 2, nothing written)."""
from __future__ import annotations

import gzip
import json
import math
import random

import pytest
from click.testing import CliRunner
from helpers import ongoing_positions
from mcts_arena.games.learned import LinearKnowledge

from mcts_arena import api, games, players
from mcts_arena.cli import cli
from mcts_arena.games import evalfile
from mcts_arena.learn import fit as fitting
from mcts_arena.results.frames import load


def random_positions(game: str, n: int, seed: int = 3):
    return ongoing_positions(game, n, seed, 1, 60)


# ---- features, recomputed from the text form ---------------------------------------------------

def bt_reference(text: str) -> list[float]:
    """Breakthrough's features from `to_text` alone (ranks 8..1, then w/b to move)."""
    rows, side = text.split()
    grid = [list(r) for r in reversed(rows.split("/"))]       # grid[row][col], row 0 = rank 1
    me = 0 if side == "w" else 1
    mark = "wb"

    def rel(p, row):
        return row if p == 0 else 7 - row

    def pieces(p):
        return [(r, c) for r in range(8) for c in range(8) if grid[r][c] == mark[p]]

    def attacks(p):
        d = 1 if p == 0 else -1
        return {(r + d, c + dc) for r, c in pieces(p) for dc in (-1, 1)
                if 0 <= r + d < 8 and 0 <= c + dc < 8}

    def hanging(p):
        return sum(1 for sq in pieces(p) if sq in attacks(1 - p) and sq not in attacks(p))

    from mcts_arena.games.breakthrough import Breakthrough
    lh = Breakthrough.from_text(text).lh_from_scratch()
    op = 1 - me
    f = [1.0, len(pieces(me)) - len(pieces(op))]
    for k in range(1, 7):
        f.append(sum(rel(me, r) == k for r, _ in pieces(me))
                 - sum(rel(op, r) == k for r, _ in pieces(op)))
    adv = [max((rel(p, r) for r, _ in pieces(p)), default=0) for p in (me, op)]
    f.append(adv[0] - adv[1])
    f.append(sum(rel(me, r) == 0 for r, _ in pieces(me)) - sum(rel(op, r) == 0
                                                              for r, _ in pieces(op)))
    f.append((lh[me] - lh[op]) / 100.0)
    f.append(hanging(me) - hanging(op))
    return f


def kalah_reference(text: str) -> list[float]:
    sides, mover = text.split()
    b = [int(x) for part in sides.split("/") for x in part.split(",")]
    me, op = int(mover), 1 - int(mover)

    def best_capture(p):
        best = 0
        for k in range(6):
            i, seeds = 7 * p + k, b[7 * p + k]
            if seeds == 0 or seeds >= 13:
                continue
            land = i
            while seeds:
                land = (land + 1) % 14
                if land != 13 - 7 * p:
                    seeds -= 1
            if 7 * p <= land < 7 * p + 6 and b[land] == 0 and b[12 - land] > 0:
                best = max(best, b[12 - land] + 1)
        return best

    def side(p, fn):
        return sum(fn(k, b[7 * p + k]) for k in range(6))
    return [1.0, b[7 * me + 6] - b[7 * op + 6],
            side(me, lambda k, v: v) - side(op, lambda k, v: v),
            side(me, lambda k, v: v == 0) - side(op, lambda k, v: v == 0),
            side(me, lambda k, v: v == 6 - k) - side(op, lambda k, v: v == 6 - k),
            best_capture(me) - best_capture(op)]


@pytest.mark.parametrize(("game", "reference"), [("breakthrough", bt_reference),
                                                 ("kalah", kalah_reference)])
def test_features_agree_with_a_recomputation_from_the_text(game, reference):
    for s in random_positions(game, 150):
        got = s.knowledge().py_features(s)
        assert got == pytest.approx(reference(s.to_text()), abs=1e-12), s.to_text()


def test_loa_features_are_the_mover_less_the_opponent():
    for s in random_positions("loa", 40):
        k = s.knowledge()
        f = k.py_features(s)
        assert len(f) == len(k.feature_names) == 9 and f[0] == 1.0
        assert -1.0 <= f[4] <= 1.0                  # mobility as a share difference
        t = s.to_text()
        pieces = t.split()[0].count("w") - t.split()[0].count("b")
        assert f[8] == (pieces if t.split()[1] == "w" else -pieces)


def test_every_game_with_features_names_them_and_the_others_have_none():
    have = [g for g in games.names() if evalfile.feature_names(g)]
    assert {"breakthrough", "kalah", "loa"} <= set(have)
    for g in games.names():
        names = evalfile.feature_names(g)
        s = games.new_state(g)
        assert len(s.knowledge().py_features(s)) == len(names), g
        assert not names or names[0] == "tempo"


# ---- a linear evaluation on the game's own knowledge -------------------------------------------

def lh_weights():
    names = evalfile.feature_names("breakthrough")
    return [2.0 if n == "lh" else 0.0 for n in names]   # tanh(2 x / 2) = efLH's tanh(x)


def test_a_linear_evaluation_is_tanh_of_half_the_weighted_features():
    rng = random.Random(2)
    w = [rng.uniform(-1, 1) for _ in evalfile.feature_names("breakthrough")]
    for s in random_positions("breakthrough", 50):
        k = LinearKnowledge(s.knowledge(), w)
        x = sum(a * b for a, b in zip(w, s.knowledge().py_features(s)))
        assert k.value(s) == pytest.approx(math.tanh(x / 2), abs=1e-12)
        lh = LinearKnowledge(s.knowledge(), lh_weights())
        assert lh.value(s) == s.evaluation("efLH")     # to the last bit


@pytest.mark.parametrize(("spec", "sims"), [("MCTS(efLH,ipp,fet20,im0.4)", 300),
                                            ("MCTS(efLH,ipp,det0.5,np10,pb1)", 300),
                                            ("αβ(efLH)", 3000)])
def test_a_file_that_encodes_efLH_plays_move_for_move_as_efLH(tmp_path, spec, sims):
    """Everything but the evaluation is the game's knowledge (orders, priors, biases, ipp),
    and the evaluation's fast paths (eval_after, leaves) answer as the game's: the same moves,
    seed for seed. (ε-greedy playouts are left out: Breakthrough's own best_successor draws
    once among the tied best moves, the default once per tie, so the same seed picks another
    of them; the conformance harness checks that both choose among the same moves.)"""
    f = tmp_path / "lh.json"
    evalfile.write(f, {"format": evalfile.FORMAT, "game": "breakthrough",
                       "features": list(evalfile.feature_names("breakthrough")),
                       "weights": lh_weights()})
    learned = spec.replace("efLH", f"ef={f}")
    for seed in (1, 2):
        a, b = players.make(players.parse(spec, "breakthrough"), seed=seed), \
            players.make(players.parse(learned, "breakthrough"), seed=seed)
        s = games.new_state("breakthrough")
        for _ in range(6):
            ma, _ = a.choose(s, None, sims)
            mb, _ = b.choose(s, None, sims)
            assert ma == mb, (spec, seed, s.to_text())
            s.play(ma)


# ---- arena fit ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def store(tmp_path_factory):
    out = tmp_path_factory.mktemp("fit") / "bt"
    api.play_match("MCTS(ipp)", "MCTS", game="breakthrough", sims=60, games=30, seed=4,
                   jobs=1, out=str(out), progress=False)
    return out


def test_fit_writes_a_file_a_player_plays(store, tmp_path):
    out = tmp_path / "fit.json"
    r = CliRunner().invoke(cli, ["fit", str(store), "--out", str(out), "--per-game", "6"])
    assert r.exit_code == 0, r.output
    obj = evalfile.read(out, "breakthrough")
    fit = obj["fit"]
    assert obj["fitted_on"]["sources"] == [str(store)] and obj["fitted_on"]["games"] == 30
    assert fit["positions"]["train"] > 0 and fit["positions"]["held_out"] > 0
    assert fit["games"]["train"] + fit["games"]["held_out"] == 30
    assert 0 < fit["log_loss"]["held_out"] < 5 and fit["log_loss"]["coin"] == pytest.approx(
        math.log(2), abs=0.1)
    assert sum(b["positions"] for b in fit["calibration"]) == fit["positions"]["held_out"]
    assert "held-out log-loss" in r.output and f"ef={out}" in r.output
    p = players.parse(f"MCTS(bl,ef={out})", "breakthrough")
    assert p.canonical.startswith(f"MCTS(ef={out}@{evalfile.digest(out)}")
    move, _ = players.make(p, seed=1).choose(games.new_state("breakthrough"), None, 50)
    assert move in games.new_state("breakthrough").move_ids()


def test_fit_is_seeded_and_reads_published_files(store, tmp_path):
    """The same sources and seed give the same weights; a published file (the record's
    format) gives the same fit as the store it was written from."""
    pub = tmp_path / "bt.jsonl.gz"
    frame = load(store, moves=True)
    with gzip.open(pub, "wt") as fh:
        fh.write(json.dumps({"format": "mcts_arena-games/1",
                             "experiment": {"config": {"game": "breakthrough"}}}) + "\n")
        for g in frame.itertuples():
            winner = None if g.result == "draw" else int(g.winner)
            fh.write(json.dumps({"opening": g.opening, "moves": list(g.moves),
                                 "winner": winner, "reason": g.reason}) + "\n")
    assert len(frame) == 30
    a = fitting.fit([str(store)], per_game=5, seed=7)[1].weights
    assert a == fitting.fit([str(store)], per_game=5, seed=7)[1].weights
    assert a == fitting.fit([str(pub)], per_game=5, seed=7)[1].weights


@pytest.mark.parametrize(("args", "says"), [
    (["/nonexistent"], "neither a results directory"),
    (["STORE", "--test-share", "1.5"], "--test-share"),
    (["STORE", "--game", "kalah"], "but the sources hold breakthrough"),
    (["STORE", "--l2", "-1"], "--l2"),
    (["STORE", "--l2", "nan"], "--l2"),
])
def test_fit_refuses_bad_input_in_one_line_and_writes_nothing(store, tmp_path, args, says):
    out = tmp_path / "fit.json"
    args = [str(store) if a == "STORE" else a for a in args]
    r = CliRunner().invoke(cli, ["fit", *args, "--out", str(out)])
    assert r.exit_code == 2 and says in r.output and r.output.count("\n") == 1, r.output
    assert not out.exists()


def test_fit_never_writes_over_a_file_unasked(store, tmp_path):
    out = tmp_path / "fit.json"
    out.write_text("mine")
    r = CliRunner().invoke(cli, ["fit", str(store), "--out", str(out)])
    assert r.exit_code == 2 and "exists" in r.output and out.read_text() == "mine"


def test_a_game_without_features_cannot_be_fitted(tmp_path):
    out = tmp_path / "ttt"
    api.play_match("MCTS", "Random", game="tictactoe", sims=20, games=4, seed=1, jobs=1,
                   out=str(out), progress=False)
    r = CliRunner().invoke(cli, ["fit", str(out), "--out", str(tmp_path / "f.json")])
    assert r.exit_code == 2 and "no features" in r.output


# ---- ef=FILE in a spec ------------------------------------------------------------------------

@pytest.fixture()
def lh_file(tmp_path):
    f = tmp_path / "lh.json"
    evalfile.write(f, {"format": evalfile.FORMAT, "game": "breakthrough",
                       "features": list(evalfile.feature_names("breakthrough")),
                       "weights": lh_weights()})
    return f


@pytest.mark.parametrize(("spec", "game", "says"), [
    ("MCTS(ef={f})", "kalah", "fitted for breakthrough, not kalah"),
    ("Random(ef={f})", "breakthrough", "uses no evaluation"),
    ("MCTS(ef={f}@000000000000)", "breakthrough", "has changed since"),
    ("MCTS(ef=/nonexistent.json)", "breakthrough", "no such evaluation file"),
    ("MCTS(ef={bad})", "breakthrough", "weights must be 12 finite numbers"),
    ("MCTS(ef={f},ef={other})", "breakthrough", "conflicting evaluations"),
])
def test_bad_evaluation_files_in_a_spec_are_refused(lh_file, tmp_path, spec, game, says):
    bad = tmp_path / "bad.json"
    evalfile.write(bad, {"format": evalfile.FORMAT, "game": "breakthrough",
                         "features": list(evalfile.feature_names("breakthrough")),
                         "weights": [1.0, float("nan")]})
    other = tmp_path / "other.json"
    evalfile.write(other, {"format": evalfile.FORMAT, "game": "breakthrough",
                           "features": list(evalfile.feature_names("breakthrough")),
                           "weights": [0.5] * 12})
    text = spec.format(f=lh_file, bad=bad, other=other)
    with pytest.raises(players.SpecError, match=says):
        players.parse(text, game)
    r = CliRunner().invoke(cli, ["play", game, text, "Random", "--sims", "10"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and says in r.output, r.output


def test_a_file_evaluation_replaces_a_macro_s_and_is_listed(lh_file):
    p = players.parse(f"MCTS(bl,ef={lh_file})", "breakthrough")
    assert p.evalfn == f"ef={lh_file}@{evalfile.digest(lh_file)}"
    assert "efMS" not in p.canonical and "ipp" in p.canonical
    assert any(tok == "ef=FILE" for tok, _ in players.describe_tokens("breakthrough"))
    assert not any(tok == "ef=FILE" for tok, _ in players.describe_tokens("tictactoe"))


# ---- arena fit --self-play (RootStrap) ---------------------------------------------------------

def test_a_rootstrap_step_moves_the_value_toward_the_search_s():
    import numpy as np

    from mcts_arena.learn.bootstrap import rootstrap_step

    f = np.array([1.0, 2.0, -1.0])
    w = np.array([0.1, 0.2, 0.3])
    v0 = math.tanh(0.5 * float(w @ f))
    err = rootstrap_step(w, f, 0.9, 0.1)
    assert err == pytest.approx(0.9 - v0)
    assert w == pytest.approx(np.array([0.1, 0.2, 0.3]) + 0.1 * err * (1 - v0 * v0) * 0.5 * f)
    assert abs(0.9 - math.tanh(0.5 * float(w @ f))) < abs(0.9 - v0)
    w2 = np.zeros(3)
    rootstrap_step(w2, f, 999.0, 0.1)           # a proven win is +1, not the win score
    assert w2 == pytest.approx(0.1 * 1.0 * 0.5 * f)


def test_self_play_writes_a_seeded_file_a_player_plays(tmp_path):
    outs = [tmp_path / "a.json", tmp_path / "b.json"]
    for out in outs:
        r = CliRunner().invoke(cli, ["fit", "--self-play", "2", "--game", "breakthrough",
                                     "--nodes", "300", "--out", str(out), "--seed", "3",
                                     "--rule", "rootstrap"])
        assert r.exit_code == 0, r.output
        assert "RootStrap" in r.output
    a, b = (evalfile.read(o, "breakthrough") for o in outs)
    assert a["weights"] == b["weights"] and any(a["weights"])
    assert a["fit"]["rule"] == "RootStrap(αβ)" and a["fit"]["updates"] > 0
    assert a["fitted_on"]["started_from"] == "zero"
    r = CliRunner().invoke(cli, ["fit", "--self-play", "1", "--game", "breakthrough", "--nodes",
                                 "300", "--from", str(outs[0]), "--out",
                                 str(tmp_path / "c.json")])
    assert r.exit_code == 0, r.output
    assert evalfile.read(tmp_path / "c.json")["fitted_on"]["started_from"] == str(outs[0])
    players.parse(f"αβ(ef={outs[0]})", "breakthrough")


@pytest.mark.parametrize(("args", "says"), [
    (["--self-play", "2"], "--self-play needs --game"),
    (["--self-play", "2", "--game", "tictactoe"], "no features"),
    (["--self-play", "2", "--game", "kalah", "--from", "LH"], "fitted for breakthrough"),
    (["--self-play", "2", "--game", "breakthrough", "SOURCE"], "give no SOURCE"),
    (["--self-play", "2", "--game", "breakthrough", "--lr", "-1"], "--lr"),
    ([], "needs SOURCE"),
])
def test_self_play_refuses_bad_input_in_one_line(tmp_path, lh_file, args, says):
    out = tmp_path / "f.json"
    args = [str(lh_file) if a == "LH" else (str(tmp_path) if a == "SOURCE" else a)
            for a in args]
    r = CliRunner().invoke(cli, ["fit", *args, "--out", str(out)])
    assert r.exit_code == 2 and says in r.output and r.output.count("\n") == 1, r.output
    assert not out.exists()


def test_a_treestrap_step_moves_each_node_toward_its_value_or_its_bound():
    import numpy as np

    from mcts_arena.learn.bootstrap import treestrap_step

    f = np.array([[1.0, 1.0], [1.0, -1.0], [1.0, 2.0]])
    w = np.array([0.0, 0.5])
    v = np.tanh(0.5 * (f @ w))                      # 0.245, -0.245, 0.462
    # node 0 exact at 0.8; node 1 at least -0.9 (already met: no error); node 2 at most 0.1
    bounds = np.array([1, 2, 3])
    w2 = w.copy()
    mse = treestrap_step(w2, f, np.array([0.8, -0.9, 0.1]), bounds, 0.3)
    e = np.array([0.8 - v[0], 0.0, 0.1 - v[2]])
    assert mse == pytest.approx(float(np.mean(e * e)))
    assert w2 == pytest.approx(w + 0.3 * ((e * (1 - v * v) * 0.5) @ f) / 3)
    proven = np.array([999.0, -999.0, 0.0])         # αβ's proven results count as +-1
    w3 = w.copy()
    treestrap_step(w3, f, proven, np.array([1, 1, 1]), 0.3)
    e3 = np.array([1.0, -1.0, 0.0]) - v
    assert w3 == pytest.approx(w + 0.3 * ((e3 * (1 - v * v) * 0.5) @ f) / 3)


def test_alphabeta_records_each_valued_node_with_its_features_and_bound():
    from mcts_arena.players.search.alphabeta import AlphaBeta

    s = random_positions("breakthrough", 1, seed=8)[0]
    ab = AlphaBeta(0, 1)
    ab.search(s, nodes=2000)
    assert ab.recorded() == ([], [], [])           # nothing is recorded unless asked
    ab.record(500)
    _move, stats = ab.search(s, nodes=2000)
    f, values, bounds = ab.recorded()
    assert 0 < len(values) <= 500 and len(f) == len(values) == len(bounds)
    assert set(bounds) <= {1, 2, 3} and all(len(row) == 12 and row[0] == 1.0 for row in f)
    assert values[-1] == stats["value"] or len(values) == 500   # the root is the last valued
    assert f[-1] == s.knowledge().py_features(s) or len(values) == 500
    assert ab.recorded() == ([], [], [])           # handed over once


def test_treestrap_is_the_default_self_play_rule(tmp_path):
    out = tmp_path / "t.json"
    r = CliRunner().invoke(cli, ["fit", "--self-play", "2", "--game", "breakthrough", "--nodes",
                                 "300", "--out", str(out)])
    assert r.exit_code == 0 and "TreeStrap" in r.output, r.output
    fit = evalfile.read(out, "breakthrough")["fit"]
    assert fit["rule"] == "TreeStrap(αβ)" and fit["nodes_learned"] > fit["updates"] > 0
