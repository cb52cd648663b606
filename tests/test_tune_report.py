"""What a tune hands a script: its value, range and confirmation in `arena report --format
json` and the API, `arena tune --dry-run`'s plan, and a bracket's `confirm:` refused."""
import json

import pytest
import yaml
from click.testing import CliRunner
from helpers import FAKE_TUNE

from mcts_arena.cli import cli
from mcts_arena.runner import config


@pytest.mark.slow
def test_tune_value_range_and_confirmation_in_json_and_api(tmp_path, monkeypatch):
    from mcts_arena import api

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    cfg = yaml.safe_load(FAKE_TUNE.format(name="j", d=0, games=4, method="spsa"))
    t = api.tune(cfg, out=tmp_path / "j")
    res = CliRunner().invoke(cli, ["report", str(tmp_path / "j"), "--format", "json"])
    assert res.exit_code == 0, res.output
    tuned = [o for o in json.loads(res.output) if "tune" in o]
    assert len(tuned) == 1 and tuned[0]["experiment"] == "j"
    got = tuned[0]["tune"]
    assert got == json.loads(json.dumps(t.as_dict()))
    e = t.estimate
    assert got["estimate"]["values"] == {"a": f"{e.values['a']:g}"}
    assert got["estimate"]["low"]["a"] <= got["estimate"]["values"]["a"] <= \
        got["estimate"]["high"]["a"]
    c = got["confirmation"]
    assert c["played"] == 2 and c["games"] == 2 and c["tuned"] == t.confirmation.tuned
    assert c["low"] <= c["score"] <= c["high"]


def test_bracket_refuses_confirm_rather_than_ignoring_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = tmp_path / "b.yaml"
    f.write_text(FAKE_TUNE.format(name="b", d=0, games=4, method="bracket")
                 .replace("start: 0.5}", "start: 0.5, grid: [0.1, 0.9]}"))
    res = CliRunner().invoke(cli, ["tune", str(f), "--quiet"])
    assert res.exit_code == 2, res.output
    assert res.output.strip() == (
        f"arena: error: {f}: confirm: a bracket plays no confirmation: its final decides "
        f"between the last two values (play one with 'arena run' against the winner, or tune "
        f"with spsa or bo)")
    assert not (tmp_path / "results").exists()
