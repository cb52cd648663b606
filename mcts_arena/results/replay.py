"""Games looked at one by one (`arena show RESULTS [ID]`, `arena show FILE [ID]`): the ids of a
store's games or an exported file's, and one game replayed move by move."""
from __future__ import annotations

from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.results import records
from mcts_arena.results.export import seat_colours
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
        row = f"game {g['game_id']}"
        # what the store holds is checked here, where the store can be named (results/rows.py)
        try:
            games.resolve(game)
        except ValueError as e:     # not a game this build knows
            raise store.corrupt("the experiment row", "config_json", f"game: {e}") from None
        if g["opening"] and g["opening"] != "start":
            try:
                games.new_state(game, g["opening"])
            except ValueError as e:     # a position the game cannot read
                raise store.corrupt(row, "opening", str(e)) from None
        seats = (g["seat0"], g["seat1"])
        try:
            return replay_lines(g["game_id"], game, seats, g["opening"], g["moves"], g["stats"],
                                f"{result_text(g, game)} after {g['plies']} plies")
        except UserError as e:      # a stored move the game cannot play
            raise store.corrupt(row, "moves_json", str(e)) from None


def seat_named(game: str | None, seat: int) -> str:
    """A seat as every record names it: "seat 0, Black" (export.seat_colours)."""
    return f"seat {seat}" + (f", {seat_colours(game)[seat]}" if game else "")


def result_text(g: dict, game: str | None = None) -> str:
    """How the stored game `g` of `game` ended, in words ("MCTS wins (seat 0, Black)", "draw
    (ply limit)", "error game (not counted): ..."): `arena show` and the viewer of `arena
    serve`."""
    seats = (g["seat0"], g["seat1"])
    if g["reason"] == "error":
        return f"error game (not counted): {g['error']}"
    if g["winner"] is None:
        result = "draw" + (" (ply limit)" if g["reason"] == "max_plies" else "")
    else:
        result = f"{seats[g['winner']]} wins ({seat_named(game, g['winner'])})"
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
    out = [f"game {game_id} ({game}): {seats[0]} ({seat_named(game, 0)}) vs "
           f"{seats[1]} ({seat_named(game, 1)})",
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


def _outcome(r: dict) -> str:
    """A read record's result in the records' words: "MCTS wins (seat 0, Black)", "draw"."""
    won = {"1-0": 0, "0-1": 1}.get(r["result"])     # a read record's result is seat 0's
    if won is not None:
        return f"{r['seats'][won]} wins ({seat_named(r['game'], won)})"
    return {"1/2-1/2": "draw", "*": "no result (error game)"}.get(r["result"], r["result"])


def record_ids(path: str | Path, limit: int) -> tuple[list[str], int]:
    """The first `limit` games of an exported file as lines `N  game id  seats  result`, and
    how many games it holds."""
    recs = records.read(path)
    lines = [f"{i:>4}  {r['game_id'] or '-'}  {r['seats'][0]} ({seat_named(r['game'], 0)}) vs "
             f"{r['seats'][1]} ({seat_named(r['game'], 1)})  {_outcome(r)}"
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
    result = _outcome(chosen)
    if chosen["termination"]:
        result += f" ({chosen['termination']})"
    return replay_lines(chosen["game_id"] or which, chosen["game"], chosen["seats"],
                        chosen["opening"], chosen["moves"], chosen["stats"], result)
