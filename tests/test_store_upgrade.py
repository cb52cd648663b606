"""`arena upgrade`: a store of an older build rewritten in this schema (games packed, the
aggregates added) with every game, aggregate and report the same; bad input, a store a run is
writing and one of a newer build refused in one line with nothing changed; a failure or a kill
at any moment leaves the old store or the checked new one. And every reader refuses a store of a
newer schema by name (results/store.py)."""
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import same_numbers, tree

from mcts_arena.cli import cli
from mcts_arena.results import rows
from mcts_arena.results.store import SCHEMA_VERSION, Store
from mcts_arena.runner import upgrade as upgrade_mod
from mcts_arena.runner.writer import Writer

DATA = Path(__file__).resolve().parent / "data"
V3_OUTPUTS = {"report.json": ["report", "bt-v3", "--format", "json", "--out", "out"],
              "report.text": ["report", "bt-v3", "--format", "text", "--out", "out"],
              "export.jsonl": ["export", "bt-v3", "--format", "jsonl"],
              "export.pgn": ["export", "bt-v3", "--format", "pgn"]}


def arena(*args):
    return CliRunner().invoke(cli, list(args))


def _copy(tmp_path, source: Path, name: str) -> Path:
    d = tmp_path / name
    d.mkdir()
    shutil.copyfile(source, d / "arena.sqlite")
    return d


def _contents(d: Path):
    """Everything a reader gets from the store: every game with every column decoded, the
    experiment, pairings, meta but its schema version, and the aggregates."""
    with Store.open(d) as s:
        tally, pairs = s.aggregates()
        return {"games": s.games(), "experiment": s.experiment(), "pairings": s.pairings(),
                "meta": {k: v for k, v in s.meta_items().items() if k != "schema_version"},
                "tally": sorted(map(repr, map(sorted, (r.items() for r in tally)))),
                "pairs": sorted(map(repr, map(sorted, (r.items() for r in pairs))))}


def _sql(d: Path, query: str, *args) -> list:
    """One statement on the store's file, committed and closed (no -wal left behind)."""
    c = sqlite3.connect(d / "arena.sqlite")
    try:
        with c:
            return c.execute(query, args).fetchall()
    finally:
        c.close()


def _kinds(d: Path) -> set:
    return set(_sql(d, "SELECT typeof(moves_json), typeof(stats_json) FROM game"))


def test_the_v3_store_upgraded_reads_and_reports_as_the_old_build_wrote(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    d = _copy(tmp_path, DATA / "store_v3" / "bt.sqlite", "bt-v3")
    before = _contents(d)
    size = (d / "arena.sqlite").stat().st_size
    r = arena("upgrade", "bt-v3")
    assert r.exit_code == 0, r.output
    after_size = (d / "arena.sqlite").stat().st_size
    assert r.output.strip() == (f"bt-v3: upgraded to schema {SCHEMA_VERSION}: 6 games, 6 of them "
                                f"packed, every row checked against the old store; {size:,} -> "
                                f"{after_size:,} bytes")
    assert after_size < size and _kinds(d) == {("blob", "blob")}
    assert _contents(d) == before
    assert sorted(p.name for p in d.iterdir()) == [".lock", "arena.sqlite"]
    with Store.open(d) as s:
        assert s.get_meta("schema_version") == str(SCHEMA_VERSION)
    for name, args in V3_OUTPUTS.items():
        out = arena(*args)
        assert out.exit_code == 0, out.output
        want = (DATA / "store_v3" / f"bt.{name}").read_text(encoding="utf-8")
        if name.startswith("report."):     # a report: its numbers, not its layout
            same_numbers(out.stdout, want, name.partition(".")[2])
        else:                              # an export: the games, byte for byte
            assert out.stdout == want, name
    raw = tree(d)
    again = arena("upgrade", "bt-v3")
    assert again.exit_code == 0 and "nothing to do" in again.output and tree(d) == raw


def test_a_store_before_the_aggregates_gains_them_counted_from_its_games(tmp_path):
    d = _copy(tmp_path, DATA / "store_v2" / "kalah.sqlite", "kalah-v2")
    before = _contents(d)               # read-only: the aggregates counted in memory
    pairs_q = "SELECT pairing_id, pair_index, outcome FROM pair ORDER BY 1, 2"
    pairs = _sql(d, pairs_q)
    r = arena("upgrade", str(d))
    assert r.exit_code == 0, r.output
    assert _contents(d) == before and _kinds(d) == {("blob", "blob")}
    assert _sql(d, pairs_q) == pairs and _sql(d, "SELECT COUNT(*) FROM tally")[0][0] > 0


def test_a_schema_4_store_holding_text_games_is_packed(tmp_path):
    """A v3 store a writer opened is schema 4 with its old games still text: upgraded too."""
    d = _copy(tmp_path, DATA / "store_v3" / "bt.sqlite", "bt")
    Writer.open(d).close()
    before = _contents(d)
    r = arena("upgrade", str(d))
    assert r.exit_code == 0 and "6 of them packed" in r.output
    assert _contents(d) == before and _kinds(d) == {("blob", "blob")}


def _one_line_nothing_changed(tmp_path, d: Path, *words):
    raw = tree(tmp_path)
    r = arena("upgrade", str(d))
    assert r.exit_code == 2, r.output
    assert r.output.startswith("arena: error: ") and len(r.output.strip().splitlines()) == 1
    for w in words:
        assert w in r.output, r.output
    assert tree(tmp_path) == raw
    return r.output


def test_bad_input_is_one_line_and_changes_nothing(tmp_path):
    d = tmp_path / "text"
    d.mkdir()
    (d / "arena.sqlite").write_text("not a database\n" * 20)
    _one_line_nothing_changed(tmp_path, d, str(d / "arena.sqlite"), "not an arena results")
    damaged = _copy(tmp_path, DATA / "store_v3" / "bt.sqlite", "damaged")
    data = (damaged / "arena.sqlite").read_bytes()
    (damaged / "arena.sqlite").write_bytes(data[: len(data) // 2])
    _one_line_nothing_changed(tmp_path, damaged, "damaged store")
    newer = _copy(tmp_path, DATA / "store_v3" / "bt.sqlite", "newer")
    _sql(newer, "UPDATE meta SET value = ? WHERE key = 'schema_version'",
         str(SCHEMA_VERSION + 1))
    _one_line_nothing_changed(tmp_path, newer, f"written by a newer build (schema "
                              f"{SCHEMA_VERSION + 1}; this build reads up to {SCHEMA_VERSION})")
    (tmp_path / "none").mkdir()
    _one_line_nothing_changed(tmp_path, tmp_path / "none", "not a results directory")


def test_a_corrupt_row_or_disagreeing_aggregates_are_refused(tmp_path):
    d = _copy(tmp_path, DATA / "store_v3" / "bt.sqlite", "bt")
    gid = _sql(d, "SELECT game_id FROM game ORDER BY rowid LIMIT 1")[0][0]
    _sql(d, "UPDATE game SET seeds_json = 'nope' WHERE game_id = ?", gid)
    _one_line_nothing_changed(tmp_path, d, f"game {gid}, column seeds_json")
    d2 = _copy(tmp_path, DATA / "store_v3" / "bt.sqlite", "bt2")
    _sql(d2, "DELETE FROM game WHERE rowid = 1")
    _one_line_nothing_changed(tmp_path, d2, "aggregates disagree", "arena recount")


def test_a_store_a_run_is_writing_is_refused(tmp_path):
    d = _copy(tmp_path, DATA / "store_v3" / "bt.sqlite", "bt")
    w = Writer.open(d)              # what a running experiment holds
    try:
        raw = (d / "arena.sqlite").read_bytes()
        r = arena("upgrade", str(d))
        assert r.exit_code == 2 and "in use by another 'arena run'" in r.output
        assert (d / "arena.sqlite").read_bytes() == raw and not (d / ".upgrade").exists()
    finally:
        w.close()


@pytest.mark.parametrize("where", ["pack", "compare", "replace"])
def test_a_failure_on_the_way_leaves_the_old_store(tmp_path, monkeypatch, where):
    """A fault while packing, while comparing, or just before the rename: the old store as it
    was, no folder left; the next upgrade does it all."""
    d = _copy(tmp_path, DATA / "store_v2" / "kalah.sqlite", "kalah")
    before, raw = _contents(d), (d / "arena.sqlite").read_bytes()
    calls = []

    def boom(*a, **k):
        calls.append(1)
        if where != "pack" or len(calls) > 5:
            raise KeyboardInterrupt
        return real_pack(*a, **k)
    real_pack = rows.pack
    target = {"pack": (rows, "pack"), "compare": (upgrade_mod, "_compare"),
              "replace": (upgrade_mod, "_sync")}[where]
    monkeypatch.setattr(*target, boom)
    with pytest.raises(KeyboardInterrupt):
        upgrade_mod.upgrade(d)
    monkeypatch.undo()
    assert (d / "arena.sqlite").read_bytes() == raw and _contents(d) == before
    assert sorted(p.name for p in d.iterdir()) == ["arena.sqlite"]
    assert arena("upgrade", str(d)).exit_code == 0
    assert _contents(d) == before and _kinds(d) == {("blob", "blob")}


@pytest.mark.process
@pytest.mark.slow
def test_a_killed_upgrade_leaves_a_store_with_the_same_games(tmp_path):
    """SIGKILL at two moments of a real `arena upgrade` process (over 240 text games): every time the store reads the same games (the old file, or the new
    one once renamed), and a last upgrade finishes."""
    d = _copy(tmp_path, DATA / "store_v2" / "kalah.sqlite", "kalah")
    cols = ("pairing_id, pair_index, swap, seat0, seat1, budgets_json, seeds_json, opening, "
            "winner, score, reason, error, plies, moves_json, stats_json, duration, finished")
    for k in range(1, 10):
        _sql(d, f"INSERT INTO game (game_id, {cols}) SELECT game_id || '/{k}', "
                f"{cols.replace('pair_index', f'pair_index + {1000 * k}')} FROM game "
                f"WHERE game_id NOT LIKE '%/%/%/%/%'")
        _sql(d, f"INSERT INTO pair SELECT pairing_id, pair_index + {1000 * k}, outcome FROM pair "
                f"WHERE pair_index < 1000")
    before = _contents(d)
    cmd = [sys.executable, "-m", "mcts_arena", "upgrade", str(d)]
    spare = _copy(tmp_path, d / "arena.sqlite", "spare")
    pristine = _copy(tmp_path, d / "arena.sqlite", "pristine")
    t0 = time.monotonic()
    assert subprocess.run([*cmd[:-1], str(spare)], capture_output=True).returncode == 0
    whole = time.monotonic() - t0
    # the kill moments are fractions of the first upgrade's time; on a loaded machine an upgrade
    # may finish before its moment, so the store is put back to the old file and the next,
    # earlier moment tried, until two upgrades were killed
    killed = 0
    for fraction in (0.4, 0.8, 0.2, 0.1, 0.05):
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(fraction * whole)
        if p.poll() is None:
            os.kill(p.pid, signal.SIGKILL)
            killed += 1
        p.wait()
        assert _contents(d) == before
        if p.returncode == 0:
            shutil.rmtree(d)
            shutil.copytree(pristine, d)
        if killed == 2:
            break
    assert killed
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert _contents(d) == before and _kinds(d) == {("blob", "blob")}
    assert not (d / ".upgrade").exists()


def test_every_reader_and_the_writer_refuse_a_store_of_a_newer_schema(tmp_path):
    from mcts_arena.serve import catalog

    d = _copy(tmp_path, DATA / "store_v3" / "bt.sqlite", "bt")
    _sql(d, "UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    raw = tree(tmp_path)
    line = (f"{d / 'arena.sqlite'}: written by a newer build (schema 99; this build reads up to "
            f"{SCHEMA_VERSION})")
    for args in (["report", str(d), "--out", str(tmp_path / "out")],
                 ["export", str(d), "--format", "jsonl"], ["recount", str(d)]):
        r = arena(*args)
        assert r.exit_code == 2 and r.output.startswith(f"arena: error: {line}"), (args, r.output)
        assert len(r.output.strip().splitlines()) == 1
    entry = catalog.Entry("bt", d)
    summary = catalog.summary(entry)
    assert summary["state"] == "unreadable" and summary["error"].startswith(line)
    with pytest.raises(Exception, match="written by a newer build"):
        Writer.open(d)
    assert tree(tmp_path) == raw
