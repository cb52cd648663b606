"""The small wrong turns of a first day: a missing record file is not a game name, `arena
report --help` says where it writes, a wildcard address is not the URL shown, and exported
move comments have plain decimals and no simulations on αβ moves."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.results.export import comment
from mcts_arena.serve.server import url_of


def test_a_missing_record_file_is_named_as_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["show", "nothing.pgn"])
    assert res.exit_code == 2
    assert res.output.startswith("arena: error: no such file 'nothing.pgn'")
    assert "bad game" not in res.output and res.output.count("\n") == 1


def test_report_help_says_what_it_writes():
    out = CliRunner().invoke(cli, ["report", "--help"]).output
    assert "read-only" not in out and "<first PATH>/report/" in " ".join(out.split())


def test_the_url_of_a_wildcard_address_can_be_opened():
    sock = socket.socket()
    sock.bind(("0.0.0.0", 0))
    try:
        port = sock.getsockname()[1]
        assert url_of(sock) == f"http://127.0.0.1:{port}/"
    finally:
        sock.close()


def test_move_comments_have_plain_decimals_and_no_sims_on_alphabeta_moves():
    text = comment({"sims": 0, "nodes": 1024, "depth": 3, "time": 3.7e-05, "value": 0.25})
    assert text == "nodes=1024 depth=3 time=0.000037 value=+0.25"
    assert "e-" not in comment({"sims": 10, "time": 1.2e-06})
    assert comment({"sims": 200, "nodes": 0, "time": 0.0512}).startswith("sims=200 ")


def test_play_against_a_gtp_command_that_does_not_exist_is_a_mistake(tmp_path):
    res = CliRunner().invoke(cli, ["play", "breakthrough", 'GTP(cmd="/nonexistent/eng")',
                                   "Random", "--sims", "5"])
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1 and "/nonexistent/eng" in res.output
    assert ".py:" not in res.output


CFG = "name: t\ngame: tictactoe\nbudget: {sims: 5}\ngames: 2\nmatches: [{player: MCTS, " \
      "opponent: Random}]\n"


def _run(tmp_path, *extra):
    cfg = tmp_path / "t.yaml"
    cfg.write_text(CFG)
    return CliRunner().invoke(cli, ["run", str(cfg), "--jobs", "1", "--quiet", *extra])


@pytest.mark.slow
def test_new_moves_a_damaged_store_aside_intact(tmp_path):
    out = tmp_path / "r"
    assert _run(tmp_path, "--out", str(out)).exit_code == 0
    db = out / "arena.sqlite"
    damaged = db.read_bytes()[:4096]            # our header, the rest cut off
    db.write_bytes(damaged)
    refused = _run(tmp_path, "--out", str(out))
    assert refused.exit_code == 2 and "damaged store" in refused.output
    again = _run(tmp_path, "--out", str(out), "--new")
    assert again.exit_code == 0, again.output
    (aside,) = [p for p in tmp_path.iterdir() if p.name.startswith("r.")]
    assert (aside / "arena.sqlite").read_bytes() == damaged
    assert (out / "arena.sqlite").is_file()


def test_a_symlink_loop_is_one_line_and_nothing_is_touched(tmp_path):
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    res = _run(tmp_path, "--out", str(loop))
    assert res.exit_code == 2 and res.output.count("\n") == 1, res.output
    assert "symbolic link" in res.output
    store = tmp_path / "s"
    store.mkdir()
    (store / "arena.sqlite").symlink_to(store / "arena.sqlite")
    res = _run(tmp_path, "--out", str(store))
    assert res.exit_code == 2 and "symbolic link" in res.output, res.output
    assert sorted(p.name for p in store.iterdir()) == ["arena.sqlite"]


def test_perft_help_names_depth_as_its_error_does():
    usage = CliRunner().invoke(cli, ["perft", "--help"]).output.splitlines()[0]
    assert usage.endswith("GAME DEPTH")
    bad = CliRunner().invoke(cli, ["perft", "breakthrough", "x"])
    assert bad.exit_code == 2 and "DEPTH" in bad.output


def test_solve_with_a_gtp_command_that_does_not_exist_is_one_line_and_writes_nothing(tmp_path):
    suite = Path(__file__).resolve().parent.parent / "suites" / "breakthrough_tactics.txt"
    out = tmp_path / "r"
    res = CliRunner().invoke(cli, ["solve", str(suite), "--players", 'GTP(cmd="/nonexistent/eng")',
                                   "--budgets", "10", "--seeds", "1", "--out", str(out),
                                   "--quiet"])
    assert res.exit_code == 2, res.output
    assert res.output.count("\n") == 1 and "/nonexistent/eng" in res.output
    assert not out.exists()


def test_tournament_with_a_gtp_command_that_does_not_exist_writes_nothing(tmp_path):
    cfg = tmp_path / "t.yaml"
    cfg.write_text('name: t\ngame: tictactoe\nkind: round_robin\nbudget: {sims: 5}\ngames: 2\n'
                   'entrants: [MCTS, "GTP(cmd=\\"/nonexistent/eng\\")"]\n')
    out = tmp_path / "r"
    res = CliRunner().invoke(cli, ["tournament", str(cfg), "--jobs", "1", "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert res.output.splitlines()[-1] == ("arena: error: player /nonexistent/eng: cannot "
                                           "start '/nonexistent/eng': no such command")
    assert not out.exists()
