"""Bad inputs a new user is likely to try: each gets one line `arena: error: ...`, exit status 2,
and leaves the directory exactly as it was (checked by hashing every file under it).

Player strings go through the fake provider (tests/fakes.py), except where a case says
"real players" (the spec's own budget checks).
"""
import os
import shutil
import sqlite3

import pytest
from click.testing import CliRunner
from helpers import tree

from mcts_arena import budgets, games, players
from mcts_arena.cli import cli
from mcts_arena.results.store import APPLICATION_ID, Store
from mcts_arena.runner import config
from mcts_arena.runner.writer import Writer, acquire_lock

GOOD = ("name: c\ngame: breakthrough\nbudget: {sims: 10}\ngames: 2\nseed: 3\n"
        "matches:\n  - {player: Random, opponent: 'Random(im0.5)'}\n")
HEAD = "game: breakthrough\nbudget: {sims: 10}\ngames: 2\n"
M = "matches:\n  - {player: Random, opponent: 'Random(im0.5)'}\n"
TIME = "a number of seconds from 0.0001 to 3600"
SIMS = "an integer from 1 to 100000000"
GAMES = "an integer from 1 to 100000"


@pytest.fixture(scope="module")
def world_template(tmp_path_factory):
    """Built once per module (an `arena run` takes most of a second): a working directory with
    a good config, a stored experiment, and files that are not ours: a plain file, a foreign
    SQLite database, one with another application id, garbage, and a truncated copy of our
    store."""
    root = tmp_path_factory.mktemp("world")
    mp = pytest.MonkeyPatch()
    try:
        mp.chdir(root)
        mp.setenv(config.PLAYERS_ENV, "fakes")
        (root / "c.yaml").write_text(GOOD)
        res = CliRunner().invoke(cli, ["run", "c.yaml", "--quiet", "--jobs", "1", "--out",
                                       "good"])
        assert res.exit_code == 0, res.output
    finally:
        mp.undo()
    (root / "afile").write_text("not a directory\n")
    for name, app_id in (("foreign", 0), ("appdb", 0x1234)):
        (root / name).mkdir()
        con = sqlite3.connect(root / name / "arena.sqlite")
        con.execute(f"PRAGMA application_id = {app_id}")
        con.execute("CREATE TABLE notes (x TEXT)")
        con.execute("INSERT INTO notes VALUES ('mine')")
        con.commit()
        con.close()
    (root / "garbage").mkdir()
    (root / "garbage" / "arena.sqlite").write_bytes(bytes(range(256)) * 20)
    (root / "trunc").mkdir()
    whole = (root / "good" / "arena.sqlite").read_bytes()
    (root / "trunc" / "arena.sqlite").write_bytes(whole[: len(whole) // 2])
    return root


@pytest.fixture
def world(world_template, tmp_path, monkeypatch):
    """A fresh copy of the world for each test (tests change files in it), as the cwd."""
    root = tmp_path / "world"
    shutil.copytree(world_template, root)
    monkeypatch.chdir(root)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    return root


def bad(path, text):
    return ("write", path, text)


FS = "left untouched"
FOREIGN = (f"foreign/arena.sqlite: an SQLite database that is not an arena results store (no "
           f"arena tables); {FS}")
APPDB = (f"appdb/arena.sqlite: an SQLite database of another program (application id 0x1234), "
         f"not an arena results store; {FS}")
GARBAGE = f"garbage/arena.sqlite: not an arena results store (not an SQLite database); {FS}"
TRUNC = "trunc/arena.sqlite: damaged store (database disk image is malformed); nothing was changed"

CASES = [
    # -- budgets in the config (run --dry-run) --
    ("config time inf", "b.yaml", HEAD.replace("{sims: 10}", "{time: .inf}") + M,
     ["run", "b.yaml", "--dry-run"], f"b.yaml: budget.time: expected {TIME}, got inf"),
    ("config time nan", "b.yaml", HEAD.replace("{sims: 10}", "{time: .nan}") + M,
     ["run", "b.yaml", "--dry-run"], f"b.yaml: budget.time: expected {TIME}, got nan"),
    ("config time -inf", "b.yaml", HEAD.replace("{sims: 10}", "{time: -.inf}") + M,
     ["run", "b.yaml", "--dry-run"], f"b.yaml: budget.time: expected {TIME}, got -inf"),
    ("config time above range", "b.yaml", HEAD.replace("{sims: 10}", "{time: 86400}") + M,
     ["run", "b.yaml", "--dry-run"], f"b.yaml: budget.time: expected {TIME}, got 86400"),
    ("config sims 1e12", "b.yaml", HEAD.replace("{sims: 10}", "{sims: 1000000000000}") + M,
     ["run", "b.yaml", "--dry-run"], f"b.yaml: budget.sims: expected {SIMS}, got 1000000000000"),
    ("config sims 1e20", "b.yaml",
     HEAD.replace("{sims: 10}", "{sims: 100000000000000000000}") + M,
     ["run", "b.yaml", "--dry-run"],
     f"b.yaml: budget.sims: expected {SIMS}, got 100000000000000000000"),
    ("config games 1e9", "b.yaml", HEAD.replace("games: 2", "games: 1000000000") + M,
     ["run", "b.yaml", "--dry-run"],
     f"b.yaml: games: expected {GAMES} (games per pairing), got 1000000000"),
    ("config plan too large", "b.yaml", HEAD.replace("games: 2", "games: 100000")
     + "matches:\n  - round_robin: [Random, Boom, Slow]\n", ["run", "b.yaml", "--dry-run"],
     "b.yaml: matches: 3 pairings of 300000 games in all; one experiment holds at most 200000 "
     "games (split it, or lower games)"),
    ("sweep names the undefined placeholder", "b.yaml", HEAD + "matches:\n  - sweep: {player: "
     "'Random(im{beta})', opponent: Random, alpha: [0.1]}\n", ["run", "b.yaml", "--dry-run"],
     "b.yaml: matches[0].sweep.player: template uses {beta} but the sweep defines only alpha"),
    # -- budgets on the command line --
    ("run --time inf", None, None, ["run", "c.yaml", "--time", "inf"],
     f"--time must be {TIME}, got inf"),
    ("run --time nan", None, None, ["run", "c.yaml", "--time", "nan"],
     f"--time must be {TIME}, got nan"),
    ("run --sims 1e20", None, None, ["run", "c.yaml", "--sims", "100000000000000000000"],
     f"--sims must be {SIMS}, got 100000000000000000000"),
    ("run --sims 1e12", None, None, ["run", "c.yaml", "--sims", "1000000000000"],
     f"--sims must be {SIMS}, got 1000000000000"),
    ("run --games 1e9 --dry-run", None, None, ["run", "c.yaml", "--games", "1000000000",
                                              "--dry-run"],
     f"--games must be {GAMES}, got 1000000000"),
    ("play --time nan", None, None, ["play", "breakthrough", "Random", "Random", "--time", "nan"],
     f"--time must be {TIME}, got nan"),
    ("play --time inf", None, None, ["play", "breakthrough", "Random", "Random", "--time", "inf"],
     f"--time must be {TIME}, got inf"),
    ("play --sims 1e20", None, None, ["play", "kalah", "MCTS", "MCTS", "--sims",
                                      "100000000000000000000"],
     f"--sims must be {SIMS}, got 100000000000000000000"),
    ("tournament --time inf", None, None, ["tournament", "fet", "--time", "inf"],
     f"--time must be {TIME}, got inf"),
    ("bench --seconds inf", None, None, ["bench", "tictactoe", "--seconds", "inf"],
     f"--seconds must be {TIME}, got inf"),
    # -- results directories and stores that are not ours --
    ("--out an existing file", None, None, ["run", "c.yaml", "--out", "afile"],
     "afile: is a file, not a results directory"),
    ("--out under a file", None, None, ["run", "c.yaml", "--out", "afile/sub"],
     "afile/sub: cannot make a results directory under afile, which is a file"),
    ("--out /proc", None, None, ["run", "c.yaml", "--out", "/proc/x", "--quiet"],
     "/proc/x: cannot write results here: No such file or directory"),
    ("--out onto a foreign SQLite", None, None, ["run", "c.yaml", "--out", "foreign"], FOREIGN),
    ("--out onto another application's SQLite", None, None, ["run", "c.yaml", "--out", "appdb"],
     APPDB),
    ("--out onto garbage", None, None, ["run", "c.yaml", "--out", "garbage"], GARBAGE),
    ("--out onto a truncated store", None, None, ["run", "c.yaml", "--out", "trunc"], TRUNC),
    ("--dry-run onto a foreign SQLite", None, None,
     ["run", "c.yaml", "--out", "foreign", "--dry-run"], FOREIGN),
    ("--new onto a foreign SQLite", None, None, ["run", "c.yaml", "--out", "foreign", "--new"],
     FOREIGN),
    ("report garbage", None, None, ["report", "garbage"], GARBAGE),
    ("report a foreign SQLite", None, None, ["report", "foreign"], FOREIGN),
    ("report another application's SQLite", None, None, ["report", "appdb"], APPDB),
    ("report truncated", None, None, ["report", "trunc"], TRUNC),
    ("show garbage", None, None, ["show", "garbage"], GARBAGE),
    ("show truncated", None, None, ["show", "trunc"], TRUNC),
    ("show a foreign SQLite game", None, None, ["show", "foreign", "x"], FOREIGN),
    ("report html onto a file", None, None,
     ["report", "good", "--format", "html", "--out", "afile"],
     "--out afile: is a file, expected a folder for the report"),
    ("tournament onto a foreign SQLite", None, None,
     ["tournament", "fet", "--sims", "5", "--out", "foreign"], FOREIGN),
    # -- every check before any change on disk --
    ("--new --ray-address without --backend ray", None, None,
     ["run", "c.yaml", "--out", "good", "--new", "--ray-address", "10.0.0.1:6379"],
     "--ray-address needs --backend ray"),
    ("unknown subcommand", None, None, ["frobnicate"],
     "No such command 'frobnicate'. (see 'arena --help')"),
]


@pytest.mark.parametrize("path,text,args,message", [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_bad_input_is_one_line_exit_2_and_changes_nothing(world, monkeypatch, path, text,
                                                          args, message):
    if args[0] == "tournament":         # the built-in tournaments name real players
        monkeypatch.delenv(config.PLAYERS_ENV)
    if path:
        (world / path).write_text(text)
    before = tree(world)
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 2, res.output
    assert res.output == f"arena: error: {message}\n"
    assert tree(world) == before


def test_the_corpus_is_large_enough():
    assert len(CASES) >= 35


@pytest.mark.parametrize("spec,message", [
    ("MCTS(time=inf)", f"expected {budgets.TIME_MIN:g} to {budgets.TIME_MAX:g}"),
    ("MCTS(time=nan)", f"expected {budgets.TIME_MIN:g} to {budgets.TIME_MAX:g}"),
    ("MCTS(sims=1000000000000)", f"expected 1 to {budgets.SIMS_MAX}"),
    ("MCTS(sl100000000000000000000)", f"expected 1 to {budgets.SIMS_MAX}"),
])
def test_spec_budgets_in_range_real_players(world, monkeypatch, spec, message):
    monkeypatch.delenv(config.PLAYERS_ENV)
    (world / "b.yaml").write_text(HEAD + f"matches:\n  - {{player: '{spec}', opponent: MCTS}}\n")
    before = tree(world)
    res = CliRunner().invoke(cli, ["run", "b.yaml", "--dry-run"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert res.output.startswith(f"arena: error: b.yaml: matches[0].player: bad player '{spec}': "
                                 f"value out of range in token ")
    assert res.output.rstrip().endswith(message)
    assert tree(world) == before


def test_busy_directory_refused_before_any_output(world, monkeypatch):
    monkeypatch.delenv(config.PLAYERS_ENV)      # real players: the tournament names them
    (world / "c.yaml").write_text(GOOD.replace("Random(im0.5)", "Random"))
    fd = acquire_lock(world / "good")          # as a running 'arena run' holds it
    try:
        before = tree(world)
        for args in (["tournament", "fet", "--sims", "5", "--out", "good"],
                     ["run", "c.yaml", "--out", "good"]):
            res = CliRunner().invoke(cli, args)
            assert res.exit_code == 2
            assert res.output == ("arena: error: good is in use by another 'arena run' (lock "
                                  "good/.lock is held); wait for it to finish\n")
        assert tree(world) == before
    finally:
        os.close(fd)


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through permissions")
def test_unwritable_directory(world):
    (world / "ro").mkdir()
    (world / "ro").chmod(0o500)
    res = CliRunner().invoke(cli, ["run", "c.yaml", "--out", "ro"])
    assert res.exit_code == 2
    assert res.output == "arena: error: ro: cannot write results here: permission denied\n"


def test_ctrl_c_during_start_up_exits_130(world, monkeypatch):
    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(config, "load", interrupted)
    before = tree(world)
    res = CliRunner().invoke(cli, ["run", "c.yaml"])
    assert res.exit_code == 130 and res.output == "arena: interrupted\n"
    assert tree(world) == before


def test_lowered_games_says_what_is_stored_and_what_the_plan_covers(world):
    res = CliRunner().invoke(cli, ["run", "c.yaml", "--quiet", "--out", "good", "--games", "1"])
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[-1].endswith(
        "1/1 stored in good; the store holds 2 games in all, 1 beyond this plan (counted in the "
        "table above and by 'arena report')")


def test_store_made_before_the_application_id_is_still_ours(world):
    db = world / "good" / "arena.sqlite"
    con = sqlite3.connect(db)
    assert con.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    con.execute("PRAGMA application_id = 0")        # as an older version left it
    con.commit()
    con.close()
    with Store.open(world / "good") as s:
        assert s.game_count() == 2
    with Writer.open(world / "good") as s:            # the writer stamps it
        assert s.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


# ---- budgets enforced by the searches themselves --------------------------------------------
@pytest.mark.parametrize("kw", [{"seconds": float("nan")}, {"seconds": float("inf")},
                                {"seconds": 1e9}, {"sims": 10 ** 20}, {"sims": 10 ** 12}])
def test_mcts_search_refuses_budgets_out_of_range(kw):
    from mcts_arena.players.search.mcts import MCTSSearch

    with pytest.raises(ValueError, match="MCTS (time|simulation) budget must be"):
        MCTSSearch({}, 1).search(games.new_state("tictactoe"), **kw)


@pytest.mark.parametrize("kw", [{"seconds": float("nan")}, {"seconds": float("inf")},
                                {"nodes": 10 ** 20}])
def test_alphabeta_search_refuses_budgets_out_of_range(kw):
    from mcts_arena.players.search.alphabeta import AlphaBeta

    with pytest.raises(ValueError, match="αβ (time|node) budget must be"):
        AlphaBeta(0, 1).search(games.new_state("tictactoe"), depth=3, **kw)


def test_fixed_depth_does_not_override_the_time_budget():
    """αβ(d10) in LOA at 0.0001 s a move: the clock stops it long before depth 10."""
    p = players.make("αβ(time=0.0001,d10)", "loa", seed=1)
    _move, stats = p.choose(games.new_state("loa"))
    assert stats["depth"] < 10 and stats["nodes"] < 10 ** 6
    # with a node budget instead, the depth is the spec's own budget (as before)
    _move, stats = players.make("ab(d2)", "tictactoe", seed=1).choose(
        games.new_state("tictactoe"), sims=5)
    assert stats["depth"] == 2


@pytest.mark.parametrize("kw", [{"time": float("nan")}, {"time": float("inf")},
                                {"sims": 10 ** 20}, {"sims": 10 ** 12}])
def test_players_refuse_budgets_out_of_range(kw):
    with pytest.raises(ValueError, match="budget must be"):
        players.make("MCTS", "breakthrough", seed=1).choose(games.new_state("breakthrough"), **kw)
