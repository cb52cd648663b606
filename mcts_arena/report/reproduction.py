"""The reproduction record: one Markdown page per table or figure of the paper, ours beside the
paper's, with a verdict per row, and an index that counts the verdicts.

Read-only over the results stores (it goes through `build_report`, like `arena report`).

A page is written in two steps: `record_model.page_model` reads the stores and judges every row
(plain data: each row's verdict from the one rule, `row_verdict`, and the page's counts), and
`record_markdown.render_page` only formats that model as Markdown; `write_page` here draws the
pictures the model names and writes the file, and `write_index` the index and record.json.

Each judged row gets a verdict of two statements kept apart (report/verdict.py): its **side**
(our interval excludes 50% on the paper's side: right; on the other side: wrong; holds 50%:
undecided) and its **value** (the paper's win rate inside our interval, above it or below it;
judged, and counted, on pages at the paper's own effort only). The interval is at the level the
row's stop rule states (95%, or a sequential rule's split z).
The paper's row is the one at the budget the experiment stands for: a scaled-down run of the 1 s
table is compared with the paper's 1 s numbers only. A row without a verdict says why: "no
games" (nothing counted yet: no percentage is shown) or "no paper row" (the paper publishes no
number for this pairing at this budget).

A tournament's matches are not counted in a page's verdicts: a bracket is judged by its winner
against the paper's. Each match the paper's printed bracket played too is listed under ours
beside the paper's count, with the paper winner's share judged against our interval (side and
value, by the same rule), so a reader sees which of the two brackets' differences are noise.

Kalah rows are scored by the paper's pair rule (a pair of games on one board with seats
swapped; decisive pairs only), as the paper scores them; the page states the unit and shows
both bases (per game and per pair) with the paper's decisive counts beside ours. A figure has
no published numbers, only the α range the paper reads as best and its claim there (above 50%):
each of our sweep points inside that range gets a side and no value, once: a point whose games
are also a row of the paper's tables is judged there, against the table's value, and not counted
again. A table's rows that an experiment does not play are named on its page, with the paper
data's note on why.
"""
from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from pathlib import Path

from mcts_arena import inputs
from mcts_arena.report.record_markdown import VERDICT_LEGEND, counts_text, render_page
from mcts_arena.report.record_model import UNJUDGED, median, no_counts, page_model
from mcts_arena.report.verdict import SIDES, VALUE_TEXT, VALUES


@dataclass
class PageResult:
    id: str
    title: str
    markdown: str
    #: {"sides": {side: rows}, "values": {value: rows}, "unjudged": {why: rows}}
    counts: dict[str, dict[str, int]] = field(default_factory=no_counts)
    games: int = 0
    cpu_seconds: float = 0.0
    images: list[str] = field(default_factory=list)
    #: one entry per judged row (table rows with a paper value, figure points in the paper's
    #: best range, best-α rows): {"informative", "width" (points), "power" (or None)}
    judged: list[dict] = field(default_factory=list)
    command: str = ""
    scale: str = ""
    last_game: float | None = None      # unix time of the page's last stored game

    def summary(self) -> dict:
        """What the index keeps of this page (record.json)."""
        widths = [j["width"] for j in self.judged if j["width"] is not None]
        powers = [j["power"] for j in self.judged if j["power"] is not None]
        return {"title": self.title, "command": self.command, "scale": self.scale,
                "games": self.games, **self.counts, "rows": len(self.judged),
                "informative": sum(bool(j["informative"]) for j in self.judged),
                "median_width": median(widths), "median_power": median(powers),
                "written": _utc(self.last_game), "images": sorted(self.images)}


def _utc(t: float | None) -> str:
    """A stored game's time as the pages print it: what a page says depends on its games only,
    so the same games always give the same page, byte for byte."""
    if t is None:
        return "—"
    return f"{_dt.datetime.fromtimestamp(t, _dt.UTC):%Y-%m-%d %H:%M} UTC"


def write_page(page, dirs: list[Path], paper_seconds: dict[str, float | None], docs: Path,
               command: str, scale: str = "", effort: float | None = None) -> PageResult:
    """Write docs/<page.id>.md (and its PNGs) from the results directories that exist.

    The page states the command that played it and its scale, and per experiment the games it
    holds and the builds that played them; each row shows the per-game interval, the pair
    statistics, the paper's value, the verdict (side and value) with the interval it judged
    (pairs where there are complete seat-swapped pairs), whether that interval excludes 50%
    (informative), the power to detect the paper's effect at the games counted, and why the
    row stopped."""
    from mcts_arena.report.figures import forest_plot
    from mcts_arena.report.plots import plot_sweep

    m = page_model(page, dirs, paper_seconds, command, scale, effort)
    res = PageResult(page.id, page.title, render_page(m), m.counts, m.games,
                     judged=m.judged, command=command, scale=scale, last_game=m.last_game)
    for e in m.experiments:
        if e.forest_image:
            name = e.info["experiment"]
            forest_plot(e.forest, docs / e.forest_image,
                        title=f"{e.info.get('description') or name}: ours (the interval "
                              f"judged) and the paper's value",
                        interval="interval judged (95%, or its stop rule's level)")
            res.images.append(e.forest_image)
    for s in m.sweeps:
        plot_sweep(s.sweep, docs / s.image)
        res.images.append(s.image)
    (docs / f"{page.id}.md").write_text(res.markdown, encoding="utf-8")
    return res


RECORD_FILE = "record.json"       # what the index keeps of every page, page by page


def load_record(docs: Path) -> dict[str, dict]:
    """{page id: summary} of the record in `docs` (empty when there is none)."""
    from mcts_arena.errors import UserError

    f = docs / RECORD_FILE
    if not f.exists():
        return {}
    try:
        data = json.loads(inputs.read_text(f, "the record's index (JSON)"))
        pages = data["pages"]
        if not isinstance(pages, dict):
            raise ValueError("pages is not a mapping")
        return pages
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise UserError(f"{f}: not a record index this tool wrote ({e}); move it aside") from None


def check_overwrite(docs: Path, page_ids: list[str], effort: float, replace: bool) -> None:
    """Refuse (UserError, before anything is played or written) to write pages into `docs`
    over a record made at another scale, unless `replace`: a quick run in a clone must not
    rewrite the committed record. Pages of the same scale are updated in place; the other
    pages and their index rows are always kept."""
    from mcts_arena.errors import UserError

    if replace or not docs.exists():
        return
    if not docs.is_dir():
        raise UserError(f"--docs {docs}: is a file, expected a folder for the record's pages")
    record = load_record(docs)
    if not record and (docs / "index.md").exists():
        raise UserError(f"{docs} holds a record written without {RECORD_FILE} (its scale is "
                        f"unknown); write elsewhere with --docs DIR, or over it with "
                        f"--replace-record")
    for pid in page_ids:
        old = record.get(pid, {}).get("effort")
        if old is not None and abs(old - effort) > 1e-12:
            raise UserError(f"{docs}/{pid}.md was played at scale {old:g}, this run is at "
                            f"{effort:g}; write elsewhere with --docs DIR, or over it with "
                            f"--replace-record")


def write_index(results: list[PageResult], docs: Path, order: list[str], effort: float,
                notes: str = "") -> Path:
    """docs/index.md from the pages just written and those the record already had (kept as
    they were, from record.json): per page its scale, games, judged and informative rows,
    median interval width, median power and verdict counts, and the command that played it."""
    record = load_record(docs)
    for r in results:
        record[r.id] = {**r.summary(), "effort": effort}
    ids = [i for i in order if i in record] + sorted(i for i in record if i not in order)
    pages = [(i, record[i]) for i in ids]
    rows = sum(p["rows"] for _, p in pages)
    inf = sum(p["informative"] for _, p in pages)
    columns = [("sides", k) for k in SIDES] + [("values", k) for k in VALUES] + \
        [("unjudged", k) for k in UNJUDGED]
    counted = [p for _, p in pages if "sides" in p]
    total = no_counts()
    for key, k in columns:
        total[key][k] = sum(p[key].get(k, 0) for p in counted)

    def num(x, fmt):
        return "—" if x is None else fmt.format(x)

    def cells(p):
        if "sides" not in p:       # an entry that holds one combined verdict per row
            return ["—"] * len(columns)
        return [str(p[key].get(k, 0)) for key, k in columns]

    heads = [f"side {k}" for k in SIDES] + [f"value {VALUE_TEXT[k]}" for k in VALUES] + \
        list(UNJUDGED)
    lines = ["# The paper reproduced", "",
             "Lanctot, Winands, Pepels & Sturtevant, *Monte Carlo Tree Search with Heuristic "
             "Evaluations using Implicit Minimax Backups* (2014, arXiv:1406.0486), replayed by "
             "mcts_arena. Each page says the command that played it; the table below gives, per "
             "page, the scale (a fraction of the paper's search effort, as matched effort), the "
             "games stored, how many judged rows have a judged interval that excludes 50% "
             "(informative), their median interval width, the median power to detect the "
             "paper's effect at the games counted, and the verdicts (values at the paper's own "
             "effort only).", "",
             f"- last game played: "
             f"{max((p['written'] for _, p in pages if p['written'] != '—'), default='—')}",
             f"- games stored: {sum(p['games'] for _, p in pages)}", "",
             f"**Totals**: {inf} of {rows} judged rows informative; {counts_text(total)}"
             + (f" (over {len(counted)} of {len(pages)} pages: the others hold one combined "
                f"verdict per row, shown —)" if len(counted) < len(pages) else ""), "",
             "| page | scale | games | informative | median width (points) | median power | "
             + " | ".join(heads) + " |",
             "|---|---|---|---|---|---|" + "---|" * len(heads)]
    for i, p in pages:
        lines.append(f"| [{p['title']}]({i}.md) | {p.get('effort', 0):g} | {p['games']} | "
                     f"{p['informative']} of {p['rows']} | {num(p['median_width'], '{:.1f}')} | "
                     f"{num(p['median_power'] and 100 * p['median_power'], '{:.0f}%')} | "
                     + " | ".join(cells(p)) + " |")
    lines += ["", "| page | played by | last game |", "|---|---|---|"]
    for i, p in pages:
        lines.append(f"| {i} | `{p['command']}` | {p['written']} |")
    lines += ["", VERDICT_LEGEND + " The interval judged is the seat-swapped pairs' "
              "(pentanomial) where both games of a pair are counted, the paper's pair rule in "
              "Kalah, else the games'. Figure points (and the best-α rows) count only inside the "
              "α range the paper names as best. The value columns count the pages at the "
              "paper's own effort (scale 1) alone. Power: the chance that a test at the judged "
              "interval's level rejects 50% at the games counted if the paper's win rate were "
              "true (normal approximation).", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    (docs / RECORD_FILE).write_text(json.dumps({"pages": record}, indent=1, sort_keys=True)
                                    + "\n", encoding="utf-8")
    p = docs / "index.md"
    p.write_text("\n".join(lines), encoding="utf-8")
    return p


def _remove_stale_pictures(docs: Path, before: dict[str, dict],
                           results: list[PageResult]) -> None:
    """Delete the pictures a rewritten page drew last time and no longer draws (a bracket whose
    rounds changed plots other curves), so that a page's folder holds what its renderer writes
    and nothing older. Only files the record's index lists for that page are touched; a file
    another page lists, or one just written, is kept."""
    written = {r.id for r in results}
    keep = {img for r in results for img in r.images}
    keep |= {img for pid, p in before.items() if pid not in written
             for img in p.get("images", [])}
    for r in results:
        for img in set(before.get(r.id, {}).get("images", [])) - keep:
            (docs / Path(img).name).unlink(missing_ok=True)


def write_record(pages, docs: Path, command: str, scale_text: str, order: list[str],
                 effort: float) -> tuple[Path, int]:
    """The pages of a reproduction and the index into `docs`: `pages` holds (page, results
    directories, the paper's seconds per experiment) as runner/reproduce.py's Record lists
    them; the index keeps the rows of the record's other pages (`order`: the manifest's page
    ids). Returns the index's path and the number of pages written."""
    docs = Path(docs)
    docs.mkdir(parents=True, exist_ok=True)
    before = load_record(docs)
    results = [write_page(page, list(dirs), seconds, docs, command, scale_text, effort)
               for page, dirs, seconds in pages]
    _remove_stale_pictures(docs, before, results)
    notes = docs / "notes.md"
    idx = write_index(results, docs, list(order), effort,
                      "See [notes.md](notes.md) for what departs from the paper and why."
                      if notes.exists() else "")
    return idx, len(results)
