"""`arena reproduce`: play the paper's experiments at a chosen fraction of its search effort.

The manifest (configs/reproduction.yaml) lists the record's pages, each made of experiment
configs (at the paper's budgets and game counts) and Appendix B tournaments. A reproduction run
turns every config's `{time: T}` into the matched effort `{effort: T * scale}` (each player gets
the simulations or nodes the paper's engine searched in that time, see runner/effort.py) and caps
the games per pairing, then plays what is missing into results/<out>/<experiment>/ through the
same runner and store as `arena run` — so it resumes after any stop, and a finished
experiment costs nothing the second time. The pages are written by report/reproduction.py
from what is stored (`Record` says where each page's results are and what the paper's budget
was).
"""
from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcts_arena import inputs
from mcts_arena.budgets import Budget
from mcts_arena.errors import UserError
from mcts_arena.runner import config as cfg
from mcts_arena.runner import effort

DEFAULT_MANIFEST = Path("configs") / "reproduction.yaml"


@dataclass(frozen=True)
class TournamentEntry:
    name: str              # fet, ege, det, im
    game: str
    eval: str | None = None


@dataclass(frozen=True)
class Page:
    id: str
    title: str
    experiments: tuple[Path, ...] = ()
    tournaments: tuple[TournamentEntry, ...] = ()


@dataclass(frozen=True)
class Precision:
    """The precision target of a reproduction's rows (not sweep points, not tournaments).

    A row is played in looks: first `Scale.games` games, then 1.5 times as many at each look
    (even counts: whole seat-swapped pairs), never beyond `cap`. After each look it stops when

    - its 95% interval's half-width is at most `half_width` points ("precision"), or
    - its interval at the stricter level `z_stop` excludes 50% ("decided"): `z_stop` splits the
      5% two-sided error over the row's possible looks (Bonferroni), so a row stopped this way
      excludes 50% at 95% overall however many looks it took, or
    - it has `cap` games ("cap").

    The interval is the one the record's verdicts use (`row_interval`): the pair interval
    where seat-swapped pairs exist, the paper's pair rule for games scored by pairs (Kalah).
    A look is decided on the games of its first pairs only, so a resumed or replayed run takes
    the same path through the looks as the first.
    """

    half_width: float               # target half-width of the 95% interval, in points
    cap: int                        # games per row at most
    growth: float = 1.5
    #: "50": a row is decided once its interval excludes 50% (the paper's side is tested);
    #: "paper": once it excludes the paper's own value for the row (the value is tested)
    aim: str = "50"

    def looks(self, first: int) -> list[int]:
        out = [first]
        while out[-1] < self.cap:
            nxt = math.ceil(out[-1] * self.growth)
            out.append(min(self.cap, nxt + nxt % 2))
        return out

    def z_stop(self, first: int) -> float:
        from mcts_arena import stats

        return stats.looks_z(len(self.looks(first)))

    def describe(self, first: int) -> str:
        looks = self.looks(first)
        target = "50%" if self.aim == "50" else "the paper's value for the row"
        return (f"rows played in looks of {', '.join(map(str, looks))} games, stopping once the "
                f"95% interval is at most ±{self.half_width:g} points, or excludes {target} at "
                f"z = {self.z_stop(first):.2f} (5% split over the {len(looks)} looks)")


@dataclass(frozen=True)
class Scale:
    """How far below the paper a reproduction runs."""

    effort: float = 0.1            # fraction of the paper's seconds, as matched effort
    games: int = 40                # games per pairing (the first look with a precision target)
    sweep_games: int | None = None  # at most this many per point of a sweep (default: games)
    tournament_games: int = 20     # games per tournament match (even)
    precision: Precision | None = None

    def describe(self) -> str:
        sw = f", {self.sweep_games} per sweep point" if self.sweep_games else ""
        if self.precision is None:
            return (f"{self.effort:g} x the paper's search effort, at most {self.games} games "
                    f"per pairing{sw}, {self.tournament_games} per tournament match")
        return (f"{self.effort:g} x the paper's search effort; "
                f"{self.precision.describe(self.games)}"
                f"{sw}, {self.tournament_games} per tournament match")


@dataclass
class Manifest:
    pages: list[Page] = field(default_factory=list)
    source: str = ""

    def select(self, only: list[str] | None) -> list[Page]:
        if not only:
            return list(self.pages)
        known = [p.id for p in self.pages]
        bad = [o for o in only if o not in known]
        if bad:
            valid = ", ".join(p.id for p in self.pages)
            raise UserError(f"--only {bad[0]!r}: no such page; valid: {valid}")
        return [p for p in self.pages if p.id in only]


def load_manifest(path: str | Path = DEFAULT_MANIFEST) -> Manifest:
    """Read and check the manifest (UserError naming the field on any mistake)."""
    p = Path(path)
    data = inputs.load_yaml(p, "a reproduction manifest (YAML)")
    if not isinstance(data, dict) or not isinstance(data.get("pages"), list):
        raise UserError(f"{p}: expected a mapping with a list 'pages'")
    pages = []
    for i, e in enumerate(data["pages"]):
        where = f"{p}: pages[{i}]"
        if not isinstance(e, dict) or "id" not in e:
            raise UserError(f"{where}: expected a mapping with 'id', 'title' and "
                            f"'experiments' or 'tournaments'")
        exps = []
        for j, name in enumerate(e.get("experiments") or []):
            f = p.parent / str(name)
            if not f.is_file():
                raise UserError(f"{where}.experiments[{j}]: no such config {f}")
            exps.append(f)
        tours = []
        for j, t in enumerate(e.get("tournaments") or []):
            if not isinstance(t, dict) or "name" not in t or "game" not in t:
                raise UserError(f"{where}.tournaments[{j}]: expected {{name, game[, eval]}}")
            tours.append(TournamentEntry(str(t["name"]), str(t["game"]), t.get("eval")))
        if any(q.id == str(e["id"]) for q in pages):
            raise UserError(f"{where}: page id {e['id']!r} given twice; give each page once")
        pages.append(Page(str(e["id"]), str(e.get("title", e["id"])), tuple(exps), tuple(tours)))
    return Manifest(pages, str(p))


def paper_seconds(exp: cfg.Experiment) -> float | None:
    """The paper's seconds per move an experiment config stands for (its time budget)."""
    return exp.budget.time if exp.budget.time is not None else exp.budget.effort


def _check_effort(paper_secs: float, scale: Scale, what) -> None:
    """Refuse a scale that gives `what` less than the smallest budget a move may have."""
    from mcts_arena.budgets import TIME_MIN

    if paper_secs * scale.effort < TIME_MIN:
        raise UserError(f"--scale {scale.effort:g} gives {what} an effort of "
                        f"{paper_secs * scale.effort:.3g} s a move, below the {TIME_MIN:g} s "
                        f"minimum; use --scale {TIME_MIN / paper_secs:.3g} or more")


def scaled_experiment(path: Path, scale: Scale, players=None) -> cfg.Experiment:
    """The config at `path`, as played by a reproduction at `scale`."""
    base = cfg.load(path, players=players)
    secs = paper_seconds(base)
    if secs is None:
        raise UserError(f"{path}: a reproduction config needs a time budget (the paper's seconds)")
    _check_effort(secs, scale, path)
    exp = cfg.load(path, cfg.Overrides(effort=secs * scale.effort), players=players)
    swept = scale.sweep_games or scale.games
    pairings = tuple(dataclasses.replace(p, games=min(p.games, swept if p.sweep else scale.games))
                     for p in exp.pairings)
    return dataclasses.replace(exp, pairings=pairings,
                               games=min(exp.games, scale.games))


def reference_entrant(spec) -> tuple[str, str]:
    """(label, spec) of the entrant whose measured rate sets every entrant's budget in a
    matched-effort bracket: the paper's winner where the paper printed the bracket, else the
    first entrant.

    Why one rate for all: only a few entrants of each bracket have a rate of their own (the
    paper's winners and the players of Tables 7-9); by the per-player rule of
    runner/effort.py those would search up to 3.4x the simulations of the rest (Breakthrough's
    MCTS(ipp,fet4) at its own rate against the others at fet20's), and the bracket would rank
    which entrants were measured, not its parameter's values. With one rate every entrant
    searches the same simulations a move. The paper's brackets gave each entrant equal seconds
    instead, which would need every entrant's own rate; the winner's is measured in all seven."""
    from mcts_arena.paper import load_paper_results

    paper = next((t for t in load_paper_results().tournaments if t.id == spec.paper), None)
    for label, text in spec.entrants:
        if paper is not None and label == paper.winner:
            return label, text
    return spec.entrants[0]


def scaled_tournament(entry: TournamentEntry, scale: Scale, players=None):
    """The paper's tuning tournament `entry` at `scale`: a matched effort of 1 s x scale, the
    same for every entrant, at the rate of `reference_entrant` (an entrant's own budget in its
    spec is kept)."""
    from mcts_arena.runner import tournament

    spec = tournament.resolve(entry.name, entry.game, entry.eval)
    parse = (players or cfg.players_provider()).parse
    _check_effort(spec.budget.time or 1.0, scale, spec.name)
    secs = (spec.budget.time or 1.0) * scale.effort
    _label, text = reference_entrant(spec)
    common = effort.resolve(parse(text, game=spec.game), secs, parse)
    budgets = {label: spec.budgets.get(label) or common for label, _text in spec.entrants}
    games = max(2, scale.tournament_games - scale.tournament_games % 2)
    return dataclasses.replace(spec, budget=Budget(effort=secs), budgets=budgets,
                               games=min(spec.games, games))


@dataclass(frozen=True)
class PageRun:
    """What playing one page came to: interrupted (Ctrl-C), and the pairings of its
    experiments whose stored games are all error games ((label, games), the all-error rule of
    `arena run`; a tournament with such a match stops the whole command with that rule)."""

    interrupted: bool = False
    terminated: bool = False        # stopped by SIGTERM (exit 143) rather than Ctrl-C (130)
    all_error: tuple[tuple[str, int], ...] = ()


def run_page(page: Page, scale: Scale, out: Path, *, workers: int, backend=None,
             progress: bool = True, echo: Callable[[str], Any] = print,
             allow_mixed_builds: bool = False) -> PageRun:
    """Play what is missing of one page."""
    from mcts_arena.runner import plan as plan_mod
    from mcts_arena.runner import tournament
    from mcts_arena.runner.experiment import run_experiment

    all_error: tuple[tuple[str, int], ...] = ()
    for path in page.experiments:
        exp = scaled_experiment(path, scale)
        directory = out / exp.name
        base = cfg.load(path)
        paper_games = {p.id: p.games for p in base.pairings}
        while True:
            the_plan = plan_mod.make_plan(exp)
            echo(f"{page.id}: {exp.name} ({len(exp.pairings)} pairings, {the_plan.total_games} "
                 f"games, {exp.budget}) -> {directory}")
            res = run_experiment(exp, the_plan, directory, workers=workers, backend=backend,
                                 progress=progress, allow_mixed_builds=allow_mixed_builds)
            if res.halted:
                return PageRun(interrupted=True, all_error=all_error,
                               terminated=res.terminated)
            if res.all_error or scale.precision is None:
                all_error += tuple(res.all_error)
                break
            grow = next_looks(exp, directory, scale, paper_games, paper_seconds(base))
            if not grow:
                break
            echo(f"{page.id}: {exp.name}: {len(grow)} row(s) short of the precision target, "
                 f"next look: " + ", ".join(sorted({str(n) for n in grow.values()})) + " games")
            exp = dataclasses.replace(exp, pairings=tuple(
                dataclasses.replace(p, games=grow.get(p.id, p.games)) for p in exp.pairings))
    for entry in page.tournaments:
        spec = scaled_tournament(entry, scale)
        directory = out / spec.name
        echo(f"{page.id}: tournament {spec.title} ({entry.game}, {spec.games} games per match, "
             f"{spec.budget}) -> {directory}")
        res = tournament.run_tournament(spec, directory, workers=workers, progress=progress,
                                        echo=lambda *_a, **_k: None,
                                        backend_factory=(lambda: backend) if backend else None,
                                        allow_mixed_builds=allow_mixed_builds)
        if res.interrupted:
            return PageRun(interrupted=True, all_error=all_error, terminated=res.terminated)
    return PageRun(all_error=all_error)


@dataclass(frozen=True)
class Record:
    """What `arena reproduce` plays and writes: the pages with their results directories and
    the paper's seconds per experiment, the scale, and the command that makes them (for the
    pages' provenance line). Everything in it is checked before anything is played."""

    pages: tuple[tuple[Page, tuple[Path, ...], dict], ...]   # (page, dirs, paper seconds)
    scale: Scale
    out: Path
    command: str
    order: tuple[str, ...] = ()     # every page id of the manifest, in its order (the index's)


#: The fewest whole games of the paper's engine a rate of the record must be measured over.
MIN_RATE_GAMES = 10


def unmeasured_rates(record: Record) -> list[str]:
    """The rate entries the record's pages would play with that lack a 95% interval or stand
    on fewer than MIN_RATE_GAMES games (benchmarks/paper_engine/measure.py measures them):
    a matched effort is only as sure as the rate behind it."""
    rates = {(r.game, r.player): r for r in effort.load_rates()}
    used = set()
    for page, _dirs, _secs in record.pages:
        for path in page.experiments:
            exp = scaled_experiment(path, record.scale)
            for p in exp.pairings:
                for b in (p.player_budget, p.opponent_budget):
                    if b is not None and b.rate_of is not None:
                        used.add((str(exp.game), b.rate_of))
        for t in page.tournaments:
            spec = scaled_tournament(t, record.scale)
            for b in spec.budgets.values():
                if b is not None and b.rate_of is not None:
                    used.add((str(spec.game), b.rate_of))
    out = []
    for key in sorted(used):
        r = rates.get(key)
        if r is not None and (r.ci95 is None or (r.games or 0) < MIN_RATE_GAMES):
            out.append(f"{key[1]} ({key[0]}: {r.games or 'unknown'} games"
                       f"{'' if r.ci95 else ', no interval'})")
    return out


def check_rates_measured(record: Record) -> None:
    """Refuse (UserError, one line naming the rates file) to play a record on rates without an
    interval or with fewer than MIN_RATE_GAMES games behind them."""
    bad = unmeasured_rates(record)
    if bad:
        src = effort.rates_source()
        raise UserError(f"{src}: the record needs every rate it plays with measured over at "
                        f"least {MIN_RATE_GAMES} games with a 95% interval "
                        f"(benchmarks/paper_engine/measure.py); not so for {bad[0]}"
                        + (f" and {len(bad) - 1} more" if len(bad) > 1 else ""))


def prepare(manifest: str | Path, only: str | None, scale: Scale, out: str | Path) -> Record:
    """Read the manifest, select the pages (`only`: comma-separated ids) and check every config,
    rate and tournament of them (UserError before anything is played or written)."""
    man = load_manifest(manifest)
    ids = None
    if only is not None:
        ids = [x.strip() for x in only.split(",")]
        if not any(ids) or not all(ids):    # `--only ,` or `--only a,,b`: not "every page"
            raise UserError(f"--only must list page ids separated by commas, got {only!r}")
        inputs.once(ids, "--only")
    pages = man.select(ids)
    out = Path(out)
    rows = tuple((p, tuple(page_dirs(p, scale, out)), page_seconds(p)) for p in pages)
    command = (f"arena reproduce --scale {scale.effort:g} --games {scale.games}"
               + (f" --precision {scale.precision.half_width:g} --max-games {scale.precision.cap}"
                  if scale.precision else "")
               + (f" --aim {scale.precision.aim}" if scale.precision
                  and scale.precision.aim != "50" else "")
               + (f" --sweep-games {scale.sweep_games}" if scale.sweep_games else "")
               + f" --tournament-games {scale.tournament_games}"
               + (f" --only {only}" if only else ""))
    return Record(rows, scale, out, command, tuple(p.id for p in man.pages))


def dry_run(record: Record, workers: int) -> str:
    """What `arena reproduce --dry-run` prints: per page, each experiment's plan (games still
    to play, what a move of each player searches and costs: runner.plan.describe with measured
    costs) and each tournament's (runner.tournament.dry_run), then the CPU time in all.
    Nothing is played or written."""
    from mcts_arena.results.store import Store
    from mcts_arena.runner import plan as plan_mod
    from mcts_arena.runner import tournament
    from mcts_arena.runner.estimate import Costs
    from mcts_arena.runner.experiment import has_results

    lines = [f"{record.command}: {record.scale.describe()}"]
    if record.scale.precision is not None:
        lines.append("(with --precision a row may play more looks than its first: the games "
                     "below are the first look's)")
    costs: dict[str, Costs] = {}
    total, unknown = 0.0, False
    for page, dirs, _secs in record.pages:
        lines.append(f"\npage {page.id}: {page.title}")
        for path, d in zip(page.experiments, dirs):
            exp = scaled_experiment(path, record.scale)
            cost = costs.setdefault(f"{exp.game}/{exp.macros}",
                                    Costs(exp.game, exp.macros_dict()))
            the_plan = plan_mod.make_plan(exp)
            done: set[str] = set()
            if has_results(d):
                with Store.open(d) as store:
                    done = store.done_ids()
            lines.append(plan_mod.describe(the_plan, done, workers, cost))
            todo = [g for j in the_plan.jobs for g in j.games if g.game_id not in done]
            est = plan_mod.estimate_cpu_seconds(exp, todo, cost)
            unknown |= est is None
            total += est or 0.0
        for entry, d in zip(page.tournaments, dirs[len(page.experiments):]):
            spec = scaled_tournament(entry, record.scale)
            lines.append(tournament.dry_run(spec, d, workers))
    if unknown:
        lines.append("\nCPU time of the experiments: partly unknown (an external engine)")
    lines.append(f"\nexperiments in all: about {plan_mod.hms(total)} CPU, "
                 f"{plan_mod.hms(total / max(1, workers))} on {workers} worker"
                 f"{'s' if workers != 1 else ''} (tournaments above, each on its own)")
    return "\n".join(lines)


def make_scale(effort: float, games: int, sweep_games: int | None, tournament_games: int,
               precision: float | None = None, max_games: int | None = None,
               aim: str = "50") -> Scale:
    """The Scale of `arena reproduce`'s options, checked (UserError naming the option)."""
    if not 0 < effort <= 100:
        raise UserError(f"--scale must be in (0, 100], got {effort}")
    for flag, v in (("--games", games), ("--sweep-games", sweep_games),
                    ("--tournament-games", tournament_games), ("--max-games", max_games)):
        if v is not None and v <= 0:
            raise UserError(f"{flag} must be a positive integer, got {v}")
    if tournament_games % 2:        # matches are pairs of games with the seats swapped
        raise UserError(f"--tournament-games must be even (pairs of games, seats swapped), got "
                        f"{tournament_games}")
    if max_games is not None and precision is None:
        raise UserError("--max-games needs --precision")
    if aim != "50" and precision is None:
        raise UserError("--aim needs --precision")
    prec = None
    if precision is not None:
        if not 0 < precision < 50:
            raise UserError(f"--precision must be a half-width in points in (0, 50), got "
                            f"{precision:g}")
        cap = max_games if max_games is not None else 4 * games
        if cap < games:
            raise UserError(f"--max-games ({cap}) must be at least --games ({games})")
        prec = Precision(half_width=precision, cap=cap, aim=aim)
    return Scale(effort=effort, games=games, sweep_games=sweep_games,
                 tournament_games=tournament_games, precision=prec)


def play(record: Record, *, workers: int, backend=None, progress: bool = True,
         echo: Callable[[str], Any] = print, allow_mixed_builds: bool = False) -> PageRun:
    """Play what is missing of every page of `record`, in order; stops at an interruption.
    The all-error pairings of every page are collected (PageRun.all_error)."""
    from mcts_arena.runner.pool import LocalPoolBackend

    all_error: tuple[tuple[str, int], ...] = ()
    # one set of local workers for every experiment and tournament round of every page
    with LocalPoolBackend(workers, keep_workers=True) as pool:
        for page, _dirs, _secs in record.pages:
            ran = run_page(page, record.scale, record.out, workers=workers,
                           backend=backend or pool, progress=progress, echo=echo,
                           allow_mixed_builds=allow_mixed_builds)
            all_error += ran.all_error
            if ran.interrupted:
                return PageRun(interrupted=True, all_error=all_error, terminated=ran.terminated)
    return PageRun(all_error=all_error)


def row_interval(counts: dict, pair_rule: bool, z: float | None = None
                 ) -> tuple[float, float, str] | None:
    """(low, high, basis) of one pairing's interval as the record judges it (at 95%, or at `z`):
    the paper's pair rule over decisive pairs where a game is scored by pairs (Kalah), the
    pentanomial interval of the complete seat-swapped pairs where there are any, else the
    per-game interval. `counts`: a row of `results.pairing_counts`. None with nothing counted."""
    from mcts_arena import stats

    z = stats.Z95 if z is None else z
    if pair_rule:
        won, lost = counts["pairs_won"], counts["pairs_lost"]
        if won + lost == 0:
            return None
        lo, hi = stats.wilson_interval(won, won + lost, z)
        return lo, hi, "pair rule"
    if counts.get("pentanomial"):
        lo, hi = stats.pentanomial_interval(counts["pentanomial"], z)
        return lo, hi, "pairs"
    n = counts["games"]
    if not n:
        return None
    lo, hi = stats.wilson_interval(counts["wins"] + 0.5 * counts["draws"], n, z)
    return lo, hi, "games"


def look_decision(counts: dict, pair_rule: bool, precision: Precision, first: int,
                  games: int, paper: float | None = None) -> dict:
    """Whether a row stops after the look of `games` games (Precision's rule), as a record:
    {"games", "basis", "ci": [low, high], "half_width" (points), "stop": reason or None}.
    `paper`: the paper's win rate for the row (a fraction), which a rule aiming at the paper's
    value tests instead of 50% (a row without one is tested against 50%)."""
    iv = row_interval(counts, pair_rule)
    rec = {"games": games, "basis": iv[2] if iv else None,
           "ci": [iv[0], iv[1]] if iv else None,
           "half_width": 50.0 * (iv[1] - iv[0]) if iv else None, "stop": None}
    if iv is None:
        rec["stop"] = "cap" if games >= precision.cap else None
        return rec
    strict = row_interval(counts, pair_rule, precision.z_stop(first))
    target = paper if precision.aim == "paper" and paper is not None else 0.5
    if rec["half_width"] <= precision.half_width:
        rec["stop"] = "precision"
    elif strict[0] > target or strict[1] < target:
        rec["stop"] = "decided"
    elif games >= precision.cap:
        rec["stop"] = "cap"
    return rec


def _paper_value(exp: cfg.Experiment, pairing, seconds: float | None) -> float | None:
    """The paper's win rate (a fraction) for a row at the paper's `seconds`, if it has one."""
    from mcts_arena.paper import match_paper

    try:
        found = match_paper(str(exp.game), pairing.player, pairing.opponent, seconds=seconds)
    except ValueError:
        return None
    return found[0].win_pct / 100 if found else None


def next_looks(exp: cfg.Experiment, directory: Path, scale: Scale,
               paper_games: dict[str, int] | None = None,
               seconds: float | None = None) -> dict[str, int]:
    """{pairing id: games of its next look} for the rows of `exp` that have not met the
    precision target on the games of their current look (never beyond the cap, nor beyond the
    paper's own games for the row, `paper_games`); every row's decision is recorded in the
    store's meta (`precision/<pairing id>`), where the record's pages read it."""
    from mcts_arena import games as _games
    from mcts_arena import results
    from mcts_arena.results.store import Store
    from mcts_arena.runner.writer import Writer

    pair_rule = _games.pair_rule(exp.game)
    with Store.open(directory) as store:
        frame = results.frame(store)
    grow, decisions = {}, {}
    for p in exp.pairings:
        if p.sweep:
            continue
        cap = min(scale.precision.cap, (paper_games or {}).get(p.id, scale.precision.cap))
        prec = dataclasses.replace(scale.precision, cap=max(cap, scale.games))
        looks = prec.looks(scale.games)
        # only the games of this look's pairs decide it (a store may hold more)
        mine = frame[(frame["pairing"] == p.id) & (frame["pair_index"] < p.games // 2)]
        counts = results.pairing_counts(mine).iloc[0].to_dict() if len(mine) else {
            "games": 0, "wins": 0, "draws": 0, "pentanomial": None}
        if pair_rule:
            won, lost = _look_pairs(mine)
            counts["pairs_won"], counts["pairs_lost"] = won, lost
        rec = look_decision(counts, pair_rule, prec, scale.games, p.games,
                            _paper_value(exp, p, seconds) if prec.aim == "paper" else None)
        rec["rule"] = prec.describe(scale.games)
        rec["looks"] = len(looks)       # the verdict's level is the stop rule's (looks_z)
        decisions[p.id] = rec
        if rec["stop"] is None:
            later = [n for n in looks if n > p.games]
            grow[p.id] = later[0] if later else prec.cap
    with Writer.open(directory) as store:
        for pid, rec in decisions.items():
            store.set_meta(f"precision/{pid}", json.dumps(rec, sort_keys=True))
    return grow


def _look_pairs(frame) -> tuple[int, int]:
    """Pairs won and lost by the pair rule among the complete, error-free pairs of `frame`."""
    from mcts_arena import stats

    won = lost = 0
    for _, g in frame.groupby("pair_index"):
        if len(g) != 2 or (g["result"] == "error").any():
            continue
        by_swap = dict(zip(g["swap"], g["score"]))
        outcome = stats.pair_outcome(by_swap.get(0), by_swap.get(1))
        won += outcome == "player"
        lost += outcome == "opponent"
    return won, lost


def page_seconds(page: Page) -> dict[str, float]:
    """The paper's seconds per move that each experiment (and tournament) of `page` stands for,
    by experiment name: a reproduction's row is compared with the paper's row at that budget."""
    from mcts_arena.runner import tournament

    secs = {}
    for path in page.experiments:
        base = cfg.load(path)
        secs[base.name] = paper_seconds(base)
    for t in page.tournaments:
        spec = tournament.resolve(t.name, t.game, t.eval)
        secs[spec.name] = spec.budget.time or 1.0
    return secs


def page_dirs(page: Page, scale: Scale, out: Path) -> list[Path]:
    """The results directories of a page's experiments and tournaments (played or not)."""
    dirs = [out / scaled_experiment(p, scale).name for p in page.experiments]
    dirs += [out / scaled_tournament(t, scale).name for t in page.tournaments]
    return dirs


def check_publish(dest: Path, record) -> None:
    """--publish DIR, before anything is played or written: a folder (or one that can be
    made) where each published file can go (none of their names a folder or a link)."""
    from mcts_arena.results import archive
    from mcts_arena.runner.writer import check_writable_dir

    check_writable_dir(dest, "a folder for published games (--publish)")
    for _page, dirs, _secs in record.pages:
        for d in dirs:
            f = dest / f"{d.name}{archive.SUFFIX}"
            for p in (f, f.with_name(f.name + ".tmp")):
                if p.is_symlink() or (p.exists() and not p.is_file()):
                    raise UserError(f"--publish {dest}: {p} is not a regular file; refusing to "
                                    f"replace it")
