"""The end-of-run summary of `arena run`, read from the store.

The win rate is the pairing player's score (draws count half) with its 95% interval by the
one rule `arena report` prints too (`stats.score_interval`: Wilson below 100 games, the paper's
normal approximation from there). Games are counted by `stats.tally`; error games count in no
column but `err`. For a game scored by pairs (GameInfo.scoring, Kalah in the paper) the pair
rule is shown too: pairs won / drawn / lost by the player, discarded pairs (the same side won
both games), and the win rate over decisive pairs.
With an SPRT in the config, each pairing gets a line `SPRT: H1 accepted after N games` (or H0,
or no decision yet) from results/sprt.py, which the report shares.
The full report (mcts_arena.report) takes this over; this module stays small on purpose.
"""
from __future__ import annotations

from mcts_arena import games, stats
from mcts_arena.players.notation import display_name
from mcts_arena.results import aggregates
from mcts_arena.results.sprt import sprt_status, sprt_text
from mcts_arena.results.store import Store


def _pct(wins: float, draws: float, losses: float) -> str:
    """Score % and its 95 % interval by the one rule `arena report` uses too."""
    n = wins + draws + losses
    if n == 0:
        return "-"
    lo, hi, _ = stats.score_interval(wins, draws, losses)
    return f"{100 * (wins + 0.5 * draws) / n:6.2f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def pairing_tallies(store: Store) -> list[dict]:
    """Per stored pairing, in config order: label, games, W/D/L/errors, score, time forfeits,
    and the pair outcomes (the summary's rows), from the store's aggregates (the report's
    counts: results/aggregates.py)."""
    tally, pairs = store.aggregates()
    counts = aggregates.pairing_counts(tally, pairs)
    out = []
    for p in store.pairings():
        c = counts.get(p["pairing_id"])
        n = {k: c[k] if c else 0 for k in ("games", "wins", "draws", "losses", "errors",
                                            "time_forfeits", "illegal_moves")}
        label = f"{display_name(p['player'])} vs {display_name(p['opponent'])}"
        out.append({"pairing_id": p["pairing_id"], "label": label, "planned": p["games"], **n,
                    "forfeits": n["time_forfeits"] + n["illegal_moves"],
                    "pairs": aggregates.pair_outcomes(pairs, p["pairing_id"]),
                    "pentanomial": tuple(c["pentanomial"]) if c and c["pentanomial"] else None})
    return out


def _pair_pct(penta: tuple[int, ...] | None) -> str:
    """Pair score % and its 95 % interval (the pentanomial interval verdicts use)."""
    if not penta:
        return "-"
    lo, hi = stats.pentanomial_interval(penta)
    return f"{100 * stats.pentanomial_score(penta):6.2f} [{100 * lo:.1f}, {100 * hi:.1f}]"


#: The first seat's share of decisive games whose 95% interval lies wholly outside
#: [SEAT_SHARE, 1 - SEAT_SHARE] marks games the seat decides (12 of 12 does, 10 of 10 not yet).
SEAT_SHARE = 0.25


def seat_wins(tally: list[dict]) -> list[int]:
    """[games seat 0 won, games seat 1 won] of a store's tally rows (the pairing's player sat
    in seat `swap`): what the stored games' winners count."""
    wins = [0, 0]
    for r in tally:
        if r["result"] in ("win", "loss"):
            wins[r["swap"] if r["result"] == "win" else 1 - r["swap"]] += r["games"]
    return wins


def seat_note(store: Store) -> str | None:
    """A warning when the seat, not the player, decides the stored games: the first seat's
    share of all decisive games, with its Wilson interval, far from one half (e.g. Kalah
    played from its start position). None when it is not."""
    wins = seat_wins(store.aggregates()[0])
    n = sum(wins)
    if not n:
        return None
    lo, hi = stats.wilson_interval(wins[0], n)
    if SEAT_SHARE <= hi and lo <= 1 - SEAT_SHARE:
        return None
    openings = ((store.experiment() or {}).get("config", {}).get("openings") or {})
    kind = openings.get("kind", "?") if isinstance(openings, dict) else openings
    return (f"warning: the first seat won {wins[0]} of {n} decisive games "
            f"({100 * wins[0] / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]): the seat, not the "
            f"players, decides these games; check the openings ({kind})")


def summary_of(results_dir) -> str:
    """The summary table of the results directory `results_dir` (read-only)."""
    with Store.open(results_dir) as store:
        return summary_table(store)


def summary_table(store: Store) -> str:
    """The table printed at the end of `arena run`."""
    exp = store.experiment() or {}
    cfg = exp.get("config", {})
    rows = pairing_tallies(store)
    if not rows:
        return "no pairings stored"
    pair_rule = games.pair_rule(cfg.get("game"))
    width = max(12, max(len(r["label"]) for r in rows))
    head = (f"{'pairing':<{width}}  {'games':>5}  {'W':>5}  {'D':>5}  {'L':>5}  {'err':>4}  "
            f"{'win % [95% CI]':>20}")
    if pair_rule:
        head += f"   {'pair rule W-D-L':>15}  {'disc':>4}  {'pair-rule win % [95% CI]':>25}"
    else:
        head += (f"   {'pentanomial LL-LD-WL/DD-WD-WW':>30}  "
                 f"{'pentanomial score % [95% CI]':>28}")
    lines = [head, "-" * len(head)]
    for r in rows:
        n = r["games"]
        line = (f"{r['label']:<{width}}  {n:>5}  {r['wins']:>5}  {r['draws']:>5}  "
                f"{r['losses']:>5}  {r['errors']:>4}  "
                f"{_pct(r['wins'], r['draws'], r['losses']):>20}")
        if pair_rule:
            pw, pd, pl = (r["pairs"].get(k, 0) for k in ("player", "draw", "opponent"))
            line += (f"   {f'{pw}-{pd}-{pl}':>15}  {r['pairs'].get('discarded', 0):>4}  "
                     f"{_pct(pw, 0, pl):>25}")
        else:
            pe = r["pentanomial"]
            line += (f"   {'-'.join(map(str, pe)) if pe else '-':>30}  "
                     f"{_pair_pct(pe):>28}")
        lines.append(line)
    notes = []
    seat = seat_note(store)
    if seat:
        notes.append(seat)
    sprt = sprt_status(store)
    for r in rows:
        if r["pairing_id"] in sprt:
            notes.append(f"{r['label']}: {sprt_text(sprt[r['pairing_id']])}")
    # each forfeit by its own name: an illegal move is no time forfeit
    for key, how in (("time_forfeits", "time forfeit"), ("illegal_moves", "an illegal move")):
        n = sum(r[key] for r in rows)
        if n:
            notes.append(f"{n} game(s) ended by {how} (counted as losses)")
    if any(r["errors"] for r in rows):
        notes.append("error games (not counted):")
        for g in store.select("game", "game_id, error", "reason = 'error'", order="game_id",
                              limit=20):
            notes.append(f"  {g['game_id']}: {g['error']}")
        extra = sum(r["errors"] for r in rows) - 20
        if extra > 0:
            notes.append(f"  ... and {extra} more")
    return "\n".join(lines + notes)
