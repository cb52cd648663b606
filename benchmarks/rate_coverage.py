"""Which engine rate each player of the reproduction resolves to, and which players have none
of their own.

A matched-effort budget (mcts_arena/runner/effort.py) gives a player the rate of the most specific
entry of mcts_arena/runner/data/engine_rates.yaml whose features are all among its own. A player
whose entry is another player's falls back to that player's speed, which is fair only when the
two cost the same per simulation (im players take the rate of the same player without im: im
costs nothing measurable, see the yaml's header). This lists every player of every experiment
named in configs/reproduction.yaml (and configs/ipp_question.yaml) with the entry it resolves
to, and flags the fallbacks:

    .venv/bin/python benchmarks/rate_coverage.py [--tournaments] [--all-games]

`own`: the entry is the player itself; `im-free`: the entry is the player with another im
weight or without im (by design); `FALLBACK`: another player's rate. Lines of Action is left
out unless --all-games (the paper's LOA engines are not public; its entries are this engine's
own rates).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mcts_arena.runner import config as cfg
from mcts_arena.runner import effort
from mcts_arena.runner.reproduce import load_manifest

ROOT = Path(__file__).resolve().parent.parent
COST_FREE_OPTS = {"im"}     # options whose cost the rates do not count (the yaml header)


def _key(spec, drop=()) -> tuple:
    """A spec as (kind, options with values, evaluation where it counts), without `drop`."""
    opts = {k: v for k, v in (spec.options or ()) if k not in effort._COST_FREE and k not in drop}
    evaluates = spec.kind == "alphabeta" or bool(set(opts) & effort._EVALUATING)
    return spec.kind, frozenset(opts.items()), spec.evalfn if evaluates else ""


def classify(spec, entry_spec) -> str:
    """`own`, `im-free` (the entry is the player with another im weight or none: by design,
    im costs nothing measurable) or `FALLBACK` (another player's rate)."""
    if _key(spec) == _key(entry_spec):
        return "own"
    if _key(spec, COST_FREE_OPTS) == _key(entry_spec, COST_FREE_OPTS):
        return "im-free"
    return "FALLBACK"


def players_of(manifest, tournaments: bool, all_games: bool):
    """(page, experiment, game, spec text) for every player, once per experiment."""
    from mcts_arena.runner import tournament

    for page in manifest.pages:
        for path in page.experiments:
            exp = cfg.load(path)
            if exp.game == "loa" and not all_games:
                continue
            seen = []
            for p in exp.pairings:
                for text in (p.player, p.opponent):
                    if text not in seen:
                        seen.append(text)
            for text in seen:
                yield page.id, exp.name, exp.game, text
        if tournaments:
            for t in page.tournaments:
                spec = tournament.resolve(t.name, t.game, t.eval)
                for _label, text in spec.entrants:
                    yield page.id, spec.name, spec.game, text
    exp = cfg.load(ROOT / "configs" / "ipp_question.yaml")
    for text in dict.fromkeys(x for p in exp.pairings for x in (p.player, p.opponent)):
        yield "-", exp.name, exp.game, text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tournaments", action="store_true",
                    help="also the Appendix B tournaments' entrants")
    ap.add_argument("--all-games", action="store_true", help="include Lines of Action")
    ap.add_argument("--manifest", default=str(ROOT / "configs" / "reproduction.yaml"))
    a = ap.parse_args()
    parse = cfg.players_provider().parse
    manifest = load_manifest(a.manifest)
    counts: dict[str, int] = {}
    fallbacks: dict[tuple[str, str], tuple[str, set]] = {}
    print(f"{'page':10s} {'experiment':28s} {'player':34s} {'rate entry':28s} {'per s':>10s}  kind")
    for page, name, game, text in players_of(manifest, a.tournaments, a.all_games):
        spec = parse(text, game=game)
        if spec.kind not in effort.UNITS:
            continue
        try:
            r = effort.rate_for(spec, parse)
        except effort.EffortError as e:
            print(f"{page:10s} {name:28s} {spec.canonical:34s} NONE ({e})")
            counts["NONE"] = counts.get("NONE", 0) + 1
            continue
        kind = classify(spec, parse(r.player, game=r.game))
        counts[kind] = counts.get(kind, 0) + 1
        print(f"{page:10s} {name:28s} {spec.canonical:34s} {r.player:28s} "
              f"{r.per_second:>10,.0f}  {kind}")
        if kind == "FALLBACK":
            fallbacks.setdefault((game, spec.canonical), (r.player, set()))[1].add(name)
    print()
    print("counts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    if fallbacks:
        print("players without a rate of their own:")
        for (game, player), (entry, where) in sorted(fallbacks.items()):
            print(f"  {game:13s} {player:34s} takes {entry:28s} ({', '.join(sorted(where))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
