"""The record's pages as report/reproduction.py writes them from real stores (real games at tiny
simulation budgets): sweep points read from the token that carries the swept parameter, game
sets shared by a table and a figure judged once, sweep titles, the paper's rows a page leaves
out, and the unit of the Kalah pair rule."""
from pathlib import Path

import pytest
from click.testing import CliRunner

from mcts_arena.cli import cli
from mcts_arena.report import figures
from mcts_arena.report.reproduction import write_page
from mcts_arena.runner.reproduce import Page


def _store(tmp_path: Path, name: str, text: str) -> Path:
    """Play the config `text` (named `name`) into a real store; its directory."""
    cfg = tmp_path / f"{name}.yaml"
    cfg.write_text(text)
    out = tmp_path / "results" / name
    r = CliRunner().invoke(cli, ["run", str(cfg), "--jobs", "1", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    return out


@pytest.fixture
def legends(monkeypatch):
    """The legend texts of every figure the page writes, by file name."""
    seen: dict[str, list[str]] = {}
    save = figures._save

    def keep(fig, path, *a, **k):
        for ax in fig.axes:
            if ax.get_legend() is not None:
                seen.setdefault(Path(path).name, []).extend(
                    t.get_text() for t in ax.get_legend().get_texts())
        return save(fig, path, *a, **k)

    monkeypatch.setattr(figures, "_save", keep)
    return seen


def _page(tmp_path, dirs, seconds, pid="pg", title="A page"):
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    res = write_page(Page(pid, title), dirs, seconds, docs, "arena reproduce --only " + pid)
    return res, (docs / f"{pid}.md").read_text()


# ---- the sweep's parameter -----------------------------------------------------------------
LOA_SWEEP = """name: loa_sweep
description: "Fig. 4 at a tiny budget"
game: loa
budget: {sims: 40}
games: 2
seed: 5
openings: start
matches:
  - sweep:
      player: "MCTS(ipp,det0.5,im{a})"
      opponent: "MCTS(ipp,det0.5)"
      a: [0.3, 0.5, 0.7]
"""


def test_a_sweep_point_is_read_from_the_token_that_carries_the_swept_parameter(tmp_path,
                                                                                legends):
    """MCTS(ipp,det0.5,im0.5) once read as det0.5: Figure 4's α = 0.5 points left the curves,
    the in-range lists and the counts."""
    d = _store(tmp_path, "loa_sweep", LOA_SWEEP)
    res, page = _page(tmp_path, [d], {"loa_sweep": 1.0})
    curve = [t for texts in legends.values() for t in texts if t.startswith("ours, ")]
    assert len(curve) == 1 and curve[0].endswith("(6 games)"), legends
    assert "### MCTS(ipp,det0.5,imα) vs MCTS(ipp,det0.5) (loa)" in page
    # the paper's best range for plain LOA is [0.1, 0.5]: α = 0.3 and 0.5 are judged, 0.7 not
    listed = [ln for ln in page.splitlines() if ln.startswith("- α = ")]
    assert [ln.split(" (")[0] for ln in listed] == ["- α = 0.3", "- α = 0.5"], page
    assert sum(res.counts.values()) == 2 and len(res.judged) == 2
    assert res.games == 6
