"""SPRT in runs: config validation, the tracker against the statistics module, and a lopsided
pairing (MCTS against Random) stopped early, said so by the summary and by `arena report`."""
import json

import pytest
from click.testing import CliRunner

from mcts_arena import stats
from mcts_arena.cli import cli
from mcts_arena.report.tables import build_report
from mcts_arena.results.sprt import Sprt, SprtTracker
from mcts_arena.results.store import Store
from mcts_arena.runner import config

HEAD = "name: s\ngame: breakthrough\nbudget: {sims: 30}\ngames: 200\nseed: 4\n"
MATCH = "matches:\n  - {player: 'MCTS(ipp)', opponent: Random}\n"


@pytest.mark.parametrize("sprt,message", [
    ("{elo0: 0}", "sprt.elo1: missing required field (an Elo difference)"),
    ("{elo0: 10, elo1: 5}", "sprt.elo1: expected elo1 above elo0 (10), got 5"),
    ("{elo0: 0, elo1: x}", "sprt.elo1: expected a finite number (Elo), got 'x'"),
    ("{elo0: 0, elo1: 5, alpha: 1.5}",
     "sprt.alpha: expected a probability strictly between 0 and 1, got 1.5"),
    ("{elo0: 0, elo1: 5, alpha: 0.6, beta: 0.5}", "sprt: alpha + beta must be below 1, got 1.1"),
    ("{elo0: 0, elo1: 5, model: bayes}", "sprt.model: unknown model 'bayes'"),
    ("{elo0: 0, elo1: 5, gamma: 1}",
     "sprt.gamma: unknown field; valid fields: elo0, elo1, alpha, beta, model"),
    ("[0, 5]", "sprt: expected a mapping with elo0, elo1"),
])
def test_bad_sprt_is_one_line_exit_2(tmp_path, monkeypatch, sprt, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(HEAD + f"sprt: {sprt}\n" + MATCH)
    res = CliRunner().invoke(cli, ["run", "s.yaml", "--dry-run"])
    assert res.exit_code == 2
    assert res.output.startswith(f"arena: error: s.yaml: {message}")
    assert res.output.count("\n") == 1


def test_sprt_is_read_and_not_part_of_the_identity():
    players = __import__("mcts_arena.players", fromlist=["parse"])
    a = config.loads(HEAD + "sprt: {elo0: 0, elo1: 50}\n" + MATCH, players=players)
    b = config.loads(HEAD + MATCH, players=players)
    assert a.sprt == Sprt(0.0, 50.0, 0.05, 0.05, "logistic") and b.sprt is None
    assert a.identity() == b.identity()


def test_tracker_decides_like_the_pentanomial_gsprt():
    sprt = Sprt(0.0, 100.0, 0.05, 0.05)
    t = SprtTracker(sprt)
    outcomes = [(1.0, 1.0), (1.0, 0.0), (1.0, 1.0), (0.5, 1.0)] * 10
    decided_at = None
    for k, (a, b) in enumerate(outcomes):
        assert t.add("p", k, 0, a) is None                  # half a pair never decides
        rec = t.add("p", k, 1, b)
        counts = stats.pentanomial(outcomes[: k + 1])
        want = stats.sprt_pentanomial(counts, 0, 100)
        if decided_at is None:
            assert (rec is not None) == (want.decision is not None)
            if rec is not None:
                decided_at = k
                assert rec["decision"] == want.decision == "H1"
                assert rec["games"] == 2 * (k + 1) and rec["llr"] == pytest.approx(want.llr)
        else:
            assert rec is None and t.decided("p")
    assert decided_at is not None
    t.add("q", 0, 0, None)                                  # error games count for nothing
    assert t.state("q")["games"] == 0


@pytest.mark.slow
def test_lopsided_pairing_stops_early_and_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(HEAD + "sprt: {elo0: 0, elo1: 150}\n" + MATCH)
    res = CliRunner().invoke(cli, ["run", "s.yaml", "--jobs", "2", "--quiet"])
    assert res.exit_code == 0, res.output
    d = tmp_path / "results" / "s"
    with Store.open(d) as s:
        n = s.game_count()
        (p,) = s.pairings()
        rec = json.loads(s.get_meta(f"sprt/{p['pairing_id']}"))
    assert rec["decision"] == "H1" and rec["games"] <= n < 200
    assert n - rec["games"] <= 4                        # at most the pairs already in play
    line = f"MCTS(ipp) vs Random: SPRT: H1 accepted after {rec['games']} games"
    assert line in res.stdout
    assert "/200 stored" in res.stdout and "not played (the SPRT decided their pairing)" in res.stdout
    (row,) = build_report([str(d)]).rows
    assert row["sprt"]["decision"] == "H1" and row["sprt"]["games"] == rec["games"]
    rep = CliRunner().invoke(cli, ["report", str(d)])
    assert f"SPRT: H1 accepted after {rec['games']} games" in rep.stdout
    again = CliRunner().invoke(cli, ["run", "s.yaml", "--jobs", "2", "--quiet"])
    assert again.exit_code == 0 and "0 games played" in again.stdout      # stays stopped
