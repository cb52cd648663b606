"""The store's aggregates (results/aggregates.py): kept by the writer with the games, equal to a
full recount of random stores and to the DataFrame path's counts; a store written by the build
before them (tests/data/store_v2, with that build's report outputs) reads and reports the same,
read-only and once a writer has migrated it; a failed migration changes nothing; aggregates
that disagree with the games are named in one line and `arena recount` mends them."""
import math
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import pictures_named_not_drawn, same_numbers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcts_arena import results
from mcts_arena.cli import cli
from mcts_arena.errors import StoreWriteError
from mcts_arena.results import aggregates
from mcts_arena.results.store import SCHEMA_VERSION, Store
from mcts_arena.runner import writer as writer_mod
from mcts_arena.runner.match import GameRecord
from mcts_arena.runner.writer import Writer

V2 = Path(__file__).resolve().parent / "data" / "store_v2"
FORMATS = ("json", "csv", "text", "markdown", "latex")


def _record(pid, k, swap, winner, reason, build, finished, moves):
    stats = []
    for i in range(moves):
        seat = i % 2
        st_ = {"seat": seat, "sims": 3 + i * (seat + 1), "nodes": 7 * i}
        if i % 3:
            st_["wall"] = 0.001 * (i + 1)
        stats.append(st_)
    if moves > 2:
        stats.insert(1, {"seat": None, "chance": True})
    return GameRecord(game_id=f"e/{pid}/{k}/{swap}", pairing_id=pid, pair_index=k, swap=swap,
                      seats=("A", "B") if swap == 0 else ("B", "A"),
                      budgets=({"sims": 5},) * 2, seeds=(1, 2), opening="start",
                      winner=winner, reason=reason,
                      error="boom" if reason == "error" else None, plies=moves,
                      moves=["m"] * len(stats), stats=stats, duration=0.5, finished=finished,
                      version="1.0" if build else "", build=build)


GAME = st.tuples(st.sampled_from(["p1", "p2"]), st.integers(0, 5), st.integers(0, 1),
                 st.sampled_from([0, 1, None]),
                 st.sampled_from(["normal", "normal", "time_forfeit", "max_plies", "error"]),
                 st.sampled_from(["", "b1", "b2"]), st.floats(0, 100), st.integers(0, 7))


def _frame_counts(store) -> dict:
    """The DataFrame path's counts (results.pairing_counts over results.frame)."""
    df = results.pairing_counts(results.frame(store))
    out = {}
    for pid, row in df.iterrows():
        out[pid] = {k: (None if isinstance(v, float) and math.isnan(v) else
                        v.item() if hasattr(v, "item") else v) for k, v in row.items()}
    return out


def _key(row: dict) -> list:
    return sorted(row.items())


def _same(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for pid in a:
        for k in results.COUNT_COLUMNS:
            x, y = a[pid][k], b[pid][k]
            if isinstance(x, float) and isinstance(y, float):
                assert math.isclose(x, y, rel_tol=1e-12), (pid, k, x, y)
            else:
                assert x == y and list(a[pid]["builds"]) == list(b[pid]["builds"]), (pid, k, x, y)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(games=st.lists(GAME, max_size=30))
def test_the_writers_aggregates_equal_a_recount_and_the_frames_counts(tmp_path_factory, games):
    d = tmp_path_factory.mktemp("store")
    with Writer.open(d) as w:
        for pid, k, swap, winner, reason, build, finished, moves in games:
            w.add_game(_record(pid, k, swap, None if reason == "error" else winner, reason,
                               build, finished, moves))
    with Store.open(d) as s:
        tally, pairs = s.aggregates()
        again = aggregates.recount(s.recount_games())
        assert sorted(map(_key, tally)) == sorted(map(_key, again[0]))
        assert sorted(map(_key, pairs)) == sorted(map(_key, again[1]))
        _same(aggregates.pairing_counts(tally, pairs), _frame_counts(s))
        for pid in ("p1", "p2"):
            stored = {}
            for r in s.select("pair", "pairing_id, pair_index, outcome", "pairing_id = ?", (pid,)):
                stored[r["outcome"]] = stored.get(r["outcome"], 0) + 1
            assert s.pair_outcomes(pid) == stored


def _copy_v2(tmp_path) -> Path:
    for name, d in (("kalah", "kalah-v2"), ("bt", "bt-v2")):
        (tmp_path / d).mkdir()
        shutil.copyfile(V2 / f"{name}.sqlite", tmp_path / d / "arena.sqlite")
    return tmp_path


def _reports(tmp_path, monkeypatch) -> dict[str, str]:
    """Each format's output over both stores. The pictures are named, not drawn: the outputs
    list them, but drawing them (tests/test_figures.py) was most of this test's time."""
    monkeypatch.chdir(tmp_path)
    pictures_named_not_drawn(monkeypatch)
    out = {}
    for fmt in FORMATS:
        r = CliRunner().invoke(cli, ["report", "kalah-v2", "bt-v2", "--format", fmt, "--out",
                                     "out", "--compare", "paper"])
        assert r.exit_code == 0, r.output
        out[fmt] = r.output
    return out


def _golden_equal(got: str, fmt: str) -> None:
    """The output of the build before the aggregates (tests/data/store_v2/both.FMT), compared
    by its numbers (helpers.same_numbers)."""
    same_numbers(got, (V2 / f"both.{fmt}").read_text(encoding="utf-8"), fmt)


@pytest.mark.slow
def test_a_store_of_the_build_before_reports_the_same_read_only_and_migrated(tmp_path,
                                                                              monkeypatch):
    _copy_v2(tmp_path)
    raw = (tmp_path / "kalah-v2" / "arena.sqlite").read_bytes()
    for fmt, text in _reports(tmp_path, monkeypatch).items():     # read-only: recounted
        _golden_equal(text, fmt)
    assert (tmp_path / "kalah-v2" / "arena.sqlite").read_bytes() == raw    # nothing written
    for d in ("kalah-v2", "bt-v2"):
        Writer.open(tmp_path / d).close()                           # migrated
        with Store.open(tmp_path / d) as s:
            assert s.get_meta("schema_version") == str(SCHEMA_VERSION) and s.has_table("tally")
            assert s.select("pair", "pairing_id", "points IS NULL") == []
            tally, pairs = s.aggregates()
            again = aggregates.recount(s.recount_games())
            assert sorted(map(_key, tally)) == sorted(map(_key, again[0])) and tally
            assert sorted(map(_key, pairs)) == sorted(map(_key, again[1])) and pairs
    for fmt, text in _reports(tmp_path, monkeypatch).items():
        _golden_equal(text, fmt)


def test_a_migration_that_fails_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    _copy_v2(tmp_path)
    db = tmp_path / "kalah-v2" / "arena.sqlite"

    def dump():
        with sqlite3.connect(db) as c:
            return list(c.iterdump())
    before = dump()

    def fail(conn, store):
        conn.execute("DELETE FROM game")        # half a migration's work, then a fault
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(writer_mod, "write_aggregates", fail)
    with pytest.raises(StoreWriteError):
        Writer.open(db.parent)
    assert dump() == before


@pytest.mark.slow
def test_aggregates_that_disagree_are_named_and_recounted(tmp_path, monkeypatch):
    _copy_v2(tmp_path)
    d = tmp_path / "bt-v2"
    Writer.open(d).close()
    with sqlite3.connect(d / "arena.sqlite") as c:
        c.execute("DELETE FROM tally WHERE rowid = (SELECT MIN(rowid) FROM tally)")
    r = CliRunner().invoke(cli, ["report", str(d), "--format", "json", "--out",
                                 str(tmp_path / "out")])
    assert r.exit_code == 2 and "aggregates disagree" in r.output and "arena recount" in r.output
    assert len(r.output.strip().splitlines()) == 1
    r = CliRunner().invoke(cli, ["recount", str(d)])
    assert r.exit_code == 0 and "had disagreed" in r.output, r.output
    r = CliRunner().invoke(cli, ["recount", str(d)])
    assert r.exit_code == 0 and "they agreed" in r.output, r.output
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["report", "kalah-v2", "bt-v2", "--format", "csv", "--out",
                                 "out", "--compare", "paper"])
    _golden_equal(r.output, "csv")


def test_load_leaves_the_moves_out_unless_asked(tmp_path):
    _copy_v2(tmp_path)
    plain = results.load(tmp_path / "bt-v2")
    assert "moves" not in plain.columns and len(plain) == 20
    full = results.load(tmp_path / "bt-v2", moves=True)
    assert list(full.columns[:-1]) == list(plain.columns) and full.columns[-1] == "moves"
    assert all(len(m) == p for m, p in zip(full["moves"], full["plies"]))


def test_a_large_truncated_store_is_refused_without_reading_it_all(tmp_path, monkeypatch):
    from mcts_arena.results import store as store_mod

    _copy_v2(tmp_path)
    db = tmp_path / "bt-v2" / "arena.sqlite"
    monkeypatch.setattr(store_mod, "QUICK_CHECK_BYTES", 1000)     # "large": checked by header
    Store.open(db.parent).close()
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    r = CliRunner().invoke(cli, ["report", str(db.parent), "--out", str(tmp_path / "out")])
    assert r.exit_code == 2 and "damaged store" in r.output and "shorter than its header" in \
        r.output and len(r.output.strip().splitlines()) == 1


V3 = Path(__file__).resolve().parent / "data" / "store_v3"
V3_OUTPUTS = {"report.json": ["report", "bt-v3", "--format", "json", "--out", "out"],
              "report.text": ["report", "bt-v3", "--format", "text", "--out", "out"],
              "export.jsonl": ["export", "bt-v3", "--format", "jsonl"],
              "export.pgn": ["export", "bt-v3", "--format", "pgn"]}


@pytest.mark.slow
def test_a_store_of_the_build_before_packed_games_reads_the_same_and_takes_packed_ones(
        tmp_path, monkeypatch):
    """tests/data/store_v3: six Breakthrough games (text moves and statistics) and the report
    and export the build before packing wrote of them: the same read-only, the same once a
    writer has opened the store (its text games kept byte for byte), and a game written now is
    packed, about a sixth of its text, and reads back as the game it was."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bt-v3").mkdir()
    shutil.copyfile(V3 / "bt.sqlite", tmp_path / "bt-v3" / "arena.sqlite")

    def outputs_are_the_old_builds():
        for name, args in V3_OUTPUTS.items():
            r = CliRunner().invoke(cli, args)
            assert r.exit_code == 0, r.output
            want = (V3 / f"bt.{name}").read_text(encoding="utf-8")
            if name.startswith("report."):     # a report: its numbers, not its layout
                same_numbers(r.stdout, want, name.partition(".")[2])
            else:                              # an export: the games, byte for byte
                assert r.stdout == want, name

    def raw_games():
        with sqlite3.connect(tmp_path / "bt-v3" / "arena.sqlite") as c:
            return c.execute("SELECT game_id, moves_json, stats_json FROM game ORDER BY "
                             "game_id").fetchall()

    raw = (tmp_path / "bt-v3" / "arena.sqlite").read_bytes()
    outputs_are_the_old_builds()
    assert (tmp_path / "bt-v3" / "arena.sqlite").read_bytes() == raw    # nothing written
    old = raw_games()
    assert all(isinstance(m, str) and isinstance(s, str) for _, m, s in old)
    Writer.open(tmp_path / "bt-v3").close()
    assert raw_games() == old
    outputs_are_the_old_builds()

    with Store.open("bt-v3") as s:
        model = s.games()[0]
    w = Writer.open(tmp_path / "bt-v3")
    try:
        w.add_game(GameRecord(
            game_id="packed/0", pairing_id=model["pairing_id"], pair_index=100, swap=0,
            seats=(model["seat0"], model["seat1"]), budgets=tuple(model["budgets"]),
            seeds=tuple(model["seeds"]), opening=model["opening"], winner=model["winner"],
            reason=model["reason"], plies=model["plies"], moves=model["moves"],
            stats=model["stats"], duration=model["duration"], finished=model["finished"] + 1,
            version="v", build="b"))
    finally:
        w.close()
    with sqlite3.connect(tmp_path / "bt-v3" / "arena.sqlite") as c:
        kinds, packed = c.execute("SELECT typeof(moves_json) || typeof(stats_json), "
                                  "length(stats_json) FROM game WHERE game_id = 'packed/0'"
                                  ).fetchone()
    text = [s for g, _, s in old if g == model["game_id"]][0]
    assert kinds == "blobblob" and packed < len(text.encode()) / 4
    with Store.open("bt-v3") as s:
        again = s.game("packed/0")
        assert (again["moves"], again["stats"]) == (model["moves"], model["stats"])
        tally, pairs = s.aggregates()
        recounted = aggregates.recount(s.recount_games())
        assert sorted(map(_key, tally)) == sorted(map(_key, recounted[0]))
        assert sorted(map(_key, pairs)) == sorted(map(_key, recounted[1]))


def test_a_packed_column_that_is_not_packed_json_is_one_line(tmp_path):
    (tmp_path / "bt-v3").mkdir()
    shutil.copyfile(V3 / "bt.sqlite", tmp_path / "bt-v3" / "arena.sqlite")
    with sqlite3.connect(tmp_path / "bt-v3" / "arena.sqlite") as c:
        gid = c.execute("SELECT game_id FROM game LIMIT 1").fetchone()[0]
        c.execute("UPDATE game SET stats_json = x'789c0000' WHERE game_id = ?", (gid,))
    r = CliRunner().invoke(cli, ["export", str(tmp_path / "bt-v3"), "--format", "jsonl"])
    assert r.exit_code == 2
    assert f"game {gid}, column stats_json: a blob that is not packed JSON" in r.output


def test_seat_wins_from_the_tally_are_the_stored_winners(tmp_path):
    """The seat warning's counts come from the tally: the same as counting the games' winners."""
    from mcts_arena.results.summary import seat_wins
    _copy_v2(tmp_path)
    for d in ("kalah-v2", "bt-v2"):
        with sqlite3.connect(tmp_path / d / "arena.sqlite") as c:
            want = [c.execute("SELECT COUNT(*) FROM game WHERE reason != 'error' AND winner = ?",
                              (seat,)).fetchone()[0] for seat in (0, 1)]
        with Store.open(tmp_path / d) as s:
            assert seat_wins(s.aggregates()[0]) == want and sum(want)
