"""The paper's published numbers (``data/paper_results.yaml``) and how ours are set beside them.

``load_paper_results()`` reads the data file once (cached) into frozen dataclasses;
``match_paper(game, player, opponent, seconds=None)`` finds the published rows for a pairing of
ours (report/verdict.py judges our interval against them).

Specs are compared after a normalisation function (``normalize_spec`` by default, or the spec
parser's canonical form passed in by the caller): spaces stripped, case ignored, ``bl'``/``bl’``
== ``blp``, ``αβ``/``alphabeta`` == ``ab``, numbers canonical (``ege1.0`` == ``ege1``,
``det.5`` == ``det0.5``), options as an unordered set, and an evaluator implied by a macro
dropped (``MCTS(efMS,bl)`` == ``MCTS(bl)``, ``MCTS(efLH,bl')`` == ``MCTS(bl')``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any

from mcts_arena import inputs
from mcts_arena.players import notation

#: Evaluators a macro already implies (docs/paper.md §2: bl is efMS's baseline, bl' efLH's).
MACRO_EVAL = {"bl": "efms", "blp": "eflh"}

_PLAYER_ALIASES = {"αβ": "ab", "alphabeta": "ab", "alpha-beta": "ab", "ab": "ab"}
_TOKEN_NUMBER = re.compile(r"^([^\d.=-]*?)(-?(?:\d+\.?\d*|\.\d+))$")
_KEY_VALUE = re.compile(r"^([^=]+)=(.+)$")


def _canon_number(text: str) -> str:
    value = float(text)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _canon_token(token: str) -> str:
    token = token.replace("’", "'").replace("′", "'").casefold()
    if token.endswith("'"):
        token = token[:-1] + "p"
    kv = _KEY_VALUE.match(token)
    if kv:
        key, value = kv.groups()
        try:
            value = _canon_number(value)
        except ValueError:
            pass
        return f"{key}={value}"
    m = _TOKEN_NUMBER.match(token)
    if m and m.group(1):
        return m.group(1) + _canon_number(m.group(2))
    return token


def spec_key(spec: str) -> tuple[str, frozenset[str]]:
    """A player spec read order-insensitively: ``(name, frozenset(options))``, case ignored,
    numbers canonical (`MCTS(ege1.0)` is `MCTS(ege1)`), options unordered; every option kept.

    >>> spec_key("MCTS(ipp,abp2,im0.20)") == spec_key("mcts(ipp, im0.2, abp2)")
    True
    """
    text = re.sub(r"\s+", "", spec)
    name, tokens = notation.parts(text)
    if not name or "(" in name or ")" in name or any("(" in t or ")" in t for t in tokens) \
            or text.count("(") > 1 or (text.count("(") == 1 and not text.endswith(")")):
        raise ValueError(f"cannot read player spec {spec!r}: expected NAME or NAME(opt,opt,...)")
    name = name.casefold()
    return _PLAYER_ALIASES.get(name, name), frozenset(_canon_token(t) for t in tokens)


def normalize_spec(spec: str) -> tuple[str, frozenset[str]]:
    """Canonical, order-insensitive form of a player spec: ``(name, frozenset(options))``.

    `spec_key`, then compared loosely, as the paper writes its players: an evaluation its macro
    implies dropped, and the paper's αβ (no table, no history) the same as `αβ(...,tt=0,hh=0)`.

    >>> normalize_spec("MCTS(im0.40, bl)") == normalize_spec("mcts(bl,im0.4)")
    True
    """
    name, key = spec_key(spec)
    opts = set(key)
    for macro, ev in MACRO_EVAL.items():
        if macro in opts:
            opts.discard(ev)
    if name == "ab":
        # the paper's αβ had no transposition table and no history heuristic: written
        # αβ(...,tt=0,hh=0) here, it is the player of the paper's αβ rows
        opts -= {"tt=0", "hh=0"}
    return name, frozenset(opts)


@dataclass(frozen=True)
class PaperRow:
    """One published head-to-head number: ``player`` against ``opponent``."""

    id: str
    table: str
    game: str
    player: str
    opponent: str
    win_pct: float
    games: int | None = None
    seconds: float | None = None
    ci_pct: float | None = None
    wins_a: int | None = None
    wins_b: int | None = None
    ties: int | None = None
    paper_label: str | None = None
    aliases: tuple[str, ...] = ()
    notes: str = ""
    reversed: bool = False  # True when returned with the seats of the row swapped

    def flipped(self) -> PaperRow:
        """The same result seen from the opponent's side (win % -> 100 - win %)."""
        return replace(
            self,
            player=self.opponent,
            opponent=self.player,
            win_pct=round(100.0 - self.win_pct, 10),
            wins_a=self.wins_b,
            wins_b=self.wins_a,
            aliases=(),
            reversed=not self.reversed,
        )


@dataclass(frozen=True)
class PaperFigure:
    """A published α curve: only the range of α the paper names as best is text."""

    id: str
    game: str
    player: str  # template with {alpha}
    opponent: str
    seconds: tuple[float, ...]
    games_per_point: int
    best_alpha: tuple[float, float]
    claim: str
    #: the claim in the best range is that α does no harm (not below 50%), not that it helps
    no_loss: bool = False


@dataclass(frozen=True)
class PaperTournament:
    """An Appendix B elimination tournament with its verbatim printed bracket."""

    id: str
    section: str
    game: str
    eval: str
    kind: str
    label_prefix: str
    spec_template: str
    values: tuple[str, ...]
    games_per_match: int
    winner: str
    winner_spec: str
    bracket: str
    notes: str = ""

    @property
    def entrants(self) -> list[str]:
        """Entrant labels in bracket order (``mcts_h_fet0``, ...)."""
        return [self.label_prefix + v for v in self.values]

    @property
    def specs(self) -> dict[str, str]:
        """Entrant label -> our player spec."""
        return {self.label_prefix + v: self.spec_template.format(x=v) for v in self.values}


@dataclass(frozen=True)
class PaperResults:
    """Everything in the data file."""

    source: dict[str, Any]
    rows: tuple[PaperRow, ...]
    figures: tuple[PaperFigure, ...]
    tournaments: tuple[PaperTournament, ...]
    parameter_sets: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def tournament(self, tid: str) -> PaperTournament:
        for t in self.tournaments:
            if t.id == tid:
                return t
        valid = ", ".join(t.id for t in self.tournaments)
        raise ValueError(f"unknown paper tournament {tid!r}; valid: {valid}")


def _row(d: dict[str, Any]) -> PaperRow:
    d = dict(d)
    d["aliases"] = tuple(d.get("aliases") or ())
    d["notes"] = d.get("notes") or ""
    return PaperRow(**d)


def _figure(d: dict[str, Any]) -> PaperFigure:
    d = dict(d)
    d["seconds"] = tuple(d["seconds"])
    d["best_alpha"] = tuple(d["best_alpha"])
    return PaperFigure(**d)


def _tournament(d: dict[str, Any]) -> PaperTournament:
    d = dict(d)
    d["values"] = tuple(str(v) for v in d["values"])
    return PaperTournament(**d)


def parse_paper_results(text: str) -> PaperResults:
    """Parse the YAML text of a paper-results file."""
    data = inputs.parse_yaml(text, "paper_results.yaml")
    return PaperResults(
        source=dict(data.get("source") or {}),
        rows=tuple(_row(r) for r in data.get("rows") or ()),
        figures=tuple(_figure(f) for f in data.get("figures") or ()),
        tournaments=tuple(_tournament(t) for t in data.get("tournaments") or ()),
        parameter_sets={
            k: tuple(str(v) for v in vs) for k, vs in (data.get("parameter_sets") or {}).items()
        },
    )


@functools.cache
def load_paper_results() -> PaperResults:
    """The shipped paper results (read once)."""
    text = (
        resources.files("mcts_arena")
        .joinpath("data/paper_results.yaml")
        .read_text(encoding="utf-8")
    )
    return parse_paper_results(text)


def paper_kinds(results: PaperResults | None = None) -> frozenset[str]:
    """The player kinds (as written: MCTS, αβ) the paper's rows name, on either side."""
    from mcts_arena.players.notation import parts

    res = results if results is not None else load_paper_results()
    return frozenset(parts(s)[0] for r in res.rows for s in (r.player, r.opponent, *r.aliases))


def match_paper(
    game: str,
    player: str,
    opponent: str,
    seconds: float | None = None,
    normalize: Callable[[str], Hashable] = normalize_spec,
    results: PaperResults | None = None,
) -> list[PaperRow]:
    """Published rows for ``player`` against ``opponent`` in ``game`` (any budget, or ``seconds``).

    A row printed the other way round is returned flipped (``reversed=True``, win % as
    ``100 - win %``), so the value always belongs to our ``player``. A row's ``aliases`` are other
    spellings of its player the paper uses for the same result.
    """
    res = results if results is not None else load_paper_results()
    p, o = normalize(player), normalize(opponent)
    game = game.casefold()
    found: list[PaperRow] = []
    for row in res.rows:
        if row.game.casefold() != game:
            continue
        if seconds is not None and (row.seconds is None or float(row.seconds) != float(seconds)):
            continue
        players = {normalize(s) for s in (row.player, *row.aliases)}
        opp = normalize(row.opponent)
        if p in players and o == opp:
            found.append(row)
        elif o in players and p == opp:
            found.append(row.flipped())
    return found
