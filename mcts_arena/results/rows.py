"""What every value read from a store must be: one rule per table and column, applied where rows
leave the store (results/store.py), so no reader ever meets bad JSON, text in a number column or
a list where a mapping belongs.

A store can be ours and intact as SQLite (`PRAGMA quick_check` passes) and still hold a row
that our writer never wrote (edited by hand, a tool, a disk that flipped bytes). Such a value is
a `CorruptStoreError`: one line naming the store, the row (`game ID`, `pairing ID`, `the
experiment row`, `meta KEY`, `solve row ...`) and the column, exit status 2, nothing changed.

A rule is a function: it returns the value (JSON columns: decoded and checked) or raises `Bad`
with the reason. `json_of`, `list_of`, `obj`, `opt`, `one_of`, `where` build rules from rules;
the readers of JSON kept in the meta table (sprt.py, tournament.py, suites.py) build theirs the
same way and read through `Store.meta_json`.
"""
from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable
from typing import Any

from mcts_arena.errors import UserError

Rule = Callable[[Any], Any]


class CorruptStoreError(UserError):
    """A row of a store holds a value its column cannot hold (see the module docstring)."""


class Bad(Exception):
    """A value a rule refuses; the message says why."""


def _what(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return f"boolean {v}"
    if isinstance(v, (bytes, bytearray)):
        return "a blob"
    kind = {int: "integer", float: "number", str: "text", list: "list", dict: "mapping"}.get(
        type(v), type(v).__name__)
    shown = repr(v) if not isinstance(v, (list, dict)) else json.dumps(v)[:30]
    return f"{kind} {shown[:40]}"


# ---- rules -----------------------------------------------------------------------------------
def text(v: Any) -> str:
    if not isinstance(v, str):
        raise Bad(f"expected text, got {_what(v)}")
    try:
        v.encode("utf-8")
    except UnicodeEncodeError:          # read with surrogateescape: bytes that are not UTF-8
        raise Bad("not UTF-8 text") from None
    return v


def integer(low: int | None = None, high: int | None = None) -> Rule:
    def rule(v: Any) -> int:
        if not isinstance(v, int) or isinstance(v, bool) or (low is not None and v < low) or \
                (high is not None and v > high):
            rng = f" from {low}" if low is not None else ""
            rng += f" to {high}" if high is not None else ""
            raise Bad(f"expected an integer{rng}, got {_what(v)}")
        return v
    return rule


count = integer(0)
seat = integer(0, 1)


def number(v: Any) -> float:
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
        raise Bad(f"expected a finite number, got {_what(v)}")
    return v


def score(v: Any) -> float:
    if number(v) not in (0, 0.5, 1):
        raise Bad(f"expected a score 0, 0.5 or 1, got {_what(v)}")
    return v


def anything(v: Any) -> Any:
    return v


def opt(rule: Rule) -> Rule:
    """NULL (None) or what `rule` accepts."""
    return lambda v: None if v is None else rule(v)


def one_of(*values: Any) -> Rule:
    def rule(v: Any) -> Any:
        if v not in values or isinstance(v, bool):
            raise Bad(f"expected one of {', '.join(map(str, values))}, got {_what(v)}")
        return v
    return rule


def where(rule: Rule, test: Callable[[Any], bool], why: str) -> Rule:
    """What `rule` accepts and `test` holds for (`why` says what failed)."""
    def checked(v: Any) -> Any:
        v = rule(v)
        if not test(v):
            raise Bad(why)
        return v
    return checked


def list_of(rule: Rule, length: int | None = None) -> Rule:
    def checked(v: Any) -> list:
        if not isinstance(v, list):
            raise Bad(f"expected a list, got {_what(v)}")
        if length is not None and len(v) != length:
            raise Bad(f"expected a list of {length}, got {len(v)} items")
        out = []
        for i, x in enumerate(v):
            try:
                out.append(rule(x))
            except Bad as e:
                raise Bad(f"item {i}: {e}") from None
        return out
    return checked


def obj(required: dict[str, Rule] | None = None, optional: dict[str, Rule] | None = None,
        closed: bool = False) -> Rule:
    """A mapping with the `required` keys, each checked, and the `optional` ones checked where
    present; other keys are kept as they are unless `closed`."""
    required, optional = required or {}, optional or {}

    def checked(v: Any) -> dict:
        if not isinstance(v, dict):
            raise Bad(f"expected a mapping, got {_what(v)}")
        out = dict(v)
        for k in required:
            if k not in v:
                raise Bad(f"missing key {k!r}")
        for k in v:
            rule = required.get(k) or optional.get(k)
            if rule is None:
                if closed:
                    raise Bad(f"unexpected key {k!r}")
                continue
            try:
                out[k] = rule(v[k])
            except Bad as e:
                raise Bad(f"{k}: {e}") from None
        return out
    return checked


def json_of(rule: Rule) -> Rule:
    """Text holding JSON that `rule` accepts (returns the decoded value)."""
    def checked(v: Any) -> Any:
        try:
            data = json.loads(text(v), parse_constant=_no_constant)
        except (ValueError, RecursionError) as e:
            raise Bad(f"not valid JSON ({' '.join(str(e).split())[:80]})") from None
        return rule(data)
    return checked


def pack(text_: str) -> bytes:
    """A game's moves or per-move statistics as the writer stores them: their JSON text,
    zlib-compressed, in a BLOB (a Kalah game's statistics: 3.1 KB of text, 0.5 KB packed)."""
    return zlib.compress(text_.encode("utf-8"), 9)


def packed_json_of(rule: Rule) -> Rule:
    """JSON that `rule` accepts, as text (a game stored before packing) or `pack`ed (a BLOB
    holding the same text, compressed)."""
    plain = json_of(rule)

    def checked(v: Any) -> Any:
        if isinstance(v, bytes):
            try:
                v = zlib.decompress(v).decode("utf-8")
            except (zlib.error, UnicodeDecodeError) as e:
                raise Bad(f"a blob that is not packed JSON ({' '.join(str(e).split())[:80]})"
                          ) from None
        return plain(v)
    return checked


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


# ---- the store's tables ----------------------------------------------------------------------
BUDGET = obj(optional={"time": opt(number), "sims": opt(count), "effort": opt(number),
                       "rate_of": opt(text), "unit": opt(text)})
#: a move's statistics; a roll of the dice is {"seat": null, "chance": true}
MOVE_STATS = obj(optional={"seat": opt(seat),
                           "chance": opt(where(anything, lambda v: v is True, "expected true")),
                           "sims": opt(number), "nodes": opt(number), "depth": opt(number),
                           "time": opt(number), "wall": opt(number), "value": opt(number)})
SPRT = where(obj(required={"elo0": number, "elo1": number, "alpha": number, "beta": number,
                           "model": one_of("logistic", "normalized")}, closed=True),
             lambda s: s["elo0"] < s["elo1"] and 0 < s["alpha"] < 1 and 0 < s["beta"] < 1
             and s["alpha"] + s["beta"] < 1, "elo0 below elo1 and alpha, beta in (0, 1)")
CONFIG = obj(optional={"name": text, "game": text, "budget": opt(BUDGET),
                       "pairings": list_of(obj(optional={"id": text})), "sprt": opt(SPRT),
                       "sprt_pairings": list_of(text)})

#: a game's JSON columns, decoded (the published games file holds them so, results/archive.py)
GAME_JSON: dict[str, Rule] = {"budgets": list_of(opt(BUDGET)), "seeds": list_of(integer()),
                              "moves": list_of(text), "stats": list_of(MOVE_STATS)}

#: table -> column -> rule; a JSON column `x_json` reads as `x`, decoded.
TABLES: dict[str, dict[str, Rule]] = {
    "game": {"game_id": text, "pairing_id": text, "pair_index": count, "swap": seat,
             "seat0": text, "seat1": text, "budgets_json": json_of(GAME_JSON["budgets"]),
             "seeds_json": json_of(GAME_JSON["seeds"]), "opening": text, "winner": opt(seat),
             "score": opt(score), "reason": text, "error": opt(text), "plies": count,
             "moves_json": packed_json_of(GAME_JSON["moves"]),
             "stats_json": packed_json_of(GAME_JSON["stats"]),
             "duration": number, "finished": number, "version": opt(text), "build": opt(text)},
    "pairing": {"pairing_id": text, "position": count, "player": text, "opponent": text,
                "games": count, "player_budget": opt(json_of(BUDGET)),
                "opponent_budget": opt(json_of(BUDGET))},
    "experiment": {"id": integer(), "name": text, "config_json": json_of(CONFIG),
                   "identity_json": json_of(obj()), "version": text,
                   "machine_json": json_of(obj()), "created": text, "updated": text},
    "pair": {"pairing_id": text, "pair_index": count,
             "outcome": one_of("player", "opponent", "draw", "discarded", "error"),
             "points": opt(integer(0, 4))},
    "tally": {"pairing_id": text, "swap": seat, "result": one_of("win", "draw", "loss", "error"),
              "reason": text, "version": text, "build": text, "games": integer(1),
              "plies": count, "player_moves": count, "player_sims": number,
              "player_nodes": number, "player_wall": number, "player_walled": count,
              "opponent_moves": count, "opponent_sims": number, "opponent_nodes": number,
              "opponent_wall": number, "opponent_walled": count, "first_game": count,
              "first_finished": number, "last_finished": number},
    "pair_tally": {"pairing_id": text,
                   "outcome": one_of("player", "opponent", "draw", "discarded", "error"),
                   "points": integer(-1, 4), "pairs": integer(1)},
    "meta": {"key": text, "value": text},
    "solve": {"player": text, "position_id": text, "seed": count,
              "budgets_json": json_of(list_of(count)),
              "trace_json": json_of(list_of(where(list_of(anything, 3), lambda t: (
                  isinstance(t[0], int) and isinstance(t[1], str)
                  and isinstance(t[2], (int, float))), "expected [budget, move, seconds]"))),
              "finished": number},
}

#: How a row of each table is named in a message.
_KEYS = {"game": ("game", "game_id"), "pairing": ("pairing", "pairing_id"),
         "pair": ("pair of", "pairing_id"), "meta": ("meta", "key"),
         "tally": ("tally of", "pairing_id"), "pair_tally": ("pair tally of", "pairing_id")}


def row_name(table: str, row: dict) -> str:
    """`game g/p1/0/0`, `pairing p1234abcd`, `the experiment row`, `meta 'tournament'`, ..."""
    if table == "experiment":
        return "the experiment row"
    if table == "solve":
        return (f"solve row ({row.get('player')!r}, {row.get('position_id')!r}, "
                f"{row.get('seed')!r})")
    label, key = _KEYS.get(table, (table, None))
    value = row.get(key)
    return f"{label} {value if isinstance(value, str) else repr(value)}"


def check_row(table: str, row: dict) -> tuple[dict, str | None, str | None]:
    """(the row with its JSON columns decoded under their short names, the bad column or None,
    why) — the caller names the store."""
    rules = TABLES[table]
    out = {}
    for col, value in row.items():
        rule = rules.get(col)
        name = col[:-5] if col.endswith("_json") and table in ("game", "experiment") else col
        if rule is None:
            out[name] = value
            continue
        try:
            out[name] = rule(value)
        except Bad as e:
            return out, col, str(e)
    return out, None, None
