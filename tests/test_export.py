"""`arena export`: stored games as PGN-style records, SGF (read back with sgfmill, a real SGF
library) and JSON lines; the filters; `arena show FILE` replays what was exported."""
import json
import re

import pytest
from click.testing import CliRunner
from sgfmill import sgf

from mcts_arena import games
from mcts_arena.cli import cli
from mcts_arena.results import records
from mcts_arena.results.store import Store
from mcts_arena.runner import config
from mcts_arena.runner import plan as plan_mod
from mcts_arena.runner.experiment import run_experiment

EXPERIMENTS = {
    "hex": ("hex(size=5)", "{random_plies: 2}", "MCTS(bridge)", "MCTS"),
    "gomoku": ("gomoku(size=9)", "centre", "MCTS", "Random"),
    "breakthrough": ("breakthrough", "start", "MCTS(ipp)", "αβ(efMS)"),
    "kalah": ("kalah", "random_boards", "MCTS", "Random"),
}


def _config(name, game, openings, a, b):
    return (f"name: {name}\ngame: {game}\nbudget: {{sims: 30}}\ngames: 2\nseed: 4\n"
            f"openings: {openings}\nmatches:\n  - {{player: '{a}', opponent: '{b}'}}\n"
            f"  - {{player: '{b}', opponent: Random}}\n")


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    base = tmp_path_factory.mktemp("export")
    out = {}
    for name, args in EXPERIMENTS.items():
        exp = config.loads(_config(name, *args))
        run_experiment(exp, plan_mod.make_plan(exp), base / name, workers=2, progress=False)
        out[name] = base / name
    return out


def _stored(directory):
    with Store.open(directory) as s:
        return s.games()


def _export(directory, *args):
    res = CliRunner().invoke(cli, ["export", str(directory), *args])
    assert res.exit_code == 0, res.output
    return res


def _trees(text):
    """The game trees of a file of several (each starts a line with `(;FF[4]`)."""
    return [t for t in re.split(r"(?m)^(?=\(;FF\[4\])", text) if t.strip()]


@pytest.mark.parametrize("name,gm", [("hex", 11), ("gomoku", 4)])
def test_sgf_read_by_sgfmill_gives_the_stored_moves(stores, tmp_path, name, gm):
    stored = _stored(stores[name])
    text = _export(stores[name]).stdout
    trees = _trees(text)
    assert len(trees) == len(stored) == 4
    info = games.info_of(name)
    values = 0
    for tree, g in zip(trees, stored):
        game = sgf.Sgf_game.from_bytes(tree.encode())
        root = game.get_root()
        assert root.get_raw("GM") == str(gm).encode() and root.get_raw("FF") == b"4"
        size = games.resolve(EXPERIMENTS[name][0]).params["size"]
        assert game.get_size() == size
        moves, colours = [], []
        for node in game.get_main_sequence()[1:]:
            colour, raw = next((p, node.get_raw(p)) for p in ("B", "W") if node.has_property(p))
            colours.append(colour)
            moves.append(info.sgf_parse(raw.decode()))
            comment = node.get_raw("C").decode()
            # Random reports no value, the searches do; a move without simulations no sims
            assert re.fullmatch(r"(sims=\d+ )?nodes=\d+ depth=\d+ time=[\d.]+( value=[+-]\S+)?",
                                comment), comment
            values += "value=" in comment
        assert moves == g["moves"]
        # seat 0 is Black; the side to move of the opening plays first (Gomoku's centre
        # opening leaves White to move)
        state = games.new_state(EXPERIMENTS[name][0], g["opening"])
        assert colours[0] == "BW"[state.to_move()]
        winner = root.get_raw("RE").decode()
        assert winner == ("B+" if g["winner"] == 0 else "W+")
        assert root.get_raw("PB").decode() == g["seat0"]
    assert values > 10


def test_gomoku_sgf_points_are_counted_from_the_top_left(stores):
    """SGF's `aa` is the top-left point; our row 1 is the top row: sgfmill (whose rows count
    from the bottom) must see our a1 at row size - 1, column 0."""
    stored = _stored(stores["gomoku"])
    tree = _trees(_export(stores["gomoku"]).stdout)[0]
    game = sgf.Sgf_game.from_bytes(tree.encode())
    size = game.get_size()
    for node, move in zip(game.get_main_sequence()[1:], stored[0]["moves"]):
        _colour, (row, col) = node.get_move()
        assert move == "abcdefghijklmnopqrs"[col] + str(size - row)


def test_hex_sgf_speaks_hexgui(stores):
    """HexGui writes cells by name (a1: column a, row 1), the swap move as swap-pieces, and
    an opening's stones as setup properties with the side to move."""
    text = _export(stores["hex"]).stdout
    assert "AP[mcts_arena:" in text and "SZ[5]" in text
    g = _stored(stores["hex"])[0]
    board = games.new_state("hex(size=5)", g["opening"])
    assert board.to_text() != games.new_state("hex(size=5)").to_text()
    first, second, side = games.info_of("hex").sgf_setup(g["opening"])
    assert f"AB{''.join(f'[{c}]' for c in first)}AW{''.join(f'[{c}]' for c in second)}" \
           f"PL[{'BW'[side]}]" in text
    assert games.info_of("hex").sgf_move("swap") == "swap-pieces"
    assert games.info_of("hex").sgf_parse("swap-pieces") == "swap"


@pytest.mark.parametrize("name", ["breakthrough", "kalah"])
def test_pgn_has_the_tags_and_a_comment_per_move(stores, name):
    text = _export(stores[name]).stdout
    stored = _stored(stores[name])
    heads = re.findall(r"((?:\[\w+ \"[^\n]*\"\]\n)+)\n(.*?)\n\n", text, re.S)
    assert len(heads) == len(stored)
    for (head, moves), g in zip(heads, stored):
        tags = dict(re.findall(r'\[(\w+) "((?:[^"\\]|\\.)*)"\]', head))
        for t in ("Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant",
                  "GameId", "Budget", "Seeds", "Opening", "Build", "Termination", "PlyCount"):
            assert t in tags, t
        assert tags["GameId"] == g["game_id"] and tags["Budget"] == "30 sims"
        assert tags["Seeds"] == " ".join(map(str, g["seeds"]))
        assert int(tags["PlyCount"]) == g["plies"] == moves.count("{")
        assert tags["Termination"] == "normal"
    # Breakthrough's first seat is White; Kalah's (b, w) first seat is Black
    first = "White" if name == "breakthrough" else "Black"
    assert dict(re.findall(r'\[(\w+) "([^"]*)"\]', heads[0][0]))[first] == stored[0]["seat0"]


@pytest.mark.parametrize("name", list(EXPERIMENTS))
@pytest.mark.parametrize("fmt", ["auto", "jsonl"])
def test_every_export_reads_back_to_the_stored_games(stores, tmp_path, name, fmt):
    path = tmp_path / f"{name}.{fmt}"
    _export(stores[name], "--format", fmt, "--out", str(path))
    back = records.read(path)
    stored = _stored(stores[name])
    assert [r["moves"] for r in back] == [g["moves"] for g in stored]
    assert [r["game_id"] for r in back] == [g["game_id"] for g in stored]
    assert [r["seats"] for r in back] == [[g["seat0"], g["seat1"]] for g in stored]
    results = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
    assert [r["result"] for r in back] == [results[g["winner"]] for g in stored]
    for r, g in zip(back, stored):
        assert [s.get("sims") for s in r["stats"]] == [s.get("sims") for s in g["stats"]]
        opening = games.new_state(r["game"], None if r["opening"] == "start" else r["opening"])
        assert opening.to_text() == g["opening"]


def test_show_replays_an_exported_file(stores, tmp_path):
    path = tmp_path / "b.pgn"
    _export(stores["breakthrough"], "--out", str(path))
    g = _stored(stores["breakthrough"])[1]
    run = CliRunner()
    listed = run.invoke(cli, ["show", str(path)])
    assert listed.exit_code == 0 and f"   2  {g['game_id']}  " in listed.output
    for args in ([str(path), "2"], [str(path), "--id", g["game_id"]]):
        res = run.invoke(cli, ["show", *args])
        assert res.exit_code == 0, res.output
        assert f"{g['plies']:>3}. seat " in res.output
        assert re.match(r"result: .+ wins \(seat [01], (White|Black)\)",
                        res.output.rstrip().splitlines()[-1])
    jsonl = tmp_path / "h.jsonl"
    _export(stores["hex"], "--format", "jsonl", "--out", str(jsonl))
    res = run.invoke(cli, ["show", str(jsonl), "1"])
    assert res.exit_code == 0 and re.search(r"result: .+ wins \(seat [01], ", res.output)


def test_filters_pairing_player_result(stores):
    d = stores["breakthrough"]
    stored = _stored(d)
    with Store.open(d) as s:
        pid = s.pairings()[0]["pairing_id"]
    one = [json.loads(x) for x in _export(d, "--format", "jsonl", "--pairing", pid).stdout
           .splitlines()]
    assert {r["pairing_id"] for r in one} == {pid} and len(one) == 2
    by_label = _export(d, "--format", "jsonl", "--pairing", "MCTS(ipp) vs αβ(efMS)").stdout
    assert by_label == _export(d, "--format", "jsonl", "--pairing", pid).stdout
    rnd = [json.loads(x) for x in _export(d, "--format", "jsonl", "--player", "Random").stdout
           .splitlines()]
    assert len(rnd) == 2 and all("Random" in r["seats"] for r in rnd)
    wins = [json.loads(x) for x in _export(d, "--format", "jsonl", "--player", "Random",
                                           "--result", "win").stdout.splitlines()]
    assert all(r["seats"][r["winner"]] == "Random" for r in wins)
    losses = [json.loads(x) for x in _export(d, "--format", "jsonl", "--player", "Random",
                                             "--result", "loss").stdout.splitlines()]
    assert len(wins) + len(losses) == 2 == sum("Random" in (g["seat0"], g["seat1"])
                                               for g in stored)


@pytest.mark.parametrize("args,message", [
    (["--format", "sgf"], "breakthrough has no SGF form (its records are pgn); use --format "
                          "pgn or jsonl"),
    (["--pairing", "nope"], "no pairing 'nope' in "),
    (["--player", "MCTS(fet3)"], "no player 'MCTS(fet3)' in "),
])
def test_bad_filters_are_one_line(stores, args, message):
    res = CliRunner().invoke(cli, ["export", str(stores["breakthrough"]), *args])
    assert res.exit_code == 2
    assert res.output.startswith(f"arena: error: {message}") and res.output.count("\n") == 1


def test_out_never_replaces_a_file_unasked(stores, tmp_path):
    path = tmp_path / "x.pgn"
    path.write_text("mine\n")
    res = CliRunner().invoke(cli, ["export", str(stores["kalah"]), "--out", str(path)])
    assert res.exit_code == 2 and "exists; choose another name or add --force" in res.output
    assert path.read_text() == "mine\n"
    res = CliRunner().invoke(cli, ["export", str(stores["kalah"]), "--out", str(path), "--force"])
    assert res.exit_code == 0 and path.read_text().startswith("[Event ")
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_bad_record_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n[Variant "chess"]\n\n1. e4 *\n')
    res = CliRunner().invoke(cli, ["show", str(bad), "1"])
    assert res.exit_code == 2
    assert res.output == f"arena: error: {bad}:1: unknown game 'chess'; valid games: " \
                         f"{', '.join(games.names())}\n"
    junk = tmp_path / "junk.txt"
    junk.write_text("hello\n")
    res = CliRunner().invoke(cli, ["show", str(junk)])
    assert res.exit_code == 2 and "not an exported game file" in res.output


@pytest.mark.slow
def test_a_game_with_dice_exports_its_rolls_and_reads_back(tmp_path, monkeypatch):
    """Pig: the rolls the match drew are in the record (PGN marks each `{dice}`, no player's
    move), and the PGN and JSON lines read back to the stored moves, rolls marked as such."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.yaml").write_text("name: p\ngame: pig\nbudget: {sims: 10}\ngames: 2\n"
                                     "matches:\n  - {player: Random, opponent: PigOptimal}\n")
    assert CliRunner().invoke(cli, ["run", "p.yaml", "--quiet", "--jobs", "1"]).exit_code == 0
    with Store.open(tmp_path / "results" / "p") as store:
        stored = {g["game_id"]: g for g in store.games()}
    for fmt in ("pgn", "jsonl"):
        out = tmp_path / f"p.{fmt}"
        assert CliRunner().invoke(cli, ["export", "results/p", "--format", fmt, "--out",
                                        str(out)]).exit_code == 0
        for rec in records.read(out):
            g = stored[rec["game_id"]]
            assert rec["moves"] == g["moves"]
            assert [bool(s.get("chance")) for s in rec["stats"]] == \
                [bool(s.get("chance")) for s in g["stats"]]
        assert any(s.get("chance") for g in stored.values() for s in g["stats"])
    shown = CliRunner().invoke(cli, ["show", str(tmp_path / "p.pgn"), "1"]).output
    assert re.search(r"^\s+\d+\. dice ", shown, re.M), shown
