"""Writers for `arena report`: text, markdown, csv, latex, html, json.

Each takes a `tables.Report` (plots already written, so `Sweep.plot` holds their paths) and
returns the document as a string. `html` is one self-contained page: tables, brackets and the
plots embedded as base64 PNGs. `json` is the documented list of rows of `tables` (one per
pairing); `csv` is the same rows flattened to one line each.
"""
from __future__ import annotations

import base64
import html
import json
import math
import os
from pathlib import Path

import pandas as pd

from mcts_arena import budgets
from mcts_arena.report import scaling
from mcts_arena.report.pairing_row import PairingRow, row_fields, work_differs, work_text
from mcts_arena.report.tables import Report
from mcts_arena.results import aggregates, luck
from mcts_arena.results.standings import UNDEFINED

# ---- cells ---------------------------------------------------------------------------------
NONE = "—"      # a cell with no number: no games, so no percentage


def _pct(x: float | None, digits: int = 2) -> str:
    return NONE if x is None else f"{100 * x:.{digits}f}"


def _score_cell(r: PairingRow) -> str:
    if not r["games"] or r["score"] is None:
        return NONE
    return f"{_pct(r['score'])} [{_pct(r['ci_low'], 1)}, {_pct(r['ci_high'], 1)}]"


def _elo_cell(r: PairingRow) -> str:
    """The Elo difference and its interval (the score's, through the Elo function), or the
    one-sided bound at a score of 0 or 1 (results.standings.elo_interval_text)."""
    return r["elo_text"] if r["games"] else NONE




MAIN_HEAD = ("pairing", "games", "W", "D", "L", "score % [95% CI]", "Elo", "LOS %",
             "1st W/n", "2nd W/n", "plies", "sims/move P / O", "s/move P / O", "err", "forfeit")


def _time_cell(r: PairingRow) -> str:
    def one(v):
        return "-" if v is None else f"{v:.3g}"
    return f"{one(r.get('player_time'))} / {one(r.get('opponent_time'))}"


def main_head() -> tuple[str, ...]:
    """MAIN_HEAD and a column per statistic shown in one of its own (results/aggregates.py)."""
    return MAIN_HEAD + tuple(s.heading for s in aggregates.shown())


def main_cells(r: PairingRow) -> list[str]:
    return _main_cells(r) + aggregates.cells(r)


def _main_cells(r: PairingRow) -> list[str]:
    return [f"{r['player']} vs {r['opponent']}", str(r["games"]), str(r["wins"]),
            str(r["draws"]), str(r["losses"]), _score_cell(r), _elo_cell(r),
            NONE if r["los"] is None else f"{100 * r['los']:.1f}",
            f"{r['wins_first']}/{r['games_first']}",
            f"{r['wins_second']}/{r['games_second']}",
            "-" if r["avg_plies"] is None else f"{r['avg_plies']:.1f}", work_text(r),
            _time_cell(r), str(r["errors"]), str(r["time_forfeits"] + r.get("illegal_moves", 0))]


PAIR_HEAD = ("pairing", "pair rule W-D-L", "discarded", "pair-rule win % [95% CI]")


def pair_cells(r: PairingRow) -> list[str]:
    p = r["pairs"]
    n = p["won"] + p["lost"]
    cell = NONE if not n else \
        f"{_pct(p['score'])} [{_pct(p['ci_low'], 1)}, {_pct(p['ci_high'], 1)}]"
    return [f"{r['player']} vs {r['opponent']}", f"{p['won']}-{p['drawn']}-{p['lost']}",
            str(p["discarded"]), cell]


PENTA_HEAD = ("pairing", "pairs", "pentanomial LL-LD-WL/DD-WD-WW", "pentanomial score % [95% CI]",
              "pentanomial Elo")


def penta_cells(r: PairingRow) -> list[str]:
    """A row's seat-swapped pair statistics (the pentanomial of its complete pairs)."""
    pe = r.get("pentanomial")
    if not pe:
        return [f"{r['player']} vs {r['opponent']}", "0", NONE, NONE, NONE]
    score = f"{_pct(r['pair_score'])} [{_pct(r['pair_ci_low'], 1)}, {_pct(r['pair_ci_high'], 1)}]"
    return [f"{r['player']} vs {r['opponent']}", str(r["pair_games"] // 2),
            "-".join(str(c) for c in pe), score, r["pair_elo_text"]]


_PENTA_NOTE = ("Seat-swapped pairs (both games of a pair counted), by the player's score in the "
               "pair: LL, LD, WL or DD, WD, WW; interval: the pentanomial's likelihood-ratio "
               "interval, the one verdicts use where pairs exist")


def _paired(rows: list[PairingRow]) -> list[PairingRow]:
    return [r for r in rows if r.get("pentanomial")]


def _build_notes(rows: list[PairingRow]) -> list[str]:
    """One line naming the build behind every game, or, when builds are mixed, the builds
    behind each pairing (a run joined them with --allow-mixed-builds)."""
    every = {b for r in rows for b in (r.get("builds") or {})}
    if not every:
        return []
    if len(every) == 1:
        return [f"every game played by build {next(iter(every))}"]
    out = ["builds are mixed (a resumed run joined them with --allow-mixed-builds):"]
    for r in rows:
        if r.get("builds"):
            out.append(f"  {r['player']} vs {r['opponent']}: "
                       + ", ".join(f"{b} ({n} games)" for b, n in r["builds"].items()))
    return out


CMP_HEAD = ("pairing", "ours % [95% CI]", "basis", "our games", "our budget", "paper %",
            "paper games", "paper s/move", "source", "verdict")


def cmp_cells(c: dict) -> list[str]:
    ours = NONE if c["ours_pct"] is None else \
        f"{c['ours_pct']:.2f} [{c['ci_low_pct']:.1f}, {c['ci_high_pct']:.1f}]"
    return [f"{c['player']} vs {c['opponent']}", ours, c.get("basis") or NONE,
            str(c["games"]), c["budget"], f"{c['paper_win_pct']:.2f}",
            "?" if c["paper_games"] is None else str(c["paper_games"]),
            "?" if c["paper_seconds"] is None else f"{c['paper_seconds']:g}",
            c["paper_table"], c["verdict"] or c.get("note") or NONE]


def _relative(path: str | Path, base: str | Path | None) -> str:
    """`path` as the document names it: relative to `base` (the folder the document is read
    from; None: the current directory), so a report moved with its pictures, or pasted into a
    paper's sources, never embeds this machine's absolute paths."""
    return Path(os.path.relpath(Path(path).resolve(), Path(base or ".").resolve())).as_posix()


def _header_line(info: dict, base: str | Path | None = None) -> str:
    per_move = "" if info["budget"].startswith("clock ") else "/move"
    line = (f"{info['experiment']}: {info['game']}, {info['budget']}{per_move}, openings "
            f"{info['openings']}, seed {info['seed']}, {info['games_stored']} games stored "
            f"({_relative(info['directory'], base)})")
    if info.get("sprt"):
        s = info["sprt"]
        line += (f"; SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} "
                 f"beta={s['beta']:g}")
    return line


def _notes(rows: list[PairingRow]) -> list[str]:
    out = []
    if any(work_differs(r) for r in rows):
        out.append(f"sims/move P / O (n: nodes): {budgets.WORK_NOTE}")
    for r in rows:
        if r["sprt"]:
            out.append(f"{r['player']} vs {r['opponent']}: {r['sprt']['text']}")
    return out


_FAR = ("when our budget is more than a factor 2 from the paper's seconds per move, or in "
        "simulations ('budget differs')")


def _pictures(report: Report) -> list[tuple[str, str]]:
    """(title, path) of every picture written for the report: figures, then sweeps; paths
    relative to `report.base` (see _relative)."""
    pics = list(report.figures) + [(sw.title, sw.plot) for sw in report.sweeps if sw.plot]
    return [(title, _relative(path, report.base)) for title, path in pics]


_BASIS_CI = {"pairs": "basis pairs: the pentanomial's likelihood-ratio interval over the "
                       "seat-swapped pairs",
             "pair rule": "basis pair rule: that interval over the decisive pairs"}


def _ci_note(report: Report) -> str:
    """The footer: the per-game interval, and that of each basis the comparison with the paper
    uses where it is not the games' (its `basis` column)."""
    text = {"auto": "CI: Wilson below 100 games, Wald (the paper's) from 100",
            "wald": "CI: Wald (normal approximation, the paper's)",
            "wilson": "CI: Wilson score interval"}[report.ci]
    bases = {c.get("basis") for c in report.comparisons or ()}
    return "; ".join([text] + [note for basis, note in _BASIS_CI.items() if basis in bases])


# ---- text and markdown ---------------------------------------------------------------------
def _text_table(head, rows) -> list[str]:
    widths = [max(len(str(h)), *(len(c[i]) for c in rows)) if rows else len(h)
              for i, h in enumerate(head)]
    def fmt(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    line = fmt(list(head))
    return [line, "-" * len(line)] + [fmt(c) for c in rows]


RATING_HEAD = ["player", "Elo", "± 95%", "games"]


def rating_cells(x: dict) -> list[str]:
    err = UNDEFINED if x["error"] is None else f"{x['error']:.1f}"
    return [x["name"], f"{x['elo'] + 0.0:+.1f}", err, str(x["games"])]


def _more_tables(e) -> list[tuple[str, list[str], list[list[str]]]]:
    """The tables after an experiment's main ones: each side's budget where a pairing's
    differ from the experiment's (time odds, a player's own budget or clock), the luck-adjusted
    results of a backgammon experiment (results/luck.py), every doubling ladder's
    (report/scaling.py)."""
    sides = [(r, budgets.text(r["player_budget"]), budgets.text(r["opponent_budget"]))
             for r in e.rows]
    # (a matched effort resolved into an engine's simulations is the experiment's effort)
    own = [[f"{r['player']} vs {r['opponent']}", p, o] for r, p, o in sides
           if any(t.split(" = ")[0] != e.info["budget"] for t in (p, o))]
    out = [("Budgets of the pairings that differ from the experiment's (per move, or each "
            "side's clock)", ["pairing", "player's budget", "opponent's budget"], own)] \
        if own else []
    if e.luck is not None:
        out += luck.tables(e.luck)
    return out + [t for sc in e.scaling for t in scaling.tables(sc)]


# ---- a results root's index ----------------------------------------------------------------
INDEX_HEAD = ["experiment", "game", "kind", "games", "pairings", "state"]


def index_cells(x: dict) -> list[str]:
    """One store of a root's index: its path under the root, game, kind (a tune with its
    method), games stored (of those planned), pairings, state (and why it is unreadable)."""
    kind = x.get("kind") or "experiment"
    if kind == "tune" and x.get("tune"):
        kind = f"tune ({x['tune'].get('method')})"
    games = f"{x.get('stored', 0):,}"
    if x.get("planned") and x["planned"] != x.get("stored"):
        games += f" of {x['planned']:,}"
    state = x.get("state") or ""
    if x.get("error"):
        state += f": {x['error']}"
    return [x["id"], x.get("game") or "-", kind, games, str(x.get("pairings", 0)), state]


def _index_caption(index: list[dict]) -> str:
    roots = sorted({x["root"] for x in index})
    return (f"results root{'s' if len(roots) > 1 else ''} {', '.join(roots)}: "
            f"{len(index)} experiment{'s' if len(index) != 1 else ''}")


def index_text(index: list[dict]) -> str:
    """A root's index as text (what `arena report ROOT` prints first)."""
    return "\n".join([_index_caption(index) + ":",
                      *_text_table(INDEX_HEAD, [index_cells(x) for x in index])]) + "\n\n"


def index_json(x: dict) -> dict:
    """One store of the index as `--format json` gives it."""
    return {"experiment": x.get("name"), "id": x["id"], "root": x["root"],
            "directory": x["directory"], "game": x.get("game"), "kind": x.get("kind"),
            "games": x.get("stored", 0), "planned": x.get("planned", 0),
            "errors": x.get("errors", 0), "pairings": x.get("pairings", 0),
            "state": x.get("state"), "error": x.get("error"), "tune": x.get("tune")}


def render_text(report: Report) -> str:
    out: list[str] = []
    for e in report.experiments:
        out.append(_header_line(e.info, report.base))
        out += _text_table(main_head(), [main_cells(r) for r in e.rows])
        paired = [r for r in e.rows if r["pairs"]]
        if paired:
            out.append("")
            out.append("Kalah pair rule (a pair counts when one side won one game and at least "
                       "drew the other; the same seat winning both is discarded):")
            out += _text_table(PAIR_HEAD, [pair_cells(r) for r in paired])
        if _paired(e.rows):
            out += ["", _PENTA_NOTE + ":"]
            out += _text_table(PENTA_HEAD, [penta_cells(r) for r in _paired(e.rows)])
        out += _notes(e.rows) + _build_notes(e.rows)
        if e.ratings:
            out += ["", "Bradley–Terry Elo (mean 0, 95% interval) from every pairing above:"]
            out += _text_table(RATING_HEAD, [rating_cells(x) for x in e.ratings])
        for caption, head, rows in _more_tables(e):
            out += ["", caption + (":" if head else "")]
            out += _text_table(head, rows) if head else []
        if e.tournament:
            out += ["", e.tournament.rstrip()]
        out.append("")
    for sw in report.sweeps:
        points = ", ".join(f"{k} ({len(v)} points)" for k, v in sw.curves.items())
        out.append(f"sweep {sw.title}: {points}"
                   + (f"; plot {sw.plot}" if sw.plot else ""))
    for title, path in report.figures:
        out.append(f"figure {title}: {path}")
    if report.comparisons is not None:
        out.append("")
        out.append("Compared with the paper (win % of the first player; verdict: does our CI "
                   f"contain the paper's value? none without games or {_FAR}):")
        if report.comparisons:
            out += _text_table(CMP_HEAD, [cmp_cells(c) for c in report.comparisons])
        else:
            out.append("no pairing matches a published result")
    out.append(_ci_note(report))
    return "\n".join(out).rstrip() + "\n"


def _md_escape(s: str) -> str:
    return s.replace("|", "\\|")


def _md_table(head, rows) -> list[str]:
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    out += ["| " + " | ".join(_md_escape(c) for c in r) + " |" for r in rows]
    return out


def render_markdown(report: Report) -> str:
    out: list[str] = []
    if report.index is not None:
        out += [f"## {_index_caption(report.index)}", ""]
        out += _md_table(INDEX_HEAD, [index_cells(x) for x in report.index]) + [""]
    for e in report.experiments:
        out += [f"## {e.info['experiment']}", "", _header_line(e.info, report.base), ""]
        out += _md_table(main_head(), [main_cells(r) for r in e.rows])
        paired = [r for r in e.rows if r["pairs"]]
        if paired:
            out += ["", "Kalah pair rule:", ""]
            out += _md_table(PAIR_HEAD, [pair_cells(r) for r in paired])
        if _paired(e.rows):
            out += ["", _PENTA_NOTE + ":", ""]
            out += _md_table(PENTA_HEAD, [penta_cells(r) for r in _paired(e.rows)])
        notes = _notes(e.rows) + _build_notes(e.rows)
        if notes:
            out += [""] + [f"- {n}" for n in notes]
        if e.ratings:
            out += ["", "Bradley–Terry Elo (mean 0, 95% interval) from every pairing above:", ""]
            out += _md_table(RATING_HEAD, [rating_cells(x) for x in e.ratings])
        for caption, head, rows in _more_tables(e):
            out += ["", caption + (":" if head else ""), ""]
            out += _md_table(head, rows) if head else []
        if e.tournament:
            out += ["", "```", e.tournament.rstrip(), "```"]
        out.append("")
    for title, path in _pictures(report):
        out += [f"![{_md_escape(title)}]({path})", ""]
    if report.comparisons is not None:
        out += ["## Compared with the paper", "", f"No verdict without games or {_FAR}.", ""]
        out += _md_table(CMP_HEAD, [cmp_cells(c) for c in report.comparisons]) \
            if report.comparisons else ["No pairing matches a published result."]
        out.append("")
    out.append(_ci_note(report))
    return "\n".join(out).rstrip() + "\n"


# ---- json and csv --------------------------------------------------------------------------
def json_rows(report: Report) -> list[dict]:
    keys = row_fields() + (("paper",) if report.comparisons is not None else ())
    return [{k: r.get(k) for k in keys} for r in report.rows]


def render_json(report: Report) -> str:
    """The pairings' rows, then one object per doubling ladder, `{"experiment": NAME,
    "scaling": FIT}` (report/scaling.py, Scaling.as_dict), where an experiment has ladders,
    and one per tune, `{"experiment": NAME, "tune": PANEL}` (results/tune.py's `panel`: the
    value found with its range, the path or trials, the confirmation and its SPRT), and one
    per backgammon experiment, `{"experiment": NAME, "luck": LUCK}` (results/luck.py's
    `panel`: the stored gnubg analysis of each pairing, or a note that there is none); a results
    root's report begins with `{"index": [...]}`, one object per store (`index_json`)."""
    def clean(v):
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        if isinstance(v, list):
            return [clean(x) for x in v]
        return v
    fits = [{"experiment": e.info.get("experiment"), "scaling": sc.as_dict()}
            for e in report.experiments for sc in e.scaling]
    fits += [{"experiment": e.info.get("experiment"), "tune": e.tune}
             for e in report.experiments if e.tune is not None]
    fits += [{"experiment": e.info.get("experiment"), "luck": e.luck}
             for e in report.experiments if e.luck is not None]
    index = [] if report.index is None else [{"index": [index_json(x) for x in report.index]}]
    return json.dumps(clean(index + json_rows(report) + fits), indent=2, ensure_ascii=False) + "\n"


def flat_row(r: PairingRow) -> dict:
    out = {}
    for k in row_fields():
        v = r.get(k)
        if k in ("player_budget", "opponent_budget"):
            out[k] = json.dumps(v, sort_keys=True) if v else ""
        elif k == "pairs":
            for f in ("won", "drawn", "lost", "discarded", "score", "ci_low", "ci_high"):
                out[f"pairs_{f}"] = "" if v is None else v[f]
        elif k == "pentanomial":
            for i, f in enumerate(("ll", "ld", "wl_dd", "wd", "ww")):
                out[f"pairs_{f}"] = "" if not v else v[i]
        elif k == "judged":
            for f in ("basis", "score", "ci_low", "ci_high", "n"):
                out[f"judged_{f}"] = "" if v is None else v[f]
        elif k == "builds":
            out[k] = " ".join(f"{b}:{n}" for b, n in (v or {}).items())
        elif k == "precision":
            for f in ("games", "stop", "half_width"):
                out[f"precision_{f}"] = "" if v is None or v.get(f) is None else v[f]
        elif k == "sprt":
            for f in ("decision", "games", "llr"):
                out[f"sprt_{f}"] = "" if v is None or v.get(f) is None else v[f]
        elif k == "sweep":
            out["sweep_param"] = "" if v is None else v["param"]
            out["sweep_value"] = "" if v is None else v["value"]
        else:
            out[k] = "" if v is None else v
    if "paper" in r:
        first = r["paper"][0] if r["paper"] else None
        for f in ("table", "win_pct", "games", "seconds", "verdict", "comparable", "note",
                  "basis"):
            out[f"paper_{f}"] = "" if first is None or first.get(f) is None else first[f]
    return out


def flat_rows(report: Report) -> list[dict]:
    """The report's rows flattened to one level (the CSV's columns), one per pairing."""
    return [flat_row(r) for r in report.rows]


def report_frame(paths: list, ci: str = "auto",
                 compare: str | None = None) -> pd.DataFrame:
    """The rows of `arena report PATH...` as a DataFrame (one per pairing, the CSV's columns):
    what a notebook gets instead of the command's output."""
    from mcts_arena.report.tables import build_report

    return pd.DataFrame(flat_rows(build_report([str(p) for p in paths], ci=ci,
                                               compare=compare)))


def render_csv(report: Report) -> str:
    """The flat rows through pandas (`DataFrame.to_csv`): `report_frame` is the same
    table as a DataFrame."""
    rows = flat_rows(report)
    if not rows:
        return ""
    return pd.DataFrame(rows).to_csv(index=False, lineterminator="\n")


# ---- latex ---------------------------------------------------------------------------------
_TEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
        "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
        "α": r"$\alpha$", "β": r"$\beta$", "ε": r"$\varepsilon$", "±": r"$\pm$",
        "≥": r"$\geq$", "≤": r"$\leq$", "∞": r"$\infty$", "◆": r"$\blacklozenge$", "–": "--",
        "—": "---"}


def tex(s: str) -> str:
    return "".join(_TEX.get(ch, ch) for ch in s)


def _tex_table(head, rows, caption: str) -> list[str]:
    """A table through pandas (`DataFrame.to_latex`, booktabs rules), cells escaped by `tex`."""
    df = pd.DataFrame([[tex(c) for c in r] for r in rows], columns=[tex(h) for h in head])
    text = df.to_latex(index=False, escape=False, column_format="l" + "r" * (len(head) - 1),
                       caption=tex(caption), position="ht")
    return text.replace("\\begin{tabular}", "\\small\n\\centering\n\\begin{tabular}",
                        1).splitlines() + [""]


def render_latex(report: Report) -> str:
    out = [f"% arena report; {tex(_ci_note(report))}",
           r"% tables need \usepackage{booktabs}; figures \usepackage{graphicx}"]
    head = ("pairing", "games", "W", "D", "L", "win % [95% CI]", "Elo", "LOS %")
    for e in report.experiments:
        rows = [main_cells(r)[:8] for r in e.rows]
        out += _tex_table(head, rows, _header_line(e.info, report.base))
        paired = [r for r in e.rows if r["pairs"]]
        if paired:
            out += _tex_table(PAIR_HEAD, [pair_cells(r) for r in paired],
                              f"{e.info['experiment']}: Kalah pair rule")
        if _paired(e.rows):
            out += _tex_table(PENTA_HEAD, [penta_cells(r) for r in _paired(e.rows)],
                              f"{e.info['experiment']}: seat-swapped pairs")
        for caption, head, rows in _more_tables(e):
            out += _tex_table(head, rows, caption) if head else [f"% {tex(caption)}", ""]
        if e.tournament:
            out += [r"\begin{verbatim}", e.tournament.rstrip(), r"\end{verbatim}", ""]
    for title, path in _pictures(report):
        out += [r"\begin{figure}[ht]", r"\centering",
                f"\\includegraphics[width=0.8\\textwidth]{{{path}}}",
                f"\\caption{{{tex(title)}}}", r"\end{figure}", ""]
    if report.comparisons:
        out += _tex_table(CMP_HEAD, [cmp_cells(c) for c in report.comparisons],
                          "Compared with the paper")
    return "\n".join(out).rstrip() + "\n"


# ---- html ----------------------------------------------------------------------------------
_CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:0.9em}
th,td{border:1px solid #ccc;padding:3px 8px;text-align:right;white-space:nowrap}
.scroll{overflow-x:auto;max-width:100%}
th:first-child,td:first-child{text-align:left}th{background:#f2f2f2}
pre{background:#f8f8f8;padding:1em;border:1px solid #ddd;overflow-x:auto}img{max-width:100%}
.note{color:#555}p,h1,h2{overflow-wrap:anywhere}
@media (max-width:600px){body{margin:0.6em}table{font-size:0.8em}pre{padding:0.5em}}"""


def _html_table(head, rows) -> str:
    h = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>"
                   for r in rows)
    # a wide table scrolls inside its box and never wraps a value mid-interval
    return (f'<div class="scroll"><table><thead><tr>{h}</tr></thead><tbody>{body}</tbody>'
            f"</table></div>")


def _html_index(index: list[dict], experiments) -> str:
    """The root's index as a table whose experiments link to their sections of the page."""
    section = {str(Path(e.info.get("directory", ""))): f"exp-{i}"
               for i, e in enumerate(experiments)}
    rows = []
    for x in index:
        cells = [html.escape(c) for c in index_cells(x)]
        anchor = section.get(str(Path(x["directory"])))
        if anchor:
            cells[0] = f'<a href="#{anchor}">{cells[0]}</a>'
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    h = "".join(f"<th>{html.escape(c)}</th>" for c in INDEX_HEAD)
    return (f'<div class="scroll"><table><thead><tr>{h}</tr></thead><tbody>{"".join(rows)}'
            f"</tbody></table></div>")


def render_html(report: Report) -> str:
    # the viewport line: a phone lays the page out at its own width (else at 980 px, shrunk)
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             "<title>arena report</title>", f"<style>{_CSS}</style></head><body>",
             "<h1>arena report</h1>"]
    if report.index is not None:
        parts.append(f"<h2>{html.escape(_index_caption(report.index))}</h2>")
        parts.append(_html_index(report.index, report.experiments))
    for i, e in enumerate(report.experiments):
        parts.append(f'<h2 id="exp-{i}">{html.escape(e.info["experiment"])}</h2>')
        parts.append(f'<p class="note">{html.escape(_header_line(e.info, report.base))}</p>')
        parts.append(_html_table(main_head(), [main_cells(r) for r in e.rows]))
        paired = [r for r in e.rows if r["pairs"]]
        if paired:
            parts.append("<p>Kalah pair rule:</p>")
            parts.append(_html_table(PAIR_HEAD, [pair_cells(r) for r in paired]))
        if _paired(e.rows):
            parts.append(f"<p>{html.escape(_PENTA_NOTE)}:</p>")
            parts.append(_html_table(PENTA_HEAD, [penta_cells(r) for r in _paired(e.rows)]))
        for n in _notes(e.rows) + _build_notes(e.rows):
            parts.append(f"<p>{html.escape(n)}</p>")
        if e.ratings:
            parts.append("<p>Bradley–Terry Elo (mean 0, 95% interval) from every pairing "
                         "above:</p>")
            parts.append(_html_table(RATING_HEAD, [rating_cells(x) for x in e.ratings]))
        for caption, head, rows in _more_tables(e):
            parts.append(f"<p>{html.escape(caption)}</p>")
            if head:
                parts.append(_html_table(head, rows))
        if e.tournament:
            parts.append(f"<pre>{html.escape(e.tournament.rstrip())}</pre>")
    pics = [(t, p) for t, p in list(report.figures) + [(sw.title, sw.plot) for sw in
                                                        report.sweeps if sw.plot]
            if Path(p).exists()]
    if pics:
        parts.append("<h2>Pictures</h2>")
    for title, path in pics:
        data = base64.b64encode(Path(path).read_bytes()).decode("ascii")
        parts.append(f"<h3>{html.escape(title)}</h3>")
        mime = "image/svg+xml" if Path(path).suffix == ".svg" else "image/png"
        parts.append(f'<img alt="{html.escape(title)}" src="data:{mime};base64,{data}">')
    if report.comparisons is not None:
        parts.append("<h2>Compared with the paper</h2>")
        parts.append(f'<p class="note">No verdict without games or {html.escape(_FAR)}.</p>')
        parts.append(_html_table(CMP_HEAD, [cmp_cells(c) for c in report.comparisons])
                     if report.comparisons else "<p>No pairing matches a published result.</p>")
    parts.append(f'<p class="note">{html.escape(_ci_note(report))}</p></body></html>')
    return "\n".join(parts) + "\n"


WRITERS = {"text": render_text, "markdown": render_markdown, "csv": render_csv,
           "latex": render_latex, "html": render_html, "json": render_json}
#: The formats `arena report --format` offers: one per writer.
FORMATS = tuple(WRITERS)


def render(report: Report, fmt: str) -> str:
    if fmt not in WRITERS:
        raise ValueError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")
    return WRITERS[fmt](report)
