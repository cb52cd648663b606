"""The record's statistics and provenance: the pair interval, builds stamped on every game,
resume across builds refused, and `arena reproduce --precision` (real SQLite stores, real games
at tiny budgets)."""
import math
import sqlite3

import pytest
from click.testing import CliRunner

from mcts_arena import provenance, results, stats
from mcts_arena.cli import cli
from mcts_arena.results.store import SCHEMA_VERSION, Store
from mcts_arena.runner import effort, reproduce

RATES = """rates:
  - {game: breakthrough, player: "MCTS", unit: sims, per_second: 2000, ci95: [1900, 2100], games: 10, source: test}
  - {game: breakthrough, player: "MCTS(ipp)", unit: sims, per_second: 2000, ci95: [1900, 2100], games: 10, source: test}
"""
RUN_CFG = """name: prov
game: breakthrough
budget: {sims: 8}
games: 4
seed: 3
matches:
  - {player: "MCTS(ipp)", opponent: "Random"}
"""
# one lopsided row (MCTS against Random: decided at once) and one even row (Random vs Random)
PREC_CFG = """name: prec
description: "precision rule"
game: breakthrough
budget: {time: 1.0}
games: 1000
seed: 7
openings: start
matches:
  - {player: "MCTS(ipp)", opponent: "Random"}
  - {player: "Random", opponent: "Random(seed=5)"}
"""
MANIFEST = "pages:\n  - {id: pp, title: \"Precision page\", experiments: [prec.yaml]}\n"


# ---- the pair interval --------------------------------------------------------------------
def test_pentanomial_interval_is_honest_where_the_normal_one_collapses():
    lo, hi = stats.pentanomial_interval((0, 0, 0, 0, 20))
    assert hi == 1.0 and lo == pytest.approx(math.exp(-stats.Z95 ** 2 / 40), abs=2e-3)
    wlo, _ = stats.wilson_interval(40, 40)             # 40 games won: about the same bound
    assert abs(lo - wlo) < 0.01
    assert stats.pentanomial_interval((20, 0, 0, 0, 0))[0] == 0.0
    assert stats.pentanomial_interval((0, 0, 0, 0, 0)) == (0.0, 1.0)


def test_pentanomial_interval_agrees_with_the_normal_one_for_many_pairs():
    counts = (100, 50, 300, 200, 150)
    mu = stats.pentanomial_score(counts)
    n = sum(counts)
    sd = math.sqrt(sum(c * (x - mu) ** 2 for c, x in zip(counts, stats.PENTA_SCORES)) / n)
    lo, hi = stats.pentanomial_interval(counts)
    assert lo == pytest.approx(mu - stats.Z95 * sd / math.sqrt(n), abs=2e-3)
    assert hi == pytest.approx(mu + stats.Z95 * sd / math.sqrt(n), abs=2e-3)
    # wider at a stricter level, and narrower than the per-game interval when the two games
    # of a pair disagree (seat swap cancelling a first-move advantage)
    slo, shi = stats.pentanomial_interval(counts, z=2.576)
    assert slo < lo and shi > hi
    split = (0, 0, 40, 0, 0)                       # every pair 1-1
    plo, phi = stats.pentanomial_interval(split)
    glo, ghi = stats.wilson_interval(40, 80)
    assert phi - plo < (ghi - glo) / 2


# ---- provenance ---------------------------------------------------------------------------
@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.yaml").write_text(RUN_CFG)
    return tmp_path


def _run(*args):
    return CliRunner().invoke(cli, ["run", "c.yaml", "--jobs", "1", "--quiet", *args])


def test_every_game_carries_the_build_that_played_it(cwd):
    r = _run()
    assert r.exit_code == 0, r.output
    version, build = provenance.build_identity()
    with Store.open(cwd / "results/prov") as st:
        assert st.builds() == {(version, build): 4}
        frame = results.frame(st)
    assert set(frame["build"]) == {build}
    assert results.pairing_counts(frame).iloc[0]["builds"] == {build: 4}


def test_resume_with_another_build_is_refused_in_one_line_and_changes_nothing(cwd, monkeypatch):
    assert _run().exit_code == 0
    db = cwd / "results/prov/arena.sqlite"
    before = {p.name: p.read_bytes() for p in db.parent.iterdir()}
    monkeypatch.setenv(provenance.FAKE_BUILD_ENV, "0ther0build0")
    r = _run("--games", "6")
    assert r.exit_code == 2
    version, build = provenance._identity
    assert r.output.strip() == (
        f"arena: error: results/prov holds 4 games played by build {build} (mcts_arena "
        f"{version}); this is build 0ther0build0 (mcts_arena {version}); add to them with "
        f"--allow-mixed-builds (reports then list both), or start afresh with --new")
    assert {p.name: p.read_bytes() for p in db.parent.iterdir()} == before
    r = _run("--games", "6", "--allow-mixed-builds")
    assert r.exit_code == 0, r.output
    with Store.open(cwd / "results/prov") as st:
        assert st.builds() == {(version, build): 4, (version, "0ther0build0"): 2}
        assert "0ther0build0" in st.get_meta("mixed_builds")


@pytest.mark.slow
def test_a_store_of_schema_1_gains_the_columns_and_its_games_read_as_unrecorded(cwd):
    assert _run().exit_code == 0
    db = cwd / "results/prov/arena.sqlite"
    conn = sqlite3.connect(db)                     # as a store made before provenance
    conn.executescript("ALTER TABLE game DROP COLUMN version; ALTER TABLE game DROP COLUMN "
                       "build; UPDATE meta SET value = '1' WHERE key = 'schema_version'; "
                       "DROP TABLE tally; DROP TABLE pair_tally; DROP INDEX game_finished; "
                       "DROP INDEX game_error; ALTER TABLE pair DROP COLUMN points;")
    conn.close()
    with Store.open(cwd / "results/prov") as st:
        assert st.builds() == {(None, None): 4}
        assert results.pairing_counts(results.frame(st)).iloc[0]["builds"] == {"unrecorded": 4}
    r = _run("--games", "6")
    assert r.exit_code == 2 and "an unrecorded build" in r.output
    assert _run("--games", "6", "--allow-mixed-builds").exit_code == 0
    with Store.open(cwd / "results/prov") as st:
        assert st.get_meta("schema_version") == str(SCHEMA_VERSION)
        assert st.builds()[(None, None)] == 4 and len(st.builds()) == 2


# ---- the precision rule -------------------------------------------------------------------
def test_looks_and_the_split_level():
    p = reproduce.Precision(half_width=5, cap=1000)
    assert p.looks(200) == [200, 300, 450, 676, 1000]
    assert p.z_stop(200) == pytest.approx(2.5758, abs=1e-4)       # 0.05 / 2 / 5 looks
    assert reproduce.Precision(5, cap=200).looks(200) == [200]


@pytest.mark.parametrize("penta, games, stop", [
    ((5, 10, 20, 30, 35), 200, "decided"),      # 70% ± 5.7: excludes 50% at z = 2.58
    ((1, 10, 500, 0, 0), 1022, "precision"),   # narrow, at 50%: precise, not decided
    ((30, 20, 0, 20, 30), 200, None),          # wide at 50%: play on
    ((30, 20, 0, 20, 30), 1000, "cap"),
])
def test_look_decision(penta, games, stop):
    prec = reproduce.Precision(half_width=5, cap=1000)
    counts = {"games": 2 * sum(penta), "pentanomial": list(penta)}
    rec = reproduce.look_decision(counts, False, prec, 200, games)
    assert rec["stop"] == stop and rec["basis"] == "pairs"


def test_the_paper_aim_tests_the_paper_value_not_50():
    """`--aim paper`: a row far from 50% but near the paper's value plays on; one whose interval
    excludes the paper's value stops, though it may be on the paper's side of 50%."""
    prec = reproduce.Precision(half_width=4, cap=600, aim="paper")
    assert prec.looks(200) == [200, 300, 450, 600]
    counts = {"games": 200, "pentanomial": [5, 10, 20, 30, 35]}          # 70% ± 5.7
    assert reproduce.look_decision(counts, False, prec, 200, 200, paper=0.7)["stop"] is None
    assert reproduce.look_decision(counts, False, prec, 200, 200, paper=0.9)["stop"] == "decided"
    assert reproduce.look_decision(counts, False, prec, 200, 200, paper=None)["stop"] == "decided"
    assert "excludes the paper's value for the row" in prec.describe(200)


@pytest.fixture
def prec_setup(tmp_path, monkeypatch):
    (tmp_path / "rates.yaml").write_text(RATES)
    monkeypatch.setenv(effort.RATES_ENV, str(tmp_path / "rates.yaml"))
    (tmp_path / "prec.yaml").write_text(PREC_CFG)
    (tmp_path / "manifest.yaml").write_text(MANIFEST)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow
def test_reproduce_plays_rows_to_the_precision_target_and_replays_the_same_path(prec_setup):
    args = ["reproduce", "--manifest", "manifest.yaml", "--scale", "0.005", "--games", "8",
            "--precision", "10", "--max-games", "18", "--jobs", "2", "--quiet"]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 0, r.output
    assert "next look: 12 games" in r.output
    directory = prec_setup / "results/reproduction/prec"
    with Store.open(directory) as st:
        meta = st.meta_items("precision/")
        counts = st.pairing_games_count()
    decisions = {k.split("/")[1]: __import__("json").loads(v) for k, v in meta.items()}
    assert {d["stop"] for d in decisions.values()} <= {"decided", "precision", "cap"}
    for pid, d in decisions.items():
        assert counts[pid] == d["games"]           # exactly the games of the last look
    assert sorted(d["games"] for d in decisions.values())[-1] == 18   # the even row: the cap
    assert "looks of 8, 12, 18 games" in next(iter(decisions.values()))["rule"]
    # a second run plays nothing and decides the same
    r2 = CliRunner().invoke(cli, args)
    assert r2.exit_code == 0, r2.output
    with Store.open(directory) as st:
        assert st.pairing_games_count() == counts
        assert {k.split("/")[1]: __import__("json").loads(v)["stop"]
                for k, v in st.meta_items("precision/").items()} == \
            {k: d["stop"] for k, d in decisions.items()}


@pytest.mark.parametrize("args, msg", [
    (["--precision", "0"], "--precision must be a half-width in points in (0, 50), got 0"),
    (["--max-games", "30"], "--max-games needs --precision"),
    (["--precision", "5", "--max-games", "10", "--games", "20"],
     "--max-games (10) must be at least --games (20)"),
])
def test_precision_option_mistakes(prec_setup, args, msg):
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", *args])
    assert r.exit_code == 2 and msg in r.output


def test_a_stored_tournament_keeps_its_effort_budget():
    """appendix-b.md printed '10 games per match at None sims/move': the stored settings lost
    the matched effort."""
    import dataclasses

    from mcts_arena.budgets import Budget
    from mcts_arena.results import tournament as stored
    from mcts_arena.runner import tournament

    spec = tournament.resolve("fet", "kalah")
    spec = dataclasses.replace(spec, budget=Budget(effort=0.05), games=10)
    again = stored.from_settings(spec.settings())
    assert again.budget == Budget(effort=0.05)
    assert "10 games per match at effort 0.05 s/move" in stored.header(again)


# ---- the record's pages and index ---------------------------------------------------------
TWO_PAGES = ("pages:\n  - {id: pp, title: \"Precision page\", experiments: [prec.yaml]}\n"
             "  - {id: qq, title: \"Second page\", experiments: [prec.yaml]}\n")


def _reproduce(*args):
    return CliRunner().invoke(cli, ["reproduce", "--manifest", "two.yaml", "--games", "4",
                                    "--jobs", "1", "--quiet", *args])


@pytest.mark.slow
def test_pages_state_their_command_power_and_builds_and_the_index_keeps_other_pages(prec_setup):
    (prec_setup / "two.yaml").write_text(TWO_PAGES)
    r = _reproduce("--scale", "0.005", "--only", "pp")
    assert r.exit_code == 0, r.output
    docs = prec_setup / "docs/reproduction"
    page = (docs / "pp.md").read_text()
    assert "Played by `arena reproduce --scale 0.005 --games 4 --tournament-games 20 --only pp`" \
        in page
    _version, build = provenance.build_identity()
    assert f"played by build {build}" in page and "**Informative**:" in page
    assert "| informative | power | stop |" in page and "8 games stored, 4 per pairing" in page
    index = (docs / "index.md").read_text()
    assert "[Precision page](pp.md) | 0.005 | 8 |" in index and "Second page" not in index
    # another page at the same scale: the first page's row stays as it was
    r = _reproduce("--scale", "0.005", "--only", "qq")
    assert r.exit_code == 0, r.output
    index2 = (docs / "index.md").read_text()
    assert "[Precision page](pp.md) | 0.005 | 8 |" in index2 and "[Second page](qq.md)" in index2
    assert "`arena reproduce --scale 0.005 --games 4 --tournament-games 20 --only pp`" in index2
    # a quick run at another scale may not rewrite the record...
    before = {p.name: p.read_bytes() for p in docs.iterdir()}
    r = _reproduce("--scale", "0.002", "--only", "pp")
    assert r.exit_code == 2 and r.output.strip() == (
        "arena: error: docs/reproduction/pp.md was played at scale 0.005, this run is at "
        "0.002; write elsewhere with --docs DIR, or over it with --replace-record")
    assert {p.name: p.read_bytes() for p in docs.iterdir()} == before
    assert not (prec_setup / "results/reproduction/prec").with_name("x").exists()
    # ... unless asked: then that page changes and the other page's row is kept
    r = _reproduce("--scale", "0.002", "--only", "pp", "--replace-record", "--out", "r2")
    assert r.exit_code == 0, r.output
    index3 = (docs / "index.md").read_text()
    assert "[Precision page](pp.md) | 0.002 |" in index3 and "[Second page](qq.md) | 0.005 |" \
        in index3


def test_a_record_without_its_index_file_is_not_overwritten(prec_setup):
    (prec_setup / "two.yaml").write_text(TWO_PAGES)
    docs = prec_setup / "docs/reproduction"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("an old record\n")
    r = _reproduce("--scale", "0.005", "--only", "pp", "--pages-only")
    assert r.exit_code == 2 and "written without record.json" in r.output
    assert (docs / "index.md").read_text() == "an old record\n"
    assert not (docs / "pp.md").exists()


def test_power():
    from mcts_arena.report.record_model import power

    assert power(50.0, 1000) == pytest.approx(0.05, abs=1e-3)      # no effect: the test's size
    assert power(63.3, 200) == pytest.approx(0.97, abs=0.01)      # exact binomial: 0.973
    assert power(63.3, 20) == pytest.approx(0.2, abs=0.02)  # "one time in five" at 20 games
    assert power(None, 100) is None and power(60, 0) is None


# ---- published data: the pages rebuilt from it, byte for byte ----------------------------------
def _digests(folder):
    import hashlib

    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if p.is_file()}


@pytest.mark.slow
def test_pages_rebuild_byte_for_byte_from_the_published_games(prec_setup):
    """Played, published, then rebuilt in another folder from the published files alone (no
    store left): the same pages, index, record.json and pictures, byte for byte."""
    import shutil

    from mcts_arena.results import archive

    played = prec_setup / "docs"
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--scale", "0.005",
                                 "--games", "8", "--precision", "20", "--max-games", "12",
                                 "--jobs", "1", "--quiet", "--out", "res", "--docs",
                                 str(played), "--publish", "data"])
    assert r.exit_code == 0, r.output
    files = sorted((prec_setup / "data").iterdir())
    assert [f.name for f in files] == ["prec" + archive.SUFFIX]
    head, games = archive.read(files[0])
    games = list(games)
    assert head["experiment"]["name"] == "prec" and len(games) >= 16
    assert any(k.startswith("build/") for k in head["meta"])          # the build's git commit
    assert any(k.startswith("precision/") for k in head["meta"])      # the stop decisions
    shutil.rmtree(prec_setup / "res")                                  # the stores are gone
    again = prec_setup / "again"
    again.mkdir()
    shutil.copy(played / "record.json", again / "record.json")
    only_index = _digests(again)
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--docs", str(again),
                                 "--from-data", "data", "--dry-run"])
    assert r.exit_code == 0, r.output
    assert "would rebuild 1 page(s)" in r.output and _digests(again) == only_index  # no page
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--docs", str(again),
                                 "--from-data", "data"])
    assert r.exit_code == 0, r.output
    assert _digests(again) == _digests(played)


def test_a_damaged_published_file_is_one_line_and_writes_nothing(prec_setup):
    import gzip

    data = prec_setup / "data"
    data.mkdir()
    (prec_setup / "docs").mkdir()
    (prec_setup / "docs" / "record.json").write_text(
        '{"pages": {"pp": {"command": "arena reproduce --scale 0.005 --games 8"}}}\n')
    before = (prec_setup / "docs" / "record.json").read_bytes()
    with gzip.open(data / "prec.jsonl.gz", "wb") as f:
        f.write(b'{"format": "mcts_arena-games/1", "experiment": {}, "pairings": [], '
                b'"meta": {}}\n')
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--docs", "docs",
                                 "--from-data", "data"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        "arena: error: data/prec.jsonl.gz: line 1: the header: experiment: missing key 'name'"]
    (data / "prec.jsonl.gz").write_bytes(b"not gzip")
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--docs", "docs",
                                 "--from-data", "data"])
    assert r.exit_code == 2 and "not a published games file" in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert sorted(p.name for p in (prec_setup / "docs").iterdir()) == ["record.json"]
    assert (prec_setup / "docs" / "record.json").read_bytes() == before
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--docs", "docs",
                                 "--from-data", "data", "--only", "pp,nosuch"])
    assert r.exit_code == 2 and r.output.strip().splitlines() == [
        "arena: error: --only pp,nosuch: nosuch is not a page of docs/record.json"]
    assert sorted(p.name for p in (prec_setup / "docs").iterdir()) == ["record.json"]


def test_a_record_on_rates_without_intervals_is_refused_in_one_line(prec_setup):
    """The record plays only on rates measured over at least 10 games with an interval; the
    refusal names the rates file and the entry, and plays and writes nothing."""
    (prec_setup / "rates.yaml").write_text(RATES.replace(
        '"MCTS(ipp)", unit: sims, per_second: 2000, ci95: [1900, 2100], games: 10',
        '"MCTS(ipp)", unit: sims, per_second: 2000, games: 2'))
    r = CliRunner().invoke(cli, ["reproduce", "--manifest", "manifest.yaml", "--scale", "0.005",
                                 "--games", "8", "--jobs", "1", "--quiet", "--out", "res",
                                 "--docs", "docs"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        f"arena: error: {prec_setup / 'rates.yaml'}: the record needs every rate it plays with "
        "measured over at least 10 games with a 95% interval (benchmarks/paper_engine/"
        "measure.py); not so for MCTS(ipp) (breakthrough: 2 games, no interval)"]
    assert not (prec_setup / "res").exists() and not (prec_setup / "docs").exists()
