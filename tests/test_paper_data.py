"""The shipped paper numbers: consistency with the paper's own arithmetic, matching, verdicts."""

import math
import re

import pytest

from mcts_arena.paper import (
    PaperResults,
    load_paper_results,
    match_paper,
    normalize_spec,
    parse_paper_results,
)

DATA = load_paper_results()
GAMES = {"kalah", "breakthrough", "loa"}


def test_loads_everything():
    assert isinstance(DATA, PaperResults)
    tables = {r.table for r in DATA.rows}
    assert tables == {f"Table {k}" for k in (2, 3, 4, 5, 7, 8, 9)}
    counts = {t: sum(r.table == t for r in DATA.rows) for t in tables}
    assert counts == {
        "Table 2": 12,
        "Table 3": 7,
        "Table 4": 23,
        "Table 5": 9,
        "Table 7": 6,
        "Table 8": 9,
        "Table 9": 6,
    }
    assert len(DATA.figures) == 8 and len(DATA.tournaments) == 7


def test_rows_well_formed():
    ids = [r.id for r in DATA.rows]
    assert len(ids) == len(set(ids))
    for r in DATA.rows:
        assert r.game in GAMES, r.id
        assert 0.0 <= r.win_pct <= 100.0, r.id
        assert r.games is None or (isinstance(r.games, int) and r.games > 0), r.id
        assert r.seconds is not None and r.seconds > 0, r.id
        for spec in (r.player, r.opponent, *r.aliases):
            normalize_spec(spec)  # every spec is readable


@pytest.mark.parametrize("row", [r for r in DATA.rows if r.ci_pct is not None], ids=lambda r: r.id)
def test_printed_ci_is_the_normal_approximation(row):
    p = row.win_pct / 100
    half = 100 * 1.96 * math.sqrt(p * (1 - p) / row.games)
    # all agree to the printed hundredth except 68.80 +- 2.88 (2.87 by the formula; see test_stats)
    assert abs(half - row.ci_pct) <= (0.0085 if row.id == "t2-ege-det-vs-ipp" else 0.005), (
        half,
        row.ci_pct,
    )


@pytest.mark.parametrize("row", [r for r in DATA.rows if r.wins_a is not None], ids=lambda r: r.id)
def test_printed_percent_matches_counts(row):
    decisive = row.wins_a + row.wins_b
    assert abs(100 * row.wins_a / decisive - row.win_pct) < 0.006
    if row.ties is not None:
        assert decisive + row.ties == row.games


@pytest.mark.parametrize(
    "game,player,opponent,seconds,pct",
    [
        ("breakthrough", "MCTS(ipp)", "MCTS", 1, 94.30),
        ("breakthrough", "MCTS(ege0.1,det0.5)", "MCTS(ipp)", 1, 68.80),
        ("breakthrough", "MCTS(bl,im0.4)", "MCTS(bl,cb0.4)", 1, 67.80),
        ("breakthrough", "MCTS(efMS,bl,np,im0.4)", "MCTS(efLH,bl',im0.6)", 1, 53.40),
        ("breakthrough", "MCTS(bl,im0.4)", "MCTS(bl,mb100)", 1, 81.9),
        ("breakthrough", "MCTS(bl,im0.4)", "MCTS(bl,mb30000)", 1, 67.0),
        ("breakthrough", "αβ(efMS)", "αβ(efLH)", 10, 31.25),
        ("breakthrough", "MCTS(bl')", "αβ(efLH)", 120, 25.38),
        ("breakthrough", "MCTS(bl',im0.6)", "αβ(efLH)", 60, 55.60),
        ("loa", "MCTS(ipp,abp2,det0.5,PB,im0.2)", "MCTS(ipp,abp2,det0.5,PB)", 1, 50.59),
        ("loa", "MCTS(ipp,abp2,det0.5,im0.2)", "αβ(efWB)", 5, 51.0),
        ("kalah", "MCTS(fet3)", "MCTS(fet4)", 1, 48.80),
        ("kalah", "MCTS(ege1.0)", "MCTS(fet4)", 1, 6.96),
        ("breakthrough", "MCTS(ipp,ege0.1,det0.5)", "MCTS(ipp,ege0.1)", 1, 74.8),  # authors: mcts_h_ege
        ("breakthrough", "MCTS(bl)", "MCTS(ipp,ege0.1)", 1, 74.8),
        ("breakthrough", "MCTS(efLH,ipp,fet8)", "MCTS(efLH,ipp,fet20)", 1, 51.4),
    ],
)
def test_paper_md_numbers(game, player, opponent, seconds, pct):
    rows = match_paper(game, player, opponent, seconds=seconds)
    assert [r.win_pct for r in rows] == [pct]
    assert not rows[0].reversed


def test_match_all_budgets_and_reversed():
    rows = match_paper("breakthrough", "ab(efMS)", "MCTS(bl,im0.4)")
    assert sorted((r.seconds, r.win_pct) for r in rows) == [(1, 54.95), (5, 38.4), (10, 38.2)]
    assert all(r.reversed and r.player == "αβ(efMS)" for r in rows)
    assert match_paper("kalah", "MCTS(fet4)", "MCTS(fet3)")[0].wins_a == 257


def test_match_filters_game_and_budget():
    assert match_paper("kalah", "MCTS(ipp)", "MCTS") == []
    assert match_paper("breakthrough", "MCTS(ipp)", "MCTS", seconds=5) == []
    assert match_paper("breakthrough", "MCTS(ipp,im0.4)", "MCTS(ipp,im0.4)") == []


def test_match_with_custom_normaliser():
    exact = match_paper("breakthrough", "MCTS(im0.4,ipp)", "MCTS(ipp)", normalize=lambda s: s)
    loose = match_paper("breakthrough", "MCTS(im0.4,ipp)", "MCTS(ipp)")
    assert exact == [] and [r.win_pct for r in loose] == [82.30]


@pytest.mark.parametrize(
    "a,b",
    [
        ("MCTS(bl,im0.4)", "mcts( im0.40 , bl )"),
        ("MCTS(efLH,bl’,im0.6)", "MCTS(blp,im0.6)"),
        ("MCTS(bl')", "MCTS(efLH,blp)"),
        ("MCTS(efMS,bl)", "MCTS(bl)"),
        ("αβ(efMS)", "ab(efms)"),
        ("alphabeta(efLH)", "αβ(efLH)"),
        ("MCTS", "MCTS()"),
        ("MCTS(ege1.0)", "MCTS(ege1)"),
        ("MCTS(det.5)", "MCTS(det0.5)"),
        ("MCTS(C=0.80)", "MCTS(C=0.8)"),
    ],
)
def test_normalize_equal(a, b):
    assert normalize_spec(a) == normalize_spec(b)


@pytest.mark.parametrize(
    "a,b",
    [
        ("MCTS(bl,im0.4)", "MCTS(bl,im0.6)"),
        ("MCTS(bl)", "MCTS(bl')"),
        ("MCTS(efLH,bl)", "MCTS(bl)"),
        ("MCTS(ipp)", "MCTS"),
        ("αβ(efMS)", "MCTS(efMS)"),
        ("MCTS(fet20)", "MCTS(fet2)"),
    ],
)
def test_normalize_different(a, b):
    assert normalize_spec(a) != normalize_spec(b)


@pytest.mark.parametrize("bad", ["MCTS(bl", "MCTS(bl))", "(bl)", ""])
def test_normalize_rejects(bad):
    with pytest.raises(ValueError, match="cannot read player spec"):
        normalize_spec(bad)


def test_figures():
    for f in DATA.figures:
        assert f.game in GAMES and "{alpha}" in f.player
        assert 0 <= f.best_alpha[0] < f.best_alpha[1] <= 1
        normalize_spec(f.player.format(alpha=0.4))
        normalize_spec(f.opponent)


@pytest.mark.parametrize(
    "tid,winner_spec",
    [
        ("kalah-fet", "MCTS(fet4)"),
        ("kalah-ege", "MCTS(ege1.0)"),
        ("breakthrough-efms-fet", "MCTS(ipp,fet20)"),
        ("breakthrough-efms-ege", "MCTS(ipp,ege0.1)"),
        ("breakthrough-efms-det", "MCTS(ipp,det0.3)"),
        ("breakthrough-eflh-fet", "MCTS(efLH,ipp,fet8)"),
        ("breakthrough-eflh-ege", "MCTS(efLH,ipp,ege0.3)"),
    ],
)
def test_tournaments(tid, winner_spec):
    t = DATA.tournament(tid)
    assert t.winner_spec == winner_spec
    assert t.specs[t.winner] == winner_spec
    assert t.bracket.endswith(f"\n\nWinner: {t.winner}\n")
    values = [float(v) for v in t.values]
    assert values == sorted(values) and len(set(values)) == len(values)
    table6 = {float(v) for v in DATA.parameter_sets[t.kind]}
    extra = {float(v) for v in t.values} - table6
    assert extra <= ({0.15, 0.25, 0.35, 0.45, 0.95, 1.0} if t.kind == "det" else set())
    # every label printed in the bracket is an entrant
    printed = set(re.findall(r"(mcts_h_\S+?)(?: \(| gets|\n|$)", t.bracket))
    assert printed == set(t.entrants)


def test_unknown_tournament():
    with pytest.raises(ValueError, match="unknown paper tournament 'im'; valid: kalah-fet"):
        DATA.tournament("im")


def test_parse_minimal_file():
    res = parse_paper_results(
        "rows:\n  - {id: x, table: T, game: kalah, player: MCTS, opponent: MCTS(fet4), win_pct: 10, seconds: 1}\n"
    )
    assert res.rows[0].win_pct == 10 and res.tournaments == ()
    assert [r.win_pct for r in match_paper("kalah", "MCTS(fet4)", "MCTS", results=res)] == [90.0]
