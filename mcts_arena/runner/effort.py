"""Matched search effort: the budget `{effort: S}` gives every player the search effort that the
paper's engine had in S seconds — simulations for MCTS and FlatMC, nodes for αβ.

Why: the paper's tables balance players by wall-clock seconds on the authors' Java engine. This
engine runs MCTS and αβ at other speeds, and not by one common factor, so equal seconds here
are not the paper's balance between MCTS and αβ (nor between a cheap and an expensive playout
policy). An effort budget replays the paper's balance: player P gets `round(S * rate(P))`
simulations or nodes per move, where `rate(P)` is the paper engine's measured speed for a
player of P's kind, read from `data/engine_rates.yaml` (each rate carries its source).

A rate entry is a player spec (`MCTS(bl,im0.4)`, `αβ(efMS)`). A player uses the most specific
entry of its game and kind whose *features* are all among its own: the features of a spec are
its option names (values ignored: im0.4 and im0.6 cost the same) and, where the player
evaluates positions at all, its evaluation function; among entries with as many features, the
one sharing more option values wins (fet8 is cheaper than fet20). So `MCTS(bl,im0.6,np)` takes
the rate of
`MCTS(bl,im0.4)` when no entry is closer, and the resolved budget names the entry it used
(`rate_of`), so a report can show the basis of every budget.

Bare `np` scales its virtual visits with the budget's seconds (10 per second, as the paper did);
an effort budget carries S for that (`effort` in the resolved budget dict).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from mcts_arena import inputs
from mcts_arena.budgets import SIMS_MAX, Budget
from mcts_arena.errors import EffortError
from mcts_arena.inputs import InputError
from mcts_arena.players import kinds
from mcts_arena.players.kinds import BY_NAME, KINDS

RATES_FILE = Path(__file__).with_name("data") / "engine_rates.yaml"
RATES_ENV = "MCTS_ARENA_RATES"     # another rates file (tests, or a user's own measurements)
#: Options that change the player's strength but not the cost of a simulation.
_COST_FREE = {"C", "seed", "np", "sims", "time", "depth", "tt", "hh"}
#: Options under which a player evaluates positions (so its evaluation function's cost counts).
_EVALUATING = {"fet", "det", "ege", "im", "cb", "pbim", "abp", "mb"}
#: Options that cost what another costs: the constant-bias and progressive-bias-of-implicit-values
#: controls evaluate every child at expansion as implicit minimax does, so they take im's entry.
_COSTS_AS = {"cb": "im", "pbim": "im"}
#: Kinds that search with a budget, and the unit their rate counts (the kind table's `unit`).
UNITS = {k.name: k.unit for k in KINDS if k.unit}


@dataclass(frozen=True)
class Rate:
    """One measured speed of the paper's engine: `per_second` simulations or nodes."""

    game: str
    player: str           # the spec as written in the rates file
    unit: str             # "sims" or "nodes"
    per_second: float
    source: str
    ci95: tuple[float, float] | None = None   # bootstrap 95% interval of per_second (over games)
    games: int | None = None      # whole games the rate was measured over
    label: str | None = None      # the paper engine's player label it was measured as


def features(spec: Any) -> frozenset[str]:
    """What a player's search costs depend on: its kind, option names, evaluation function,
    and for αβ whether it keeps a transposition table (`tt=0`: the authors' engine searched
    about three times the nodes per second without its table)."""
    opts = dict(getattr(spec, "options", ()) or ())
    names = {k for k in opts if k not in _COST_FREE}
    out = {f"kind={spec.kind}"} | {f"opt={_COSTS_AS.get(k, k)}" for k in names}
    nodes = kinds.of(spec).unit == "nodes"     # αβ: its effort is nodes
    if nodes and opts.get("tt") in (0, "0"):
        out.add("opt=tt0")
    evalfn = getattr(spec, "evalfn", "")
    if evalfn and (nodes or names & _EVALUATING):
        out.add(f"eval={evalfn}")
    return frozenset(out)


def parse_rates(data: Any, source: str = "rates") -> list[Rate]:
    """Validate the rates YAML: `{rates: [{game, player, unit, per_second, source}, ...]}`, each
    entry optionally with `ci95: [low, high]` (its 95% interval), `games` (how many whole games
    it was measured over), `moves` and `label` (benchmarks/paper_engine/measure.py writes them)."""
    if not isinstance(data, dict) or not isinstance(data.get("rates"), list):
        raise EffortError(f"{source}: expected a mapping with a list 'rates'")
    out = []
    for i, e in enumerate(data["rates"]):
        where = f"{source}: rates[{i}]"
        if not isinstance(e, dict):
            raise EffortError(f"{where}: expected a mapping")
        missing = [k for k in ("game", "player", "unit", "per_second", "source") if k not in e]
        if missing:
            raise EffortError(f"{where}: missing field {missing[0]!r}")
        if e["unit"] not in ("sims", "nodes"):
            raise EffortError(f"{where}.unit: expected sims or nodes, got {e['unit']!r}")
        v = e["per_second"]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < 1e9:
            raise EffortError(f"{where}.per_second: expected a positive number, got {v!r}")
        ci = e.get("ci95")
        if ci is not None:
            if (not isinstance(ci, list) or len(ci) != 2
                    or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in ci)
                    or not 0 < ci[0] <= v <= ci[1]):
                raise EffortError(f"{where}.ci95: expected [low, high] around per_second "
                                  f"({v}), got {ci!r}")
            ci = (float(ci[0]), float(ci[1]))
        n = e.get("games")
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 1):
            raise EffortError(f"{where}.games: expected a positive whole number, got {n!r}")
        label = e.get("label")
        out.append(Rate(str(e["game"]), str(e["player"]), e["unit"], float(v), str(e["source"]),
                        ci, n, None if label is None else str(label)))
    return out


def rates_source() -> str:
    """The rates file in force: $MCTS_ARENA_RATES, else the shipped one."""
    return str(os.environ.get(RATES_ENV) or RATES_FILE)


def load_rates(path: str | None = None) -> tuple[Rate, ...]:
    """The rates file: `path`, else the file named by $MCTS_ARENA_RATES, else the shipped one."""
    return _load_rates(str(path or os.environ.get(RATES_ENV) or RATES_FILE))


@lru_cache(maxsize=8)
def _load_rates(path: str) -> tuple[Rate, ...]:
    try:
        data = inputs.load_yaml(path, "an engine rates file (YAML)")
    except InputError as e:
        raise EffortError(f"cannot read the engine rates: {e}") from None
    return tuple(parse_rates(data, path))


def rate_for(spec: Any, parse, rates: tuple[Rate, ...] | None = None) -> Rate:
    """The most specific rate whose features are all among `spec`'s (EffortError if none).
    `parse(text, game=)` parses the rate entries' specs (the players provider's parse)."""
    rates = load_rates() if rates is None else rates
    mine = features(spec)
    my_opts = set(getattr(spec, "options", ()) or ())
    best: tuple[tuple[int, int], Rate] | None = None
    for r in rates:
        if r.game != spec.game:
            continue
        entry = parse(r.player, game=r.game)
        theirs = features(entry)
        if not theirs <= mine:
            continue
        # most features first; among equals, the entry with most option values equal to the
        # player's (fet8 costs other than fet20 does, though both are "fet")
        key = (len(theirs), len(my_opts & set(entry.options)))
        if best is None or key > best[0]:
            best = (key, r)
    if best is None:
        listed = sorted({r.player for r in rates if r.game == spec.game})
        raise EffortError(f"no engine rate for {spec.canonical} in {spec.game} (rates known: "
                          f"{', '.join(listed) or 'none'}); give it a time= or sims= budget")
    return best[1]


def rate_by_label(game: str, label: str, rates: tuple[Rate, ...] | None = None) -> Rate:
    """The rate measured for the paper engine's player `label` in `game` (EffortError if
    none): what `gameframe(LABEL)` searches at a matched effort."""
    rates = load_rates() if rates is None else rates
    for r in rates:
        if r.game == game and r.label == label:
            return r
    known = sorted(r.label for r in rates if r.game == game and r.label)
    raise EffortError(f"no engine rate for the label {label} in {game} (labels measured: "
                      f"{', '.join(known) or 'none'}); give it a time= or sims= budget")


def resolve(spec: Any, effort: float, parse, rates: tuple[Rate, ...] | None = None) -> Budget:
    """The budget of `spec` at `effort` paper-seconds: Budget(sims=N, effort=S, rate_of=entry,
    unit="sims" | "nodes"). Players without a search (Random, Greedy) get
    Budget(sims=1, effort=S)."""
    unit = UNITS.get(spec.kind)
    kind = BY_NAME[spec.kind]
    if kind.rated_by_label:             # the authors' engine: its label's own entry
        r = rate_by_label(spec.game, spec.target, rates)
        unit = r.unit
    elif kind.external:                 # outside players: no rate can be known for them
        raise EffortError(f"an external player ({spec.canonical}) has no engine rate for a "
                          "matched-effort budget; give it a time= or sims= budget")
    elif unit is None:
        return Budget(sims=1, effort=effort)
    else:
        r = rate_for(spec, parse, rates)
    if r.unit != unit:
        raise EffortError(f"engine rate {r.player} ({r.game}) counts {r.unit}, but "
                          f"{spec.canonical} searches in {unit}")
    n = max(1, round(effort * r.per_second))
    if n > SIMS_MAX:
        raise EffortError(f"{effort:g} paper-seconds give {spec.canonical} {n} {unit} per move, "
                          f"above the most a move may have ({SIMS_MAX}); lower the effort")
    return Budget(sims=n, effort=effort, rate_of=r.player, unit=unit)
