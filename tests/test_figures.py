"""Pictures (report/figures.py, report/plots.py): the bracket tree is the paper's bracket, the
Bradley–Terry errors match the closed form, the paper's figures and points are found for our
sweeps, comparison rows without games or at a far budget get no verdict, and every picture of
a report is written and embedded in the HTML page."""
import math
import re
import struct

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.paper import load_paper_results
from mcts_arena.report import figures
from mcts_arena.report.tables import budget_comparable, compare_paper
from mcts_arena.results.bracket import Bracket
from mcts_arena.runner import config


def _png_size(path):
    data = open(path, "rb").read(24)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _paper_bracket(tid):
    t = load_paper_results().tournament(tid)
    res = {(m[1], m[3]): (int(m[2]), int(m[4])) for m in re.finditer(
        r"winner (\S+) \((\d+)\) vs\. loser (\S+) \((\d+)\)", t.bracket)}
    b = Bracket(t.entrants)
    b.run(lambda a, c: res[(a, c)] if (a, c) in res else res[(c, a)][::-1])
    assert b.render().strip() == t.bracket.strip()
    return t, b, res


@pytest.mark.parametrize("tid", ["kalah-fet", "kalah-ege"])
def test_bracket_tree_is_the_papers_bracket(tid, tmp_path):
    t, b, res = _paper_bracket(tid)
    nodes = figures.bracket_tree(b)
    (root,) = [n for n in nodes if n["parent"] is None]
    assert root["name"] == t.winner and root["champion"] and root["col"] == len(b.rounds)
    assert sorted(n["name"] for n in nodes if n["col"] == 0) == sorted(t.entrants)
    for i, n in enumerate(nodes):
        kids = [k for k in nodes if k["parent"] == i]
        if kids:      # a parent sits between its children, and is one of them (the advancer)
            assert n["y"] == pytest.approx(sum(k["y"] for k in kids) / len(kids))
            assert n["name"] in [k["name"] for k in kids]
            assert all(k["col"] == n["col"] - 1 for k in kids)
        if n["parent"] is not None and not n["bye"]:
            p = nodes[n["parent"]]
            other = next(k for k in nodes if k["parent"] == n["parent"] and k is not n)
            assert (n["wins"], other["wins"]) == (
                res[(n["name"], other["name"])] if (n["name"], other["name"]) in res
                else res[(other["name"], n["name"])][::-1])
            assert n["won"] == (n["name"] == p["name"])
    # no crossing edges: in every column the order by y follows the parents' order
    for col in range(root["col"]):
        here = sorted((n for n in nodes if n["col"] == col), key=lambda n: n["y"])
        parents = [nodes[n["parent"]]["y"] for n in here]
        assert parents == sorted(parents)
    w, h = _png_size(figures.bracket_plot(b, tmp_path / "b.png", title=t.id))
    assert w > 600 and h > 400


def test_running_bracket_ends_with_the_current_round(tmp_path):
    b = Bracket(["a", "b", "c", "d", "e"])
    b.record("a", "e", 3, 1)
    b.record("b", "d", 0, 2)
    b.advance()                       # round 2: a, d, c (bye c)
    b.record("a", "c", 2, 2)          # tie: the first (a) advances, round not yet closed
    nodes = figures.bracket_tree(b)
    roots = [n for n in nodes if n["parent"] is None]
    assert [r["name"] for r in roots] == ["a", "c", "d"]
    assert [r["wins"] for r in roots] == [2, 2, None] and roots[2]["bye"]
    assert not any(n.get("champion") for n in nodes)
    figures.bracket_plot(b, tmp_path / "running.png")


def test_bradley_terry_errors_match_the_two_player_closed_form(tmp_path):
    # two players, 75 of 100: elo difference 400 log10(3); var of the difference is
    # 1 / (n p (1-p) k^2), each rating (mean 0) is half the difference
    (a, b) = figures.bradley_terry_ladder({("x", "y"): (75, 0, 25)})
    k = math.log(10) / 400
    half = 1.96 * math.sqrt(1 / (100 * 0.75 * 0.25 * k * k)) / 2
    assert a["name"] == "x" and a["elo"] == pytest.approx(200 * math.log10(3), abs=1e-3)
    assert a["error"] == pytest.approx(half, rel=1e-4) and b["error"] == pytest.approx(half)
    assert a["games"] == b["games"] == 100
    ladder = figures.bradley_terry_ladder({("x", "y"): (60, 0, 40), ("y", "z"): (55, 10, 35),
                                           ("x", "z"): (70, 0, 30)})
    assert [e["name"] for e in ladder] == ["x", "y", "z"]
    assert sum(e["elo"] for e in ladder) == pytest.approx(0, abs=1e-6)
    w, h = _png_size(figures.elo_ladder(ladder, tmp_path / "elo.png", title="t"))
    assert h < _png_size(figures.elo_ladder(ladder * 3, tmp_path / "elo9.png"))[1]


@pytest.mark.parametrize("game,player,opponent,fig,points", [
    ("breakthrough", "MCTS(bl,im{})", "MCTS(bl)", ["fig2-top"], [(0.6, 63.3)]),
    ("breakthrough", "MCTS(bl,np,im{})", "MCTS(bl,np)", ["fig2-bottom-1s", "fig2-bottom-5s"], []),
    ("loa", "MCTS(ipp,abp2,det0.5,PB,im{})", "MCTS(ipp,abp2,det0.5,PB)", ["fig4-abp-pb"], [(0.2, 50.59), (0.2, 50.91)]),
    ("kalah", "MCTS(fet4,im{})", "MCTS(fet4)", ["fig1"], []),
    ("kalah", "MCTS(fet4,im{})", "MCTS", [], []),
])
def test_paper_figures_and_points_of_a_sweep(game, player, opponent, fig, points):
    assert [f.id for f in figures.paper_figures(game, player, opponent)] == fig
    got = [(x, p) for x, p, _ in figures.paper_points(game, player, opponent, [0.6])]
    assert got == points


def _row(score=0.6, games=100, budget="1 s", **kw):
    r = {"experiment": "e", "game": "breakthrough", "player": "MCTS(ipp)", "opponent": "MCTS",
         "budget": budget, "games": games, "score": score if games else None,
         "ci_low": score - 0.05 if games else None, "ci_high": score + 0.05 if games else None}
    r.update(kw)
    return r


@pytest.mark.parametrize("row,comparable,note", [
    (_row(budget="1 s"), True, None),
    (_row(budget="0.6 s"), True, None),
    (_row(budget="0.05 s"), False, "budget differs: ours 0.05 s, paper 1 s"),
    (_row(budget="30 sims"), False, "budget differs: ours 30 sims, paper 1 s"),
    (_row(budget="1 s / 5 s"), False, "budget differs: ours 1 s / 5 s, paper 1 s"),
    (_row(budget="effort 1 s", player_budget={"sims": 5000, "effort": 1},
          opponent_budget={"sims": 5000, "effort": 1}), True, None),
    (_row(budget="2000 sims", player_budget={"sims": 2000},
          opponent_budget={"sims": 2000, "effort": 1}), False,
     "budget differs: ours 2000 sims, paper 1 s"),
])
def test_budget_comparability(row, comparable, note):
    assert budget_comparable(row, 1) == (comparable, note)
    (c,) = compare_paper([row])
    assert c["comparable"] is comparable and c["note"] == note
    assert (c["verdict"] is None) is (not comparable)


def test_a_pairing_without_games_has_no_percentage_and_no_verdict():
    (c,) = compare_paper([_row(games=0)])
    assert c["ours_pct"] is None and c["verdict"] is None and c["note"] == "no games"
    from mcts_arena.report.render import cmp_cells
    cells = cmp_cells(c)
    assert cells[1] == "—" and cells[-1] == "no games"


def test_forest_plot_rows_and_paper_markers(tmp_path):
    rows = [_row(paper=[{"win_pct": 94.3, "comparable": False}]),
            _row(games=0), _row(paper_pct=27.6)]
    assert figures.paper_marker(rows[0]) == (94.3, False)
    assert figures.paper_marker(rows[1]) == (None, False)
    assert figures.paper_marker(rows[2]) == (27.6, True)
    assert figures.forest_label(rows[1]) == "MCTS(ipp) vs MCTS (1 s, 0 games)"
    _w, h3 = _png_size(figures.forest_plot(rows, tmp_path / "f.png", title="x"))
    _w, h9 = _png_size(figures.forest_plot(rows * 3, tmp_path / "f9.png"))
    assert h9 > h3


@pytest.mark.slow
def test_report_writes_and_embeds_every_picture(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    for name, body in (("rr", "kind: round_robin\nentrants: [Random, 'Random(im0.1)', "
                              "'Random(im0.2)']\n"),
                       ("el", "kind: elimination\nentrants: [Random, 'Random(im0.1)', "
                              "'Random(im0.2)', 'Random(im0.3)', 'Random(im0.4)']\n")):
        f = tmp_path / f"{name}.yaml"
        f.write_text(f"name: {name}\ngame: tictactoe\nbudget: {{sims: 5}}\ngames: 4\n" + body)
        res = CliRunner().invoke(cli, ["tournament", str(f), "--jobs", "1", "--quiet"])
        assert res.exit_code == 0, res.output
    dirs = [str(tmp_path / "results" / f"tournament-{n}-tictactoe") for n in ("rr", "el")]
    out = tmp_path / "pics"
    res = CliRunner().invoke(cli, ["report", *dirs, "--format", "html", "--out", str(out)])
    assert res.exit_code == 0, res.output
    names = sorted(p.name.split("-")[0] for p in out.glob("*.png"))
    assert names == ["bracket", "elo", "forest", "forest"]
    page = (out / "report.html").read_text()
    assert page.count('<img alt="') == 4 == page.count('src="data:image/png;base64,')
    assert "elimination bracket" in page and "Elo ladder" in page
    text = CliRunner().invoke(cli, ["report", *dirs, "--out", str(out)]).output
    assert text.count("\nfigure ") == 4


def test_empty_inputs_still_draw(tmp_path):
    assert _png_size(figures.forest_plot([], tmp_path / "f.png"))[0] > 0
    assert _png_size(figures.elo_ladder([], tmp_path / "e.png"))[0] > 0
    for entrants in (["a"], ["a", "b"]):          # finished at once / nothing played yet
        b = Bracket(entrants)
        nodes = figures.bracket_tree(b)
        assert [n["name"] for n in nodes] == entrants
        assert _png_size(figures.bracket_plot(b, tmp_path / f"b{len(entrants)}.png"))[0] > 0


# ---- fit for a paper ----------------------------------------------------------------
class _Sweep:
    game, player, opponent, param, symbol = "breakthrough", "MCTS(bl,im{})", "MCTS(bl)", "im", "α"
    title = "MCTS(bl,imα) vs MCTS(bl) (breakthrough)"

    def __init__(self, scores):
        self.curves = {"1 s": [(x, {"score": s, "ci_low": max(0, s - .2),
                                    "ci_high": min(1, s + .2), "games": 10})
                               for x, s in scores]}


def _drawn(monkeypatch, draw):
    """The Figure a drawing function saves (its file written as usual)."""
    seen = []
    save = figures._save

    def keep(fig, path, dpi=figures.DEFAULT_DPI):
        seen.append(fig)
        return save(fig, path, dpi)

    monkeypatch.setattr(figures, "_save", keep)
    draw()
    return seen[0]


def test_points_at_0_and_100_are_whole_and_the_legend_covers_no_data(tmp_path, monkeypatch):
    """The sweep's points at 0% and 100% lie inside the axes with room for their marker (the
    axes stopped at 0 and 100: half of each marker was cut), and the legend lies outside the
    axes (inside, 'best' covered Fig. 2's points)."""
    sw = _Sweep([(0.0, 1.0), (0.3, 0.55), (0.6, 0.0), (1.0, 0.4)])
    fig = _drawn(monkeypatch, lambda: figures.sweep_plot(sw, tmp_path / "s.png"))
    ax = fig.axes[0]
    fig.canvas.draw()
    to_px = ax.transData.transform
    box = ax.get_window_extent()
    for y in (0.0, 100.0):
        py = to_px((0.5, y))[1]
        assert box.y0 + 4 < py < box.y1 - 4         # a 7-point marker's radius and more
    legend = ax.get_legend().get_window_extent()
    assert not legend.overlaps(box)


def test_forest_points_at_0_and_100_are_whole(tmp_path, monkeypatch):
    rows = [_row(score=1.0, ci_low=0.7, ci_high=1.0), _row(score=0.0, ci_low=0.0, ci_high=0.3)]
    fig = _drawn(monkeypatch, lambda: figures.forest_plot(rows, tmp_path / "f.png"))
    lo, hi = fig.axes[0].get_xlim()
    assert lo < 0 and hi > 100


def test_a_long_title_is_wrapped_and_nothing_is_cut_off(tmp_path, monkeypatch):
    title = "Fig. 2: MCTS(bl,im alpha) vs MCTS(bl), Breakthrough, 1 s per move, " * 3
    path = tmp_path / "s.png"
    fig = _drawn(monkeypatch, lambda: figures.sweep_plot(_Sweep([(0.1, .5)]), path,
                                                          title=title))
    fig.canvas.draw()
    shown = fig.axes[0].title
    assert "\n" in shown.get_text()
    # the file holds every artist: its width covers the title's drawn width
    width, _ = _png_size(path)
    assert width >= shown.get_window_extent().width


@pytest.mark.slow
def test_report_figures_svg_pdf_dpi_and_titles_from_the_description(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(config.PLAYERS_ENV, "fakes")
    (tmp_path / "d.yaml").write_text(
        "name: d\ndescription: 'Fig. 9: the alpha sweep'\ngame: tictactoe\n"
        "budget: {sims: 5}\ngames: 2\nmatches:\n"
        "  - sweep: {player: 'Random(im{a})', opponent: Random, a: [0.1, 0.5]}\n")
    assert CliRunner().invoke(cli, ["run", "d.yaml", "--quiet", "--jobs", "1"]).exit_code == 0
    for fmt, dpi, head in (("svg", 100, b"<?xml"), ("pdf", 100, b"%PDF"), ("png", 200, None)):
        out = tmp_path / f"{fmt}{dpi}"
        res = CliRunner().invoke(cli, ["report", "results/d", "--format", "markdown",
                                       "--figures", fmt, "--dpi", str(dpi), "--out", str(out)])
        assert res.exit_code == 0, res.output
        (forest,) = out.glob(f"forest-d.{fmt}")
        if head:
            assert forest.read_bytes().startswith(head)
        assert f"forest-d.{fmt}" in (out / "report.md").read_text()
    svg = (tmp_path / "svg100" / "forest-d.svg").read_text()
    # the picture's size in points (1/72 inch) is the svg's; --dpi 200 draws 200 pixels an
    # inch (within the 1-2% by which the tight bounding box differs between the two renderers)
    width_pt, height_pt = (float(re.search(rf'{k}="([0-9.]+)pt"', svg).group(1))
                           for k in ("width", "height"))
    width_px, height_px = _png_size(tmp_path / "png200" / "forest-d.png")
    assert width_px == pytest.approx(width_pt / 72 * 200, rel=0.02)
    assert height_px == pytest.approx(height_pt / 72 * 200, rel=0.02)
    # what was played first, the description marked as one, no paper marker where none is drawn
    assert "played: 5 sims per move, 2 games per pairing" in svg
    assert "description: Fig. 9: the alpha sweep" in svg and "paper ◆" not in svg
    (sweep,) = (tmp_path / "svg100").glob("sweep-*.svg")
    sweep_svg = sweep.read_text()
    assert "played: 5 sims per move, 2 games per point" in sweep_svg
    assert "description: Fig. 9: the alpha sweep" in sweep_svg
    res = CliRunner().invoke(cli, ["report", "results/d", "--format", "html", "--figures",
                                   "svg", "--out", "h"])
    assert res.exit_code == 0 and "data:image/svg+xml;base64," in (tmp_path / "h" /
                                                                    "report.html").read_text()
    res = CliRunner().invoke(cli, ["report", "results/d", "--format", "html", "--figures",
                                   "pdf", "--out", "hp"])
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "--figures pdf" in res.output
    assert not (tmp_path / "hp").exists()
