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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

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
class Scale:
    """How far below the paper a reproduction runs."""

    effort: float = 0.1            # fraction of the paper's seconds, as matched effort
    games: int = 40                # at most this many games per pairing
    sweep_games: int | None = None  # at most this many per point of a sweep (default: games)
    tournament_games: int = 20     # games per tournament match (even)

    def describe(self) -> str:
        sw = f", {self.sweep_games} per sweep point" if self.sweep_games else ""
        return (f"{self.effort:g} x the paper's search effort, at most {self.games} games per "
                f"pairing{sw}, {self.tournament_games} per tournament match")


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
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise UserError(f"{p}: cannot read the reproduction manifest: {e.strerror}") from None
    except yaml.YAMLError as e:
        raise UserError(f"{p}: YAML syntax error: {' '.join(str(e).split())}") from None
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
        pages.append(Page(str(e["id"]), str(e.get("title", e["id"])), tuple(exps), tuple(tours)))
    return Manifest(pages, str(p))


def paper_seconds(exp: cfg.Experiment) -> float | None:
    """The paper's seconds per move an experiment config stands for (its time budget)."""
    return exp.budget.time if exp.budget.time is not None else exp.budget.effort


def scaled_experiment(path: Path, scale: Scale, players=None) -> cfg.Experiment:
    """The config at `path`, as played by a reproduction at `scale`."""
    base = cfg.load(path, players=players)
    secs = paper_seconds(base)
    if secs is None:
        raise UserError(f"{path}: a reproduction config needs a time budget (the paper's seconds)")
    exp = cfg.load(path, cfg.Overrides(effort=secs * scale.effort), players=players)
    swept = scale.sweep_games or scale.games
    pairings = tuple(dataclasses.replace(p, games=min(p.games, swept if p.sweep else scale.games))
                     for p in exp.pairings)
    return dataclasses.replace(exp, pairings=pairings,
                               games=min(exp.games, scale.games))


def scaled_tournament(entry: TournamentEntry, scale: Scale, players=None):
    """The paper's tuning tournament `entry` at `scale` (matched effort of 1 s x scale)."""
    from mcts_arena.runner import tournament

    spec = tournament.resolve(entry.name, entry.game, entry.eval)
    parse = (players or cfg.players_provider()).parse
    secs = (spec.budget.time or 1.0) * scale.effort
    budgets = {}
    for label, text in spec.entrants:
        own = spec.budgets.get(label)
        budgets[label] = own or effort.resolve(parse(text, game=spec.game), secs, parse)
    games = max(2, scale.tournament_games - scale.tournament_games % 2)
    return dataclasses.replace(spec, budget=Budget(effort=secs), budgets=budgets,
                               games=min(spec.games, games))


@dataclass(frozen=True)
class PageRun:
    """What playing one page came to: interrupted (Ctrl-C), and the pairings of its
    experiments whose stored games are all error games ((label, games), the all-error rule of
    `arena run`; a tournament with such a match stops the whole command with that rule)."""

    interrupted: bool = False
    all_error: tuple[tuple[str, int], ...] = ()


def run_page(page: Page, scale: Scale, out: Path, *, workers: int, backend=None,
             progress: bool = True, echo: Callable[[str], Any] = print) -> PageRun:
    """Play what is missing of one page."""
    from mcts_arena.runner import plan as plan_mod
    from mcts_arena.runner import tournament
    from mcts_arena.runner.experiment import run_experiment

    all_error: tuple[tuple[str, int], ...] = ()
    for path in page.experiments:
        exp = scaled_experiment(path, scale)
        the_plan = plan_mod.make_plan(exp)
        directory = out / exp.name
        echo(f"{page.id}: {exp.name} ({len(exp.pairings)} pairings, {the_plan.total_games} "
             f"games, {exp.budget}) -> {directory}")
        res = run_experiment(exp, the_plan, directory, workers=workers,
                                       backend=backend, progress=progress)
        if res.interrupted:
            return PageRun(interrupted=True, all_error=all_error)
        all_error += tuple(res.all_error)
    for entry in page.tournaments:
        spec = scaled_tournament(entry, scale)
        directory = out / spec.name
        echo(f"{page.id}: tournament {spec.title} ({entry.game}, {spec.games} games per match, "
             f"{spec.budget}) -> {directory}")
        res = tournament.run_tournament(spec, directory, workers=workers, progress=progress,
                                        echo=lambda *_a, **_k: None,
                                        backend_factory=(lambda: backend) if backend else None)
        if res.interrupted:
            return PageRun(interrupted=True, all_error=all_error)
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


def prepare(manifest: str | Path, only: str | None, scale: Scale, out: str | Path) -> Record:
    """Read the manifest, select the pages (`only`: comma-separated ids) and check every config,
    rate and tournament of them (UserError before anything is played or written)."""
    man = load_manifest(manifest)
    pages = man.select([x.strip() for x in only.split(",") if x.strip()] if only else None)
    out = Path(out)
    rows = tuple((p, tuple(page_dirs(p, scale, out)), page_seconds(p)) for p in pages)
    command = (f"arena reproduce --scale {scale.effort:g} --games {scale.games}"
               + (f" --sweep-games {scale.sweep_games}" if scale.sweep_games else "")
               + f" --tournament-games {scale.tournament_games}"
               + (f" --only {only}" if only else ""))
    return Record(rows, scale, out, command)


def play(record: Record, *, workers: int, backend=None, progress: bool = True,
         echo: Callable[[str], Any] = print) -> PageRun:
    """Play what is missing of every page of `record`, in order; stops at an interruption.
    The all-error pairings of every page are collected (PageRun.all_error)."""
    all_error: tuple[tuple[str, int], ...] = ()
    for page, _dirs, _secs in record.pages:
        ran = run_page(page, record.scale, record.out, workers=workers, backend=backend,
                       progress=progress, echo=echo)
        all_error += ran.all_error
        if ran.interrupted:
            return PageRun(interrupted=True, all_error=all_error)
    return PageRun(all_error=all_error)


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
