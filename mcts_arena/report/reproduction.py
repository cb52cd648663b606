"""The reproduction record: one Markdown page per table or figure of the paper, ours beside the
paper's, with a verdict per row, and an index with the count of each verdict.

Read-only over the results stores (it goes through `build_report`, like `arena report`).

Verdicts (a row is one pairing; the paper's row is the one at the budget the experiment stands
for — a scaled-down run of the 1 s table is compared with the paper's 1 s numbers only):

    consistent       the paper's win rate lies inside our 95% interval
    same direction   outside it, but ours and the paper's are on the same side of 50%
    opposite         ours and the paper's are on opposite sides of 50%
    level            outside it, and ours is exactly 50% (no side)
    no games         nothing counted yet: no percentage is shown
    no paper row     the paper publishes no number for this pairing at this budget

A tournament's matches get no verdict: the paper prints only its brackets, and the page shows
ours beside the paper's winner.

Kalah rows are scored by the paper's pair rule (a pair of games on one board with seats
swapped; decisive pairs only), as the paper scores them; the page states the unit and shows
both bases (per game and per pair) with the paper's decisive counts beside ours. A figure has
no published numbers, only the α range the paper reads as best; each of our sweep points inside
that range counts as "same direction" when our win rate is above 50% (the paper's claim) and
"opposite" when below, once: a point whose games are also a row of the paper's tables is judged
there, against the table's value, and not counted again. A table's rows that an experiment does
not play are named on its page, with the paper data's note on why.
"""
from __future__ import annotations

import datetime as _dt
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from mcts_arena import inputs, stats
from mcts_arena.report.tables import build_report, builds_text, strip_budget

VERDICTS = ("consistent", "same direction", "opposite", "level", "no games", "no paper row")
COUNTED = VERDICTS[:4]


def classify(ours_pct: float | None, lo_pct: float | None, hi_pct: float | None,
             paper_pct: float | None) -> str:
    """The verdict of one row (percentages)."""
    if ours_pct is None:
        return "no games"
    if paper_pct is None:
        return "no paper row"
    if lo_pct - 1e-9 <= paper_pct <= hi_pct + 1e-9:
        return "consistent"
    side = (ours_pct - 50.0) * (paper_pct - 50.0)
    if side > 0:
        return "same direction"
    return "opposite" if side < 0 or paper_pct == 50.0 else "level"


@dataclass
class PageResult:
    id: str
    title: str
    markdown: str
    counts: dict[str, int] = field(default_factory=dict)
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
                "games": self.games, "counts": self.counts, "rows": len(self.judged),
                "informative": sum(bool(j["informative"]) for j in self.judged),
                "median_width": _median(widths), "median_power": _median(powers),
                "written": _utc(self.last_game)}


def _utc(t: float | None) -> str:
    """A stored game's time as the pages print it: what a page says depends on its games only,
    so the same games always give the same page, byte for byte."""
    if t is None:
        return "—"
    return f"{_dt.datetime.fromtimestamp(t, _dt.UTC):%Y-%m-%d %H:%M} UTC"


def _median(xs: list[float]) -> float | None:
    if not xs:
        return None
    xs = sorted(xs)
    m = len(xs) // 2
    return xs[m] if len(xs) % 2 else (xs[m - 1] + xs[m]) / 2


#: The z of the power column: Z95 to six places, as the published record computed it (its
#: record.json keeps the median power to every digit).
POWER_Z = round(stats.Z95, 6)


def power(paper_pct: float | None, n: int | None, z: float = POWER_Z) -> float | None:
    """The chance that a two-sided 95% test of "no effect" (50%) rejects it with `n` trials
    when the true win rate is the paper's: the normal approximation of the binomial, variance
    1/4 under no effect and p(1-p) under the paper's p. `n` is what the verdict counts (games,
    games of complete pairs, or decisive pairs under the pair rule). It ignores the variance
    seat-swapped pairs remove, so it is, if anything, low for pair-judged rows. None without a
    paper value or games."""
    from scipy.stats import norm

    if paper_pct is None or not n:
        return None
    p = min(max(paper_pct / 100.0, 1e-6), 1 - 1e-6)
    d, sd = abs(p - 0.5) * math.sqrt(n), math.sqrt(p * (1 - p))
    return float(norm.cdf((d - z * 0.5) / sd) + norm.cdf((-d - z * 0.5) / sd))


def _pct(x: float | None, d: int = 1) -> str:
    return "—" if x is None else f"{x:.{d}f}"


def _side_budget(b: dict | None, work: float | None, unit: str | None) -> str:
    if not b:
        return "?"
    if b.get("time") is not None:
        return f"{b['time']:g} s"
    n = b.get("sims")
    u = b.get("unit", "sims")
    mean = f", {work:,.0f} {unit}/move used" if work is not None and unit else ""
    return f"{n:,} {u}{mean}" if n is not None else "?"


def _ours(row: dict) -> tuple[float | None, float | None, float | None, str]:
    """(score %, low %, high %, basis) of a row as its verdict judges it (`tables.judged`):
    the pair rule for games scored by pairs (Kalah), the pentanomial where seat-swapped pairs
    are complete, else the games."""
    j = row.get("judged")
    if j is None:
        return None, None, None, "—"
    return 100 * j["score"], 100 * j["ci_low"], 100 * j["ci_high"], j["basis"]


def _counted(row: dict) -> str:
    """W-D-L of the games, and the pairs the verdict counted."""
    pairs = row.get("pairs")
    if pairs is not None:
        return (f"{row['wins']}-{row['draws']}-{row['losses']}; pairs {pairs['won']}-"
                f"{pairs['lost']} ({pairs['discarded']} discarded)")
    if not row["games"]:
        return "0 games"
    return f"{row['wins']}-{row['draws']}-{row['losses']} of {row['games']}"


def _pair_cell(row: dict) -> str:
    pe = row.get("pentanomial")
    if not pe:
        return "—"
    return (f"{'-'.join(map(str, pe))}: {100 * row['pair_score']:.1f} "
            f"[{100 * row['pair_ci_low']:.1f}, {100 * row['pair_ci_high']:.1f}]")


def _games_cell(row: dict) -> str:
    if not row["games"]:
        return "—"
    return (f"{100 * row['score']:.1f} [{100 * row['ci_low']:.1f}, "
            f"{100 * row['ci_high']:.1f}]")


def _informative(lo: float | None, hi: float | None) -> bool | None:
    if lo is None:
        return None
    return lo > 50.0 or hi < 50.0


def _stop_cell(row: dict) -> str:
    prec = row.get("precision")
    if not prec or prec.get("games") != row["games"] + row["errors"] and \
            prec.get("games") != row.get("planned"):
        return "—"
    hw = prec.get("half_width")
    why = {"precision": "±{:.1f} reached", "decided": "decided (±{:.1f})",
           "cap": "cap (±{:.1f})"}.get(prec.get("stop") or "", "playing (±{:.1f})")
    return why.format(hw if hw is not None else float("nan"))


def _paper_for(row: dict, seconds: float | None):
    from mcts_arena.paper import match_paper

    try:
        found = match_paper(row["game"], strip_budget(row["player"]),
                            strip_budget(row["opponent"]), seconds=seconds)
    except ValueError:
        found = []
    return found[0] if found else None


def _paper_cell(pr) -> str:
    if pr is None:
        return "—"
    ci = f" ± {pr.ci_pct:.2f}" if pr.ci_pct is not None else ""
    n = f", n={pr.games}" if pr.games else ""
    return f"{pr.win_pct:.2f}{ci} ({pr.seconds:g} s{n})"


def _figure_claims(game: str, sweeps) -> list[dict]:
    """For each sweep, the paper figure that reads it (best α range), if any."""
    from mcts_arena.paper import load_paper_results, normalize_spec

    out = []
    figs = load_paper_results().figures
    for sw in sweeps:
        for fig in figs:
            if fig.game != sw.game:
                continue
            try:
                same = (normalize_spec(fig.player.replace("{alpha}", "0.5")) ==
                        normalize_spec(sw.player.replace("{}", "0.5")) and
                        normalize_spec(fig.opponent) == normalize_spec(sw.opponent))
            except ValueError:
                same = False
            if same:
                out.append({"sweep": sw, "figure": fig})
                break
        else:
            out.append({"sweep": sw, "figure": None})
    return out


def _side(o: float | None) -> str:
    """The verdict of a figure point against the paper's claim there (above 50%)."""
    if o is None:
        return "no games"
    return "same direction" if o > 50 else "opposite" if o < 50 else "level"


def _claim_cell(fig) -> str:
    return f"above 50 ({fig.id}: best α in [{fig.best_alpha[0]:g}, {fig.best_alpha[1]:g}])"


def _figure_points(claims: list[dict]) -> dict[int, tuple]:
    """{id(row): (figure, inside its best α range)} of every sweep point a paper figure reads."""
    out = {}
    for c in claims:
        fig = c["figure"]
        if fig is None:
            continue
        lo_a, hi_a = fig.best_alpha
        for pts in c["sweep"].curves.values():
            for x, row in pts:
                out[id(row)] = (fig, lo_a - 1e-9 <= x <= hi_a + 1e-9)
    return out


def _left_out(info: dict, matched: list, secs: float | None) -> list[str]:
    """Lines naming the rows of the paper's table an experiment stands for that it does not
    play: at its own budget each with the paper's note on it (why it is left out), at other
    budgets counted. The table is the one the experiment's description names ("Table 9: ...")
    and its rows matched."""
    import re

    from mcts_arena.paper import load_paper_results

    named = set(re.findall(r"^Table \d+", info.get("description") or ""))
    tables = {m.table for m in matched} & named
    if not tables:
        return []
    played = {m.id for m in matched}
    same, other = [], {}
    for r in load_paper_results().rows:
        if r.table not in tables or r.game != info["game"] or r.id in played:
            continue
        if secs is not None and r.seconds is not None and float(r.seconds) == float(secs):
            same.append(r)
        else:
            other[r.seconds] = other.get(r.seconds, 0) + 1
    out = []
    for r in same:
        label = r.paper_label or f"{r.player} vs {r.opponent}"
        why = r.notes.rstrip(".") if r.notes else "no pairing of this experiment plays it"
        out.append(f"Not played: the paper's {r.table} row {label} ({r.win_pct:.1f}%, "
                   f"{r.seconds:g} s" + (f", n={r.games}" if r.games else "") + f"): {why}.")
    if other:
        at = ", ".join(f"{n} at {s:g} s" if s is not None else f"{n} without a budget"
                       for s, n in sorted(other.items(), key=lambda kv: (kv[0] is None, kv[0])))
        out.append(f"The paper's {', '.join(sorted(tables))} also has rows at other budgets "
                   f"({at}), not played in this experiment (it stands for {secs:g} s).")
    return [" ".join(out), ""] if out else []


def _share(part: int, whole: int) -> str:
    return f"{part:,} of {whole:,} ({100 * part / whole:.0f}%)" if whole else "—"


def _pair_rule_unit(rows: list[dict], secs: float | None) -> list[str]:
    """For games scored by pairs (Kalah): the unit stated, both bases shown (per game and the
    pair rule, each with its verdict) and the choice argued from the paper's counts."""
    scored = [r for r in rows if r.get("pairs") is not None and r["games"]]
    if not scored:
        return []
    out = ["Unit: these rows are judged by the paper's pair rule. The paper plays each board "
           "twice with seats swapped; \"a player is declared a winner if that player won one of "
           "the games and at least tied the other game. If the same side wins both games, the "
           "game is discarded\" (its Section 4.1): its Kalah \"game\" is such a pair, and its "
           "counts are decisive pairs. Both bases:", "",
           "| pairing | paper: decisive of n | ours: decisive pairs of complete pairs | "
           "ours: decisive games of games | per game (draws half): verdict | "
           "pair rule: verdict |",
           "|---|---|---|---|---|---|"]
    over = []
    for r in scored:
        pr = _paper_for(r, secs)
        pairs = r["pairs"]
        dp = pairs["won"] + pairs["lost"]
        cp = dp + pairs["drawn"] + pairs["discarded"]
        dg = r["wins"] + r["losses"]
        paper = "—"
        if pr is not None and pr.wins_a is not None and pr.games:
            dec = pr.wins_a + pr.wins_b
            paper = _share(dec, pr.games)
            if 2 * dec > pr.games:
                over.append(f"{dec:,} of {pr.games:,}")
        p_pct = pr.win_pct if pr else None
        # the per-game score with the seat-swapped pairs' interval where pairs are complete
        g = ((r["pair_score"], r["pair_ci_low"], r["pair_ci_high"]) if r.get("pentanomial")
             else (r["score"], r["ci_low"], r["ci_high"]))
        g = tuple(100 * x for x in g)
        per_game = classify(*g, p_pct)
        o, lo, hi, _ = _ours(r)
        by_pairs = classify(o, lo, hi, p_pct)
        out.append(f"| {r['player']} vs {r['opponent']} | {paper} | {_share(dp, cp)} | "
                   f"{_share(dg, r['games'])} | {per_game} ({g[0]:.1f} [{g[1]:.1f}, {g[2]:.1f}]) | "
                   f"{by_pairs} ({_pct(o)} [{_pct(lo)}, {_pct(hi)}]) |")
    out.append("")
    if over:
        out += [f"The paper's n counts pairs, not single games: {', '.join(over)} decisive "
                f"results exceed the n/2 pairs that n single games would make. Pairs split by seat "
                f"(discarded) are common where drawn single games are rare, so the paper's "
                f"share of decisive results is to be set beside our decisive pairs, not our "
                f"decisive games (the table above gives both).", ""]
    return out


def _bracket_winner(st) -> bool | None:
    """For a finished elimination bracket of one of the paper's tournaments: is our winner the
    paper's? None for anything else (no verdict is given to a bracket's matches)."""
    from mcts_arena.paper import load_paper_results, normalize_spec

    if st is None or st.bracket is None or not st.spec.paper or not st.bracket.done:
        return None
    paper = load_paper_results().tournament(st.spec.paper)
    return normalize_spec(st.spec.spec_of(st.bracket.winner)) == \
        normalize_spec(paper.winner_spec)


def _brackets_text(same: list[bool]) -> str:
    if not same:
        return ""
    return (f" **Brackets**: {sum(same)} of {len(same)} finished brackets won by the paper's "
            f"winner (a bracket is judged by its winner only).")


def _row_claim(row: dict):
    """(figure, α) when `row` is one point of a paper figure inside its best range (a best-α
    row of the record), else None."""
    from mcts_arena.paper import load_paper_results, normalize_spec

    for fig in load_paper_results().figures:
        if fig.game != row["game"]:
            continue
        for a in _alphas_in(row["player"]):
            try:
                same = (normalize_spec(fig.player.replace("{alpha}", a)) ==
                        normalize_spec(strip_budget(row["player"])) and
                        normalize_spec(fig.opponent) ==
                        normalize_spec(strip_budget(row["opponent"])))
            except ValueError:
                same = False
            lo_a, hi_a = fig.best_alpha
            if same and lo_a - 1e-9 <= float(a) <= hi_a + 1e-9:
                return fig, float(a)
    return None


def _alphas_in(spec: str) -> list[str]:
    import re

    return re.findall(r"im(\d*\.?\d+)", spec)


def row_verdict(o: float | None, lo: float | None, hi: float | None, pr, claim, point
                ) -> tuple[str, str, str]:
    """(verdict, paper cell, where it is judged) of one table row: against a figure's claim at
    a best-α point (above 50%: `claim`), as a point of a sweep (`point`: (figure, inside its
    best α); judged once, in the figure's list), or against the paper's table value `pr`."""
    if claim is not None:
        return _side(o), _claim_cell(claim[0]), ""
    if point is not None:
        fig, inside = point
        if inside:
            return _side(o), _claim_cell(fig), f"; a point of {fig.id}'s curve, counted below"
        return "—", "—", (f"a point of {fig.id}'s curve outside the paper's best α "
                          f"[{fig.best_alpha[0]:g}, {fig.best_alpha[1]:g}]: not judged")
    return classify(o, lo, hi, pr.win_pct if pr else None), _paper_cell(pr), ""


def write_page(page, dirs: list[Path], paper_seconds: dict[str, float | None], docs: Path,
               command: str, scale: str = "") -> PageResult:
    """Write docs/<page.id>.md (and its PNGs) from the results directories that exist.

    The page states the command that played it and its scale, and per experiment the games it
    holds and the builds that played them; each row shows the per-game interval, the pair
    statistics, the paper's value, the verdict with the interval it judged (pairs where there
    are complete seat-swapped pairs), whether that interval excludes 50% (informative), the
    power to detect the paper's effect at the games counted, and why the row stopped."""
    from mcts_arena.report.figures import forest_plot
    from mcts_arena.report.plots import plot_sweep

    have = [d for d in dirs if (d / "arena.sqlite").exists()]
    res = PageResult(page.id, page.title, "", command=command, scale=scale)
    lines = [f"# {page.title}", "", f"Played by `{command}`" + (f" ({scale})" if scale else "")
             + ".", ""]
    counts = {v: 0 for v in VERDICTS}
    if not have:
        lines += ["Not played yet.", ""]
        res.markdown = "\n".join(lines)
        res.counts = counts
        (docs / f"{page.id}.md").write_text(res.markdown, encoding="utf-8")
        return res
    res.last_game = last_game(have)
    report = build_report([str(d) for d in have], compare=None)
    claims = _figure_claims("", report.sweeps)
    points = _figure_points(claims)
    tabled: dict[int, str] = {}        # id(row) -> its verdict, for rows judged in a table
    brackets = [b for b in (_bracket_winner(e.tournament_state) for e in report.experiments)
                if b is not None]
    for exp in report.experiments:
        info = exp.info
        name = info["experiment"]
        secs = paper_seconds.get(name)
        lines += [f"## {info.get('description') or name}", ""]
        stored = sum(r["games"] + r["errors"] for r in exp.rows)
        errors = sum(r["errors"] for r in exp.rows)
        per = sorted({r["games"] for r in exp.rows})
        facts = []
        if secs is not None:
            facts.append(f"Stands for the paper's {secs:g} s per move; played at "
                         f"{info.get('budget', '?')}")
        facts.append(f"{stored} games stored" + (f" ({errors} error games, not counted)"
                                                  if errors else "")
                     + (f", {per[0]} per pairing" if len(per) == 1 else
                        f", {per[0]}-{per[-1]} per pairing" if per else ""))
        builds = {b for r in exp.rows for b in (r.get("builds") or {})}
        if builds:
            facts.append("played by build " + ", ".join(sorted(builds))
                         + (" (mixed: see the rows' builds)" if len(builds) > 1 else ""))
        lines += ["; ".join(facts) + ".", ""]
        if len(builds) > 1:
            for r in exp.rows:
                lines.append(f"- builds of {r['player']} vs {r['opponent']}: "
                             f"{builds_text(r.get('builds') or {})}")
            lines.append("")
        lines += ["| pairing | budget per move (player; opponent) | counted | per game: win % "
                  "[95% CI] | pairs LL-LD-WL/DD-WD-WW: score % [95% CI] | paper: win % | "
                  "verdict (interval judged) | informative | power | stop |",
                  "|---|---|---|---|---|---|---|---|---|---|"]
        forest = []
        matched = []
        for row in exp.rows:
            o, lo, hi, basis = _ours(row)
            pr = _paper_for(row, secs)
            if pr is not None and not row.get("sweep"):
                matched.append(pr)
            claim = None if pr is not None or row.get("sweep") else _row_claim(row)
            point = points.get(id(row)) if pr is None else None
            if pr is not None or not row.get("sweep"):
                forest.append({"player": row["player"], "opponent": row["opponent"],
                               "budget": row["budget"], "games": row["games"] if o is not None
                               else 0, "score": None if o is None else o / 100,
                               "ci_low": None if o is None else lo / 100,
                               "ci_high": None if o is None else hi / 100,
                               "paper_pct": pr.win_pct if pr else None})
            v, paper_cell, where = row_verdict(o, lo, hi, pr, claim, point)
            inf = _informative(lo, hi)
            pw = power(pr.win_pct if pr else None,
                       (row.get("judged") or {}).get("n")) if pr else None
            if exp.tournament and pr is None:
                v = "—"            # a bracket's match: the tournament is judged by its winner
            elif point is None and not (v == "no paper row" and row.get("sweep")):
                counts[v] += 1     # (a figure's point is counted in the list below)
                tabled[id(row)] = v
                if v in COUNTED:
                    res.judged.append({"informative": inf, "width": hi - lo, "power": pw})
            res.games += row["games"] + row["errors"]
            bud = "; ".join(_side_budget(row[f"{s}_budget"], row[f"{s}_work"],
                                         row[f"{s}_work_unit"]) for s in ("player", "opponent"))
            err = f", {row['errors']} error games" if row["errors"] else ""
            judged = "" if o is None else f" ({basis}: {o:.1f} [{lo:.1f}, {hi:.1f}])"
            verdict_cell = f"{v}{judged if v not in ('—', 'no games') else ''}{where}"
            if where and v == "—":
                verdict_cell = where
            lines.append(f"| {row['player']} vs {row['opponent']} | {bud} | {_counted(row)}{err} "
                         f"| {_games_cell(row)} | {_pair_cell(row)} | {paper_cell} | "
                         f"{verdict_cell} | "
                         f"{'—' if inf is None else 'yes' if inf else 'no'} | "
                         f"{'—' if pw is None else f'{100 * pw:.0f}%'} | {_stop_cell(row)} |")
        lines.append("")
        rule = next((r["precision"]["rule"] for r in exp.rows if r.get("precision")), None)
        if rule:
            lines += [f"Stop rule: {rule}.", ""]
        lines += _pair_rule_unit(exp.rows, secs)
        lines += _left_out(info, matched, secs)
        if forest:
            img = f"{page.id}-{name}-forest.png"
            forest_plot(forest, docs / img, title=f"{info.get('description') or name}: ours "
                        f"(95% CI) and the paper's value")
            res.images.append(img)
            lines += [f"![forest plot: {name}]({img})", ""]
        if exp.tournament:
            lines += ["```", exp.tournament.rstrip(), "```", ""]
    for claim in claims:
        sw, fig = claim["sweep"], claim["figure"]
        img = f"{page.id}-{sw.slug}.png"
        plot_sweep(sw, docs / img)
        res.images.append(img)
        lines += [f"### {sw.title}", "", f"![{sw.title}]({img})", ""]
        if fig is None:
            lines += ["The paper publishes no curve for this sweep.", ""]
            continue
        lo_a, hi_a = fig.best_alpha
        lines.append(f"The paper ({fig.id}): {fig.claim}. Our points inside [{lo_a:g}, {hi_a:g}]:")
        lines.append("")
        shared = 0
        for label, pts in sw.curves.items():
            for x, row in pts:
                if not lo_a - 1e-9 <= x <= hi_a + 1e-9:
                    continue
                o, lo, hi, basis = _ours(row)
                head = (f"- α = {x:g} ({label}): {_pct(o)}% [{_pct(lo)}, {_pct(hi)}] "
                        f"({basis}), {_counted(row)}")
                if id(row) in tabled:      # the same games are a table row: judged there
                    shared += 1
                    lines.append(f"{head}: judged above against the paper's table value "
                                 f"({tabled[id(row)]}), not counted again")
                    continue
                v = _side(o)
                counts[v] += 1
                if v in COUNTED:
                    res.judged.append({"informative": _informative(lo, hi), "width": hi - lo,
                                       "power": None})
                lines.append(f"{head}: {v}")
        if shared:
            lines += ["", f"{shared} of these points {'is' if shared == 1 else 'are'} also "
                      f"a row of the paper's tables (the same games): judged once, against the "
                      f"table's value, and counted once in this page's verdicts."]
        best = max(((x, _ours(r)[0]) for pts in sw.curves.values() for x, r in pts
                    if _ours(r)[0] is not None), key=lambda t: t[1], default=None)
        if best:
            lines += ["", f"Our best point: α = {best[0]:g} ({best[1]:.1f}%)."]
        lines.append("")
    n_counted = sum(counts[v] for v in COUNTED)
    summary = ", ".join(f"{counts[v]} {v}" for v in VERDICTS if counts[v])
    sm = res.summary()
    head = [f"**Verdicts**: {summary or 'none'} ({n_counted} compared). "
            f"**Informative**: {sm['informative']} of {sm['rows']} judged rows have a 95% "
            f"interval that excludes 50%"
            + (f"; median interval width {sm['median_width']:.1f} points" if sm['median_width']
               is not None else "")
            + (f"; median power to detect the paper's effect at the games counted "
               f"{100 * sm['median_power']:.0f}%" if sm['median_power'] is not None else "")
            + "." + _brackets_text(brackets), ""]
    lines[4:4] = head
    res.counts = counts
    res.markdown = "\n".join(lines)
    (docs / f"{page.id}.md").write_text(res.markdown, encoding="utf-8")
    return res


RECORD_FILE = "record.json"       # what the index keeps of every page, page by page


def last_game(dirs: list[Path]) -> float | None:
    """The unix time of the last game stored in any of `dirs`' stores."""
    from mcts_arena.results.store import Store

    times = []
    for d in dirs:
        with Store.open(d) as store:
            t = store.last_finished()
            if t is not None:
                times.append(t)
    return max(times, default=None)


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
    total = {v: sum(p["counts"].get(v, 0) for _, p in pages) for v in VERDICTS}
    rows = sum(p["rows"] for _, p in pages)
    inf = sum(p["informative"] for _, p in pages)

    def num(x, fmt):
        return "—" if x is None else fmt.format(x)

    lines = ["# The paper reproduced", "",
             "Lanctot, Winands, Pepels & Sturtevant, *Monte Carlo Tree Search with Heuristic "
             "Evaluations using Implicit Minimax Backups* (2014, arXiv:1406.0486), replayed by "
             "mcts_arena. Each page says the command that played it; the table below gives, per "
             "page, the scale (a fraction of the paper's search effort, as matched effort), the "
             "games stored, how many judged rows have a 95% interval that excludes 50% "
             "(informative), their median interval width, the median power to detect the "
             "paper's effect at the games counted, and the verdicts.", "",
             f"- last game played: "
             f"{max((p['written'] for _, p in pages if p['written'] != '—'), default='—')}",
             f"- games stored: {sum(p['games'] for _, p in pages)}", "",
             f"**Totals**: {inf} of {rows} judged rows informative; "
             + ", ".join(f"{total[v]} {v}" for v in VERDICTS), "",
             "| page | scale | games | informative | median width (points) | median power | "
             + " | ".join(VERDICTS) + " |",
             "|---|---|---|---|---|---|" + "---|" * len(VERDICTS)]
    for i, p in pages:
        lines.append(f"| [{p['title']}]({i}.md) | {p.get('effort', 0):g} | {p['games']} | "
                     f"{p['informative']} of {p['rows']} | {num(p['median_width'], '{:.1f}')} | "
                     f"{num(p['median_power'] and 100 * p['median_power'], '{:.0f}%')} | "
                     + " | ".join(str(p["counts"].get(v, 0)) for v in VERDICTS) + " |")
    lines += ["", "| page | played by | last game |", "|---|---|---|"]
    for i, p in pages:
        lines.append(f"| {i} | `{p['command']}` | {p['written']} |")
    lines += ["", "Verdicts: *consistent* = the paper's win rate lies inside our 95% interval; "
              "*same direction* = outside it, but on the same side of 50%; *opposite* = on the "
              "other side of 50%; *level* = outside it at exactly 50%. The interval judged is "
              "the seat-swapped pairs' (pentanomial) where both games of a pair are counted, the "
              "paper's pair rule in Kalah, else the games'. Figure points (and the best-α rows) "
              "count only inside the α range the paper names as best (its claim there: above "
              "50%). Power: the chance that a 95% test rejects 50% at the games counted if the "
              "paper's win rate were true (normal approximation).", ""]
    if notes:
        lines += [notes.rstrip(), ""]
    (docs / RECORD_FILE).write_text(json.dumps({"pages": record}, indent=1, sort_keys=True)
                                    + "\n", encoding="utf-8")
    p = docs / "index.md"
    p.write_text("\n".join(lines), encoding="utf-8")
    return p


def write_record(pages, docs: Path, command: str, scale_text: str, order: list[str],
                 effort: float) -> tuple[Path, int]:
    """The pages of a reproduction and the index into `docs`: `pages` holds (page, results
    directories, the paper's seconds per experiment) as runner/reproduce.py's Record lists
    them; the index keeps the rows of the record's other pages (`order`: the manifest's page
    ids). Returns the index's path and the number of pages written."""
    docs = Path(docs)
    docs.mkdir(parents=True, exist_ok=True)
    results = [write_page(page, list(dirs), seconds, docs, command, scale_text)
               for page, dirs, seconds in pages]
    notes = docs / "notes.md"
    idx = write_index(results, docs, list(order), effort,
                      "See [notes.md](notes.md) for what departs from the paper and why."
                      if notes.exists() else "")
    return idx, len(results)
