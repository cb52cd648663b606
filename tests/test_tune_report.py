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
