"""Games looked at one by one (`arena show RESULTS [ID]`, `arena show FILE [ID]`): the ids of a
store's games or an exported file's, and one game replayed move by move."""
from __future__ import annotations

from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.results import records
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
    return replay_lines(g["game_id"], game, seats, g["opening"], g["moves"], g["stats"],
                        f"{result_text(g)} after {g['plies']} plies")


def result_text(g: dict) -> str:
    """How the stored game `g` ended, in words ("seat 0 (MCTS) wins", "draw (ply limit)",
    "error game (not counted): ..."): `arena show` and the game viewer of `arena serve`."""
    seats = (g["seat0"], g["seat1"])
    if g["reason"] == "error":
        return f"error game (not counted): {g['error']}"
    if g["winner"] is None:
        result = "draw" + (" (ply limit)" if g["reason"] == "max_plies" else "")
    else:
        result = f"seat {g['winner']} ({seats[g['winner']]}) wins"
        if g["reason"] == "time_forfeit":
            result += f" on time: {g['error']}"
        elif g["reason"] == "illegal_move":
            result += f" by forfeit: {g['error']}"
        elif g["reason"] == "resign":
            result += f" by resignation: {g['error']}"
    return result


def replay_lines(game_id: str, game: str | None, seats, opening: str | None, moves, stats,
                 result: str) -> str:
    """A game replayed: its opening board, each move with its statistics and the board after
    it, then `result` (a stored game and an exported record are shown alike)."""
    out = [f"game {game_id} ({game}): seat 0 {seats[0]} vs seat 1 {seats[1]}",
           f"opening: {opening}"]
    state = None
    if game and opening:
        state = games.new_state(game, None if opening == "start" else opening)
        out.append(str(state))
    for i, (move, st) in enumerate(zip(moves, stats), 1):
        if st.get("chance"):            # a game with dice: the roll the loop drew
            out.append(f"{i:>3}. dice {move}")
        else:
            parts = [f"{k} {st[k]}" for k in ("sims", "nodes", "depth", "value") if k in st]
            wall = st.get("wall", st.get("time"))
            if wall is not None:
                parts.append(f"{wall:.3f} s")
            seat = st.get("seat", "?" if state is None else state.to_move())
            out.append(f"{i:>3}. seat {seat} {move}   ({', '.join(parts)})")
        if state is not None:
            try:
                state.play(move)
            except ValueError as e:
                raise UserError(f"game {game_id}: move {i} {move!r} is not legal here "
                                f"({' '.join(str(e).split())})") from None
            out.append(str(state))
    out.append(f"result: {result}")
    return "\n".join(out)


def record_ids(path: str | Path, limit: int) -> tuple[list[str], int]:
    """The first `limit` games of an exported file as lines `N  game id  seats  result`, and
    how many games it holds."""
    recs = records.read(path)
    lines = [f"{i:>4}  {r['game_id'] or '-'}  {r['seats'][0]} vs {r['seats'][1]}  {r['result']}"
             for i, r in enumerate(recs[:limit], 1)]
    return lines, len(recs)


def replay_record(path: str | Path, which: str) -> str:
    """Game `which` (its number in the file, from 1, or its game id) of an exported file,
    replayed move by move."""
    recs = records.read(path)
    chosen = None
    if which.isdigit() and 1 <= int(which) <= len(recs):
        chosen = recs[int(which) - 1]
    else:
        chosen = next((r for r in recs if r["game_id"] == which), None)
    if chosen is None:
        raise UserError(f"no game {which!r} in {path}: give a number 1 to {len(recs)} or a "
                        f"game id")
    names = {"1-0": f"seat 0 ({chosen['seats'][0]}) wins",
             "0-1": f"seat 1 ({chosen['seats'][1]}) wins", "1/2-1/2": "draw",
             "*": "no result (error game)"}
    result = names.get(chosen["result"], chosen["result"])
    if chosen["termination"]:
        result += f" ({chosen['termination']})"
    return replay_lines(chosen["game_id"] or which, chosen["game"], chosen["seats"],
                        chosen["opening"], chosen["moves"], chosen["stats"], result)
