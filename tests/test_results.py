"""`mcts_arena.results`: the stored games as a DataFrame, against the SQLite rows and against
`arena report`'s numbers (JSON and CSV)."""
import io
import json
import sqlite3
import zlib

import pandas as pd
import pytest
from click.testing import CliRunner
from helpers import play_into

from mcts_arena import results
from mcts_arena.cli import cli
from mcts_arena.errors import UserError
from mcts_arena.report.render import report_frame

TTT = ("name: ttt\ngame: tictactoe\nbudget: {sims: 20}\ngames: 8\nseed: 11\n"
       "matches:\n  - {player: 'MCTS(im0.4)', opponent: MCTS}\n"
       "  - {player: 'MCTS(sims=40)', opponent: Random}\n")
# tests/fakes.py's players: Boom raises on its first move (every game an error)
KALAH = ("name: kal\ngame: kalah\nbudget: {sims: 5}\ngames: 6\nseed: 2\n"
         "matches:\n  - {player: Random, opponent: 'Random(im0.5)'}\n"
         "  - {player: Boom, opponent: Random}\n")


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    base = tmp_path_factory.mktemp("res")
    return (play_into(TTT, base / "ttt", "mcts_arena.players"),
            play_into(KALAH, base / "kal", "fakes"))


def test_one_row_per_stored_game_with_the_documented_columns(stores):
    ttt, _ = stores
    df = results.load(ttt)
    assert tuple(df.columns) == results.GAME_COLUMNS
    with sqlite3.connect(ttt / "arena.sqlite") as c:
        db = {r[0]: r[1:] for r in c.execute(
            "SELECT game_id, pairing_id, swap, seat0, seat1, score, reason, plies, stats_json, "
            "duration, winner FROM game")}
        specs = dict((r[0], r[1:]) for r in c.execute(
            "SELECT pairing_id, player, opponent FROM pairing"))
    assert len(df) == len(db) == 16 and df["game_id"].is_unique
    for g in df.itertuples():
        pid, swap, s0, s1, score, reason, plies, stats, duration, winner = db[g.game_id]
        assert (g.pairing, g.swap, g.player_seat, g.seat0, g.seat1) == (pid, swap, swap, s0, s1)
        assert (g.player, g.opponent) == specs[pid]
        assert (s0, s1)[swap] == g.player and g.result == {1: "win", 0.5: "draw", 0: "loss"}[score]
        assert g.plies == plies and g.duration == duration and g.reason == reason
        assert (pd.isna(g.winner) and winner is None) or g.winner == winner
        mine = [st for st in json.loads(zlib.decompress(stats)) if st["seat"] == swap]
        assert g.player_moves == len(mine)
        assert g.player_sims == pytest.approx(sum(st["sims"] for st in mine) / len(mine))
        assert g.player_wall == pytest.approx(sum(st["wall"] for st in mine) / len(mine))
    budgets = df.groupby("player")["player_budget"].unique()
    assert list(budgets["MCTS(im0.4)"]) == ['{"sims": 20}']
    assert list(budgets["MCTS(sims=40)"]) == ['{"sims": 40}']
    rnd = df[df["opponent"] == "Random"]
    assert set(rnd["opponent_budget"]) == {'{"sims": 20}'}
    assert (rnd["opponent_sims"] == 0).all() and (rnd["player_sims"] > 0).all()


@pytest.mark.slow
def test_load_equals_the_reports_counts(stores):
    """A notebook user gets `arena report`'s numbers: counts from load() against --format json."""
    for d in stores:
        games = results.load(d)
        res = CliRunner().invoke(cli, ["report", str(d), "--format", "json", "--out",
                                       str(d / "r")])
        assert res.exit_code == 0, res.output
        rows = {r["pairing_id"]: r for r in json.loads(res.output)}
        assert set(rows) == set(games["pairing"])
        for pid, g in games.groupby("pairing"):
            ok = g[g["result"] != "error"]
            r = rows[pid]
            assert r["games"] == len(ok) and r["errors"] == (g["result"] == "error").sum()
            for k, v in (("wins", "win"), ("draws", "draw"), ("losses", "loss")):
                assert r[k] == (ok["result"] == v).sum(), k
            assert r["wins_first"] == ((ok["swap"] == 0) & (ok["result"] == "win")).sum()
            if len(ok):
                assert r["score"] == pytest.approx(ok["score"].mean())
                assert r["avg_plies"] == pytest.approx(ok["plies"].mean())
                w = (ok["player_sims"] * ok["player_moves"]).sum() / ok["player_moves"].sum()
                assert r["player_work"] == pytest.approx(w)
            else:
                assert r["score"] is None and r["player_work"] is None
        # the pairing-level table and the CSV agree with it as well
        counts = results.pairing_counts(games)
        csv = pd.read_csv(io.StringIO(CliRunner().invoke(
            cli, ["report", str(d), "--format", "csv", "--out", str(d / "r")]).output))
        frame = report_frame([d])
        for col in ("wins", "draws", "losses", "errors", "games"):
            assert list(csv[col]) == list(frame[col]) == \
                [counts.loc[p, col] for p in frame["pairing_id"]]


def test_error_games_are_rows_but_never_counted(stores):
    _, kal = stores
    df = results.load(kal)
    boom = df[df["player"] == "Boom"]
    assert len(boom) == 6 and (boom["result"] == "error").all() and boom["score"].isna().all()
    c = results.pairing_counts(df).loc[boom["pairing"].iloc[0]]
    assert c["games"] == 0 and c["errors"] == 6 and pd.isna(c["player_work"])


def test_load_of_a_non_results_folder_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="not a results directory"):
        results.load(tmp_path)
