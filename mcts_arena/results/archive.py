"""A store as published data: one gzip-compressed JSON-lines file per experiment.

The record's games are published in this form (docs/reproduction/data/), so a reader can recount
a row, look at its games, or rebuild every page without mcts_arena (`zcat FILE | jq`), and
`arena reproduce --from-data` rebuilds the stores (runner/restore.py) and from them the pages.

Line 1, the header:
    {"format": "mcts_arena-games/1",
     "experiment": {name, config, identity, version, machine, created, updated},
     "pairings": [{pairing_id, position, player, opponent, games, player_budget,
                   opponent_budget}, ...],
     "meta": {key: value, ...}}       # the store's meta table: stop decisions (precision/...),
                                      # SPRT states, a tournament's settings, and build/<fp>:
                                      # the git commit that build was played from
Every further line, one game, in the order pairing position, pair index, swap:
    {game_id, pairing_id, pair_index, swap, seats: [seat 0 spec, seat 1 spec],
     budgets: [seat 0's, seat 1's], seeds, opening, winner (seat, null for a draw or error),
     score (the pairing's player's: 1, 0.5, 0, null for an error game), reason, error, plies,
     moves: [notation, ...], stats: [per move: seat, sims, nodes, depth, time (CPU s), wall,
     value, ...], duration, finished (unix time), version, build (fingerprint)}

The file is written deterministically (sorted keys, gzip without a name or time stamp), so the
same store always gives the same bytes, and atomically (a temporary file renamed into place).
"""
from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

from mcts_arena import inputs
from mcts_arena.errors import UserError
from mcts_arena.results import rows
from mcts_arena.results.store import Store

FORMAT = "mcts_arena-games/1"
SUFFIX = ".jsonl.gz"
GAME_KEYS = ("game_id", "pairing_id", "pair_index", "swap", "seats", "budgets", "seeds",
             "opening", "winner", "score", "reason", "error", "plies", "moves", "stats",
             "duration", "finished", "version", "build")
EXPERIMENT_KEYS = ("name", "config", "identity", "version", "machine", "created", "updated")
MAX_LINE = 16 * 1024 * 1024     # bytes of one line (a long game with its statistics: ~100 KB)


def _line(obj) -> bytes:
    return (json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
            + "\n").encode("utf-8")


def header_of(store: Store) -> dict:
    exp = store.experiment()
    if exp is None:
        raise UserError(f"{store.directory}: holds no experiment (nothing was played there)")
    return {"format": FORMAT,
            "experiment": {k: exp[k] for k in EXPERIMENT_KEYS},
            "pairings": store.pairings(),
            "meta": {k: v for k, v in store.meta_items().items() if k != "schema_version"}}


def game_of(row: dict) -> dict:
    """A stored game (a `Store.games` row) as a line of the published file."""
    out = {k: row[k] for k in GAME_KEYS if k not in ("seats",)}
    out["seats"] = [row["seat0"], row["seat1"]]
    return out


def dump(directory: str | os.PathLike, out: str | os.PathLike) -> int:
    """Write the store in `directory` to `out` (see the module's text); the games written."""
    out = Path(out)
    tmp = out.with_name(out.name + ".tmp")
    n = 0
    with Store.open(directory) as store:
        head = header_of(store)
        position = {p["pairing_id"]: p["position"] for p in head["pairings"]}
        rows = sorted(store.games(), key=lambda g: (position.get(g["pairing_id"], 1 << 30),
                                                     g["pairing_id"], g["pair_index"], g["swap"]))
        try:
            with open(tmp, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                       mtime=0, compresslevel=9) as f:
                f.write(_line(head))
                for row in rows:
                    f.write(_line(game_of(row)))
                    n += 1
            os.replace(tmp, out)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    return n


_SLOT = ("pairing_id", "pair_index", "swap")
#: a game line: every field by the rule of its column in a store (results/rows.py)
GAME = rows.obj(required={k: rows.GAME_JSON.get(k) or rows.TABLES["game"][k]
                          for k in GAME_KEYS if k != "seats"}
                | {"seats": rows.list_of(rows.text, 2)}, closed=True)
_PAIRING = rows.obj(required={k: rows.TABLES["pairing"][k] for k in
                              ("pairing_id", "position", "player", "opponent", "games")},
                    optional={"player_budget": rows.opt(rows.BUDGET),
                              "opponent_budget": rows.opt(rows.BUDGET)}, closed=True)
#: the header: the experiment row, the pairings (no id twice) and the meta table (text values)
HEADER = rows.obj(required={
    "format": rows.one_of(FORMAT),
    "experiment": rows.obj(required={"name": rows.text, "config": rows.CONFIG,
                                     "identity": rows.obj(), "version": rows.text,
                                     "machine": rows.obj(), "created": rows.text,
                                     "updated": rows.text}, closed=True),
    "pairings": rows.where(rows.list_of(_PAIRING), lambda ps: len({p["pairing_id"] for p in ps})
                           == len(ps), "a pairing_id is listed twice"),
    "meta": rows.where(rows.obj(), lambda m: all(isinstance(v, str) for v in m.values()),
                       "expected text values")}, closed=True)


def read(path: str | os.PathLike) -> tuple[dict, Iterator[dict]]:
    """(header, the games) of a published file, each line checked as it is read (every field
    by its rule; a game of an unknown pairing, a game id or a pairing's game given twice
    refused): a damaged or foreign file is a UserError naming the file and the line."""
    path = Path(path)
    raw_file = inputs.open_binary(path, "a published games file (gzip JSON lines)")
    try:
        try:
            f = gzip.GzipFile(fileobj=raw_file, mode="rb")
            first = _readline(path, 1, f)
        except (OSError, EOFError, zlib.error) as e:
            raise UserError(f"{path}: not a published games file (gzip JSON lines): {e}"
                            ) from None
        head = _parse(path, 1, first)
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise UserError(f"{path}: line 1: not a {FORMAT} header")
        head = _checked(path, 1, HEADER, head, "the header: ")
    except BaseException:
        raw_file.close()
        raise
    pairings = {p["pairing_id"] for p in head["pairings"]}

    def games() -> Iterator[dict]:
        ids, slots = set(), set()
        with raw_file, f:
            n = 1
            while True:
                try:
                    raw = _readline(path, n + 1, f)
                except (OSError, EOFError, zlib.error) as e:
                    raise UserError(f"{path}: line {n + 1}: damaged ({e})") from None
                if not raw:
                    return
                n += 1
                g = _parse(path, n, raw)
                if not isinstance(g, dict) or any(k not in g for k in GAME_KEYS):
                    lack = next((k for k in GAME_KEYS if not isinstance(g, dict) or k not in g),
                                "")
                    raise UserError(f"{path}: line {n}: not a game (no {lack!r})")
                g = _checked(path, n, GAME, g, "")
                slot = tuple(g[k] for k in _SLOT)
                if g["pairing_id"] not in pairings:
                    raise UserError(f"{path}: line {n}: the game's pairing_id "
                                    f"{g['pairing_id']!r} is not a pairing of the header")
                if g["game_id"] in ids or slot in slots:
                    raise UserError(f"{path}: line {n}: game {g['game_id']} (pairing "
                                    f"{slot[0]}, pair {slot[1]}, swap {slot[2]}) is given "
                                    f"twice")
                ids.add(g["game_id"])
                slots.add(slot)
                yield g

    return head, games()


def _readline(path: Path, n: int, f) -> bytes:
    """Line n, at most MAX_LINE bytes (a file of one endless line is not read into memory)."""
    raw = f.readline(MAX_LINE + 1)
    if len(raw) > MAX_LINE:
        raise UserError(f"{path}: line {n}: longer than {MAX_LINE:,} bytes; not a published "
                        f"games file")
    return raw


def _checked(path: Path, n: int, rule, value, what: str):
    try:
        return rule(value)
    except rows.Bad as e:
        raise UserError(f"{path}: line {n}: {what}{e}") from None


def _parse(path: Path, n: int, raw: bytes):
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise UserError(f"{path}: line {n}: not JSON ({e})") from None
