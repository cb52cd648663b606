"""Nothing lost without a word: one test group per class of failure docs/reliability.md
lists. Every refusal is one line `arena: error: ...`, the documented exit
status, and no file created, changed or removed (checked by hashing the tree); a full disk
stops the run with status 1 and keeps every finished game.

The full-disk tests mount a small tmpfs (root only; skipped with the reason otherwise); the
same rule is also tested everywhere with a store whose writes fail as SQLite's do on a full
disk.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import arena_env, stored, tree, wait_for

from mcts_arena import inputs
from mcts_arena.cli import cli
from mcts_arena.inputs import InputError
from mcts_arena.results.store import Store
from mcts_arena.runner import writer as writer_mod

CFG = ("name: r\ngame: tictactoe\nbudget: {sims: 5}\ngames: 4\nseed: 3\n"
       "matches:\n  - {player: Random, opponent: MCTS}\n")


def one_line(res, status: int = 2) -> str:
    """The one `arena: error:` line of a refused command (its text after the prefix)."""
    assert res.exit_code == status, res.output
    lines = res.output.strip("\n").splitlines()
    assert len(lines) == 1 and lines[0].startswith("arena: error: "), res.output
    assert "Traceback" not in res.output
    return lines[0][len("arena: error: "):]


def arena(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def stored_run(tmp_path_factory):
    """An experiment of 4 tictactoe games, stored once (copied per test)."""
    root = tmp_path_factory.mktemp("stored")
    (root / "r.yaml").write_text(CFG)
    old = os.getcwd()
    os.chdir(root)
    try:
        res = arena("run", "r.yaml", "--quiet", "--jobs", "1", "--out", "R")
    finally:
        os.chdir(old)
    assert res.exit_code == 0, res.output
    return root


@pytest.fixture
def world(stored_run, tmp_path, monkeypatch):
    root = tmp_path / "w"
    shutil.copytree(stored_run, root)
    monkeypatch.chdir(root)
    return root


def some_game(root: Path) -> str:
    with Store.open(root / "R") as s:
        return s.game_ids(1)[0]


# ---- 1. a full disk --------------------------------------------------------------------------
def test_a_store_that_cannot_be_written_stops_the_run_and_keeps_what_is_stored(world,
                                                                              monkeypatch):
    """Without a real full disk: the third game's write fails as SQLite's does on a full
    disk. The drain used to take it for a dying worker, drop the game and exit 0."""
    real = writer_mod.Writer.add_game
    calls = []

    def add_game(self, rec):
        calls.append(rec.game_id)
        if len(calls) == 3:
            with self.transaction(f"game {rec.game_id}"):      # the insert fails in it
                raise sqlite3.OperationalError("database or disk is full")
        return real(self, rec)

    (world / "more.yaml").write_text(CFG.replace("games: 4", "games: 10").replace("r\n", "m\n", 1))
    monkeypatch.setattr(writer_mod.Writer, "add_game", add_game)
    res = arena("run", "more.yaml", "--quiet", "--jobs", "1", "--out", "M")
    assert res.exit_code == 1, res.output
    err = res.output.strip().splitlines()[-1]
    assert err.startswith("arena: error: ") and "database or disk is full" in err
    assert "2 game(s) are stored and kept" in err and "resume with: arena run more.yaml" in err
    with Store.open(world / "M") as s:
        assert s.game_count() == 2
    assert not (world / "M" / ".lock").exists() or not writer_mod.writer_holds_lock(world / "M")


def _mount_tmpfs(path: Path, size: str):
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs to fill needs root")
    path.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
                       capture_output=True, text=True, check=False)
    if r.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")


def _fill(path: Path, leave: int) -> Path:
    """Fill the filesystem of `path` until `leave` bytes are free."""
    filler = path / "filler"
    st = os.statvfs(path)
    free = st.f_bavail * st.f_frsize
    with open(filler, "wb") as f:
        try:
            f.write(b"\0" * max(0, free - leave))
        except OSError:
            pass
    return filler


@pytest.fixture
def small_disk(tmp_path):
    mnt = tmp_path / "disk"
    _mount_tmpfs(mnt, "16m")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], check=False)


def test_a_disk_full_before_the_run_leaves_nothing_behind(small_disk, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.yaml").write_text(CFG)
    _fill(small_disk, 0)
    before = tree(small_disk)
    res = arena("run", "r.yaml", "--quiet", "--jobs", "1", "--out", small_disk / "R")
    assert res.exit_code == 1, res.output
    line = res.output.strip().splitlines()[-1]
    assert line.startswith("arena: error: ") and "full" in line, line
    assert tree(small_disk) == before           # no directory, no .lock, no half-made store


@pytest.mark.slow
def test_a_disk_that_fills_mid_run_stops_with_status_1_and_keeps_every_finished_game(
        small_disk, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "r.yaml").write_text(CFG.replace("games: 4", "games: 400"))
    filler = _fill(small_disk, 512 * 1024)
    out = small_disk / "R"
    res = arena("run", "r.yaml", "--quiet", "--jobs", "1", "--out", out)
    assert res.exit_code == 1, res.output
    line = res.output.strip().splitlines()[-1]
    m = re.search(r"; (\d+) game\(s\) are stored and kept; free some space, then resume with: "
                  r"arena run r.yaml --jobs 1 --out ", line)
    assert line.startswith("arena: error: ") and m and "full" in line, line
    with Store.open(out) as s:
        kept = s.game_count()
    assert 0 < kept < 400 and kept == int(m.group(1))
    filler.unlink()                             # space again: the same command resumes
    again = arena("run", "r.yaml", "--quiet", "--jobs", "1", "--out", out)
    assert again.exit_code == 0, again.output
    with Store.open(out) as s:
        assert s.game_count() == 400


# ---- 2. corrupt rows in a valid store -------------------------------------------------------
@pytest.mark.parametrize("table,column,value", [
    ("game", "stats_json", "[1,2"),
    ("game", "moves_json", "{\"a\": 1}"),
    ("game", "score", "abc"),
    ("game", "plies", "many"),
    ("game", "budgets_json", "NaN"),
    ("experiment", "config_json", "{bad"),
    ("pairing", "games", "x"),
])
def test_a_corrupt_row_is_one_line_naming_store_row_and_column(world, table, column, value):
    gid = some_game(world)
    con = sqlite3.connect(world / "R" / "arena.sqlite")
    where = " WHERE game_id = ?" if table == "game" else ""
    con.execute(f"UPDATE {table} SET {column} = ?{where}",
                (value, gid) if where else (value,))
    con.commit()
    con.close()
    # the report reads the aggregates the writer kept, not the games' columns: a game's
    # column edited by hand afterwards is met where a game is shown (and by the DataFrame)
    reports = [] if table == "game" else [["report", "R"]]
    if table == "game":
        assert arena("report", "R").exit_code == 0
    before = tree(world)
    shows = [] if table == "pairing" else [["show", "R", gid]]   # reads no pairing
    for args in [*reports, *shows]:
        msg = one_line(arena(*args))
        assert "R/arena.sqlite: corrupt store" in msg and column in msg, msg
        if table == "game":
            assert f"game {gid}" in msg
    if table == "game":         # the DataFrame reader is the same checked reader
        from mcts_arena import results
        from mcts_arena.results.rows import CorruptStoreError

        with pytest.raises(CorruptStoreError, match=f"game {gid}, column {column}"):
            results.load(world / "R", moves=True)
    if column == "score":       # a column the run reads: refused before it writes anything
        one_line(arena("run", "r.yaml", "--quiet", "--out", "R"))
    assert tree(world) == before


def test_show_names_an_illegal_stored_move(world):
    gid = some_game(world)
    con = sqlite3.connect(world / "R" / "arena.sqlite")
    con.execute("UPDATE game SET moves_json = '[\"a1\", \"a1\"]' WHERE game_id = ?", (gid,))
    con.commit()
    con.close()
    msg = one_line(arena("show", "R", gid))
    assert f"game {gid}, column moves_json: game {gid}: move 2 'a1' is not legal here" in msg


# ---- 3, 4, 5. one reader and one YAML loader ------------------------------------------------
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
    for p, c in zip("abcdefgh", "bcdefghi"))


@pytest.mark.parametrize("text,words", [
    ("? [a, b]\n: 1\n", "a key must be a plain value"),
    ("a: " + "[" * 2000 + "]" * 2000 + "\n", "nested deeper than 32"),
    (BOMB, "once its aliases are expanded"),
    ("a: &x [1, *x]\n", "inside the collection it names"),
    ("a: !!python/object:os.system x\n", "not supported here"),
    ("a: 1\na: 2\n", "duplicate key 'a'"),
])
def test_malformed_yaml_is_one_line(world, text, words):
    (world / "y.yaml").write_text(text)
    before = tree(world)
    t0 = time.monotonic()
    for args in (["run", "y.yaml"], ["tournament", "y.yaml"]):
        msg = one_line(arena(*args))
        assert "y.yaml: YAML syntax error" in msg and words in msg, msg
    assert time.monotonic() - t0 < 20                 # the bomb is refused, not built
    assert tree(world) == before


def test_yaml_merge_keys_are_supported():
    data = inputs.parse_yaml("base: &b {games: 4, seed: 1}\nrun:\n  <<: *b\n  seed: 2\n", "t")
    assert data["run"] == {"games": 4, "seed": 2}


@pytest.mark.parametrize("kind", ["fifo", "dev", "dir", "utf16", "latin1", "big"])
def test_every_file_is_read_by_one_reader(world, kind, tmp_path):
    f = tmp_path / "input"
    if kind == "fifo":
        os.mkfifo(f)
    elif kind == "dev":
        f = Path("/dev/zero")
    elif kind == "dir":
        f.mkdir()
    elif kind == "utf16":
        f.write_bytes("name: x\n".encode("utf-16"))
    elif kind == "latin1":
        f.write_bytes("# caf\xe9\npages: []\n".encode("latin-1"))
    else:
        f.write_bytes(b"#" * (inputs.MAX_BYTES + 1))
    before = tree(world)
    t0 = time.monotonic()
    for args in (["run", f], ["tournament", f], ["solve", f], ["reproduce", "--manifest", f],
                 ["play", "tictactoe", f"py({f}:P)", "Random"]):
        msg = one_line(arena(*args))
        assert str(f) in msg, msg
    assert time.monotonic() - t0 < 30                 # a FIFO does not hang
    assert tree(world) == before


def test_the_reader_refuses_by_kind():
    with pytest.raises(InputError, match="a character device, not a regular file"):
        inputs.read_text("/dev/zero")
    with pytest.raises(InputError, match=r"not UTF-8 text \(byte 0xe9 on line 2\)"):
        inputs.read_text(_bytes(b"ok\ncaf\xe9\n"))


def _bytes(data: bytes) -> str:
    import tempfile

    fd, name = tempfile.mkstemp()
    os.write(fd, data)
    os.close(fd)
    return name


# ---- 6. one integer rule; 7. one rule for a key given twice ----------------------------------
@pytest.mark.parametrize("args,words", [
    (["perft", "kalah", "99999999999999999999999"], "DEPTH must be an integer from 0 to 1000"),
    (["prove", "tictactoe", "--nodes", "99999999999999999999999"], "--nodes must be an integer"),
    (["prove", "tictactoe", "--depth", "99999999999999999999999"], "--depth must be an integer"),
    (["gtp", "Random", "--game", "kalah", "--seed", "99999999999999999999999"],
     "--seed must be an integer from 0 to 9223372036854775807"),
    (["play", "tictactoe", "Random", "Random", "--seed", "-1"], "--seed must be an integer"),
    (["play", "tictactoe", "MCTS(sims=99999999999999999999999)", "Random"], "out of range"),
    (["play", "hex(size=99999999999999999999999)", "Random", "Random"], "out of range"),
    (["play", "tictactoe", "MCTS(time=0.01,sims=5)", "Random"], "given twice"),
    (["play", "tictactoe", "MCTS(sims=5,sims=6)", "Random"], "given twice"),
    (["play", "tictactoe", "MCTS(seed=1,seed=2)", "Random", "--sims", "5"], "seed given twice"),
    (["play", "tictactoe", "GTP(cmd=a,cmd=b)", "Random"], "cmd given twice"),
    (["play", "hex(size=5,size=6)", "Random", "Random"], "size given twice"),
    (["play", "tictactoe", "Random", "Random", "--seed", "1", "--seed", "2"],
     "--seed given twice in the command line"),
])
def test_integers_and_keys_given_twice(world, args, words):
    before = tree(world)
    msg = one_line(arena(*args))
    assert words in msg, msg
    assert tree(world) == before


# ---- 8. work refused before it starts --------------------------------------------------------
@pytest.mark.parametrize("args,words", [
    (["prove", "hex(size=11)"], "the proof would search about 10^"),
    (["prove", "breakthrough"], "the proof would search about 10^"),
    (["perft", "breakthrough", "30"], "perft to depth 30 would count about 10^"),
    (["tournament", "fet", "--games", "100000", "--sims", "5"], "more than the 200,000"),
])
def test_work_that_cannot_finish_is_refused_with_the_estimate(world, args, words):
    before = tree(world)
    t0 = time.monotonic()
    msg = one_line(arena(*args))
    assert words in msg, msg
    assert time.monotonic() - t0 < 60
    assert tree(world) == before


def test_small_proofs_are_answered():
    res = arena("prove", "hex(size=3)", "--json")
    assert res.exit_code == 0 and '"value": "win"' in res.output


# ---- 9, 10, 11. nothing written before failing; readers write nothing; bad values ----------
@pytest.mark.parametrize("name,text,args", [
    ("long name", CFG.replace("name: r", "name: " + "n" * 300), []),
    ("sprt inf", CFG + "sprt: {elo0: -.inf, elo1: .inf}\n", []),
    ("empty out", CFG, ["--out", ""]),
])
def test_a_refused_run_writes_nothing(world, name, text, args):
    (world / "bad.yaml").write_text(text)
    shutil.rmtree(world / "R")
    before = tree(world)
    one_line(arena("run", "bad.yaml", "--quiet", *args))
    assert tree(world) == before and not (world / "results").exists()


def test_out_at_another_experiments_store_changes_none_of_its_files(world):
    wal = world / "R" / "arena.sqlite-wal"
    wal.write_bytes(b"")                      # as a writer that died leaves them
    (world / "R" / "arena.sqlite-shm").write_bytes(b"")
    (world / "other.yaml").write_text(CFG.replace("name: r", "name: other")
                                      .replace("opponent: MCTS", "opponent: FlatMC"))
    before = tree(world)
    msg = one_line(arena("run", "other.yaml", "--out", "R"))
    assert "R" in msg
    assert tree(world) == before


@pytest.mark.parametrize("args", [["solve", "suite.txt", "--budgets", "0"],
                                  ["solve", "suite.txt", "--players", "GTP(cmd=/no/such)"]])
def test_solve_refuses_before_creating_its_store(world, args):
    (world / "suite.txt").write_text("tictactoe: x........ ; a2\n")
    before = tree(world)
    one_line(arena(*args, "--out", "S"))
    assert tree(world) == before


def test_read_only_commands_create_no_file(world, tmp_path):
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(world / "R" / "arena.sqlite", copy / "arena.sqlite")
    gid = some_game(world)
    for args in (["report", copy], ["show", copy], ["show", copy, gid],
                 ["report", copy, "--format", "json"]):
        res = arena(*args)
        assert res.exit_code == 0, res.output
        # the store's own files only (report writes its plots to report/, as documented)
        assert sorted(p.name for p in copy.iterdir() if p.name != "report") == ["arena.sqlite"]
    (copy / "arena.sqlite-wal").write_bytes(b"")          # a dead writer's empty log
    before = tree(copy)
    assert arena("show", copy).exit_code == 0 and tree(copy) == before


@pytest.mark.parametrize("args,words", [
    (["reproduce", "--only", ","], "--only must list page ids"),
    (["reproduce", "--tournament-games", "3"], "--tournament-games must be even"),
    (["reproduce", "--scale", "0.00001", "--only", "table2"], "below the 0.0001 s minimum"),
    (["reproduce", "--docs", "r.yaml", "--only", "table2"], "is a file"),
])
def test_reproduce_refuses_bad_values_before_playing(world, args, words):
    before = tree(world)
    msg = one_line(arena(*args, "--out", "RP", "--games", "2", "--manifest", MANIFEST))
    assert words in msg, msg
    assert tree(world) == before


MANIFEST = Path(__file__).resolve().parents[1] / "configs" / "reproduction.yaml"


def test_duplicate_page_ids_in_a_manifest(world):
    (world / "m.yaml").write_text("pages:\n  - {id: a, experiments: [r.yaml]}\n"
                                  "  - {id: a, experiments: [r.yaml]}\n")
    assert "page id 'a' given twice" in one_line(arena("reproduce", "--manifest", "m.yaml"))


def test_a_player_module_that_exits_on_import_is_one_line(world):
    (world / "quits.py").write_text("import sys\nsys.exit(3)\n")
    msg = one_line(arena("play", "tictactoe", "py(quits.py:P)", "Random"))
    assert "called sys.exit(3)" in msg


def test_play_against_a_missing_engine_is_a_mistake_in_the_command(world):
    res = arena("play", "tictactoe", "GTP(cmd=/no/such/engine)", "Random")
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "/no/such/engine" in res.output


# ---- 12. messages ----------------------------------------------------------------------------
def test_an_unknown_group_option_is_one_line():
    assert one_line(arena("--turbo")) == "No such option: --turbo (see 'arena --help')" or \
        "--turbo" in one_line(arena("--turbo"))


def test_the_summary_calls_an_illegal_move_by_its_name(world):
    from mcts_arena.results.summary import summary_of

    con = sqlite3.connect(world / "R" / "arena.sqlite")
    con.execute("UPDATE game SET reason = 'illegal_move' WHERE game_id = ?",
                (some_game(world),))
    con.commit()
    con.close()
    assert arena("recount", str(world / "R")).exit_code == 0   # a hand edit, counted again
    text = summary_of(world / "R")
    assert "1 game(s) ended by an illegal move" in text and "time forfeit" not in text


@pytest.mark.process
def test_sigterm_stops_like_ctrl_c_with_status_143(tmp_path):
    (tmp_path / "c.yaml").write_text(
        "name: c\ngame: breakthrough\nbudget: {sims: 10}\ngames: 20\nseed: 3\nmatches:\n"
        "  - {player: 'Sleepy(d0.004)', opponent: 'Sleepy(d0.004,im0.5)'}\n")
    cmd = [sys.executable, "-m", "mcts_arena", "run", "c.yaml", "--jobs", "2"]
    db = tmp_path / "results" / "c" / "arena.sqlite"
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=arena_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert wait_for(lambda: stored(db) >= 2 or proc.poll() is not None)
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == 143, err
    kept = stored(db)
    assert re.search(rf"arena: terminated: {kept} of 20 games stored, {20 - kept} to play; "
                     r"resume with: arena run c.yaml --jobs 2\n$", err), err
    assert "Traceback" not in err


def test_reliability_doc_is_linked():
    root = Path(__file__).resolve().parents[1]
    doc = (root / "docs" / "reliability.md").read_text(encoding="utf-8")
    assert "143" in doc and "tmpfs" in doc
    assert "docs/reliability.md" in (root / "README.md").read_text(encoding="utf-8")


def test_fixture_text_is_valid():
    # the module's own config is good: the refusals above are the cases', not the config's
    assert inputs.parse_yaml(textwrap.dedent(CFG), "CFG")["games"] == 4


def test_a_tournament_at_an_experiments_store_changes_none_of_its_files(world):
    before = tree(world)
    msg = one_line(arena("tournament", "fet", "--sims", "5", "--games", "2", "--out", "R"))
    assert "not this tournament" in msg
    assert tree(world) == before
