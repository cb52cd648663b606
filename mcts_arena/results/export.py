"""Stored games as records other tools read (`arena export RESULTS`), read-only over the store.

Each game declares its record format in its GameInfo (`record`): PGN-style text in the game's own
notation (Breakthrough, Kalah, LOA, tic-tac-toe), or SGF FF[4] (Hex as HexGui writes it, GM[11];
Gomoku GM[4], as Sabaki reads it). JSON lines hold every game whatever its format; backgammon
also has the Jellyfish match format that backgammon programs import (`mat`, results/jellyfish.py).

A record (`records`) is one stored game as a dict (also the JSON line, keys in this order):

    game_id, experiment, description, game     ids, the experiment's name and description, the
                                                game with its parameters (`hex(size=5)`)
    pairing_id, player, opponent, pair_index, swap    the pairing, its two canonical specs, the
                                                pair and seat order (swap 0: player in seat 0)
    seats, budgets, seeds       per seat (0 moves first): spec, budget ({"time": s}, {"sims": n},
                                ...), player seed
    opening                     the position the game started from (the game's text form)
    winner, result, score       the winning seat (None: draw or error); "1-0" (seat 0 won),
                                "0-1", "1/2-1/2", "*" (error game); the pairing player's score
    reason, error               how the game ended (`normal`, `time_forfeit`, `illegal_move`,
                                `resign`, `max_plies`, `error`) and what the error/forfeit was
    plies, moves, stats         moves in the game's notation; per move {seat, sims, nodes, depth,
                                time, wall, value} as the players reported them
    finished, version, build    when the game ended (unix time), the package version of the
                                experiment, the build that played the game (stores before
                                schema 2: none)

Per-move comments in PGN and SGF: `{sims=2000 nodes=1987 depth=12 time=0.051 value=+0.23}`,
the keys a move has (value: the search's value of the position for the mover, in [-1, 1]).
A game on a clock has in PGN, as cutechess-cli writes it, `[TimeControl "40/60+0.5"]` (or
`WhiteTimeControl`/`BlackTimeControl` for clocks that differ) and the mover's time left after
each move first in its comment (`{[%clk 0:00:58.700] sims=...}`). PGN's Termination is one of
its fixed words (`normal`, `time forfeit`, ...); what the forfeit or error was is the last
comment before the result.
"""
from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Iterator

from mcts_arena import budgets, games
from mcts_arena.errors import UserError
from mcts_arena.players.notation import display_name
from mcts_arena.results import jellyfish
from mcts_arena.results.store import Store

FORMATS = ("auto", "pgn", "sgf", "mat", "jsonl")
RESULTS = ("win", "draw", "loss", "error")
COLOUR_NAMES = {"w": "White", "b": "Black"}
TERMINATION = {"normal": "normal", "time_forfeit": "time forfeit", "illegal_move":
               "illegal move", "resign": "resignation", "max_plies": "ply limit",
               "error": "error"}
COMMENT_KEYS = ("sims", "nodes", "depth", "time", "value")
#: The comment after a chance outcome (a roll of the dice) in PGN: it is no player's move.
DICE_COMMENT = "dice"


# ---- choosing the games -----------------------------------------------------------------------
def records(store: Store, pairing: str | None = None, player: str | None = None,
            result: str | None = None) -> list[dict]:
    """The stored games as records (module docstring), in pairing and pair order, kept by the
    filters: `pairing` (a pairing id, or its label "A vs B" as the report writes it), `player`
    (a spec or report name in either seat), `result` (win, draw, loss or error of `player`,
    else of the pairing's player). UserError names a filter that matches nothing it could."""
    exp = store.experiment() or {}
    cfg = exp.get("config", {})
    pairings = {p["pairing_id"]: p for p in store.pairings()}
    if pairing is not None:
        pairing = _pairing_id(pairing, pairings, store)
    if player is not None:
        names = {n for p in pairings.values() for n in (p["player"], p["opponent"])}
        if player not in names and player not in {display_name(n) for n in names}:
            shown = ", ".join(sorted(display_name(n) for n in names)) or "none"
            raise UserError(f"no player {player!r} in {store.directory}; its players: {shown}")
    if result is not None and result not in RESULTS:
        raise UserError(f"unknown result {result!r}; valid: {', '.join(RESULTS)}")
    out = []
    for g in store.games(pairing):
        p = pairings.get(g["pairing_id"], {})
        rec = _record(g, exp, cfg, p)
        if player is not None:
            seats = [s for s in (0, 1) if player in (rec["seats"][s], display_name(
                rec["seats"][s]))]
            if not seats:
                continue
            seat = seats[0]
        else:
            seat = rec["swap"]
        if result is not None and _result_of(rec, seat) != result:
            continue
        out.append(rec)
    return out


def _pairing_id(text: str, pairings: dict, store: Store) -> str:
    if text in pairings:
        return text
    for pid, p in pairings.items():
        if text in (f"{p['player']} vs {p['opponent']}",
                    f"{display_name(p['player'])} vs {display_name(p['opponent'])}"):
            return pid
    shown = "; ".join(f"{pid} ({display_name(p['player'])} vs {display_name(p['opponent'])})"
                      for pid, p in pairings.items()) or "none"
    raise UserError(f"no pairing {text!r} in {store.directory}; its pairings: {shown}")


def _result_of(rec: dict, seat: int) -> str:
    if rec["reason"] == "error":
        return "error"
    if rec["winner"] is None:
        return "draw"
    return "win" if rec["winner"] == seat else "loss"


def _record(g: dict, exp: dict, cfg: dict, p: dict) -> dict:
    winner = g["winner"]
    result = "*" if g["reason"] == "error" else "1/2-1/2" if winner is None else \
        ("1-0" if winner == 0 else "0-1")
    return {
        "game_id": g["game_id"], "experiment": exp.get("name"),
        "description": cfg.get("description") or "", "game": cfg.get("game"),
        "pairing_id": g["pairing_id"], "player": p.get("player"), "opponent": p.get("opponent"),
        "pair_index": g["pair_index"], "swap": g["swap"], "seats": [g["seat0"], g["seat1"]],
        "budgets": list(g["budgets"]), "seeds": list(g["seeds"]), "opening": g["opening"],
        "winner": winner, "result": result, "score": g["score"], "reason": g["reason"],
        "error": g["error"], "plies": g["plies"], "moves": g["moves"], "stats": g["stats"],
        "finished": g["finished"], "version": exp.get("version"), "build": g.get("build")}


# ---- writing ----------------------------------------------------------------------------------
def format_of(game: str, fmt: str = "auto") -> str:
    """The format a game's records are written in: its own (`auto`), jsonl for any game, pgn for
    any game (the notation is the game's), sgf only for a game that declares it."""
    if fmt not in FORMATS:
        raise UserError(f"unknown format {fmt!r}; valid: {', '.join(FORMATS)}")
    info = games.info_of(game)
    if fmt == "auto":
        return info.record
    if fmt == "sgf" and info.record != "sgf":
        raise UserError(f"{games.split(game)[0]} has no SGF form (its records are "
                        f"{info.record}); use --format {info.record} or jsonl")
    if fmt == "mat" and not info.match_file:
        raise UserError(f"{games.split(game)[0]} has no .mat form (a backgammon match file; "
                        f"its records are {info.record}); use --format {info.record} or jsonl")
    return fmt


def write(recs: Iterable[dict], fmt: str = "auto") -> Iterator[str]:
    """The records as text, one game after another (each ends with a newline); `mat` writes
    them as one backgammon session (results/jellyfish.py)."""
    if fmt == "mat":
        yield from jellyfish.write(list(recs))
        return
    for rec in recs:
        kind = format_of(rec["game"], fmt)
        yield {"pgn": pgn, "sgf": sgf, "jsonl": jsonl}[kind](rec)


def jsonl(rec: dict) -> str:
    return json.dumps(rec, ensure_ascii=False) + "\n"


def _seconds(v: float) -> str:
    """Seconds as a plain decimal with 4 significant digits: 0.051, 0.00003712, 12.35."""
    if not v:
        return "0"
    digits = max(0, 3 - math.floor(math.log10(abs(v))))
    return f"{v:.{digits}f}".rstrip("0").rstrip(".")


def comment(st: dict) -> str:
    """`sims=2000 nodes=1987 depth=12 time=0.051 value=+0.23`: a move's statistics (its own
    time as the player reported it, else the wall time the match measured)."""
    parts = []
    for k in COMMENT_KEYS:
        v = st.get(k)
        if k == "time" and v is None:
            v = st.get("wall")
        if v is None or (k == "sims" and not v and st.get("nodes")):
            continue            # an αβ move searches nodes, not simulations
        if k == "value":
            parts.append(f"value={v + 0.0:+.4g}")
        elif k == "time":           # plain decimals, never 3.7e-05
            parts.append(f"time={_seconds(v)}")
        else:
            parts.append(f"{k}={v}")
    return " ".join(parts)


def _budget_text(rec: dict) -> str:
    a, b = (budgets.text(x) for x in rec["budgets"])
    return a if a == b else f"{a} / {b}"


def _opening_text(rec: dict) -> str:
    """`start` for the game's start position, else the position's text."""
    try:
        start = games.new_state(rec["game"]).to_text()
    except (ValueError, ImportError):
        start = None
    return "start" if rec["opening"] in ("", start) else rec["opening"]


def _termination(rec: dict) -> str:
    """PGN's word for how the game ended (`time forfeit`); what happened is the game's last
    comment, since a Termination tag holds one of a few fixed words."""
    return TERMINATION.get(rec["reason"], rec["reason"])


def _time_controls(rec: dict, col: list[str]) -> list[tuple[str, str]]:
    """`TimeControl` as cutechess-cli writes it (`40/60+0.5`) for a game on a clock, or
    `WhiteTimeControl` and `BlackTimeControl` when the sides' clocks differ (time odds; a side
    without a clock `-`); nothing for a game without one."""
    clocks = []
    for b in rec["budgets"]:
        clock = budgets.Budget.of(b).clock_of() if b else None
        clocks.append("-" if clock is None else clock.pgn())
    if clocks == ["-", "-"]:
        return []
    if clocks[0] == clocks[1]:
        return [("TimeControl", clocks[0])]
    return [(f"{col[0]}TimeControl", clocks[0]), (f"{col[1]}TimeControl", clocks[1])]


def clk(seconds: float) -> str:
    """A side's time left as a PGN clock comment gives it: `[%clk 0:00:58.700]`."""
    ms = round(max(0.0, seconds) * 1000)
    h, rest = divmod(ms, 3_600_000)
    m, rest = divmod(rest, 60_000)
    return f"[%clk {h}:{m:02d}:{rest / 1000:06.3f}]"


def _date(rec: dict, sep: str) -> str:
    return time.strftime(f"%Y{sep}%m{sep}%d", time.gmtime(rec["finished"] or 0))


def _colours(game: str) -> tuple[str, str]:
    return tuple(c.lower() for c in games.info_of(game).gtp_colors)


def seat_colours(game: str) -> tuple[str, str]:
    """The one seat-to-colour convention of a game, for every record and `arena show`: seat 0
    (the first player of the start position) and seat 1 by the colours the game names them
    (Breakthrough: White, Black; Kalah, LOA, Tic-tac-toe: Black, White; Backgammon: X, O)."""
    return tuple(COLOUR_NAMES.get(c, c.upper()) for c in _colours(game))


def seats_tag(game: str) -> str:
    """The records' statement of the convention: "seat 0 Black, seat 1 White"."""
    first, second = seat_colours(game)
    return f"seat 0 {first}, seat 1 {second}"


def _pgn_quote(s) -> str:
    return str(s).replace("\\", "\\\\").replace('"', '\\"')


def pgn(rec: dict) -> str:
    """One PGN-style game: the seven-tag roster in PGN's order (White, then Black) with colours
    as the game names its seats (`seat_colours`: Breakthrough's seat 0 is White; LOA's and
    Kalah's Black), the result from White's side as PGN has it, the convention in a `Seats`
    tag ("seat 0 Black, seat 1 White"), our tags, then the moves in the
    game's notation with a comment per move, numbered as PGN does (`N.` before the first
    player's move, `N...` before the second's when it does not follow directly), wrapped at
    79 columns."""
    col = seat_colours(rec["game"])
    # PGN's result is from White's side; a game whose first seat is Black turns it round
    result = rec["result"]
    if col[0] != "White" and result in ("1-0", "0-1"):
        result = "0-1" if result == "1-0" else "1-0"
    names = dict(zip(col, rec["seats"]))
    roster = [(c, names[c]) for c in ("White", "Black") if c in names] + \
        [(c, names[c]) for c in col if c not in ("White", "Black")]    # the roster's order
    tags = [("Event", rec["description"] or rec["experiment"]), ("Site", "mcts_arena"),
            ("Date", _date(rec, ".")), ("Round", f"{rec['pair_index'] + 1}.{rec['swap'] + 1}"),
            *roster, ("Result", result), ("Seats", seats_tag(rec["game"])),
            ("Variant", rec["game"]), ("GameId", rec["game_id"]),
            ("Budget", _budget_text(rec)), ("Seeds", " ".join(map(str, rec["seeds"]))),
            ("Opening", _opening_text(rec)),
            ("Build", rec["build"] or f"version {rec['version']}"),
            ("Termination", _termination(rec)), ("PlyCount", rec["plies"]),
            *_time_controls(rec, col)]
    head = [f'[{k} "{_pgn_quote(v)}"]' for k, v in tags]
    tokens: list[str] = []
    number, last_seat = 1, None
    for move, st in zip(rec["moves"], rec["stats"]):
        if st.get("chance"):        # a game with dice: the roll, marked, before the move
            tokens += [move, "{" + DICE_COMMENT + "}"]
            continue
        seat = st.get("seat", 0 if last_seat is None else 1 - last_seat)
        if seat == 0:
            if last_seat is not None:
                number += 1
            tokens.append(f"{number}.")
        elif last_seat != 0:
            tokens.append(f"{number}...")
        tokens.append(move)
        text = comment(st)
        if "clock" in st:
            text = f"{clk(st['clock'])} {text}".strip()
        if text:
            tokens.append("{" + text.replace("}", ")") + "}")
        last_seat = seat
    if rec["error"]:
        tokens.append("{" + " ".join(str(rec["error"]).split()).replace("}", ")") + "}")
    tokens.append(result)
    lines, line = [], ""
    for t in tokens:
        if line and len(line) + 1 + len(t) > 79:
            lines.append(line)
            line = t
        else:
            line = f"{line} {t}" if line else t
    lines.append(line)
    return "\n".join(head) + "\n\n" + "\n".join(lines) + "\n\n"


def _sgf_text(s) -> str:
    return str(s).replace("\\", "\\\\").replace("]", "\\]")


_SGF_HOW = {"resign": "R", "time_forfeit": "T", "illegal_move": "F"}


def sgf(rec: dict) -> str:
    """One SGF FF[4] game tree: root properties (GM of the game, SZ, players, result, our
    facts in the root comment: game, budget, seeds, opening, build, termination), the opening's
    stones as AB/AW/PL when it is not the empty board, then a node per move with its comment."""
    g = games.resolve(rec["game"])
    info = g.info
    size_key = info.gtp_boardsize
    size = g.params[size_key] if isinstance(size_key, str) else size_key
    col = ["B" if c == "b" else "W" for c in _colours(rec["game"])]
    move_text = info.sgf_move or (lambda m: m)
    if rec["result"] == "*":
        result = "Void"
    elif rec["winner"] is None:
        result = "0"
    else:
        result = f"{col[rec['winner']]}+{_SGF_HOW.get(rec['reason'], '')}"
    opening = _opening_text(rec)
    facts = [f"game: {rec['game']}", f"seats: {seats_tag(rec['game'])}",
             f"budget: {_budget_text(rec)}",
             f"seeds: {' '.join(map(str, rec['seeds']))}", f"opening: {opening}",
             f"build: {rec['build'] or 'version ' + str(rec['version'])}",
             f"termination: {_termination(rec)}"]
    root = [("FF", "4"), ("GM", str(info.sgf_game)), ("CA", "UTF-8"),
            ("AP", f"mcts_arena:{rec['version'] or ''}")]
    if size:
        root.append(("SZ", str(size)))
    root += [("EV", rec["description"] or rec["experiment"]), ("GN", rec["game_id"]),
             ("RO", f"{rec['pair_index'] + 1}.{rec['swap'] + 1}"), ("DT", _date(rec, "-")),
             (f"P{col[0]}", rec["seats"][0]), (f"P{col[1]}", rec["seats"][1]), ("RE", result),
             ("C", "\n".join(facts))]
    out = ["(;" + "".join(f"{k}[{_sgf_text(v)}]" for k, v in root)]
    if opening != "start":
        first, second, side = info.sgf_setup(rec["opening"])
        setup = ""
        for prop, cells in ((f"A{col[0]}", first), (f"A{col[1]}", second)):
            if cells:
                setup += prop + "".join(f"[{move_text(c)}]" for c in cells)
        out.append(setup + f"PL[{col[side]}]")
    for move, st in zip(rec["moves"], rec["stats"]):
        node = f";{col[st.get('seat', 0)]}[{_sgf_text(move_text(move))}]"
        text = comment(st)
        out.append(node + (f"C[{_sgf_text(text)}]" if text else ""))
    return "\n".join(out) + ")\n"


# ---- the command ------------------------------------------------------------------------------
def export(results_dir, fmt: str = "auto", pairing: str | None = None,
           player: str | None = None, result: str | None = None) -> tuple[list[str], int]:
    """(the texts, how many games) of `arena export RESULTS`: the chosen games of a results
    directory (read-only) in `fmt`. A format the experiment's game has no form for is refused
    before anything is read from the games."""
    from mcts_arena.results.frames import require_results_dir

    with Store.open(require_results_dir(results_dir)) as store:
        game = (store.experiment() or {}).get("config", {}).get("game")
        if game:
            format_of(game, fmt)
        recs = records(store, pairing, player, result)
        try:
            return list(write(recs, fmt)), len(recs)
        except jellyfish.IllegalStoredMove as e:
            raise store.corrupt(f"game {e.game_id}", "moves_json", str(e)) from None


def write_file(path, texts: list[str], force: bool = False) -> None:
    """Write the texts to `path` whole or not at all (a temporary file renamed over it); an
    existing file is refused unless `force` (an export never changes a file it was not asked
    to)."""
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        raise UserError(f"--out {p}: is a directory, expected a file name")
    if p.exists() and not force:
        raise UserError(f"--out {p}: exists; choose another name or add --force to replace it")
    if not p.parent.is_dir():
        raise UserError(f"--out {p}: no such directory {p.parent}")
    tmp = p.with_name(f".{p.name}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.writelines(texts)
        tmp.replace(p)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise UserError(f"--out {p}: cannot write: {e.strerror or e}") from None
