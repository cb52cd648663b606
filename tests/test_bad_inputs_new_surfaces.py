"""Hostile inputs against the surfaces added after tests/test_bad_inputs.py's corpus: `arena
tune` (its config, its stored settings, its outside engines, its bracket), results paths
through a symbolic-link loop, the record's published games (`arena reproduce --from-data`,
`--publish`), the backgammon `.mat` export, and Ctrl-C at the first moment of a run.

Each refusal is one line `arena: error: ...`, exit status 2, and leaves the directory exactly as
it was (every file hashed before and after: nothing written, nothing changed).
"""
import gzip
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import tree
from test_record import prec_setup  # noqa: F401 - the record's fixture, used below

from mcts_arena.cli import cli
from mcts_arena.results.store import Store

TUNE = ("name: t\ngame: tictactoe\ntemplate: \"MCTS(im{a})\"\nparams:\n  a: {low: 0, high: 1}\n"
        "budget: {sims: 10}\ngames: 4\nmethod: spsa\n")
BRACKET = ("name: b\ngame: tictactoe\ntemplate: \"MCTS(im{a})\"\nparams:\n"
           "  a: {low: 0, high: 1, grid: [0.2, 0.6]}\nbudget: {sims: 10}\nmethod: bracket\n"
           "bracket: {games: 2}\n")
MISSING = "/nonexistent/engine"


def refused(root: Path, args: list[str], message: str) -> None:
    """`arena ARGS` in `root`: exit 2, the one line, nothing under root written or changed."""
    before = tree(root)
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    assert res.output == f"arena: error: {message}\n"
    assert tree(root) == before


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _tune(here: Path, text: str, out: str = "r") -> list[str]:
    (here / "t.yaml").write_text(text)
    return ["tune", "t.yaml", "--out", out, "--jobs", "1", "--quiet"]


# ---- a tune's config: one validation where each value enters --------------------------------
TUNE_CASES = [
    ("a format spec in a field", TUNE.replace("im{a}", "im{a:x}"),
     "t.yaml: template: {a:x}: a field is a parameter's name alone, as {a} (the tuner writes "
     "its value)"),
    ("a conversion in a field", TUNE.replace("im{a}", "im{a!r}"),
     "t.yaml: template: {a!r}: a field is a parameter's name alone, as {a} (the tuner writes "
     "its value)"),
    ("a domain narrower than the written decimals",
     TUNE.replace("{low: 0, high: 1}", "{low: 0.00001, high: 0.00004}"),
     "t.yaml: params.a.low: expected at most 4 decimals (values are written into the spec with "
     "4), got 1e-05; rescale the parameter"),
    ("a start with more decimals than are written",
     TUNE.replace("high: 1}", "high: 1, start: 0.12345}"),
     "t.yaml: params.a.start: expected at most 4 decimals (values are written into the spec "
     "with 4), got 0.12345; rescale the parameter"),
    ("a float domain into an integer option",
     TUNE.replace("tictactoe", "kalah").replace("im{a}", "fet{a}")
     .replace("{low: 0, high: 1}", "{low: 1, high: 3}"),
     "t.yaml: template at a=1.7562: bad player 'MCTS(fet1.7562)': bad number in token "
     "'fet1.7562' of 'MCTS(fet1.7562)': expected an integer"),
    ("choices that spell one player twice",
     TUNE.replace("im{a}", "{a}").replace("{low: 0, high: 1}", "{choices: [im0.5, im0.50]}")
     .replace("games: 4\nmethod: spsa", "games: 8\nmethod: bo"),
     "t.yaml: params.a: a=im0.5 and a=im0.50 make the same player MCTS(im0.5)"),
    ("a grid that collapses to one entrant", BRACKET.replace("[0.2, 0.6]", "[1, 1.0]"),
     "t.yaml: params.a.grid: a value is listed twice"),
]


@pytest.mark.parametrize("text,message", [c[1:] for c in TUNE_CASES],
                         ids=[c[0] for c in TUNE_CASES])
def test_tune_config_refused_where_the_value_enters(here, text, message):
    refused(here, _tune(here, text), message)


# ---- outside engines probed before the first write ------------------------------------------
@pytest.mark.parametrize("text", [
    TUNE.replace("games: 4\nmethod: spsa", "games: 8\nmethod: bo")
    + f"opponent: \"GTP(cmd={MISSING})\"\n",
    TUNE + f"confirm: {{games: 2, against: \"GTP(cmd={MISSING})\"}}\n",
    BRACKET.replace("MCTS(im{a})", f"GTP(cmd={MISSING} {{a}})"),
], ids=["bo opponent", "confirmation engine", "bracket entrant"])
def test_tune_engine_that_cannot_start_writes_nothing(here, text):
    args = _tune(here, text)
    before = tree(here)
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    assert res.output.splitlines()[-1].startswith(f"arena: error: player {MISSING}")
    assert "no such command" in res.output and "Traceback" not in res.output
    assert tree(here) == before


# ---- a bracket's store: its settings checked before anything is written ---------------------
def test_bracket_resumed_with_other_settings_or_into_a_tune_is_refused(here):
    res = CliRunner().invoke(cli, _tune(here, BRACKET, "br"))
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(cli, _tune(here, TUNE, "sp"))
    assert res.exit_code == 0, res.output
    refused(here, _tune(here, BRACKET.replace("sims: 10", "sims: 20"), "br"),
            "br holds tournament 'b' with other settings: budget was {\"sims\": 10}, now "
            "{\"sims\": 20}; choose another --out DIR")
    refused(here, _tune(here, BRACKET, "sp"),
            "sp holds tune 't' (spsa), not a bracket; choose another --out DIR")
    refused(here, _tune(here, TUNE, "br"),
            "br holds games of an experiment that is not this tune; choose another --out DIR")


# ---- results paths through a symbolic-link loop ---------------------------------------------
@pytest.mark.parametrize("command", ["tune", "run"])
def test_results_directory_behind_a_link_loop(here, command):
    os.symlink("loop2", here / "loop1")
    os.symlink("loop1", here / "loop2")
    (here / "c.yaml").write_text("name: c\ngame: tictactoe\nbudget: {sims: 5}\ngames: 2\n"
                                 "matches:\n  - {player: Random, opponent: Random}\n")
    args = (_tune(here, TUNE, "loop1/sub") if command == "tune"
            else ["run", "c.yaml", "--out", "loop1/sub", "--quiet"])
    refused(here, args, "loop1: a symbolic link that leads nowhere (a loop, or its target is "
                        "missing); refusing to use it")


# ---- a stored tune whose recorded settings are damaged --------------------------------------
@pytest.fixture(scope="module")
def tuned(tmp_path_factory):
    root = tmp_path_factory.mktemp("tuned")
    (root / "t.yaml").write_text(TUNE)
    res = CliRunner().invoke(cli, ["tune", str(root / "t.yaml"), "--out", str(root / "r"),
                                   "--jobs", "1", "--quiet"])
    assert res.exit_code == 0, res.output
    return root


DAMAGE = [
    ("params", "x", "params: expected a list, got text 'x'"),
    ("spsa", None, "settings no tune config makes (the template's fields, the parameters and "
                   "the method's section disagree)"),
    ("template", "MCTS(im{zz})", "settings no tune config makes (the template's fields, the "
                                 "parameters and the method's section disagree)"),
    ("games", "4", "games: expected an integer from 0, got text '4'"),
    ("budget", {"sims": "x"}, "budget: sims: expected an integer from 0, got text 'x'"),
]


@pytest.mark.parametrize("key,value,why", DAMAGE, ids=[d[0] for d in DAMAGE])
@pytest.mark.parametrize("command", ["resume", "report"])
def test_damaged_tune_settings_are_one_line(tuned, tmp_path, monkeypatch, key, value, why,
                                            command):
    import shutil

    shutil.copytree(tuned, tmp_path / "w")
    monkeypatch.chdir(tmp_path / "w")
    con = sqlite3.connect("r/arena.sqlite")
    d = json.loads(con.execute("SELECT value FROM meta WHERE key = 'tune'").fetchone()[0])
    d[key] = value
    con.execute("UPDATE meta SET value = ? WHERE key = 'tune'", (json.dumps(d),))
    con.commit()
    con.close()
    args = (["tune", "t.yaml", "--out", "r", "--jobs", "1", "--quiet"] if command == "resume"
            else ["report", "r"])
    refused(tmp_path / "w", args, f"r/arena.sqlite: corrupt store: meta 'tune', column value: "
                                  f"{why}; nothing was changed")


# ---- the record's published games: one reader checks every field ---------------------------
HEADER = {"format": "mcts_arena-games/1",
          "experiment": {"name": "prec", "config": {"name": "prec"}, "identity": {},
                         "version": "0", "machine": {}, "created": "x", "updated": "x"},
          "pairings": [{"pairing_id": "p1", "position": 0, "player": "Random",
                        "opponent": "Random", "games": 2, "player_budget": None,
                        "opponent_budget": None}],
          "meta": {}}
GAME = {"game_id": "prec/p1/0/0", "pairing_id": "p1", "pair_index": 0, "swap": 0,
        "seats": ["Random", "Random"], "budgets": [{"sims": 5}, {"sims": 5}], "seeds": [1, 2],
        "opening": "", "winner": 0, "score": 1, "reason": "normal", "error": None, "plies": 1,
        "moves": ["a1"], "stats": [{"seat": 0}], "duration": 0.1, "finished": 1.0,
        "version": "0", "build": None}


@pytest.fixture
def record_dir(prec_setup):  # noqa: F811 - the fixture imported above
    """tests/test_record.py's small record (its rates, config and manifest) with a data folder
    and a record.json naming one page."""
    (prec_setup / "data").mkdir()
    (prec_setup / "docs").mkdir()
    (prec_setup / "docs" / "record.json").write_text(
        '{"pages": {"pp": {"command": "arena reproduce --scale 0.005 --games 8"}}}\n')
    return prec_setup


def _publish(root: Path, *lines) -> None:
    with gzip.open(root / "data" / "prec.jsonl.gz", "wb") as f:
        for obj in lines:
            f.write((json.dumps(obj) + "\n").encode())


FROM_DATA = ["reproduce", "--manifest", "manifest.yaml", "--docs", "docs", "--from-data", "data"]
RECORD_CASES = [
    ("score of the wrong type", {"score": 7}, "line 2: score: expected a score 0, 0.5 or 1, "
                                              "got integer 7"),
    ("seats not a list", {"seats": 5}, "line 2: seats: expected a list, got integer 5"),
    ("stats not a list", {"stats": "x"}, "line 2: stats: expected a list, got text 'x'"),
    ("winner not a seat", {"winner": "x"},
     "line 2: winner: expected an integer from 0 to 1, got text 'x'"),
    ("a null where a value must be", {"plies": None},
     "line 2: plies: expected an integer from 0, got NULL"),
    ("a null game id", {"game_id": None}, "line 2: game_id: expected text, got NULL"),
    ("a move that is not text", {"moves": [3]}, "line 2: moves: item 0: expected text, got "
                                                "integer 3"),
    ("an unknown field", {"extra": 1}, "line 2: unexpected key 'extra'"),
    ("a game of no pairing", {"pairing_id": "p9"},
     "line 2: the game's pairing_id 'p9' is not a pairing of the header"),
]


@pytest.mark.parametrize("change,message", [c[1:] for c in RECORD_CASES],
                         ids=[c[0] for c in RECORD_CASES])
def test_published_game_lines_checked_field_by_field(record_dir, change, message):
    _publish(record_dir, HEADER, GAME | change)
    refused(record_dir, FROM_DATA, f"data/prec.jsonl.gz: {message}")


def test_a_game_line_repeated_is_named_not_a_full_disk(record_dir):
    _publish(record_dir, HEADER, GAME, GAME)
    refused(record_dir, FROM_DATA, "data/prec.jsonl.gz: line 3: game prec/p1/0/0 (pairing p1, "
                                   "pair 0, swap 0) is given twice")
    _publish(record_dir, HEADER, GAME, GAME | {"game_id": "other"})
    refused(record_dir, FROM_DATA, "data/prec.jsonl.gz: line 3: game other (pairing p1, pair 0, "
                                   "swap 0) is given twice")


def test_a_header_pairing_twice_or_of_the_wrong_type(record_dir):
    _publish(record_dir, HEADER | {"pairings": HEADER["pairings"] * 2}, GAME)
    refused(record_dir, FROM_DATA, "data/prec.jsonl.gz: line 1: the header: pairings: a "
                                   "pairing_id is listed twice")
    _publish(record_dir, HEADER | {"meta": {"k": 5}}, GAME)
    refused(record_dir, FROM_DATA, "data/prec.jsonl.gz: line 1: the header: meta: expected "
                                   "text values")


def test_a_fifo_in_the_data_folder_is_never_opened(record_dir):
    os.mkfifo(record_dir / "data" / "prec.jsonl.gz")       # opened, it would wait forever
    refused(record_dir, FROM_DATA, "data/prec.jsonl.gz: a FIFO, not a regular file; expected "
                                   "a published games file (gzip JSON lines)")


@pytest.mark.parametrize("target,message", [
    ("afile", "afile: is a file, not a folder for published games (--publish)"),
    ("loop1", "loop1: a symbolic link that leads nowhere (a loop, or its target is missing); "
              "refusing to use it"),
    ("loop1/sub", "loop1: a symbolic link that leads nowhere (a loop, or its target is "
                  "missing); refusing to use it"),
])
def test_publish_into_a_file_or_a_link_loop_refused_before_playing(record_dir, target, message):
    (record_dir / "afile").write_text("mine\n")
    os.symlink("loop2", record_dir / "loop1")
    os.symlink("loop1", record_dir / "loop2")
    refused(record_dir, ["reproduce", "--manifest", "manifest.yaml", "--scale", "0.005",
                         "--games", "8", "--jobs", "1", "--quiet", "--out", "res", "--docs",
                         "docs", "--publish", target], message)


# ---- a backgammon store whose moves do not parse, exported as .mat --------------------------
def test_mat_export_of_a_damaged_game_is_one_line(here):
    (here / "bg.yaml").write_text("name: bg\ngame: backgammon\nbudget: {sims: 5}\ngames: 2\n"
                                  "seed: 1\nmatches:\n  - {player: Random, opponent: Random}\n")
    res = CliRunner().invoke(cli, ["run", "bg.yaml", "--out", "bgs", "--quiet", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    with Store.open(here / "bgs") as s:
        gid = s.game_ids(limit=1)[0]
    con = sqlite3.connect(here / "bgs" / "arena.sqlite")
    moves = json.loads(zlib.decompress(con.execute(
        "SELECT moves_json FROM game WHERE game_id = ?", (gid,)).fetchone()[0]))
    moves[1] = "24/1"       # after the opening roll: a move no roll plays
    con.execute("UPDATE game SET moves_json = ? WHERE game_id = ?",
                (zlib.compress(json.dumps(moves).encode()), gid))
    con.commit()
    con.close()
    before = tree(here)
    for args in (["export", "bgs", "--format", "mat", "--out", "x.mat"], ["show", "bgs", gid]):
        res = CliRunner().invoke(cli, args)
        assert res.exit_code == 2, res.output
        assert res.output.count("\n") == 1
        assert res.output.startswith(f"arena: error: bgs/arena.sqlite: corrupt store: game "
                                     f"{gid}, column moves_json: game {gid}: move 2 '24/1' is "
                                     f"not legal here (")
    assert tree(here) == before


# ---- Ctrl-C at the first moment ---------------------------------------------------------------
def test_ctrl_c_before_the_run_handles_it_stops_a_driver_started_ignoring_it(here):
    """A driver started with SIGINT ignored (a background job of a script): a Ctrl-C before the
    run installs its own handler (here: while the config loads) stops it with status 130 and
    writes nothing, instead of being lost while the run plays every game."""
    (here / "c.yaml").write_text("name: c\ngame: tictactoe\nbudget: {sims: 5}\ngames: 2\n"
                                 "matches:\n  - {player: Random, opponent: Random}\n")
    code = ("import os, signal, sys\n"
            "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
            "from mcts_arena.cli import main\n"
            "from mcts_arena.runner import config\n"
            "load = config.load\n"
            "def interrupted(*a, **k):\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    return load(*a, **k)\n"
            "config.load = interrupted\n"
            "sys.argv = ['arena', 'run', 'c.yaml', '--out', 'res', '--jobs', '1', '--quiet']\n"
            "main()\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    p = subprocess.run([sys.executable, "-c", code], cwd=here, env=env, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 130, p.stdout + p.stderr
    assert p.stderr.strip().splitlines()[-1] == "arena: interrupted"
    assert not (here / "res").exists()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_fork_server_ignores_sigint_from_its_first_instruction():
    """It shares the driver's process group: a Ctrl-C while it imports its preload must not
    kill it (the run would fail with a traceback instead of stopping)."""
    from multiprocessing import forkserver

    from mcts_arena.runner import pool

    if pool.start_method() != "forkserver":
        pytest.skip("no fork server here")
    server = forkserver._forkserver
    if server._forkserver_pid is not None:
        server._stop()                  # started earlier in this process: start it afresh
    pool.start_fork_server()
    status = Path(f"/proc/{server._forkserver_pid}/status").read_text()
    ignored = int(next(x for x in status.splitlines() if x.startswith("SigIgn:")).split()[1], 16)
    assert ignored & (1 << (signal.SIGINT - 1))


def test_a_sigint_while_the_fork_server_starts_is_handled_after(monkeypatch):
    """The driver's SIGINT during the start is kept pending and raised once the handler is
    back (not discarded by the moment SIGINT is ignored)."""
    from multiprocessing import forkserver

    from mcts_arena.runner import pool

    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    monkeypatch.setattr(forkserver._forkserver, "_forkserver_pid", None)
    # to this thread, as to a driver's only thread (a process-directed signal would go to
    # another thread of pytest's that does not block it)
    monkeypatch.setattr(forkserver, "ensure_running", lambda: signal.pthread_kill(
        threading.main_thread().ident, signal.SIGINT))
    try:
        with pytest.raises(KeyboardInterrupt):
            pool.start_fork_server()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, old)


# ---- clock strings: the one integer rule's ASCII digits and a bounded period ----------------
@pytest.mark.parametrize("clock,message", [
    ("99999999999999999999/60+0", "a clock's moves per period must be at most 10000, got "
                                  "'99999999999999999999/60+0'"),
    ("\u0663+0", "expected a time control [MOVES/]BASE[+INC] in seconds (e.g. 60+0.5, 40/60, "
                 "0:30+0.1), BASE from 0.0001 to 86400, INC from 0 to BASE, got '\u0663+0' "
                 "(or inf: no time limit)"),
], ids=["a period of 10^20 moves", "an Arabic-Indic digit"])
def test_clock_strings_refused(here, clock, message):
    (here / "c.yaml").write_text(f"name: c\ngame: tictactoe\nclock: \"{clock}\"\ngames: 2\n"
                                 f"matches:\n  - {{player: MCTS, opponent: Random}}\n",
                                 encoding="utf-8")
    refused(here, ["run", "c.yaml", "--out", "res", "--dry-run"], f"c.yaml: clock: {message}")


def test_a_seed_beyond_63_bits_is_refused_in_a_tune_and_a_run(here):
    big = "1" + "0" * 30
    refused(here, _tune(here, TUNE) + ["--seed", big],
            f"--seed must be an integer from 0 to 9223372036854775807, got {big}")
    refused(here, _tune(here, TUNE + f"seed: {big}\n"),
            f"t.yaml: seed: expected an integer from 0 to 9223372036854775807, got {big}")
    (here / "c.yaml").write_text(f"name: c\ngame: tictactoe\nbudget: {{sims: 5}}\ngames: 2\n"
                                 f"seed: {big}\nmatches:\n  - {{player: MCTS, opponent: Random}}\n")
    refused(here, ["run", "c.yaml", "--dry-run"],
            f"c.yaml: seed: expected an integer from 0 to 9223372036854775807, got {big}")


@pytest.mark.parametrize("entry,message", [
    ({"command": "arena reproduce \"open"},
     "pages pp: 'arena reproduce \"open': No closing quotation"),
    ({"command": 5}, "page pp: expected an entry with the command as text, got {\"command\": 5}"),
    (7, "page pp: expected an entry with the command as text, got 7"),
    ({"command": "arena reproduce --scale nan"},
     "pages pp: 'arena reproduce --scale nan': --scale must be in (0, 100], got nan"),
], ids=["unclosed quote", "command a number", "entry a number", "a scale no run has"])
def test_a_damaged_record_index_is_one_line(record_dir, entry, message):
    (record_dir / "docs" / "record.json").write_text(json.dumps({"pages": {"pp": entry}}))
    _publish(record_dir, HEADER, GAME)
    refused(record_dir, FROM_DATA, f"docs/record.json: {message}")


def test_a_published_line_without_end_is_not_read_into_memory(record_dir, monkeypatch):
    from mcts_arena.results import archive

    monkeypatch.setattr(archive, "MAX_LINE", 1000)
    with gzip.open(record_dir / "data" / "prec.jsonl.gz", "wb") as f:
        f.write(b"x" * 5000)
    refused(record_dir, FROM_DATA, "data/prec.jsonl.gz: line 1: longer than 1,000 bytes; not a "
                                   "published games file")


def test_a_tune_report_refused_prints_nothing_before_its_line(tuned, tmp_path, monkeypatch):
    """The tune's own text reads its games; the tables read the aggregates, damaged here: the
    refusal is the report's only output, not the end of nine lines of a tune."""
    import shutil

    shutil.copytree(tuned, tmp_path / "w")
    monkeypatch.chdir(tmp_path / "w")
    con = sqlite3.connect("r/arena.sqlite")
    con.execute("UPDATE tally SET plies = 'x'")
    con.commit()
    con.close()
    before = tree(tmp_path / "w")
    res = CliRunner().invoke(cli, ["report", "r"])
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1
    assert res.output.startswith("arena: error: r/arena.sqlite: corrupt store: tally of ")
    assert tree(tmp_path / "w") == before
