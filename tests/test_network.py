"""The value and policy network (games/network.pyx, games/netfile.py): the Cython forward pass
against numpy's on the same file, the games' input encodings (Breakthrough's mirrored for
Black), `nn=FILE` in a spec (PUCT with the policy as prior, the value as the evaluation) and the
file's refusals (one line, exit 2)."""
from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from helpers import ongoing_positions

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.games import evalfile, netfile


def random_net(path, game: str, hidden=(24, 12), seed: int = 1, **change):
    """A network file of random weights (the shapes the game's encoding asks)."""
    rng = np.random.default_rng(seed)
    enc = netfile.net_input(game)
    dims = [enc.n_inputs, *hidden]
    params = []
    for a, b in zip(dims[:-1], dims[1:]):
        params += [rng.normal(0, 0.4, (b, a)), rng.normal(0, 0.2, b)]
    params += [rng.normal(0, 0.4, dims[-1]), np.array([0.1]),
               rng.normal(0, 0.6, (enc.n_actions, dims[-1])), rng.normal(0, 0.3, enc.n_actions)]
    obj = netfile.file_object(game, params, list(hidden), {"sources": []}, {}, "now")
    obj.update(change)
    evalfile.write(path, obj)
    return path


@pytest.fixture(scope="module")
def nets(tmp_path_factory):
    d = tmp_path_factory.mktemp("nets")
    return {g: random_net(d / f"{g}.json", g) for g in ("breakthrough", "kalah")}


def numpy_side(obj, state, enc):
    """numpy's value and legal-move priors of a position, from the file alone."""
    v, logits = netfile.forward(obj, np.array([enc.py_encode(state)]))
    ids = state.move_ids()
    z = logits[0][[enc.py_action(state, m) for m in ids]]
    p = np.exp(z - z.max())
    return v[0], dict(zip(ids, p / p.sum()))


@pytest.mark.parametrize("game", ["breakthrough", "kalah"])
def test_the_cython_forward_is_numpy_s_on_many_positions(nets, game):
    f = nets[game]
    obj = netfile.read(f, game)
    know = netfile.knowledge(netfile.parse_token(str(f), game), game)
    enc = netfile.net_input(game)
    for s in ongoing_positions(game, 150, seed=7, max_plies=60):
        v, priors = numpy_side(obj, s, enc)
        assert abs(know.value(s) - v) < 1e-9                 # through the value table
        assert abs(know.value(s) - v) < 1e-9                 # and from it
        for m, p in priors.items():                          # through the priors' cache
            assert abs(know.py_move_prior(s, m) - p) < 1e-9
        fresh_v, fresh = know.py_forward(s)
        assert abs(fresh_v - v) < 1e-9 and fresh.keys() == priors.keys()
        assert sum(fresh.values()) == pytest.approx(1.0, abs=1e-12)
    done = games.new_state(game)
    while not done.is_terminal():
        done.play(done.move_ids()[0])
    assert know.value(done) == done.reward(done.to_move())     # a finished game is ±1 / 0


def test_breakthrough_s_encoding_is_the_mover_s_view():
    enc = netfile.net_input("breakthrough")
    for s in ongoing_positions("breakthrough", 40, seed=3, max_plies=40):
        rows, side = s.to_text().split()
        # the same position with the colours swapped and the board turned rank for rank
        swapped = "/".join(r.translate(str.maketrans("wb", "bw")) for r in reversed(
            rows.split("/")))
        mirror = type(s).from_text(f"{swapped} {'b' if side == 'w' else 'w'}")
        assert enc.py_encode(mirror) == enc.py_encode(s)
        x = enc.py_encode(s)
        assert sum(x[:64]) == s.to_text().split()[0].count("wb"[s.to_move()])
        acts = [enc.py_action(s, m) for m in s.move_ids()]
        assert len(set(acts)) == len(acts) and all(0 <= a < 192 for a in acts)
        assert sorted(acts) == sorted(enc.py_action(mirror, m) for m in mirror.move_ids())


def test_kalah_s_encoding_is_the_mover_s_view():
    enc = netfile.net_input("kalah")
    s = games.new_state("kalah", "1,0,3,4,5,6,7/8,9,0,2,1,3,4 1")
    assert enc.py_encode(s) == [v / 8 for v in (8, 9, 0, 2, 1, 3, 4, 1, 0, 3, 4, 5, 6, 7)]
    assert [enc.py_action(s, m) for m in s.move_ids()] == s.move_ids()


def test_nn_in_a_spec_is_canonical_and_plays_with_puct(nets):
    f = nets["breakthrough"]
    d = evalfile.digest(f)
    p = players.parse(f"MCTS(puctp1.5,fet0,im0.4,nn={f})", "breakthrough")
    assert p.evalfn == f"nn={f}@{d}" and p.canonical.startswith(f"MCTS(nn={f}@{d},")
    assert players.parse(p.canonical, "breakthrough").canonical == players.parse(
        f"MCTS(im0.4,fet0,nn={f},puctp1.5)", "breakthrough").canonical == p.canonical
    # Kalah has no node priors of its own: the network's policy is PUCT's prior there
    players.parse(f"MCTS(puctp1.5,fet0,nn={nets['kalah']})", "kalah")
    with pytest.raises(players.SpecError, match="does not apply to kalah"):
        players.parse("MCTS(puctp1.5,fet0)", "kalah")
    for spec in (f"MCTS(puctp1.5,fet0,nn={f})", f"MCTS(puctp1.5,fet0,im0.4,nn={f})",
                 f"αβ(nn={f})"):
        r = CliRunner().invoke(cli, ["play", "breakthrough", spec, "MCTS(bl,im0.4)",
                                     "--sims", "60", "--seed", "3"])
        assert r.exit_code == 0 and "result:" in r.output, r.output
    assert any(tok == "nn=FILE" for tok, _ in players.describe_tokens("kalah"))
    assert not any(tok == "nn=FILE" for tok, _ in players.describe_tokens("tictactoe"))


def test_puct_takes_the_policy_as_its_prior(tmp_path):
    """A network valuing every position 0 whose policy puts nearly all its weight on one move:
    PUCT with the policy as prior spends the simulations on that move and plays it."""
    from mcts_arena.players.builtin import knowledge_of

    s = games.new_state("breakthrough")
    enc = netfile.net_input("breakthrough")
    want = s.parse_move("g2-h3")
    b = np.zeros(enc.n_actions)
    b[enc.py_action(s, want)] = 8.0
    params = [np.zeros((4, 128)), np.zeros(4), np.zeros(4), np.zeros(1), np.zeros((192, 4)), b]
    f = tmp_path / "peaked.json"
    evalfile.write(f, netfile.file_object("breakthrough", params, [4], {}, {}, "now"))
    spec = players.parse(f"MCTS(puctp1.5,fet0,nn={f})", "breakthrough")
    assert type(knowledge_of(spec)).__name__ == "NetKnowledge"
    assert players.make(spec, seed=5).choose(s, sims=60)[0] == want
    assert players.make("MCTS(puctp1.5,fet0)", "breakthrough", seed=5).choose(
        s, sims=60)[0] != want


def _edit(path, out, **change):
    obj = json.loads(path.read_text())
    obj.update(change)
    evalfile.write(out, obj)
    return out


@pytest.mark.parametrize(("make", "game", "says"), [
    (lambda f, t: f, "kalah", "trained for breakthrough, not kalah"),
    (lambda f, t: _edit(f, t / "w.json", hidden=[24, 13]), "breakthrough",
     "layer 2's w has shape (12, 24), not (13, 24)"),
    (lambda f, t: _edit(f, t / "n.json", value={"w": [float("nan")] * 12, "b": 0.0}),
     "breakthrough", "value's w holds a number that is not finite"),
    (lambda f, t: _edit(f, t / "e.json", encoding="breakthrough-planes/0"), "breakthrough",
     "is not breakthrough's today"),
    (lambda f, t: _edit(f, t / "fmt.json", format="mcts_arena-linear-eval/1"), "breakthrough",
     "not a network file"),
    (lambda f, t: t / "none.json", "breakthrough", "no such network file"),
    (lambda f, t: f"{f}@000000000000", "breakthrough", "has changed since"),
])
def test_bad_network_files_are_refused_in_one_line(nets, tmp_path, make, game, says):
    text = f"MCTS(puctp1.5,fet0,nn={make(nets['breakthrough'], tmp_path)})"
    with pytest.raises(players.SpecError, match=says.replace("(", r"\(").replace(")", r"\)")):
        players.parse(text, game)
    r = CliRunner().invoke(cli, ["play", game, text, "Random", "--sims", "10"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and says in r.output, r.output


def test_a_file_changed_after_the_player_was_named_is_refused(nets, tmp_path):
    f = random_net(tmp_path / "c.json", "breakthrough", seed=2)
    spec = players.parse(f"MCTS(puctp1.5,fet0,nn={f})", "breakthrough")
    random_net(f, "breakthrough", seed=3)
    from mcts_arena.players.builtin import knowledge_of
    with pytest.raises(Exception, match="has changed since the player was named"):
        knowledge_of(spec)


def test_two_evaluations_from_files_conflict(nets, tmp_path):
    other = random_net(tmp_path / "o.json", "breakthrough", seed=4)
    with pytest.raises(players.SpecError, match="conflicting evaluations"):
        players.parse(f"MCTS(nn={nets['breakthrough']},nn={other})", "breakthrough")
    with pytest.raises(players.SpecError, match="uses no evaluation"):
        players.parse(f"Random(nn={other})", "breakthrough")
