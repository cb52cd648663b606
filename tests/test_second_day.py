"""A newcomer's second day: a long run announces its cost (and asks for --yes), budgets say
what was played, one seat-colour convention in every record, and the small wrong turns."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.errors import UserError
from mcts_arena.runner import run

ROOT = Path(__file__).resolve().parents[1]


def test_an_unscaled_paper_run_is_refused_with_its_estimate_and_nothing_written(tmp_path):
    out = tmp_path / "t2"
    res = CliRunner().invoke(cli, ["run", str(ROOT / "configs/breakthrough_table2.yaml"),
                                   "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 2, res.output
    line = res.output.strip()
    assert line.count("\n") == 0 and line.startswith("arena: error: 13000 games to play, "
                                                     "estimated ")
    assert "--yes" in line and "--games N" in line and not out.exists()


def test_a_run_starts_with_the_dry_runs_estimate(tmp_path):
    cfg = tmp_path / "q.yaml"
    cfg.write_text("name: q\ngame: tictactoe\nbudget: {time: 0.001}\ngames: 2\n"
                   "matches:\n  - {player: MCTS, opponent: Random}\n")
    res = CliRunner().invoke(
        cli, ["run", str(cfg), "--out", str(tmp_path / "q"), "--jobs", "1", "--quiet"])
    assert res.exit_code == 0, res.output + res.stderr
    first = res.stderr.splitlines()[0]
    assert first.startswith("q: 1 pairing(s), 2 games (0 stored, 2 to play)")
    assert "; estimated 0m00s CPU, about 0m00s on 1 worker (at " in first


def test_the_cost_check_asks_only_above_an_hour():
    small = run.Estimate(10, run.CONFIRM_ABOVE_S, "estimated 1h")
    big = run.Estimate(10, run.CONFIRM_ABOVE_S + 1, "estimated 1h00m01s")
    unknown = run.Estimate(10, None, "CPU time unknown")
    for est, yes in ((small, False), (big, True), (unknown, False)):
        run.check_cost(est, yes, "arena run x.yaml")
    with pytest.raises(UserError, match=r"\(arena run x.yaml --yes\)"):
        run.check_cost(big, False, "arena run x.yaml")


def _played(tmp_path, game: str, budget: str = "{sims: 10}") -> Path:
    cfg = tmp_path / f"{game}.yaml"
    cfg.write_text(f"name: {game}\ngame: {game}\nbudget: {budget}\ngames: 4\nseed: 5\n"
                   "matches:\n  - {player: MCTS, opponent: Random}\n")
    out = tmp_path / game
    res = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--jobs", "1", "--quiet"])
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.parametrize("game,first", [("kalah", "Black"), ("breakthrough", "White")])
def test_one_seat_colour_convention_in_pgn_and_arena_show(tmp_path, game, first):
    """The PGN's roster is in PGN's order (White, then Black) with its result from White's
    side, a Seats tag says which seat is which colour, and `arena show` names the same winner
    by the same seat and colour, for the file and for the store."""
    store = _played(tmp_path, game, "{sims: 10}" if game == "kalah" else "{time: 0.002}")
    pgn = tmp_path / "g.pgn"
    assert CliRunner().invoke(cli, ["export", str(store), "--out", str(pgn)]).exit_code == 0
    listing = CliRunner().invoke(cli, ["show", str(pgn)]).output.splitlines()[1:]
    heads = re.findall(r"((?:\[\w+ \"[^\n]*\"\]\n)+)", pgn.read_text())
    second = "White" if first == "Black" else "Black"
    for head, line in zip(heads, listing, strict=True):
        names = re.findall(r'\[(\w+) "([^"]*)"\]', head)
        tags = dict(names)
        keys = [k for k, _ in names]
        assert keys[4:8] == ["White", "Black", "Result", "Seats"]
        assert tags["Seats"] == f"seat 0 {first}, seat 1 {second}"
        assert line.strip().split("  ")[2] == (f"{tags[first]} (seat 0, {first}) vs "
                                       f"{tags[second]} (seat 1, {second})")
        winner = {"1-0": "White", "0-1": "Black"}.get(tags["Result"])
        if winner is not None:
            seat = 0 if winner == first else 1
            said = f"{tags[winner]} wins (seat {seat}, {winner})"
            assert line.endswith(said)
            stored = CliRunner().invoke(cli, ["show", str(store), tags["GameId"]]).output
            assert stored.splitlines()[-1].startswith(f"result: {said} after ")


def test_budgets_say_what_was_played(tmp_path):
    """αβ's `sims: 200` plays 1,024 nodes and MCTS stops early on forced moves: the dry run,
    the report's table and the forest plot's label name what was played, and why."""
    from mcts_arena import budgets
    from mcts_arena.report.figures import forest_label
    from mcts_arena.report.render import report_frame

    cfg = tmp_path / "ab.yaml"
    cfg.write_text("name: ab\ngame: kalah\nbudget: {sims: 200}\ngames: 2\nseed: 2\n"
                   "matches:\n  - {player: 'MCTS(fet4)', opponent: 'αβ(efRS)'}\n")
    out = tmp_path / "ab"
    dry = CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--dry-run"]).output
    assert "αβ(efRS): 1,024 nodes/move (sims 200 rounded up: αβ reads a node budget every " \
           "1,024 nodes" in dry
    assert CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--jobs", "1",
                                    "--quiet"]).exit_code == 0
    text = CliRunner().invoke(cli, ["report", str(out)]).output
    assert f"sims/move P / O (n: nodes): {budgets.WORK_NOTE}" in text
    row = report_frame([out]).iloc[0].to_dict()
    row["player_budget"] = row["opponent_budget"] = {"sims": 200}
    label = forest_label(row)
    assert label.startswith("MCTS(fet4) vs αβ(efRS) (200 sims, played ")
    assert "n a move, 2 games)" in label


def test_a_budget_played_as_asked_has_no_note():
    from mcts_arena.report.figures import forest_label

    row = {"player": "A", "opponent": "B", "budget": "200 sims", "games": 4,
           "player_budget": {"sims": 200}, "opponent_budget": {"sims": 200},
           "player_work": 200.0, "player_work_unit": "sims", "opponent_work": 200.0,
           "opponent_work_unit": "sims"}
    assert forest_label(row) == "A vs B (200 sims, 4 games)"


@pytest.mark.parametrize("keyed,token", [("MCTS(bl,im=0.4)", "MCTS(bl,im0.4)"),
                                         ("MCTS(fet=4, im=0.3)", "MCTS(fet4,im0.3)"),
                                         ("αβ(efMS,d=4)", "αβ(efMS,d4)")])
def test_key_value_covers_a_numbered_token(keyed, token):
    """README: `key=value` for any option: `im=0.4` is the paper's token `im0.4`, the same
    player (one canonical spelling, so one pairing)."""
    from mcts_arena.players.spec import parse

    assert parse(keyed, "breakthrough").canonical == parse(token, "breakthrough").canonical


def test_a_flag_token_as_key_value_is_one_line_naming_the_key_form():
    res = CliRunner().invoke(cli, ["play", "breakthrough", "MCTS(bl,ipp=1)", "Random",
                                   "--sims", "5"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "unknown option 'ipp'" in res.output and "key=value (im=0.4)" in res.output


def test_the_compare_footer_names_the_interval_of_each_basis(tmp_path):
    """`--compare paper`: a row judged on its seat-swapped pairs is shown with the pentanomial's
    interval, and the footer says so beside the per-game rule of the main table."""
    cfg = tmp_path / "qs.yaml"
    cfg.write_text("name: qs\ngame: breakthrough\nbudget: {sims: 20}\ngames: 4\nseed: 1\n"
                   "matches:\n  - {player: 'MCTS(ipp,im0.4)', opponent: 'MCTS(ipp)'}\n")
    out = tmp_path / "qs"
    assert CliRunner().invoke(cli, ["run", str(cfg), "--out", str(out), "--jobs", "1",
                                    "--quiet"]).exit_code == 0
    text = CliRunner().invoke(cli, ["report", str(out), "--compare", "paper"]).output
    assert " pairs " in text.split("Compared with the paper")[1]     # the row's basis
    assert text.rstrip().splitlines()[-1] == (
        "CI: Wilson below 100 games, Wald (the paper's) from 100; basis pairs: the "
        "pentanomial's likelihood-ratio interval over the seat-swapped pairs")


def test_every_json_endpoint_of_arena_serve_is_documented(tmp_path):
    """docs/serve.md lists every /api/ route the application answers (none found by grepping
    the pages' scripts any more)."""
    from mcts_arena.serve.app import build_app

    text = (ROOT / "docs" / "serve.md").read_text(encoding="utf-8")
    paths = [r.path for r in build_app(tmp_path).app.routes if r.path.startswith("/api/")]
    assert len(paths) == 6
    for path in paths:
        assert re.search(rf"^\| `{re.escape(path)}[?`]", text, re.M), path


@pytest.mark.parametrize("spec,whole", [("MCTS(bl, im0.4)", "MCTS(bl, im0.4)"),
                                        ("MCTS(bl, fet4, im0.4)", "MCTS(bl, fet4, im0.4)")])
def test_an_unquoted_comma_in_a_flow_mapping_names_the_field_it_cut(tmp_path, spec, whole):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("name: b\ngame: breakthrough\nbudget: {sims: 10}\ngames: 2\n"
                   f"matches:\n  - {{player: {spec}, opponent: Random}}\n")
    res = CliRunner().invoke(cli, ["run", str(cfg), "--dry-run"])
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert res.output.rstrip().endswith(
        f"matches[0].player: 'MCTS(bl' was cut at a comma: a flow mapping {{...}} splits at "
        f"every unquoted comma; quote the spec: player: '{whole}'")


@pytest.mark.parametrize("status", [0, 1])
def test_make_build_is_quiet_unless_it_fails(tmp_path, status):
    """`make run` and `make test` start with the build: its compiler and setuptools lines are
    kept in a log, shown only when it fails. The recipe runs with a stand-in Python that
    prints such lines (nothing is compiled and the shared environment is not touched)."""
    import os
    import subprocess

    fake = tmp_path / "python"
    fake.write_text(f"#!/bin/sh\necho 'Compiling mcts_arena/x.pyx because it depends on y'\n"
                    f"echo '!! SetuptoolsDeprecationWarning' >&2\nexit {status}\n")
    fake.chmod(0o755)
    stamp = tmp_path / "stamp"
    stamp.touch()
    newest = max((ROOT / f).stat().st_mtime for f in ("pyproject.toml", "setup.py"))
    os.utime(stamp, (newest + 1, newest + 1))   # newer than its sources: no install step
    res = subprocess.run(["make", "-s", "-f", str(ROOT / "Makefile"), "build", f"PY={fake}",
                          f"VENV={tmp_path}", f"STAMP={stamp}"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == (0 if status == 0 else 2), res.stdout + res.stderr
    out = res.stdout + res.stderr
    if status == 0:
        assert out == ""
    else:
        assert "Compiling mcts_arena/x.pyx" in out and "make: the build failed (log: " in out
    assert "Compiling" in (tmp_path / "build.log").read_text()


def test_a_report_over_several_stores_writes_each_ones_figures_in_its_own_folder(tmp_path):
    one = _played(tmp_path, "tictactoe")
    two = _played(tmp_path, "kalah")
    res = CliRunner().invoke(cli, ["report", str(one), str(two)])
    assert res.exit_code == 0, res.output
    assert (one / "report" / "forest-tictactoe.png").is_file()
    assert (two / "report" / "forest-kalah.png").is_file()
    assert not (one / "report" / "forest-kalah.png").exists()
    assert f"figure kalah: win % per pairing: {two / 'report' / 'forest-kalah.png'}" in res.output


def test_a_paper_bracket_says_its_labels_and_why_its_entrants(tmp_path):
    res = CliRunner().invoke(cli, ["tournament", "fet", "--game", "kalah", "--games", "2",
                                   "--sims", "5", "--jobs", "1", "--quiet",
                                   "--out", str(tmp_path / "t")])
    assert res.exit_code == 0, res.output
    lines = [x for x in res.output.splitlines() if not x.startswith("tournament fet: 1 worker")]
    assert "counting pairs won (pair rule)" in lines[0]
    assert lines[1].startswith("labels: mcts_h_fet0 = MCTS(fet0), ")
    assert "mcts_h_fet8 = MCTS(fet8)" in lines[1]
    assert lines[2] == ("entrants: the 13 of the paper's printed bracket (B.2.1), which may "
                        "leave out values of its parameter set (docs/paper.md, section 5)")
