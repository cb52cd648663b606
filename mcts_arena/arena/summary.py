"""End-of-run summary (read-only on the store) and the replay of one recorded game.

The win rate is the pairing player's score (draws count half) with its 95% interval by the
one rule `arena report` prints too (`stats.score_interval`: Wilson below 100 games, the paper's
normal approximation from there). Games are counted by `stats.tally`; error games count in no
column but `err`. For a game scored by pairs (GameInfo.scoring, Kalah in the paper) the pair
rule is shown too: pairs won / drawn / lost by the player, discarded pairs (the same side won
both games), and the win rate over decisive pairs.
With an SPRT in the config, each pairing gets a line `SPRT: H1 accepted after N games` (or H0,
or no decision yet) from `sprt_status`, which the reporter shares.
The full reporter (mcts_arena.report) takes this over; this module stays small on purpose.
"""
from __future__ import annotations

import json
from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena import stats
from mcts_arena.players.external import display_name
from mcts_arena.store import Store

def _pct(wins: float, draws: float, losses: float) -> str:
    """Score % and its 95 % interval by the one rule `arena report` uses too."""
    n = wins + draws + losses
    if n == 0:
        return "-"
    lo, hi, _ = stats.score_interval(wins, draws, losses)
    return f"{100 * (wins + 0.5 * draws) / n:6.2f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def pairing_counts(store: Store) -> list[dict]:
    """Per stored pairing, in config order: label, games, W/D/L/errors, score, time forfeits,
    and the pair outcomes."""
    out = []
    for p in store.pairings():
        rows = store.conn.execute(
            "SELECT score, reason FROM game WHERE pairing_id = ?", (p["pairing_id"],)).fetchall()
        t = stats.tally(dict(r) for r in rows)
        out.append({"pairing_id": p["pairing_id"], "label": f"{display_name(p['player'])} vs {display_name(p['opponent'])}",
                    "planned": p["games"], "games": t.games, "wins": t.wins, "draws": t.draws,
                    "losses": t.losses, "errors": t.errors, "forfeits": t.time_forfeits + t.illegal_moves,
                    "pairs": store.pair_outcomes(p["pairing_id"]),
                    "pentanomial": _pentanomial(store, p["pairing_id"])})
    return out


def _pentanomial(store: Store, pairing_id: str) -> tuple[int, ...] | None:
    """The pentanomial of a pairing's complete, error-free seat-swapped pairs (None: none)."""
    by_pair: dict[int, list[float]] = {}
    for r in store.conn.execute("SELECT pair_index, score FROM game WHERE pairing_id = ? AND "
                                "reason != 'error'", (pairing_id,)):
        by_pair.setdefault(r["pair_index"], []).append(r["score"])
    pairs = [tuple(v) for v in by_pair.values() if len(v) == 2]
    return stats.pentanomial(pairs) if pairs else None


def _pair_pct(penta: tuple[int, ...] | None) -> str:
    """Pair score % and its 95 % interval (the pentanomial interval verdicts use)."""
    if not penta:
        return "-"
    lo, hi = stats.pentanomial_interval(penta)
    return f"{100 * stats.pentanomial_score(penta):6.2f} [{100 * lo:.1f}, {100 * hi:.1f}]"


def sprt_status(store: Store) -> dict[str, dict]:
    """Per pairing id, the SPRT as the run left it: the stored decision (`decision` "H0"/"H1",
    `games` at the decision, `llr`, `lower`, `upper`, the test's parameters), or the test on
    the games stored so far (`decision` None). Empty when the config has no `sprt`."""
    from mcts_arena.arena.config import Sprt
    from mcts_arena.arena.scheduler import replay_sprt

    cfg = (store.experiment() or {}).get("config", {}).get("sprt")
    if not cfg:
        return {}
    sprt = Sprt(**cfg)
    tracker = None
    out = {}
    for p in store.pairings():
        pid = p["pairing_id"]
        raw = store.get_meta(f"sprt/{pid}")
        rec = json.loads(raw) if raw else None
        if rec is None or any(rec.get(k) != v for k, v in cfg.items()):
            tracker = tracker or replay_sprt(store, sprt)
            rec = tracker.decisions.get(pid) or tracker.state(pid)
        out[pid] = rec
    return out


def sprt_text(rec: dict) -> str:
    """`SPRT: H1 accepted after 12 games (LLR 3.01 >= 2.94)` and the like."""
    if rec.get("decision") == "H1":
        return (f"SPRT: H1 accepted after {rec['games']} games (elo >= {rec['elo1']:g}; "
                f"LLR {rec['llr']:.2f} >= {rec['upper']:.2f})")
    if rec.get("decision") == "H0":
        return (f"SPRT: H0 accepted after {rec['games']} games (elo <= {rec['elo0']:g}; "
                f"LLR {rec['llr']:.2f} <= {rec['lower']:.2f})")
    return (f"SPRT: no decision after {rec['games']} games (LLR {rec['llr']:.2f} in "
            f"({rec['lower']:.2f}, {rec['upper']:.2f}))")


def summary_table(store: Store) -> str:
    """The table printed at the end of `arena run`."""
    exp = store.experiment() or {}
    cfg = exp.get("config", {})
    rows = pairing_counts(store)
    if not rows:
        return "no pairings stored"
    pair_rule = games.pair_rule(cfg.get("game"))
    width = max(12, max(len(r["label"]) for r in rows))
    head = (f"{'pairing':<{width}}  {'games':>5}  {'W':>5}  {'D':>5}  {'L':>5}  {'err':>4}  "
            f"{'win % [95% CI]':>20}")
    if pair_rule:
        head += f"   {'pairs W-D-L':>12}  {'disc':>4}  {'pair win % [95% CI]':>20}"
    else:
        head += f"   {'pairs LL-LD-WL/DD-WD-WW':>23}  {'pair score % [95% CI]':>21}"
    lines = [head, "-" * len(head)]
    for r in rows:
        n = r["games"]
        line = (f"{r['label']:<{width}}  {n:>5}  {r['wins']:>5}  {r['draws']:>5}  "
                f"{r['losses']:>5}  {r['errors']:>4}  {_pct(r['wins'], r['draws'], r['losses']):>20}")
        if pair_rule:
            pw, pd, pl = (r["pairs"].get(k, 0) for k in ("player", "draw", "opponent"))
            line += (f"   {f'{pw}-{pd}-{pl}':>12}  {r['pairs'].get('discarded', 0):>4}  "
                     f"{_pct(pw, 0, pl):>20}")
        else:
            pe = r["pentanomial"]
            line += (f"   {'-'.join(map(str, pe)) if pe else '-':>23}  "
                     f"{_pair_pct(pe):>21}")
        lines.append(line)
    notes = []
    sprt = sprt_status(store)
    for r in rows:
        if r["pairing_id"] in sprt:
            notes.append(f"{r['label']}: {sprt_text(sprt[r['pairing_id']])}")
    forfeits = sum(r["forfeits"] for r in rows)
    if forfeits:
        notes.append(f"{forfeits} game(s) ended by time forfeit (counted as losses)")
    if any(r["errors"] for r in rows):
        notes.append("error games (not counted):")
        for g in store.conn.execute("SELECT game_id, error FROM game WHERE reason = 'error' "
                                    "ORDER BY game_id LIMIT 20"):
            notes.append(f"  {g['game_id']}: {g['error']}")
        extra = sum(r["errors"] for r in rows) - 20
        if extra > 0:
            notes.append(f"  ... and {extra} more")
    return "\n".join(lines + notes)


def replay_game(results_dir: str | Path, game_id: str) -> str:
    """The recorded game `game_id` move by move: the opening board, then each move with its
    search statistics and the board after it, then the result."""

    with Store.open(results_dir, readonly=True) as store:
        g = store.game(game_id)
        if g is None:
            some = store.game_ids(limit=3)
            hint = f"; ids look like {', '.join(some)}" if some else "; no games are stored"
            raise UserError(f"no game {game_id!r} in {results_dir}{hint}")
        exp = store.experiment() or {}
    game = exp.get("config", {}).get("game")
    seats = (g["seat0"], g["seat1"])
    out = [f"game {g['game_id']} ({game}): seat 0 {seats[0]} vs seat 1 {seats[1]}",
           f"opening: {g['opening']}"]
    state = games.new_state(game, g["opening"]) if g["opening"] else None
    if state is not None:
        out.append(str(state))
    for i, (move, st) in enumerate(zip(g["moves"], g["stats"]), 1):
        seat = st.get("seat")
        parts = [f"{k} {st[k]}" for k in ("sims", "nodes", "depth") if k in st]
        parts.append(f"{st.get('wall', 0):.3f} s")
        out.append(f"{i:>3}. seat {seat} {move}   ({', '.join(parts)})")
        if state is not None:
            state.play(move)
            out.append(str(state))
    if g["reason"] == "error":
        result = f"error game (not counted): {g['error']}"
    elif g["winner"] is None:
        result = "draw" + (" (ply limit)" if g["reason"] == "max_plies" else "")
    else:
        result = f"seat {g['winner']} ({seats[g['winner']]}) wins"
        if g["reason"] == "time_forfeit":
            result += f" on time: {g['error']}"
        elif g["reason"] == "illegal_move":
            result += f" by forfeit: {g['error']}"
        elif g["reason"] == "resign":
            result += f" by resignation: {g['error']}"
    out.append(f"result: {result} after {g['plies']} plies")
    return "\n".join(out)
