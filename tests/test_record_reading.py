"""How the record reads its rows, as a referee asked: verdicts at the level the stop rule
states (a row played in looks is judged on its interval at the rule's split z, not on the
uncorrected 95% interval at the look it stopped at), values judged only at the paper's own
effort, and implicit minimax's gain against one opponent printed with its interval beside the
paper's. The numbers are the published headline rows' (docs/reproduction/headline*.md)."""
import math
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcts_arena import stats
from mcts_arena.cli import cli
from mcts_arena.report import tables
from mcts_arena.report.im_gain import gain, without_im
from mcts_arena.report.record_model import _ours, _Tally, at_paper_effort, row_verdict
from mcts_arena.report.reproduction import write_page
from mcts_arena.runner import reproduce
from mcts_arena.runner.reproduce import Page

HEADLINE_RULE = reproduce.Precision(half_width=4, cap=600, aim="paper").describe(200)


def _row(penta, player="MCTS(bl)", opponent="αβ(efMS,hh=0)", rule=None, looks=None):
    """A report row of seat-swapped pairs with the pentanomial `penta`, played under `rule`."""
    low, high = stats.pentanomial_interval(penta)
    games = 2 * sum(penta)
    w = penta[3] + 2 * penta[4] + penta[2]
    row = {"player": player, "opponent": opponent, "game": "breakthrough", "games": games,
           "wins": w, "draws": 0, "losses": games - w, "pairs": None, "pentanomial": list(penta),
           "pair_score": stats.pentanomial_score(penta), "pair_ci_low": low,
           "pair_ci_high": high, "pair_games": games, "precision": None}
    if rule is not None:
        row["precision"] = {"games": games, "stop": "precision", "half_width": 3.8,
                            "basis": "pairs", "rule": rule}
        if looks is not None:
            row["precision"]["looks"] = looks
    row["judged"] = tables.judged(row)
    return row


# ---- verdicts at the stop rule's level ------------------------------------------------------
def test_the_split_level_is_the_runners_and_its_looks_are_read_from_the_rule():
    prec = reproduce.Precision(half_width=4, cap=600, aim="paper")
    assert prec.z_stop(200) == stats.looks_z(4) == pytest.approx(2.4977, abs=1e-4)
    assert stats.looks_z(1) == pytest.approx(stats.Z95)
    assert tables.stop_looks(_row((1, 0, 1, 0, 1), rule=HEADLINE_RULE)) == 4
    assert tables.stop_looks(_row((1, 0, 1, 0, 1), rule="anything", looks=5)) == 5
    assert tables.stop_looks(_row((1, 0, 1, 0, 1))) is None
    with pytest.raises(ValueError):
        stats.looks_z(0)


def test_a_sequential_row_is_judged_at_its_stop_rules_level_not_at_95():
    """headline-tt.md's MCTS(bl) vs αβ(efMS,hh=0), 600 games after four looks: its 95% interval
    [28.4, 36.1] excludes the paper's 27.55 ("below ours"), the interval at the rule's own
    z = 2.50 ([27.4, 37.2]) holds it."""
    seq = _ours(_row((142, 0, 123, 0, 35), rule=HEADLINE_RULE))
    assert seq.z == pytest.approx(2.4977, abs=1e-4)
    assert (round(seq.low, 1), round(seq.high, 1)) == (27.4, 37.2)
    assert row_verdict(seq, 27.55).verdict.value == "inside"
    fixed = _ours(_row((142, 0, 123, 0, 35)))         # the same games at a fixed count
    assert fixed.z is None and (round(fixed.low, 1), round(fixed.high, 1)) == (28.4, 36.1)
    assert row_verdict(fixed, 27.55).verdict.value == "below"


def test_a_decided_side_at_95_can_be_undecided_at_the_rules_level():
    """headline-tt.md's MCTS(bl,im0.4) row, stopped at 200 games: 58.0 [51.3, 64.5] was read
    "side wrong"; at z = 2.50 it is [49.4, 66.3], undecided."""
    o = _ours(_row((16, 0, 52, 0, 32), player="MCTS(bl,im0.4)", rule=HEADLINE_RULE))
    assert (round(o.low, 1), round(o.high, 1)) == (49.4, 66.3)
    assert row_verdict(o, 45.05).verdict.side == "undecided" and not o.informative


def test_a_pair_rule_row_is_judged_at_its_stop_rules_level_too():
    row = {"player": "A", "opponent": "B", "games": 300, "wins": 150, "draws": 0, "losses": 150,
           "pairs": {"won": 60, "lost": 40, "drawn": 0, "discarded": 50, "score": 0.6,
                     "ci_low": 0.504, "ci_high": 0.696},
           "pentanomial": None, "precision": {"rule": HEADLINE_RULE}}
    row["judged"] = tables.judged(row)
    o = _ours(row)
    lo, hi = stats.interval(60, 0, 40, "auto", stats.looks_z(4))
    assert o.basis == "pair rule" and (o.low, o.high) == pytest.approx((100 * lo, 100 * hi))
    assert o.low < 50.0 < o.high            # decided at 95%, not at the rule's level


# ---- values judged at the paper's effort only -----------------------------------------------
def test_values_are_judged_at_the_papers_effort_only():
    assert at_paper_effort(1.0) and at_paper_effort(None) and not at_paper_effort(0.1)
    o = _ours(_row((40, 0, 48, 0, 12), player="MCTS(bl,im0.4)"))      # table4.md: 36.0
    shown = row_verdict(o, 45.05, value_judged=False)
    assert shown.verdict.side == "right" and shown.verdict.value == "above"
    assert shown.text == "side right (value above ours: shown, not judged at this effort)"
    tally = _Tally()
    tally.add(shown, o, None)
    tally.add(row_verdict(o, 45.05), o, None)
    assert tally.counts["sides"]["right"] == 2 and sum(tally.counts["values"].values()) == 1


# ---- implicit minimax's gain ----------------------------------------------------------------
def test_without_im():
    assert without_im("MCTS(bl,im0.4)") == "MCTS(bl)"
    assert without_im("MCTS(im0.2)") == "MCTS"
    assert without_im("MCTS(ipp,det0.5,PB,im0.2,abp2)") == "MCTS(ipp,det0.5,PB,abp2)"
    assert without_im("MCTS(bl)") is None and without_im("MCTS(bl,imx)") is None


def test_the_headline_gain_has_its_interval_and_is_judged_against_the_papers():
    """headline.md: MCTS(bl,im0.4) 76.0 and MCTS(bl) 51.0 against the TT-less αβ: +25.0
    [+16.0, +34.0] at 95% (the referee's bootstrap gave the same), +193 Elo; the paper's +17.5
    ± 2.9 (n = 2,000 each) lies inside, z = 1.5 with both uncertainties."""
    im = _row((8, 0, 32, 0, 60), player="MCTS(bl,im0.4)", opponent="αβ(efMS,hh=0,tt=0)")
    base = _row((21, 0, 56, 0, 23), opponent="αβ(efMS,hh=0,tt=0)")
    g = gain(im, base, 45.05, 27.55, (2000, 2000), stats.Z95, True)
    assert (round(g.points, 1), round(g.low, 1), round(g.high, 1)) == (25.0, 16.0, 34.0)
    assert round(g.elo) == 193 and g.elo_low < 133 < g.elo_high
    assert (round(g.paper, 2), round(g.paper_half, 1), round(g.paper_elo)) == (17.5, 2.9, 133)
    assert g.verdict.side == "right" and g.verdict.value == "inside"
    assert g.z_diff == pytest.approx(1.55, abs=0.01)
    # at 0.1 of the effort the gain's value is shown, not judged; its side is
    shown = gain(im, base, 45.05, 27.55, (2000, 2000), stats.Z95, False)
    assert not shown.verdict.value_judged and shown.verdict.side == "right"
    # a row at 0% or 100% has no Elo; the points stand
    sweep = gain(_row((0, 0, 0, 0, 10)), base, 45.05, 27.55, (None, None), stats.Z95, True)
    assert sweep.elo is None and sweep.paper_half is None and sweep.z_diff is None
    assert math.isfinite(sweep.points)


TABLE4 = """name: t4
description: "Table 4: at a tiny budget"
game: breakthrough
budget: {sims: 10}
games: 2
seed: 5
openings: start
matches:
  - {player: "MCTS(bl,im0.4)", opponent: "αβ(efMS,hh=0)"}
  - {player: "MCTS(bl)", opponent: "αβ(efMS,hh=0)"}
  - {player: "MCTS(bl',im0.6)", opponent: "αβ(efLH,hh=0)"}
"""


@pytest.fixture(scope="module")
def table4_store(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("t4")
    cfg = tmp / "t4.yaml"
    cfg.write_text(TABLE4)
    out = tmp / "results" / "t4"
    r = CliRunner().invoke(cli, ["run", str(cfg), "--jobs", "1", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return tmp, out


@pytest.mark.parametrize("effort", [1.0, 0.1])
def test_a_page_prints_the_gain_and_judges_values_at_the_papers_effort_only(table4_store,
                                                                          effort):
    tmp, out = table4_store
    docs = tmp / f"docs{effort:g}"
    docs.mkdir()
    res = write_page(Page("pg", "A page"), [out], {"t4": 1.0}, docs, "arena reproduce", "",
                     effort)
    page = (docs / "pg.md").read_text()
    gains = [ln for ln in page.splitlines() if ln.startswith("| MCTS(bl,im0.4) over MCTS(bl)")]
    assert len(gains) == 1 and "| αβ(efMS,hh=0) |" in gains[0], page
    assert "+17.50 ± 2.9 | +133 |" in gains[0]
    assert ("Not computed: MCTS(bl',im0.6)'s gain, since the paper's row MCTS(bl') vs "
            "αβ(efLH,hh=0) (7.90%) is not played in this experiment.") in page
    values = sum(res.counts["values"].values())
    if effort == 1.0:
        assert values == 3 and "shown, not judged" not in page
    else:
        assert values == 0 and sum(res.counts["sides"].values()) == 3
        assert "(values shown, not judged: a fraction of the paper's effort)" in page
        assert "not judged at this effort" in gains[0]
    assert Path(docs / "pg.md").exists()


# ---- a paper row without a side, the Kalah unit table, headings -----------------------------
def test_a_paper_row_whose_own_interval_holds_50_claims_no_side():
    """table5.md's 50.91 (n = 6,000: [49.6, 52.2]) gave ours "side right"; Appendix B's
    100-100 match gave an interval holding 50% "side right" and 101-99 ones "side wrong"."""
    from mcts_arena.report.record_model import paper_range
    from mcts_arena.report.verdict import judge

    class Paper:
        win_pct, ci_pct, games = 50.91, None, 6000

    lo, hi = paper_range(Paper)
    assert (round(lo, 1), round(hi, 1)) == (49.6, 52.2)
    assert judge(52.0, 60.0, 50.91, paper_range=(lo, hi)).side == "unclaimed"
    assert judge(52.0, 60.0, 50.91).side == "right"          # without the paper's n
    assert judge(41.6, 55.4, 50.0).side == "unclaimed"       # exactly 50%: no side either
    assert judge(20.0, 30.0, 50.5, paper_range=(43.6, 57.4)).text == \
        "side unclaimed, value above ours"
    assert judge(52.0, 60.0, 70.4, paper_range=(68.4, 72.4)).side == "right"


def test_the_kalah_unit_table_judges_a_row_as_its_row_is_judged():
    """fig1.md's unit table said "no paper row" for the sweep points the page judges against
    the figure's claim, and for Appendix B's bracket matches."""
    from mcts_arena.report.record_model import (
        BRACKET_MATCH,
        Judgement,
        RowModel,
        _pair_rule_models,
    )

    row = {"player": "MCTS(fet4,im0.3)", "opponent": "MCTS(fet4)", "games": 60, "wins": 40,
           "draws": 6, "losses": 14, "errors": 0, "pentanomial": [0, 1, 14, 7, 8],
           "pair_score": 0.7, "pair_ci_low": 0.6, "pair_ci_high": 0.8, "pair_games": 60,
           "pairs": {"won": 14, "lost": 1, "drawn": 1, "discarded": 14, "score": 14 / 15,
                     "ci_low": 0.7, "ci_high": 0.99}, "precision": None}
    row["judged"] = tables.judged(row)

    class Fig:
        id, best_alpha = "fig1", (0.1, 0.5)

    point = RowModel(row, _ours(row), None, Fig, True, Judgement(None), False, None)
    m = _pair_rule_models([point])[0]
    assert m.by_pairs_verdict.text == "side right" and m.per_game_verdict.text == "side right"
    match = RowModel(row, _ours(row), None, None, None, None, False, None)
    assert _pair_rule_models([match])[0].by_pairs_verdict.text == BRACKET_MATCH


def test_a_kalah_rows_counted_cell_names_its_drawn_pairs():
    """tables7-9.md: "pairs 42-57 (188 discarded)" left 13 drawn pairs of the 300 unsaid."""
    from mcts_arena.report.record_markdown import _counted

    row = {"wins": 241, "draws": 92, "losses": 267, "games": 600,
           "pairs": {"won": 42, "lost": 57, "drawn": 13, "discarded": 188}}
    assert _counted(row) == "241-92-267; pairs 42-57 (13 drawn, 188 discarded)"


def test_a_brackets_heading_names_its_game():
    """appendix-b.md had two "elimination tournament fet" headings, Kalah's and Breakthrough's."""
    from mcts_arena.report.record_markdown import _experiment_lines
    from mcts_arena.report.record_model import ExperimentModel

    def heading(description, game, tournament):
        e = ExperimentModel({"experiment": "t", "description": description, "game": game},
                            None, [], [], [], {}, [], [], None, tournament, [], None)
        return _experiment_lines(e)[0]

    assert heading("elimination tournament fet", "kalah", "bracket") == \
        "## elimination tournament fet (kalah)"
    assert heading("Kalah fet tournament", "kalah", "bracket") == "## Kalah fet tournament"
    assert heading("Table 2: x", "breakthrough", None) == "## Table 2: x"


def test_a_build_is_printed_with_the_commit_it_was_played_from():
    """The pages printed a source fingerprint alone, though each store records the commit."""
    from mcts_arena.report.record_markdown import _build_text

    commits = {"126446d2d77f": {"commit": "ea1eb1f", "dirty": False},
               "e3b75fdfbe91": {"commit": "89f899c", "dirty": True}}
    assert _build_text("126446d2d77f", commits) == "126446d2d77f (git ea1eb1f)"
    assert _build_text("e3b75fdfbe91", commits) == \
        "e3b75fdfbe91 (git 89f899c, uncommitted changes)"
    assert _build_text("0a12e6f16368", commits) == "0a12e6f16368"


def test_the_store_s_build_commits_are_read_into_the_experiment_s_facts(tmp_path):
    from mcts_arena.results.store import Store
    from mcts_arena.runner.writer import Writer

    d = tmp_path / "s"
    with Writer.open(d) as w:
        w.set_meta("build/abc", '{"git_commit": "0123456789abcdef", "dirty": true}')
        w.set_meta("build/bad", "not json")
    with Store.open(d) as st:
        assert tables.build_commits(st) == {"abc": {"commit": "0123456", "dirty": True}}


def test_figure_4s_progressive_bias_curve_is_judged_against_its_no_loss_claim():
    """The paper claims only that α in [0.05, 0.3] does not hurt MCTS with progressive bias:
    points holding 50% (fig4.md's α = 0.05 and 0.1) were counted undecided."""
    from mcts_arena.paper import load_paper_results
    from mcts_arena.report.record_markdown import _claim_cell
    from mcts_arena.report.record_model import Ours

    figs = {f.id: f for f in load_paper_results().figures}
    assert figs["fig4-abp-pb"].no_loss and not figs["fig4-abp"].no_loss
    level = Ours(48.3, 35.1, 61.8, "pairs")
    assert row_verdict(level, None, on_curve=True, no_loss=True).verdict.side == "right"
    assert row_verdict(level, None, on_curve=True).verdict.side == "undecided"
    below = Ours(30.0, 20.0, 45.0, "pairs")
    assert row_verdict(below, None, on_curve=True, no_loss=True).verdict.side == "wrong"
    assert _claim_cell(figs["fig4-abp-pb"]).startswith("not below 50 (fig4-abp-pb")
