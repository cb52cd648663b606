"""docs/config.md against the loader: every key, match kind, budget, game's openings and `arena
run` override the loader has is on the page, and every YAML example on it loads. Also the
warnings for openings that let the seat decide the games."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from mcts_arena import games
from mcts_arena.cli.run import run_cmd
from mcts_arena.runner import config

PAGE = Path(__file__).resolve().parent.parent / "docs" / "config.md"


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the `## title` section (up to the next `## `)."""
    text = page()
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start:end if end >= 0 else len(text)]


def table_keys(text: str) -> set[str]:
    """The `key` in the first column of every table row of `text`."""
    return set(re.findall(r"^\| `([^`]+)`", text, re.M))


def test_every_top_level_key_is_listed():
    assert table_keys(section("Top-level keys")) == set(config.TOP_FIELDS)


def test_the_documented_defaults_are_the_loaders():
    rows = {m[0]: m[1] for m in re.findall(r"^\| `(\w+)` \| no \| `?([^`|]+?)`? \|",
                                          section("Top-level keys"), re.M)}
    for key, value in config.DEFAULTS.items():
        assert rows[key] == str(value), key


def test_every_budget_and_match_kind_is_listed():
    assert table_keys(section("`budget`")) == set(config.BUDGET_KEYS)
    assert table_keys(section("`matches`")) == set(config.MATCH_KINDS)
    matches = section("`matches`")
    for field in config.GAUNTLET_FIELDS + config.MATCH_FIELDS + config.SCALING_FIELDS:
        assert f"{field}:" in matches, field
    for field in config.SPRT_FIELDS:
        assert f"`{field}`" in section("`sprt`"), field
    for mode in config.DICE_MODES:
        assert f"`{mode}`" in section("`dice`"), mode


def test_every_opening_kind_and_each_games_default_is_listed():
    text = section("`openings`")
    rows = dict((m[0], (m[1], m[2])) for m in
                re.findall(r"^\| (\w+) \| (\w+) \| ([\w, ]+) \|$", text, re.M))
    assert set(rows) == set(games.names())
    for name in games.names():
        info = games.info_of(name)
        assert rows[name] == (info.default_opening, ", ".join(info.opening_kinds())), name
        for kind in info.opening_kinds():
            assert f"`{kind}`" in text or f"{{{kind}: N}}" in text, kind
    for field in config.BOOK_FIELDS:
        assert f"{field}:" in text


def test_every_run_option_is_on_the_page():
    text = section("`arena run` options that override the config")
    for param in run_cmd.params:
        for opt in getattr(param, "opts", ()):
            if opt.startswith("--"):
                assert f"`{opt}" in text, opt


def yaml_examples() -> list[str]:
    return re.findall(r"```yaml\n(.*?)```", page(), re.S)


@pytest.mark.parametrize("i", range(len(yaml_examples())))
def test_every_example_loads(i):
    exp = config.loads(yaml_examples()[i], source=f"docs/config.md example {i}")
    assert exp.pairings


# ---- openings that let the seat decide --------------------------------------------------------
def test_start_over_a_games_own_default_warns():
    exp = config.loads("game: kalah\nbudget: {sims: 10}\nopenings: start\n"
                       "matches: [{player: MCTS, opponent: Random}]")
    warning = config.openings_warning(exp)
    assert warning and "random_boards" in warning and "kalah" in warning
    default = config.loads("game: kalah\nbudget: {sims: 10}\n"
                           "matches: [{player: MCTS, opponent: Random}]")
    assert config.openings_warning(default) is None
    # a game whose own default is the start position: nothing to warn about
    bt = config.loads("game: breakthrough\nbudget: {sims: 10}\nopenings: start\n"
                      "matches: [{player: MCTS, opponent: Random}]")
    assert config.openings_warning(bt) is None


def test_dry_run_and_run_print_the_warning(tmp_path):
    from click.testing import CliRunner

    from mcts_arena.cli.app import cli

    cfg = tmp_path / "k.yaml"
    cfg.write_text("name: k\ngame: kalah\nbudget: {sims: 20}\ngames: 10\nopenings: start\n"
                   "matches: [{player: 'MCTS(fet4)', opponent: 'MCTS'}]\n")
    out = tmp_path / "r"
    dry = CliRunner().invoke(cli, ["run", str(cfg), "--dry-run", "--out", str(out)])
    assert dry.exit_code == 0, dry.output
    assert "warning: openings 'start' replace kalah's default 'random_boards'" in dry.output
    ran = CliRunner().invoke(cli, ["run", str(cfg), "--jobs", "1", "--quiet", "--out", str(out)])
    assert ran.exit_code == 0, ran.output
    assert "warning: openings 'start' replace" in ran.output


def test_the_end_table_warns_when_the_first_seat_wins_everything(tmp_path):
    from click.testing import CliRunner

    from mcts_arena.cli.app import cli
    from mcts_arena.results.summary import summary_of
    from mcts_arena.runner.recount import recount

    cfg = tmp_path / "t.yaml"
    cfg.write_text("name: t\ngame: tictactoe\nbudget: {sims: 5}\ngames: 12\n"
                   "matches: [{player: MCTS, opponent: Random}]\n")
    directory = tmp_path / "r"
    ran = CliRunner().invoke(cli, ["run", str(cfg), "--jobs", "1", "--quiet", "--out",
                                   str(directory)])
    assert ran.exit_code == 0, ran.output
    n = 12
    db = sqlite3.connect(directory / "arena.sqlite")
    db.execute("UPDATE game SET winner = 0, score = 1.0 - swap")
    db.commit()
    db.close()
    recount(directory)          # results changed by hand: their aggregates counted again
    text = summary_of(directory)
    assert f"warning: the first seat won {n} of {n} decisive games" in text
