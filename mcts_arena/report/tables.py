"""Report rows from results stores: one row per pairing, sweeps, and the paper beside ours.

Stores are opened read-only (results.store.Store); nothing here writes to them.

Every row is a `pairing_row.PairingRow` (its fields documented there).
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from mcts_arena import budgets, results, stats
from mcts_arena import games as _games
from mcts_arena.errors import UserError
from mcts_arena.players.notation import display_name, parts
from mcts_arena.report import scaling
from mcts_arena.report.pairing_row import Judged, PairingRow, PairRule, PaperEntry
from mcts_arena.results import aggregates, luck, tournament
from mcts_arena.results import rows as row_rules
from mcts_arena.results import tune as tune_state
from mcts_arena.results.sprt import sprt_status, sprt_text
from mcts_arena.results.standings import elo_interval_text
from mcts_arena.results.store import Store

#: A paper row is compared (given a verdict) only when each side's budget is within this
#: factor of the paper's seconds per move: wall-clock seconds, or the paper engine's effort at
#: S seconds ({"effort": S}); a budget in simulations is never compared with seconds.
BUDGET_FACTOR = 2.0


def _budget_of_text(text: str) -> dict | None:
    m = re.fullmatch(r"\s*(effort\s+)?([\d.eE+-]+)\s*(s|sims)\s*", text or "")
    if not m:
        return None
    if m.group(3) == "sims":
        return {"sims": int(float(m.group(2)))}
    return {"effort" if m.group(1) else "time": float(m.group(2))}


def budget_comparable(row: PairingRow, paper_seconds: float | None) -> tuple[bool, str | None]:
    """(comparable, note): may our row be judged against a paper row at `paper_seconds`?

    Each side's budget (`player_budget`/`opponent_budget`, else the `budget` text) must be
    seconds or effort within a factor `BUDGET_FACTOR` of the paper's; otherwise the note says
    "budget differs: ours X, paper Y s". A paper row without seconds is compared."""
    if paper_seconds is None:
        return True, None
    sides = [row.get("player_budget"), row.get("opponent_budget")]
    if not any(sides):
        parts = [t.strip() for t in str(row.get("budget", "")).split("/")]
        sides = [_budget_of_text(t) for t in parts]
    for b in sides:
        v = None if not b else (b.get("effort") if b.get("effort") is not None
                                else b.get("time"))
        if v is None or v <= 0 or max(v / paper_seconds, paper_seconds / v) > BUDGET_FACTOR:
            return False, f"budget differs: ours {row.get('budget', '?')}, " \
                          f"paper {paper_seconds:g} s"
    return True, None


def pairing_budget_text(pb: dict | None, ob: dict | None) -> str:
    """The budget both sides played with; one matched effort reads as one budget (the sides'
    simulations/nodes differ by design: see runner/effort.py)."""
    if pb == ob:
        return budgets.text(pb)
    if pb and ob and pb.get("effort") is not None and pb.get("effort") == ob.get("effort"):
        return f"effort {pb['effort']:g} s"
    return f"{budgets.text(pb)} / {budgets.text(ob)}"


def _clean_budget(b: dict | None) -> dict | None:
    return {k: v for k, v in b.items() if v is not None} if b else None


def _finite(x: float) -> float | None:
    return None if x is None or not math.isfinite(x) else float(x)


_ci = stats.score_interval


def pairing_rows(store: Store, ci: str = "auto") -> list[PairingRow]:
    """The rows (pairing_row.PairingRow) of every pairing in `store`, in config order."""
    if ci not in stats.CI_METHODS:
        raise UserError(f"unknown --ci {ci!r}; valid: {', '.join(stats.CI_METHODS)}")
    exp = store.experiment() or {}
    cfg = exp.get("config", {})
    game = cfg.get("game", "?")
    default_budget = cfg.get("budget")
    recorded = {p.get("id"): p for p in cfg.get("pairings", [])}
    sprt = sprt_status(store)
    tally, pairs = store.aggregates()       # no game is read: results/aggregates.py
    counts = aggregates.pairing_counts(tally, pairs)
    rows = []
    for p in store.pairings():
        pid = p["pairing_id"]
        pb = _clean_budget(p["player_budget"] or default_budget)
        ob = _clean_budget(p["opponent_budget"] or default_budget)
        c = counts.get(pid) or aggregates.no_games()
        w, d, lo, n = c["wins"], c["draws"], c["losses"], c["games"]
        ci_low, ci_high, used = _ci(w, d, lo, ci) if n else (None, None, None)
        e = stats.elo_diff(w, d, lo)
        e_lo, e_hi = stats.elo_bounds(ci_low, ci_high) if n else (None, None)
        sprt_rec = None
        if pid in sprt:
            sprt_rec = dict(sprt[pid])
            sprt_rec["text"] = sprt_text(sprt_rec)
        row: PairingRow = {
            "experiment": exp.get("name", store.directory.name), "directory": str(store.directory),
            "game": game, "pairing_id": pid, "player": display_name(p["player"]),
            "opponent": display_name(p["opponent"]), "player_spec": p["player"],
            "opponent_spec": p["opponent"],
            "budget": pairing_budget_text(pb, ob),
            "player_budget": pb, "opponent_budget": ob, "planned": p["games"], "games": n,
            **{k: c[k] for k in aggregates.count_columns() if k != "games"},
            "score": stats.score(w, d, lo) if n else None, "ci_low": ci_low,
            "ci_high": ci_high, "ci_method": used, "elo": _finite(e) if n else None,
            "elo_low": _finite(e_lo), "elo_high": _finite(e_hi),
            "elo_text": elo_interval_text(stats.score(w, d, lo), ci_low, ci_high, n)
            if n else None, "los": stats.los(w, lo) if n else None,
            "pairs": _pair_rule(pairs, pid, ci) if _games.pair_rule(game) else None,
            "sprt": sprt_rec, "sweep": None, **pair_elo_fields(c),
            "precision": store.meta_json(f"precision/{pid}", row_rules.obj()),
            "judged": None,        # below, from the row's counts
        }
        row["judged"] = judged(row)
        swept = recorded.get(pid, {}).get("sweep") or []
        if swept:
            row["_sweep_vars"] = [tuple(x) for x in swept]
            # the config entry that made it ("matches[2]" of "matches[2].sweep.alpha[3]")
            row["_sweep_entry"] = str(recorded[pid].get("where", "")).split(".sweep")[0]
        rows.append(row)
    return rows


def _pair_rule(pairs, pid: str, ci: str) -> PairRule:
    """The paper's pair rule over a pairing's decisive pairs (games scored by pairs)."""
    po = aggregates.pair_outcomes(pairs, pid)
    won, drawn, lost = (po.get(k, 0) for k in ("player", "draw", "opponent"))
    low, high, _ = _ci(won, 0, lost, ci)
    return {"won": won, "drawn": drawn, "lost": lost, "discarded": po.get("discarded", 0),
            "errors": po.get("error", 0), "score": won / (won + lost) if won + lost else 0.5,
            "ci_low": low, "ci_high": high}


def judged(row: PairingRow) -> Judged | None:
    """The interval a verdict on `row` uses (see the `judged` row field): the paper's pair rule
    for games scored by pairs, the pentanomial where seat-swapped pairs are complete, else the
    per-game interval; None with nothing counted."""
    pairs = row.get("pairs")
    if pairs is not None:
        n = pairs["won"] + pairs["lost"]
        if not n:
            return None
        return {"basis": "pair rule", "score": pairs["score"], "ci_low": pairs["ci_low"],
                "ci_high": pairs["ci_high"], "n": n}
    if row.get("pentanomial"):
        return {"basis": "pairs", "score": row["pair_score"], "ci_low": row["pair_ci_low"],
                "ci_high": row["pair_ci_high"], "n": row["pair_games"]}
    if not row["games"] or row.get("score") is None:
        return None
    return {"basis": "games", "score": row["score"], "ci_low": row["ci_low"],
            "ci_high": row["ci_high"], "n": row["games"]}


def stop_looks(row: PairingRow) -> int | None:
    """The looks the sequential stop rule allowed `row` (`arena reproduce --precision`), None
    for a row played without one. Records written before the count was kept state it in their
    rule's text ("... (5% split over the 4 looks)")."""
    prec = row.get("precision")
    if not prec:
        return None
    if prec.get("looks"):
        return int(prec["looks"])
    found = re.search(r"split over the (\d+) looks?\b", prec.get("rule") or "")
    return int(found.group(1)) if found else None


def judged_at(row: PairingRow, z: float) -> Judged | None:
    """`judged(row)` with its interval at `z` instead of 95%: the same basis and the same rule
    (the pair rule's and the games' interval: Wilson below 100, Wald from 100, clipped to
    [0, 1]; the pentanomial's profile likelihood)."""
    j = judged(row)
    if j is None:
        return None
    if j["basis"] == "pairs":
        low, high = stats.pentanomial_interval(row["pentanomial"], z)
    else:
        w, d, lo = ((row["pairs"]["won"], 0, row["pairs"]["lost"]) if j["basis"] == "pair rule"
                    else (row["wins"], row["draws"], row["losses"]))
        low, high = stats.interval(w, d, lo, "auto", z)
        low, high = max(0.0, low), min(1.0, high)
    return {**j, "ci_low": low, "ci_high": high}


def builds_text(builds: dict) -> str:
    """`75f66cb1df9b (40)`, several joined by `, `; "unrecorded" for old games."""
    return ", ".join(f"{b} ({n})" for b, n in builds.items()) or "—"


def pair_elo_fields(row: Mapping) -> dict:
    """pair_elo, its interval (pair_ci_low, pair_ci_high through the Elo function) and its
    text, from a row's or a pairing's counts (pentanomial, pair_score, pair_ci_low,
    pair_ci_high, pair_games); nulls without complete pairs."""
    if not row.get("pentanomial"):
        return {"pair_elo": None, "pair_elo_low": None, "pair_elo_high": None,
                "pair_elo_text": None}
    score, low, high = row["pair_score"], row["pair_ci_low"], row["pair_ci_high"]
    e_lo, e_hi = stats.elo_bounds(low, high)
    return {"pair_elo": _finite(stats.score_to_elo(score)), "pair_elo_low": _finite(e_lo),
            "pair_elo_high": _finite(e_hi),
            "pair_elo_text": elo_interval_text(score, low, high, row["pair_games"])}


def experiment_info(store: Store) -> dict:
    """Header facts of one results directory."""
    exp = store.experiment() or {}
    cfg = exp.get("config", {})
    op = cfg.get("openings") or {}
    if op.get("kind") == "random_plies":
        openings = f"{op.get('plies')} random plies"
    elif op.get("kind") == "file":
        openings = f"book {op.get('file')} ({len(op.get('lines') or ())} positions, " \
                   f"{op.get('order')})"
    else:
        openings = op.get("kind", "?")
    m = exp.get("machine", {})
    return {"experiment": exp.get("name", store.directory.name), "directory": str(store.directory),
            "game": cfg.get("game", "?"), "budget": budgets.text(cfg.get("budget")),
            "seed": cfg.get("seed"), "openings": openings, "created": exp.get("created"),
            "updated": exp.get("updated"), "version": exp.get("version"),
            "machine": f"{m.get('cpu', '?')}, {m.get('usable_cores', '?')} cores",
            "sprt": cfg.get("sprt"), "games_stored": sum(r["games"] for r in store.aggregates()[0]),
            "description": cfg.get("description", ""), "commits": build_commits(store)}


def build_commits(store: Store) -> dict[str, dict]:
    """{build fingerprint: {"commit": the git commit it was played from (short) or None,
    "dirty": whether that tree had uncommitted changes}} as the writer recorded them."""
    import json

    out = {}
    for key, raw in sorted(store.meta_items("build/").items()):
        try:
            b = json.loads(raw)
        except ValueError:
            continue
        if isinstance(b, dict):
            commit = b.get("git_commit")
            out[key[len("build/"):]] = {"commit": commit[:7] if isinstance(commit, str) else None,
                                        "dirty": bool(b.get("dirty"))}
    return out


# ---- sweeps --------------------------------------------------------------------------------
_NUM_TOKEN = re.compile(r"^([A-Za-z_'][A-Za-z_']*?)(\d+(?:\.\d*)?|\.\d+)$")
_BUDGET_TOKEN = re.compile(r"^(time|sims)=", re.IGNORECASE)


def _join(kind: str, tokens: list[str]) -> str:
    return f"{kind}({','.join(tokens)})" if tokens else kind


def strip_budget(spec: str) -> str:
    kind, toks = parts(spec)
    return _join(kind, [t for t in toks if not _BUDGET_TOKEN.match(t)])


def _template(spec: str, index: int) -> tuple[str, str]:
    """(template with token `index`'s number replaced by '{}', the token's prefix)."""
    kind, toks = parts(spec)
    m = _NUM_TOKEN.match(toks[index])
    toks = list(toks)
    toks[index] = m.group(1) + "{}"
    return _join(kind, [t for t in toks if not _BUDGET_TOKEN.match(t)]), m.group(1)


@dataclass
class Sweep:
    """Points of a parameter sweep: `curves[label] = [(x, row), ...]` sorted by x."""

    game: str
    player: str                 # template with '{}' where the parameter goes
    opponent: str
    param: str                  # variable name (recorded) or the token's prefix ("im")
    curves: dict[str, list[tuple[float, PairingRow]]] = field(default_factory=dict)
    plot: str | None = None     # path of the PNG once written

    @property
    def token(self) -> str:
        """The option the parameter sets ("im" for implicit minimax's α)."""
        m = re.search(r"([A-Za-z_']*)\{\}", self.player)
        return m.group(1) if m else self.param

    @property
    def symbol(self) -> str:
        """What stands for the value in the title: α for implicit minimax's weight, the sweep's
        variable where it has a name of its own, else X as `arena players` writes an option's
        value ("fetX", as the picture's file name has it); never the option's name again
        ("fetfet")."""
        if self.token == "im" or self.param == "alpha":
            return "α"
        return "X" if self.param == self.token else self.param

    @property
    def title(self) -> str:
        return f"{self.player.replace('{}', self.symbol)} vs {self.opponent} ({self.game})"

    @property
    def slug(self) -> str:
        text = f"{self.game}-{self.player}-vs-{self.opponent}".replace("{}", "X")
        return re.sub(r"[^A-Za-z0-9.]+", "_", text).strip("_")[:120]


def _numbered(spec: str) -> dict[str, tuple[int, float]]:
    """{prefix: (token index, number)} of a spec's numeric option tokens (budgets left out)."""
    _kind, toks = parts(spec)
    out = {}
    for i, t in enumerate(toks):
        m = _NUM_TOKEN.match(t)
        if m and not _BUDGET_TOKEN.match(t):
            out.setdefault(m.group(1), (i, float(m.group(2))))
    return out


def _recorded_points(rows: list[PairingRow]) -> dict[int, tuple[int, str, float]]:
    """{id(row): (token index, variable name, value)} of the recorded sweep rows' x parameter.

    The parameter's token is the option that holds the variable's value at *every* point of its
    sweep (the pairings one config entry made), not the first token with that number: in
    MCTS(ipp,det0.5,im{a}) at a = 0.5 both det0.5 and im0.5 hold 0.5, but only im holds a's
    value at a = 0.3 and 0.7. When the points cannot tell (one point, or every value the
    same), the token the opponent does not share is taken, else the last one."""
    groups: dict[tuple, list[dict]] = {}
    for row in rows:
        if row.get("_sweep_vars"):
            key = (row["directory"], row.get("_sweep_entry"),
                   tuple(n for n, _ in row["_sweep_vars"]))
            groups.setdefault(key, []).append(row)
    out: dict[int, tuple[int, str, float]] = {}
    for members in groups.values():
        for name, _ in members[0]["_sweep_vars"]:
            values = {}
            for row in members:
                try:
                    values[id(row)] = float(dict(row["_sweep_vars"])[name])
                except ValueError:
                    break
            else:
                tokens = {id(r): _numbered(r["player"]) for r in members}
                holds = [{p for p, (_i, x) in tokens[id(r)].items() if x == values[id(r)]}
                         for r in members]
                common = set.intersection(*holds)
                if not common:
                    continue
                first = members[0]
                order = sorted(common, key=lambda p: tokens[id(first)][p][0])
                opp = _numbered(first["opponent"])
                own = [p for p in order if opp.get(p, (0, None))[1] != values[id(first)]]
                prefix = (own or order)[-1]
                for r in members:
                    out[id(r)] = (tokens[id(r)][prefix][0], name, values[id(r)])
                break
    return out


def find_sweeps(rows: list[PairingRow]) -> list[Sweep]:
    """Group rows into sweeps: pairings recorded as a config `sweep`, and, for the rest, specs
    that differ in one numeric token's value against the same opponent (3 values or more).
    Sweeps with the same templates in several results directories merge (one curve per
    budget). Sets each row's `sweep` field."""
    groups: dict[tuple, Sweep] = {}
    used: set[int] = set()

    def put(key, param, x, row, extra=""):
        sw = groups.get(key)
        if sw is None:
            sw = groups[key] = Sweep(key[0], key[1], key[2], param)
        label = row["budget"] + extra
        sw.curves.setdefault(label, []).append((x, row))
        row["sweep"] = {"param": param, "value": x}
        used.add(id(row))

    points = _recorded_points(rows)
    for row in rows:
        pt = points.get(id(row))
        if pt is None:
            continue
        i, name, x = pt
        tpl, _prefix = _template(row["player"], i)
        others = [f"{n}={v}" for n, v in row["_sweep_vars"] if n != name
                  and not _budget_only(row["player"], v)]
        put((row["game"], tpl, strip_budget(row["opponent"])), name, x, row,
            f", {', '.join(others)}" if others else "")
    # heuristic: one numeric token differs against the same opponent
    cand: dict[tuple, list[tuple[float, dict]]] = {}
    for row in rows:
        if id(row) in used:
            continue
        _kind, toks = parts(row["player"])
        for i, t in enumerate(toks):
            m = _NUM_TOKEN.match(t)
            if not m or _BUDGET_TOKEN.match(t):
                continue
            tpl, prefix = _template(row["player"], i)
            key = (row["game"], tpl, strip_budget(row["opponent"]), prefix)
            cand.setdefault(key, []).append((float(m.group(2)), row))
    for key, pts in sorted(cand.items(), key=lambda kv: -len({x for x, _ in kv[1]})):
        pts = [(x, r) for x, r in pts if id(r) not in used]
        if len({x for x, _ in pts}) < 3:
            continue
        for x, r in pts:
            put(key[:3], key[3], x, r)
    out = []
    for sw in groups.values():
        for label in sw.curves:
            sw.curves[label].sort(key=lambda xr: xr[0])
        if sum(len(c) for c in sw.curves.values()) >= 2:
            out.append(sw)
    for row in rows:
        row.pop("_sweep_vars", None)
        row.pop("_sweep_entry", None)
    return out


def _budget_only(spec: str, value: str) -> bool:
    _kind, toks = parts(spec)
    hits = [t for t in toks if value in t]
    return bool(hits) and all(_BUDGET_TOKEN.match(t) for t in hits)


# ---- the paper beside ours -----------------------------------------------------------------
def compare_paper(rows: list[PairingRow]) -> list[dict]:
    """For every row with a published counterpart: ours, the paper's, budgets and the verdict.
    Also sets each row's `paper` field (a list, possibly empty).

    No verdict (None) where it would mislead: our pairing has no counted games (`ours_pct` is
    None too, shown as "—"), or its budget is far from the paper's (`budget_comparable`); `note`
    says which."""
    from mcts_arena.paper import match_paper
    from mcts_arena.report.verdict import judge

    out = []
    for row in rows:
        row["paper"] = []
        try:
            found = match_paper(row["game"], strip_budget(row["player"]),
                                strip_budget(row["opponent"]))
        except ValueError:
            found = []
        j = row["judged"] if "judged" in row else judged(row)
        has = j is not None
        for pr in found:
            comparable, note = budget_comparable(row, pr.seconds)
            if not has:
                note = "no games"
            v = judge(100 * j["ci_low"], 100 * j["ci_high"], pr.win_pct).text \
                if has and comparable else None
            entry: PaperEntry = {
                "table": pr.table, "id": pr.id, "win_pct": pr.win_pct, "games": pr.games,
                "seconds": pr.seconds, "verdict": v, "comparable": comparable, "note": note,
                "reversed": pr.reversed, "basis": j["basis"] if has else None}
            row["paper"].append(entry)
            out.append({"experiment": row["experiment"], "player": row["player"],
                        "opponent": row["opponent"],
                        "ours_pct": 100 * j["score"] if has else None,
                        "ci_low_pct": 100 * j["ci_low"] if has else None,
                        "ci_high_pct": 100 * j["ci_high"] if has else None,
                        "basis": j["basis"] if has else None,
                        "games": row["games"], "budget": row["budget"], **{
                            f"paper_{k}": entry[k] for k in ("table", "id", "win_pct", "games",
                                                             "seconds")},
                        "verdict": v, "comparable": comparable, "note": note})
    return out


# ---- everything for one `arena report` -----------------------------------------------------
@dataclass
class ExperimentReport:
    info: dict
    rows: list[PairingRow]
    tournament: str | None = None        # bracket / cross-table text of a tournament dir
    tournament_state: object | None = None   # arena.tournament.State of a tournament dir
    #: Bradley–Terry Elo of every player (best first, stats.bradley_terry_ladder) when the
    #: experiment's pairings link three or more players; None otherwise
    ratings: list[dict] | None = None
    #: the fit of each doubling ladder of the experiment (report/scaling.py)
    scaling: list = field(default_factory=list)
    #: a tune's value found, range, path or trials and confirmation (results/tune.py's
    #: `panel`); None: the store is not an SPSA or BO tune's
    tune: dict | None = None
    #: a backgammon experiment's stored luck-adjusted results (results/luck.py's `panel`);
    #: None for a game gnubg does not analyse
    luck: dict | None = None


def experiment_ratings(rows: list[PairingRow]) -> list[dict] | None:
    """Bradley–Terry ratings of an experiment's players from its pairings (a round robin, a
    gauntlet, several matches that share players), or None with fewer than three players or
    when the results do not link them all."""
    from mcts_arena import stats

    results: dict[tuple[str, str], tuple[float, float, float]] = {}
    for r in rows:
        if not r["games"]:
            continue
        key = (r["player"], r["opponent"])
        w, d, lo = results.get(key, (0, 0, 0))
        results[key] = (w + r["wins"], d + r["draws"], lo + r["losses"])
    if len({name for k in results for name in k}) < 3:
        return None
    try:
        return stats.bradley_terry_ladder(results)
    except ValueError:
        return None


@dataclass
class Report:
    experiments: list[ExperimentReport]
    sweeps: list[Sweep]
    comparisons: list[dict] | None = None    # with --compare paper
    ci: str = "auto"
    figures: list[tuple[str, str]] = field(default_factory=list)  # (title, path) written
    #: the folder a written document is read from: its picture links are relative to it
    #: (None: the current directory, for a document printed on stdout)
    base: str | None = None
    #: the stores under the results roots reported (cli/report.py's expand_roots, each
    #: with its `pairings`), shown as an index before the experiments; None: no root
    index: list[dict] | None = None

    @property
    def rows(self) -> list[PairingRow]:
        return [r for e in self.experiments for r in e.rows]


def build_report(paths: list[str], ci: str = "auto", compare: str | None = None) -> Report:
    """Read every results directory (read-only) into a Report."""
    if compare not in (None, "paper"):
        raise UserError(f"unknown --compare {compare!r}; valid: paper")
    dirs = [results.require_results_dir(p) for p in paths]
    exps = []
    for d in dirs:
        with Store.open(d) as store:
            rows = pairing_rows(store, ci)
            state = tournament.stored_state(store)
            config = (store.experiment() or {}).get("config") or {}
            tuned = tune_state.read_counted(store)
            exps.append(ExperimentReport(experiment_info(store), rows,
                                         tournament.render_stored(store), state,
                                         experiment_ratings(rows) if state is None else None,
                                         scaling.fits(config, rows),
                                         None if tuned is None else tune_state.panel(tuned),
                                         luck.panel(d, config.get("game"), rows)))
    all_rows = [r for e in exps for r in e.rows]
    sweeps = find_sweeps(all_rows)
    comparisons = compare_paper(all_rows) if compare == "paper" else None
    return Report(exps, sweeps, comparisons, ci)
