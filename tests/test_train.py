"""`arena train`: a tiny network trained on a few stored games and played by name, the torch
model's file against torch's own forward pass, the self-play loop (one generation of two games)
and the refusal without torch (one line, exit 2, nothing written)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from mcts_arena import api, games, players
from mcts_arena.cli import cli
from mcts_arena.games import netfile
from mcts_arena.results.frames import load

try:
    import torch
except ImportError:                 # the optional extra: only the refusal is tested without it
    torch = None
# Skipped where torch is not installed, except under CI (CI=true), where `make test` installs
# the learn extra and these tests must run.
needs_torch = pytest.mark.skipif(torch is None and not os.environ.get("CI"),
                                 reason="torch (the learn extra) is not here")


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    out = tmp_path_factory.mktemp("train") / "bt"
    api.play_match("MCTS(ipp)", "MCTS", game="breakthrough", sims=30, games=12, seed=4,
                   jobs=1, out=str(out), progress=False)
    return out


@needs_torch
@pytest.mark.slow
def test_a_tiny_network_trains_on_stored_games_and_plays(store, tmp_path):
    out = tmp_path / "net.json"
    r = CliRunner().invoke(cli, ["train", str(store), "--out", str(out), "--hidden", "16,8",
                                 "--epochs", "3", "--per-game", "20", "--test-share", "0.25"])
    assert r.exit_code == 0, r.output
    obj = netfile.read(out, "breakthrough")
    t = obj["training"]
    assert obj["hidden"] == [16, 8] and obj["trained_on"]["sources"] == [str(store)]
    assert obj["trained_on"]["games"] == 12 and len(t["epochs"]) == 3
    assert t["train"]["games"] + t["held_out"]["games"] == 12
    assert t["held_out"]["policy_ce_uniform"] > 0 and t["train"]["value_mse_of_0"] == 1.0
    # the training loss falls
    assert t["epochs"][-1]["policy_ce"] < t["epochs"][0]["policy_ce"]
    assert "held_out:" in r.output and f"nn={out}" in r.output
    p = players.parse(f"MCTS(puctp1.5,fet0,im0.4,nn={out})", "breakthrough")
    move, _ = players.make(p, seed=1).choose(games.new_state("breakthrough"), None, 50)
    assert move in games.new_state("breakthrough").move_ids()
    again = CliRunner().invoke(cli, ["train", str(store), "--out", str(out)])
    assert again.exit_code == 2 and "exists" in again.output


@needs_torch
def test_the_file_holds_torch_s_network():
    """The weights written are torch's, in the order the Cython forward pass reads them: numpy's
    forward of the file is torch's forward of the model (float32 against float64)."""
    from mcts_arena.learn import net

    model = net.build("kalah", [8, 5], seed=3)
    obj = netfile.file_object("kalah", net.params_of(model), [8, 5], {}, {}, "")
    enc = netfile.net_input("kalah")
    from helpers import ongoing_positions
    x = np.array([enc.py_encode(s) for s in ongoing_positions("kalah", 20, 2)])
    v, logits = netfile.forward(obj, x)
    with torch.no_grad():
        h = model["trunk"](torch.from_numpy(x).float())
        tv = torch.tanh(model["value"](h)).squeeze(1).numpy()
        tl = model["policy"](h).numpy()
    assert np.allclose(v, tv, atol=1e-5) and np.allclose(logits, tl, atol=1e-5)
    again = net.build("kalah", [8, 5], seed=9, start=obj)
    assert all(np.array_equal(a, b) for a, b in zip(net.params_of(again), net.params_of(model)))


@needs_torch
@pytest.mark.slow
def test_one_self_play_generation_of_two_games(tmp_path):
    out = tmp_path / "sp"
    r = CliRunner().invoke(cli, ["train", "--self-play", "2", "--generations", "1", "--game",
                                 "kalah", "--out", str(out), "--sims", "8", "--hidden", "8",
                                 "--epochs", "1", "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert (out / "gen0.json").is_file() and (out / "gen1.json").is_file()
    frame = load(out / "games" / "gen1")
    assert len(frame) == 2 and set(frame.player) == {
        players.parse(f"MCTS(puctp1.5,fet0,nn={out / 'gen0.json'})", "kalah").canonical}
    gen1 = netfile.read(out / "gen1.json", "kalah")
    assert gen1["trained_on"]["generation"] == 1
    assert gen1["trained_on"]["started_from"] == str(out / "gen0.json")
    players.parse(f"MCTS(puctp1.5,fet0,nn={out / 'gen1.json'})", "kalah")
    again = CliRunner().invoke(cli, ["train", "--self-play", "2", "--game", "kalah", "--out",
                                     str(out)])
    assert again.exit_code == 2 and "not empty" in again.output


def test_a_generation_trains_on_the_last_window_of_stores():
    from mcts_arena.runner.selfplay import replay_buffer

    stores = [Path(f"gen{k}") for k in range(1, 6)]
    assert replay_buffer(stores, 1) == ["gen5"]
    assert replay_buffer(stores, 3) == ["gen3", "gen4", "gen5"]
    assert replay_buffer(stores[:2], 4) == ["gen1", "gen2"]


@needs_torch
def test_a_bad_self_play_player_is_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "sp"
    r = CliRunner().invoke(cli, ["train", "--self-play", "2", "--game", "kalah", "--out",
                                 str(out), "--player", "MCTS(bogus)"])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "bogus" in r.output, r.output
    assert not out.exists()


def test_the_self_play_player_takes_the_network():
    from mcts_arena.runner.selfplay import with_net

    assert with_net("MCTS(puctp1.5,fet0)", "n.json") == "MCTS(puctp1.5,fet0,nn=n.json)"
    assert with_net("MCTS()", "n.json") == "MCTS(nn=n.json)"
    assert with_net("MCTS", "n.json") == "MCTS(nn=n.json)"
    with pytest.raises(Exception, match="names its own evaluation file"):
        with_net("MCTS(nn=x.json)", "n.json")


def test_without_torch_train_says_which_extra_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)         # `import torch` fails
    out = tmp_path / "n.json"
    src = str(Path(__file__).resolve().parents[1] / "docs/reproduction/data/kalah_table7.jsonl.gz")
    for args in ([src, "--out", str(out)],
                 ["--self-play", "2", "--game", "kalah", "--out", str(tmp_path / "sp")]):
        r = CliRunner().invoke(cli, ["train", *args])
        assert r.exit_code == 2 and r.output.count("\n") == 1, r.output
        assert "pip install 'mcts_arena[learn]'" in r.output
    assert not out.exists() and not (tmp_path / "sp").exists()


@needs_torch
@pytest.mark.parametrize(("args", "says"), [
    (["--hidden", "a,b"], "layer widths separated by commas"),
    (["--hidden", "0"], "--hidden: 1 to 8 layer widths >= 1"),
    (["--test-share", "1.5"], "--test-share must be between 0 and 1"),
    (["--lr", "0"], "--lr in (0, 1]"),
    (["--l2", "nan"], "--l2 >= 0"),
    (["--game", "breakthrough"], "but the sources hold kalah games"),
])
def test_train_refuses_bad_input_in_one_line_and_writes_nothing(tmp_path, args, says):
    out = tmp_path / "n.json"
    src = str(Path(__file__).resolve().parents[1] / "docs/reproduction/data/kalah_table7.jsonl.gz")
    r = CliRunner().invoke(cli, ["train", src, "--out", str(out), *args])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and says in r.output, r.output
    assert not out.exists()
