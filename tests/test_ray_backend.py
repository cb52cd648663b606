"""The Ray backend plays the same games as the local pool (skipped when Ray is not installed)."""
import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.store import Store

CONFIG = """\
name: ray_small
game: tictactoe
budget: {sims: 30}
games: 4
seed: 3
matches:
  - {player: "MCTS", opponent: "Random"}
"""


def _games(directory):
    with Store.open(directory, readonly=True) as s:
        return sorted((g["game_id"], g["winner"], tuple(g["moves"])) for g in s.games())


def test_ray_backend_matches_local_pool(tmp_path):
    pytest.importorskip("ray")
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG)
    r1 = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "local"), "--quiet",
                                  "--jobs", "1"])
    assert r1.exit_code == 0, r1.output
    r2 = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "ray"), "--quiet",
                                  "--backend", "ray"])
    assert r2.exit_code == 0, r2.output
    assert _games(tmp_path / "local") == _games(tmp_path / "ray")
    assert len(_games(tmp_path / "ray")) == 4


def test_ray_address_needs_ray_backend(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(CONFIG)
    r = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(tmp_path / "x"),
                                 "--ray-address", "auto"])
    assert r.exit_code == 2
    assert r.output.strip() == "arena: error: --ray-address needs --backend ray"
