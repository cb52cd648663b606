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


@pytest.mark.parametrize("method", ["spsa", "bo", "bracket"])
def test_dry_run_plans_and_writes_nothing(tmp_path, monkeypatch, method):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "d.yaml"
    text = f"""name: d
game: kalah
template: "MCTS(fet{{n}})"
params:
  n: {{low: 1, high: 100, type: int, log: true, start: 10, grid: [2, 4, 8]}}
budget: {{sims: 50}}
games: 40
method: {method}
bo: {{games_per_trial: 8}}
bracket: {{games: 20}}
"""
    if method != "bracket":
        text += "confirm: {games: 30, against: \"MCTS(fet4)\", sprt: {elo0: 0, elo1: 30}}\n"
    f.write_text(text)
    res = CliRunner().invoke(cli, ["tune", str(f), "--dry-run", "--jobs", "2"])
    assert res.exit_code == 0, res.output
    out = res.output
    total = {"spsa": 70, "bo": 70, "bracket": 40}[method]
    assert f"{total} games, 0 stored, {total} to play; estimated " in out
    assert "CPU, about " in out and "on 2 workers" in out
    assert out.rstrip().endswith("results: results/d (dry run: nothing played)")
    if method == "spsa":
        assert out.startswith("tune d: spsa of MCTS(fet{n}) on kalah")
        assert "as fishtest's inputs (shared; " in out and "n c_end " in out
        assert "search: 40 games (20 steps of a pair" in out
        assert "confirmation: at most 30 games of the tuned player against MCTS(fet4), stopped" \
            in out
    elif method == "bo":
        assert "search: 40 games (5 trials of 8 games against MCTS(fet10))" in out
    else:
        assert "over n in 2, 4, 8: 2 matches of 20 games, at most 40 games" in out
    assert not (tmp_path / "results").exists()


@pytest.mark.slow
def test_dry_run_counts_the_games_stored(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    f = tmp_path / "s.yaml"
    f.write_text("""name: s
game: kalah
template: "MCTS(fet{n})"
params:
  n: {low: 1, high: 8, type: int, start: 4}
budget: {sims: 5}
games: 4
method: spsa
spsa: {batch: 2}
confirm: {games: 2}
""")
    res = CliRunner().invoke(cli, ["tune", str(f), "--quiet", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    before = sorted(p.name for p in (tmp_path / "results" / "s").iterdir())
    res = CliRunner().invoke(cli, ["tune", str(f), "--dry-run"])
    assert res.exit_code == 0, res.output
    assert "6 games, 6 stored, 0 to play; estimated 0m00s CPU" in res.output
    assert sorted(p.name for p in (tmp_path / "results" / "s").iterdir()) == before


@pytest.mark.slow
def test_progress_lines_during_the_confirmation(tmp_path, monkeypatch):
    """A confirmation of 100 games on one worker reports after every 40 (20 pairs), not only
    once at its end; the games and the answer are those of the confirmation in one go."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = tmp_path / "c.yaml"
    f.write_text(FAKE_TUNE.format(name="c", d=0, games=4, method="spsa").replace(
        "confirm: {games: 2}", "confirm: {games: 100}"))
    res = CliRunner().invoke(cli, ["tune", str(f), "--jobs", "1"])
    assert res.exit_code == 0, res.output
    lines = [x for x in res.output.splitlines() if x.startswith("confirmation ")]
    assert [x.split(" games:")[0] for x in lines] == [
        "confirmation 40/100", "confirmation 80/100", "confirmation 100/100"]
    assert "confirmation: Sleepy(d0,im" in res.output and "100 of 100 games" in res.output


@pytest.mark.slow
@pytest.mark.parametrize("method", ["spsa", "bo"])
def test_a_finished_tune_extended_by_more_games(tmp_path, monkeypatch, method):
    """A config that asks a finished tune for more games goes on from where it stopped: the
    path or trials so far unchanged (SPSA keeps the gains of its first budget), a new
    confirmation of the new estimate beside the old one; any other change is still refused."""
    from mcts_arena.results import tune as tune_state
    from mcts_arena.results.store import Store

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    f = tmp_path / "x.yaml"
    f.write_text(FAKE_TUNE.format(name="x", d=0, games=8, method=method))
    res = CliRunner().invoke(cli, ["tune", str(f), "--quiet"])
    assert res.exit_code == 0, res.output
    with Store.open(tmp_path / "results" / "x") as store:
        short = tune_state.read(store)
    f.write_text(FAKE_TUNE.format(name="x", d=0, games=16, method=method))
    longer = CliRunner().invoke(cli, ["tune", str(f), "--quiet"])
    assert longer.exit_code == 0, longer.output
    assert "value found after 16 games" in longer.output
    with Store.open(tmp_path / "results" / "x") as store:
        st = tune_state.read(store)
        assert store.game_count() == 8 + 2 + 8 + 2
    s = st.settings
    assert s.games == 16 and s.extends == (8,) and st.done
    if method == "spsa":
        assert s.spsa == short.settings.spsa and st.path[:5] == short.path
    else:
        assert st.trials[:4] == short.trials and len(st.trials) == 8
    assert st.confirmation.played == 2 and short.confirmation.played == 2
    again = CliRunner().invoke(cli, ["tune", str(f), "--quiet"])      # resumes: nothing new
    assert again.exit_code == 0
    with Store.open(tmp_path / "results" / "x") as store:
        assert store.game_count() == 20
    f.write_text(FAKE_TUNE.format(name="x", d=0, games=16, method=method).replace(
        "seed: 4", "seed: 5"))
    refused = CliRunner().invoke(cli, ["tune", str(f), "--quiet"])
    assert refused.exit_code == 2 and "with other settings: " in refused.output
    f.write_text(FAKE_TUNE.format(name="x", d=0, games=12, method=method))
    shrunk = CliRunner().invoke(cli, ["tune", str(f), "--quiet"])
    assert shrunk.exit_code == 2 and "games was 16, now 12" in shrunk.output
