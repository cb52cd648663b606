"""The small wrong turns of a first day: a missing record file is not a game name, `arena
report --help` says where it writes, a wildcard address is not the URL shown, and exported
move comments have plain decimals and no simulations on αβ moves."""
from __future__ import annotations

import socket

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
