"""The player-kind table (players/kinds.py) is the one description of the kinds: the parser's
spellings and refusals, `arena players`, building a player and the effort unit all follow it,
and game capabilities come from GameInfo, not from a game's name."""
from __future__ import annotations

import dataclasses

import pytest
from click.testing import CliRunner

from mcts_arena import games, players
from mcts_arena.cli import cli
from mcts_arena.errors import SpecError
from mcts_arena.games.info import CAPABILITIES
from mcts_arena.players import kinds, notation
from mcts_arena.players.options import OPTIONS
from mcts_arena.runner import effort


def test_every_spelling_parses_to_its_kind_and_prints_its_display():
    for k in kinds.KINDS:
        if k.external or k.needs:
            continue
        game = "pig" if k.plays_chance and k.name not in ("MCTS", "FlatMC", "Random",
                                                          "Greedy") else "tictactoe"
        for spelling in k.spellings:
            spec = players.parse(spelling, game)
            assert spec.kind == k.name
            assert spec.canonical.startswith(k.display)


def test_the_tables_agree():
    # every kind an option names is in the kind table; the notation's quoted-argument heads
    # are the outside kinds' spellings; the effort units are the table's
    assert {kind for o in OPTIONS for kind in o.kinds} <= set(kinds.BY_NAME)
    assert set(notation.EXTERNAL_KINDS) == {s for k in kinds.KINDS if k.external
                                           for s in k.spellings}
    assert effort.UNITS == {k.name: k.unit for k in kinds.KINDS if k.unit}
    assert effort.UNITS["MCTS"] == "sims" and effort.UNITS["alphabeta"] == "nodes"
    assert len(kinds.SPELLINGS) == sum(len(k.spellings) for k in kinds.KINDS)


def test_the_unknown_kind_error_lists_the_table():
    with pytest.raises(SpecError) as e:
        players.parse("XX", "hex")
    for k in kinds.KINDS:
        assert k.display in str(e.value)


def test_capabilities_come_from_the_game_info():
    bg, pig = games.info_of("backgammon"), games.info_of("pig")
    assert bg.has("gnubg") and not pig.has("gnubg")
    assert pig.has("exact_solution") and not bg.has("exact_solution")
    assert kinds.BY_NAME["gnubg"].needs in CAPABILITIES
    # a game that declares the capability gets the kind; one that does not is refused by it
    with pytest.raises(SpecError, match="gnubg plays backgammon, not pig: it needs a game that "
                                        "GNU Backgammon plays"):
        players.parse("gnubg", "pig")
    assert "gnubg" in players.spec.playing_kinds("backgammon")
    assert "gnubg" not in players.spec.playing_kinds("pig")
    with pytest.raises(ValueError, match="unknown or derived capabilities"):
        dataclasses.replace(pig, capabilities=frozenset({"exact_solution"}))


def test_a_kind_entry_is_checked():
    with pytest.raises(ValueError, match="not sims or nodes"):
        kinds.Kind("X", ("X",), "x", "m:f", unit="moves")
    with pytest.raises(ValueError, match="needs 'dice'"):
        kinds.Kind("X", ("X",), "x", "m:f", needs="dice")


def test_arena_players_lists_the_kinds_a_game_can_play():
    out = CliRunner().invoke(cli, ["players", "pig"]).output
    kinds_part = out.split("tokens and options")[0]
    assert "PigOptimal" in kinds_part and "αβ(...)" not in kinds_part
    assert "gnubg" not in kinds_part
    out = CliRunner().invoke(cli, ["players"]).output.split("tokens and options")[0]
    assert all(k.display in out for k in kinds.KINDS)
