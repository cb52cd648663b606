"""The record's pages as Markdown: `render_page` formats a page's model
(report/record_model.py) and decides nothing; every verdict and count comes from the model."""
from __future__ import annotations

from mcts_arena.report.pairing_row import PairingRow
from mcts_arena.report.record_model import (
    ExperimentModel,
    Ours,
    PageModel,
    PairRuleModel,
    RowModel,
    SweepModel,
    match_tally,
    median,
)
from mcts_arena.report.tables import builds_text
from mcts_arena.report.verdict import VALUE_TEXT


# ---- the renderer: the model as Markdown, no verdict decided here ---------------------------
def _pct(x: float | None, d: int = 1) -> str:
    return "—" if x is None else f"{x:.{d}f}"


def _interval(o: Ours | None) -> str:
    return "—" if o is None else f"{o.score:.1f} [{o.low:.1f}, {o.high:.1f}]"


def _judged(o: Ours) -> str:
    """"pairs: 58.0 [51.3, 64.5]"; "pairs at z = 2.50: 58.0 [49.4, 66.3]" for an interval at
    a stop rule's level."""
    level = "" if o.z is None else f" at z = {o.z:.2f}"
    return f"{o.basis}{level}: {_interval(o)}"


def _side_budget(b: dict | None, work: float | None, unit: str | None) -> str:
    if not b:
        return "?"
    if b.get("time") is not None:
        return f"{b['time']:g} s"
    n = b.get("sims")
    u = b.get("unit", "sims")
    mean = f", {work:,.0f} {unit}/move used" if work is not None and unit else ""
    return f"{n:,} {u}{mean}" if n is not None else "?"


def _counted(row: PairingRow) -> str:
    """W-D-L of the games, and the pairs the verdict counted."""
    pairs = row.get("pairs")
    if pairs is not None:
        return (f"{row['wins']}-{row['draws']}-{row['losses']}; pairs {pairs['won']}-"
                f"{pairs['lost']} ({pairs['drawn']} drawn, {pairs['discarded']} discarded)")
    if not row["games"]:
        return "0 games"
    return f"{row['wins']}-{row['draws']}-{row['losses']} of {row['games']}"


def _pair_cell(row: PairingRow) -> str:
    pe = row.get("pentanomial")
    if not pe:
        return "—"
    return (f"{'-'.join(map(str, pe))}: {100 * row['pair_score']:.1f} "
            f"[{100 * row['pair_ci_low']:.1f}, {100 * row['pair_ci_high']:.1f}]")


def _games_cell(row: PairingRow) -> str:
    if not row["games"]:
        return "—"
    return (f"{100 * row['score']:.1f} [{100 * row['ci_low']:.1f}, "
            f"{100 * row['ci_high']:.1f}]")


def _stop_cell(row: PairingRow) -> str:
    prec = row.get("precision")
    if not prec or prec.get("games") != row["games"] + row["errors"] and \
            prec.get("games") != row.get("planned"):
        return "—"
    hw = prec.get("half_width")
    why = {"precision": "±{:.1f} reached", "decided": "decided (±{:.1f})",
           "cap": "cap (±{:.1f})"}.get(prec.get("stop") or "", "playing (±{:.1f})")
    return why.format(hw if hw is not None else float("nan"))


def _paper_cell(pr) -> str:
    if pr is None:
        return "—"
    ci = f" ± {pr.ci_pct:.2f}" if pr.ci_pct is not None else ""
    n = f", n={pr.games}" if pr.games else ""
    return f"{pr.win_pct:.2f}{ci} ({pr.seconds:g} s{n})"


def _claim_cell(fig) -> str:
    where = "not below 50" if getattr(fig, "no_loss", False) else "above 50"
    return f"{where} ({fig.id}: best α in [{fig.best_alpha[0]:g}, {fig.best_alpha[1]:g}])"


def _verdict_cell(m: RowModel) -> str:
    """The row's verdict with the interval it judged, or why it has none."""
    j = m.judgement
    if j is None:
        return "—"
    if j.reason == "not judged":
        return (f"a point of {m.figure.id}'s curve outside the paper's best α "
                f"[{m.figure.best_alpha[0]:g}, {m.figure.best_alpha[1]:g}]: not judged")
    judged = "" if m.ours is None else f" ({_judged(m.ours)})"
    where = f"; a point of {m.figure.id}'s curve, counted below" if m.on_curve else ""
    return f"{j.text}{judged if j.reason != 'no games' else ''}{where}"


def _row_line(m: RowModel) -> str:
    row = m.row
    paper = (_claim_cell(m.figure) if m.figure is not None and m.on_curve is not False
             else "—" if m.on_curve is False else _paper_cell(m.paper))
    bud = "; ".join(_side_budget(row[f"{s}_budget"], row[f"{s}_work"], row[f"{s}_work_unit"])
                    for s in ("player", "opponent"))
    err = f", {row['errors']} error games" if row["errors"] else ""
    inf = "—" if m.ours is None else "yes" if m.ours.informative else "no"
    pw = "—" if m.power is None else f"{100 * m.power:.0f}%"
    return (f"| {row['player']} vs {row['opponent']} | {bud} | {_counted(row)}{err} "
            f"| {_games_cell(row)} | {_pair_cell(row)} | {paper} | {_verdict_cell(m)} | "
            f"{inf} | {pw} | {_stop_cell(row)} |")


def _level(o: Ours | None) -> str:
    """An interval with its level where it is not 95%."""
    return _interval(o) if o is None or o.z is None else f"at z = {o.z:.2f}: {_interval(o)}"


def _share(part: int, whole: int) -> str:
    return f"{part:,} of {whole:,} ({100 * part / whole:.0f}%)" if whole else "—"


def _pair_rule_lines(models: list[PairRuleModel]) -> list[str]:
    """For games scored by pairs (Kalah): the unit stated, both bases shown (per game and the
    pair rule, each with its verdict) and the choice argued from the paper's counts."""
    if not models:
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
    for m in models:
        paper = "—" if m.paper_decisive is None else _share(*m.paper_decisive)
        if m.paper_decisive is not None and 2 * m.paper_decisive[0] > m.paper_decisive[1]:
            over.append(f"{m.paper_decisive[0]:,} of {m.paper_decisive[1]:,}")
        out.append(f"| {m.row['player']} vs {m.row['opponent']} | {paper} | "
                   f"{_share(*m.decisive_pairs)} | {_share(*m.decisive_games)} | "
                   f"{m.per_game_verdict.text} ({_level(m.per_game)}) | "
                   f"{m.by_pairs_verdict.text} ({_level(m.by_pairs)}) |")
    out.append("")
    if over:
        out += [f"The paper's n counts pairs, not single games: {', '.join(over)} decisive "
                f"results exceed the n/2 pairs that n single games would make. Pairs split by seat "
                f"(discarded) are common where drawn single games are rare, so the paper's "
                f"share of decisive results is to be set beside our decisive pairs, not our "
                f"decisive games (the table above gives both).", ""]
    return out


def _signed(x: float | None, d: int = 1) -> str:
    return "—" if x is None else f"{x:+.{d}f}"


def _gain_lines(e: ExperimentModel) -> list[str]:
    """Implicit minimax's gain against the same opponent (report/im_gain.py), ours with its
    interval beside the paper's, and the paper's gains this experiment cannot compute."""
    if not e.gains and not e.gains_unplayed:
        return []
    out = []
    if e.gains:
        out += ["Implicit minimax's gain against the same opponent (the paper's headline "
                "quantity: the row with im minus the row without it; ours a normal interval of "
                "the difference of the two rows' means at the stricter of their levels, the Elo "
                "gain by the delta method; the paper's ± from its two rows' n; not counted among "
                "the rows' verdicts):", "",
                "| gain | against | ours: points [CI] | ours: Elo [CI] | paper: points | "
                "paper: Elo | verdict (the paper's gain against ours) | ours − paper: z (both "
                "uncertainties) |", "|---|---|---|---|---|---|---|---|"]
        for g in e.gains:
            level = "" if abs(g.z - 1.96) < 0.01 else f" (z = {g.z:.2f})"
            elo = ("—" if g.elo is None else
                   f"{g.elo:+.0f} [{g.elo_low:+.0f}, {g.elo_high:+.0f}]")
            half = "" if g.paper_half is None else f" ± {g.paper_half:.1f}"
            out.append(f"| {g.player} over {g.base} | {g.opponent} | {g.points:+.1f} "
                       f"[{g.low:+.1f}, {g.high:+.1f}]{level} | {elo} | {g.paper:+.2f}{half} | "
                       f"{g.paper_elo:+.0f} | {g.verdict.text} | {_signed(g.z_diff, 2)} |")
        out.append("")
    for player, twin, pct in e.gains_unplayed:
        out.append(f"Not computed: {player}'s gain, since the paper's row {twin} "
                   f"({pct:.2f}%) is not played in this experiment.")
    if e.gains_unplayed:
        out.append("")
    return out


def _left_out_lines(e: ExperimentModel) -> list[str]:
    """The paper's rows the experiment does not play: each at its budget with the paper data's
    note on why, those at other budgets counted."""
    out = []
    for r in e.not_played:
        label = r.paper_label or f"{r.player} vs {r.opponent}"
        why = r.notes.rstrip(".") if r.notes else "no pairing of this experiment plays it"
        out.append(f"Not played: the paper's {r.table} row {label} ({r.win_pct:.1f}%, "
                   f"{r.seconds:g} s" + (f", n={r.games}" if r.games else "") + f"): {why}.")
    if e.other_budgets:
        at = ", ".join(f"{n} at {s:g} s" if s is not None else f"{n} without a budget"
                       for s, n in sorted(e.other_budgets.items(),
                                          key=lambda kv: (kv[0] is None, kv[0])))
        out.append(f"The paper's {', '.join(e.tables)} also has rows at other budgets "
                   f"({at}), not played in this experiment (it stands for {e.seconds:g} s).")
    return [" ".join(out), ""] if out else []


def _rates_taken_lines(e: ExperimentModel) -> list[str]:
    """Which players' matched efforts rest on another player's measured rate."""
    if e.tournament and e.one_rate:
        return [f"Budgets: every entrant searches at one measured rate, {e.one_rate}'s, so the "
                f"bracket compares its values at equal simulations a move (the paper's "
                f"brackets gave each entrant equal seconds).", ""]
    if not e.rates_taken:
        return []
    said = "; ".join(f"{entry}'s for {', '.join(who)}" for entry, who in e.rates_taken)
    return [f"Budgets set by another player's measured rate (the rates file has no entry of "
            f"these players' own; each takes the most specific entry of its kind whose options, "
            f"values aside, are all among its own): {said}.", ""]


def _brackets_text(same: list[bool], experiments) -> str:
    """The page's brackets at a glance: how many winners are the paper's, and over every match
    the paper's brackets played too, how often the same entrant won and where the paper's
    share lies against our interval."""
    if not same:
        return ""
    out = (f" **Brackets**: {sum(same)} of {len(same)} finished brackets won by the paper's "
           f"winner (a bracket is judged by its winner only).")
    t = match_tally(experiments)
    if not t.shared:
        return out
    return out + (f" **Matches the paper's brackets played too**: {t.shared} of our "
                  f"{t.played}; the paper's winner of the match won ours in {t.same_winner}; "
                  f"the paper's share of the match's wins lies inside our 95% interval in "
                  f"{t.values['inside']}, above it in {t.values['above']}, below it in "
                  f"{t.values['below']}.")


def counts_text(counts: dict[str, dict[str, int]]) -> str:
    """"side: 11 right, 1 undecided; value: 7 inside, 3 above ours, 2 below ours; 1 no paper
    row"."""
    parts = []
    for key, word, text in (("sides", "side", {}), ("values", "value", VALUE_TEXT)):
        said = ", ".join(f"{n} {text.get(k, k)}" for k, n in counts[key].items() if n)
        if said:
            parts.append(f"{word}: {said}")
    parts += [f"{n} {k}" for k, n in counts["unjudged"].items() if n]
    return "; ".join(parts) or "none"


#: What a page's verdict says, once per page, under its counts.
VERDICT_LEGEND = ("Each verdict says two things apart. *Side*: our interval excludes 50% on "
                  "the paper's side (right), on the other side (wrong), or holds 50% "
                  "(undecided); unclaimed where the paper's own row does not differ from 50% "
                  "(its ± or its n games hold 50%), so there is no side to be on. *Value*: the "
                  "paper's win rate lies inside our interval, above ours or below ours (a "
                  "figure's claim, above 50% in its best α range, or not below it where the "
                  "paper claims only that α does no harm, has no value); it is judged only at "
                  "the paper's own effort, since matched effort does not keep the paper's "
                  "balances over a factor of ten (MCTS(bl) against the TT-less αβ: 24.5% at 0.1 "
                  "of the effort, 51.0% at 1.0), so at a fraction of it a row tests the side and "
                  "its value is shown, not counted. The interval judged "
                  "is at the level its stop rule states: 95% for a row played to a fixed count; "
                  "for a row played in looks, the rule's own z (2.50 for four looks: the 5% split "
                  "over them), so the verdict keeps its 95% whichever look the row stopped at.")


def _experiment_lines(e: ExperimentModel) -> list[str]:
    info = e.info
    name = info["experiment"]
    rows = [m.row for m in e.rows]
    heading = info.get("description") or name
    if e.tournament and str(info.get("game", "")).lower() not in heading.lower():
        heading += f" ({info['game']})"      # the same bracket is played in several games
    lines = [f"## {heading}", ""]
    stored = sum(r["games"] + r["errors"] for r in rows)
    errors = sum(r["errors"] for r in rows)
    per = sorted({r["games"] for r in rows})
    facts = []
    if e.seconds is not None:
        facts.append(f"Stands for the paper's {e.seconds:g} s per move; played at "
                     f"{info.get('budget', '?')}")
    facts.append(f"{stored} games stored" + (f" ({errors} error games, not counted)"
                                              if errors else "")
                 + (f", {per[0]} per pairing" if len(per) == 1 else
                    f", {per[0]}-{per[-1]} per pairing" if per else ""))
    builds = {b for r in rows for b in (r.get("builds") or {})}
    if builds:
        facts.append("played by build " + ", ".join(_build_text(b, info.get("commits") or {})
                                                    for b in sorted(builds))
                     + (" (mixed: see the rows' builds)" if len(builds) > 1 else ""))
    lines += ["; ".join(facts) + ".", ""]
    if len(builds) > 1:
        lines += [f"- builds of {r['player']} vs {r['opponent']}: "
                  f"{builds_text(r.get('builds') or {})}" for r in rows]
        lines.append("")
    lines += _rates_taken_lines(e)
    lines += ["| pairing | budget per move (player; opponent) | counted | per game: win % "
              "[95% CI] | pairs LL-LD-WL/DD-WD-WW: score % [95% CI] | paper: win % | "
              "verdict (interval judged) | informative | power | stop |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    lines += [_row_line(m) for m in e.rows]
    lines.append("")
    lines += _stop_rule_lines(rows)
    lines += _pair_rule_lines(e.pair_rule)
    lines += _gain_lines(e)
    lines += _left_out_lines(e)
    if e.forest_image:
        lines += [f"![forest plot: {name}]({e.forest_image})", ""]
    if e.tournament:
        lines += ["```", e.tournament.rstrip(), "```", ""]
    lines += _paper_match_lines(e)
    return lines


def _build_text(build: str, commits: dict) -> str:
    """"126446d2d77f (git ea1eb1f)", "... (git 89f899c, uncommitted changes)": a fingerprint
    with the commit its games were played from, where the store recorded it."""
    c = commits.get(build) or {}
    if not c.get("commit"):
        return build
    return f"{build} (git {c['commit']}{', uncommitted changes' if c.get('dirty') else ''})"


def _stop_rule_lines(rows: list[dict]) -> list[str]:
    """The rule the rows were played by; where rows differ (a row plays no more games than
    the paper's own for it, so its looks end sooner), each rule with the rows it governs."""
    rules: dict[str, list[str]] = {}
    for r in rows:
        if r.get("precision"):
            rules.setdefault(r["precision"]["rule"], []).append(
                f"{r['player']} vs {r['opponent']}")
    if len(rules) == 1:
        return [f"Stop rule: {next(iter(rules))}.", ""]
    if not rules:
        return []
    return (["Stop rules (a row plays no more games than the paper played for it):", ""]
            + [f"- {rule}: {', '.join(who)}." for rule, who in rules.items()] + [""])


def _paper_match_lines(e: ExperimentModel) -> list[str]:
    """The bracket's matches that the paper's bracket played too, each beside the paper's."""
    ms = e.paper_matches
    if not ms:
        return []
    t = match_tally([e])
    lines = [f"Matches the paper's bracket played too: {t.shared} of our {t.played}. The "
             f"paper's winner of the match won ours in {t.same_winner}; the paper's share of "
             f"the match's wins lies inside our 95% interval in {t.values['inside']} of "
             f"{t.judged}. A match's wins are its bracket's unit, as both brackets print "
             f"them (decisive results only).", "",
             "| our round | the paper's winner vs loser | paper: wins | paper: share % [95% CI] "
             "| ours: wins | ours: share % [95% CI] | same winner | verdict (the paper's share) |",
             "|---|---|---|---|---|---|---|---|"]
    for m in ms:
        share = "—" if m.ours is None else f"{m.ours[0]:.1f} [{m.ours[1]:.1f}, {m.ours[2]:.1f}]"
        plo, phi = m.paper_interval
        lines.append(f"| {m.round} | {m.winner} vs {m.loser} | {m.paper_wins[0]}-"
                     f"{m.paper_wins[1]} | {m.paper_pct:.1f} [{plo:.1f}, {phi:.1f}] | "
                     f"{m.our_wins[0]}-{m.our_wins[1]} | {share} | "
                     f"{'yes' if m.same_winner else 'no'} | "
                     f"{m.verdict.text if m.verdict else '—'} |")
    return lines + [""]


def _sweep_lines(s: SweepModel) -> list[str]:
    sw, fig = s.sweep, s.figure
    lines = [f"### {sw.title}", "", f"![{sw.title}]({s.image})", ""]
    if fig is None:
        return lines + ["The paper publishes no curve for this sweep.", ""]
    lo_a, hi_a = fig.best_alpha
    lines += [f"The paper ({fig.id}): {fig.claim}. Our points inside [{lo_a:g}, {hi_a:g}]:", ""]
    for p in s.points:
        o = p.ours
        head = (f"- α = {p.x:g} ({p.label}): {_pct(o and o.score)}% [{_pct(o and o.low)}, "
                f"{_pct(o and o.high)}] ({o.basis if o else '—'}), {_counted(p.row)}")
        if p.table_judgement is not None:
            lines.append(f"{head}: judged above against the paper's table value "
                         f"({p.table_judgement.text}), not counted again")
        else:
            lines.append(f"{head}: {p.judgement.text}")
    shared = sum(p.table_judgement is not None for p in s.points)
    if shared:
        lines += ["", f"{shared} of these points {'is' if shared == 1 else 'are'} also "
                  f"a row of the paper's tables (the same games): judged once, against the "
                  f"table's value, and counted once in this page's verdicts."]
    if s.best:
        lines += ["", f"Our best point: α = {s.best[0]:g} ({s.best[1]:.1f}%)."]
    lines.append("")
    return lines


def render_page(m: PageModel) -> str:
    """The page's Markdown: the model formatted, nothing judged."""
    lines = [f"# {m.title}", "", f"Played by `{m.command}`" + (f" ({m.scale})" if m.scale else "")
             + ".", ""]
    if not m.played:
        return "\n".join(lines + ["Not played yet.", ""])
    widths = [j["width"] for j in m.judged if j["width"] is not None]
    powers = [j["power"] for j in m.judged if j["power"] is not None]
    width, pw = median(widths), median(powers)
    informative = sum(bool(j["informative"]) for j in m.judged)
    shown = "" if m.values_judged else (
        " (values shown, not judged: a fraction of the paper's effort)")
    verdicts = "" if m.brackets and not m.judged else (
        f"**Verdicts** ({len(m.judged)} judged rows): {counts_text(m.counts)}{shown}. "
        f"**Informative**: {informative} of {len(m.judged)} judged rows have a judged interval "
        f"that excludes 50%"
        + (f"; median interval width {width:.1f} points" if width is not None else "")
        + (f"; median power to detect the paper's effect at the games counted "
           f"{100 * pw:.0f}%" if pw is not None else "") + ".")
    lines += [(verdicts + _brackets_text(m.brackets, m.experiments)).strip(), "",
              VERDICT_LEGEND, ""]
    for e in m.experiments:
        lines += _experiment_lines(e)
    for s in m.sweeps:
        lines += _sweep_lines(s)
    return "\n".join(lines)
