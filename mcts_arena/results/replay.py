"""Stored games looked at one by one (`arena show RESULTS [--game ID]`): their ids, and one
game replayed move by move."""
from __future__ import annotations

from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.results.store import DB_NAME, Store


def is_results_dir(path: str | Path) -> bool:
    """Does `path` hold a results store (arena.sqlite)?"""
    return Path(path, DB_NAME).is_file()


def stored_game_ids(results_dir: str | Path, limit: int) -> tuple[list[str], int]:
    """The first `limit` stored game ids (in pairing and pair order) and how many there are."""
    with Store.open(results_dir) as store:
        ids = store.game_ids()
    return ids[:limit], len(ids)


def replay_game(results_dir: str | Path, game_id: str) -> str:
    """The recorded game `game_id` move by move: the opening board, then each move with its
    search statistics (or the dice that came up) and the board after it, then the result."""

    with Store.open(results_dir) as store:
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
        if st.get("chance"):            # a game with dice: the roll the loop drew
            out.append(f"{i:>3}. dice {move}")
        else:
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
