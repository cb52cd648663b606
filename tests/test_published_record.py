"""The committed record (docs/reproduction) against its published games (docs/reproduction/data):
every page whose games are all published is written again from them, as `make record` does, and
must come out byte for byte as committed; no published file is left without a page."""
import gzip
import json
import re
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.cli.reproduce import reproduce_cmd
from mcts_arena.runner import reproduce

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "reproduction"
DATA = DOCS / "data"
MANIFEST = ROOT / "configs" / "reproduction.yaml"


def published() -> dict[str, Path]:
    """experiment results-directory name -> its published file."""
    return {p.name[:-len(".jsonl.gz")]: p for p in sorted(DATA.glob("*.jsonl.gz"))}


def dirs_by_page() -> dict[str, set[str]]:
    """Every page of record.json -> its results directories, at the scale its command names."""
    record = json.loads((DOCS / "record.json").read_text())["pages"]
    pages = {p.id: p for p in reproduce.load_manifest(MANIFEST).pages}
    out = {}
    for pid, entry in sorted(record.items()):
        a = reproduce_cmd.make_context("reproduce", shlex.split(entry["command"])[2:]).params
        sc = reproduce.make_scale(a["scale"], a["games"], a["sweep_games"], a["tournament_games"],
                                  a["precision"], a["max_games"], a["aim"])
        out[pid] = {d.name for d in reproduce.page_dirs(pages[pid], sc, Path("out"))}
    return out


def test_every_published_file_holds_the_games_of_a_page_of_the_record():
    dirs = set().union(*dirs_by_page().values())
    for name, path in published().items():
        with gzip.open(path, "rt") as f:
            head = json.loads(f.readline())
        assert head.get("format") == "mcts_arena-games/1", path
        assert name in dirs, f"{path.name}: the games of no page in record.json"


def rebuilt_pages() -> list[str]:
    """The pages of record.json whose games are all published: each is rebuilt by a test of
    its own (so the workers share them)."""
    have = set(published())
    return [pid for pid, dirs in dirs_by_page().items() if dirs <= have]


def snapshot(docs: Path) -> dict[Path, bytes]:
    return {p.relative_to(docs): p.read_bytes() for p in docs.rglob("*") if p.is_file()}


@pytest.mark.parametrize("page", rebuilt_pages() or ["none"])
def test_each_committed_page_rebuilds_byte_for_byte_from_its_published_games(tmp_path, page):
    docs = tmp_path / "reproduction"
    shutil.copytree(DOCS, docs, ignore=shutil.ignore_patterns("data"))
    before = snapshot(docs)
    if page == "none":      # nothing to rebuild from: one line, exit 2, the pages untouched
        r = CliRunner().invoke(cli, ["reproduce", "--from-data", str(DATA), "--docs", str(docs),
                                     "--manifest", str(MANIFEST)])
        assert r.exit_code == 2 and "holds no published games" in r.output, r.output
    else:
        r = CliRunner().invoke(cli, ["reproduce", "--from-data", str(DATA), "--docs", str(docs),
                                     "--manifest", str(MANIFEST), "--only", page])
        assert r.exit_code == 0 and "rebuilt 1 page(s)" in r.output, r.output
    after = snapshot(docs)
    assert sorted(after) == sorted(before), "the rebuild wrote files the record does not have"
    changed = [str(k) for k in before if before[k] != after[k]]
    assert not changed, f"{page}: files that do not rebuild from its published games: {changed}"


def test_every_picture_of_the_record_is_one_a_page_shows_and_its_index_lists():
    """A page rewritten with other curves left its old pictures behind (seven of Appendix B's
    after its replay); a picture no page shows is not the record."""
    shown = {img for page in DOCS.glob("*.md")
             for img in re.findall(r"\]\(([^)]+\.png)\)", page.read_text())}
    listed = {img for p in json.loads((DOCS / "record.json").read_text())["pages"].values()
              for img in p.get("images", [])}
    on_disk = {p.name for p in DOCS.glob("*.png")}
    assert on_disk == shown, f"not shown: {sorted(on_disk - shown)}; missing: {sorted(shown - on_disk)}"
    assert listed == shown


def test_the_published_games_keep_within_the_records_size_budget():
    """data/README.md states the budget: 60 MB for the whole record's games."""
    total = sum(p.stat().st_size for p in DATA.glob("*.jsonl.gz"))
    assert total <= 60 * 2**20, f"{total / 2**20:.1f} MB of published games"
    assert "The budget for the whole record's games is 60 MB" in (DATA / "README.md").read_text()


def test_the_checksums_list_every_published_file_and_match_it():
    """data/SHA256SUMS lets a reader check the files without mcts_arena (`sha256sum -c`)."""
    import hashlib

    sums = DATA / "SHA256SUMS"
    assert sums.exists(), "docs/reproduction/data has no SHA256SUMS"
    listed = {}
    for line in sums.read_text().splitlines():
        digest, name = line.split(maxsplit=1)
        listed[name.lstrip("*")] = digest
    files = {p.name for p in DATA.glob("*.jsonl.gz")}
    assert set(listed) == files, ("SHA256SUMS does not list exactly the published files; "
                                  "run `sha256sum *.jsonl.gz > SHA256SUMS` in "
                                  "docs/reproduction/data")
    for name, digest in listed.items():
        assert hashlib.sha256((DATA / name).read_bytes()).hexdigest() == digest, name


def _notes_rates_table() -> list[tuple[str, str, str]]:
    """(player, first harness, committed harness) of notes.md §8.1's table."""
    rows, inside = [], False
    for line in (DOCS / "notes.md").read_text().splitlines():
        if line.startswith("| player | first harness"):
            inside = True
            continue
        if inside and not line.startswith("|"):
            break
        if inside and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows.append((cells[0], cells[1], cells[2]))
    return rows


def test_the_notes_quote_the_rates_in_force_and_call_no_older_figure_so():
    """notes.md §1 called a superseded table "the table in force", with rates 1.4-2.3x the ones
    every page was played on: the rates it quotes as current are engine_rates.yaml's, and no
    sentence that says "in force" quotes the older harness's figures."""
    from mcts_arena import inputs

    entries = {e["player"]: e for e in inputs.load_yaml(
        ROOT / "mcts_arena" / "runner" / "data" / "engine_rates.yaml", "rates")["rates"]
        if e["game"] == "breakthrough"}
    table = _notes_rates_table()
    assert len(table) >= 8, table
    old = set()
    for player, first, committed in table:
        nums = [int(x.replace(",", "")) for x in re.findall(r"\d[\d,]*", committed)]
        e = entries[player]
        assert nums == [e["per_second"], *e["ci95"]], (player, committed, e)
        old.update(re.findall(r"\d{1,3}(?:,\d{3})+", first))
    assert old, table
    text = (DOCS / "notes.md").read_text()
    for sentence in re.split(r"(?<=[.;])\s", text):
        if "in force" in sentence:
            quoted = old & set(re.findall(r"\d{1,3}(?:,\d{3})+", sentence))
            assert not quoted, f"a sentence calls superseded rates in force: {sentence!r}"
