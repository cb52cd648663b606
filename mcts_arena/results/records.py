"""Exported game records read back (`arena show FILE`): the PGN-style text, SGF and JSON lines
`arena export` writes (results/export.py), each game as a dict with the keys a replay needs:

    game        the game with its parameters (`hex(size=5)`)
    game_id     its id in the experiment ("" when the file has none)
    seats       the names of seat 0 (moves first) and seat 1
    opening     "start" or the position's text
    moves       the moves in the game's notation
    stats       per move {key: value} from its comment (sims, nodes, depth, time, value)
    result      "1-0" (seat 0 won), "0-1", "1/2-1/2", "*"
    termination how it ended, as the file says

The format is told by the first character that is not blank: `[` PGN, `(` SGF, `{` JSON lines.
A file that is none of them, or a game the file does not name, is a UserError naming the file
(and the line, for PGN and JSON lines).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.results.export import DICE_COMMENT, seat_colours

_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_PGN_TOKEN = re.compile(r"\{[^}]*\}|\S+")
_MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")
_PGN_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def read(path: str | Path) -> list[dict]:
    """Every game in the exported file `path` (see the module docstring)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"{p}: cannot read: {getattr(e, 'strerror', None) or e}") from None
    first = text.lstrip()[:1]
    if first == "[":
        return _pgn(text, p)
    if first == "(":
        return _sgf(text, p)
    if first == "{":
        return _jsonl(text, p)
    raise UserError(f"{p}: not an exported game file (PGN starts with '[', SGF with '(', JSON "
                    f"lines with '{{')")


def _stats(text: str) -> dict:
    """A move comment's statistics; a move with nodes and no sims searched none (the writer,
    results.export.comment, leaves sims=0 out)."""
    out = {}
    for item in text.split():
        k, eq, v = item.partition("=")
        if not eq:
            continue
        try:
            out[k] = int(v)
        except ValueError:
            try:
                out[k] = float(v)
            except ValueError:
                out[k] = v
    if "nodes" in out and "sims" not in out:
        out["sims"] = 0
    return out


def _game_of(name: str | None, where: str) -> str:
    if not name:
        raise UserError(f"{where}: the game is not named (PGN: a Variant tag; SGF: 'game: "
                        f"NAME' in the root comment, or a GM and SZ of a game we know)")
    try:
        return str(games.resolve(name))
    except ValueError as e:
        raise UserError(f"{where}: {e}") from None


# ---- PGN --------------------------------------------------------------------------------------
def _pgn(text: str, path: Path) -> list[dict]:
    out: list[dict] = []
    tags: dict = {}
    moves: list[str] = []
    stats: list[dict] = []
    start_line = 1
    in_moves = False

    def close() -> None:
        if not tags:
            return
        where = f"{path}:{start_line}"
        game = _game_of(tags.get("Variant"), where)
        cols = seat_colours(game)
        result = tags.get("Result", "*")
        if cols[0] != "White" and result in ("1-0", "0-1"):     # PGN's result is White's
            result = "0-1" if result == "1-0" else "1-0"
        out.append({"game": game, "game_id": tags.get("GameId", ""),
                    "seats": [tags.get(cols[0], "?"), tags.get(cols[1], "?")],
                    "opening": tags.get("Opening", "start"), "moves": list(moves),
                    "stats": list(stats), "result": result,
                    "termination": tags.get("Termination", "")})

    for number, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s.startswith("["):
            if in_moves:
                close()
                tags, moves, stats, in_moves = {}, [], [], False
            if not tags:
                start_line = number
            m = _TAG.match(s)
            if not m:
                raise UserError(f"{path}:{number}: bad PGN tag {s[:60]!r}: expected "
                                f'[Name "value"]')
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
            continue
        if not s:
            continue
        in_moves = True
        for tok in _PGN_TOKEN.findall(s):
            if tok.startswith("{"):
                if stats and tok[1:-1].strip() == DICE_COMMENT:
                    stats[-1] = {"seat": None, "chance": True}
                elif stats:
                    stats[-1] = _stats(tok[1:-1])
            elif not _MOVE_NUMBER.match(tok) and tok not in _PGN_RESULTS:
                moves.append(tok)
                stats.append({})
    close()
    return out


# ---- SGF --------------------------------------------------------------------------------------
_PROP = re.compile(r"\s*([A-Za-z]+)\s*((?:\[(?:[^\]\\]|\\.)*\]\s*)+)", re.S)
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)


def _sgf_nodes(text: str, path: Path) -> list[list[dict]]:
    """The main line of every game tree (its first variation at each branch): a list of nodes,
    each {property: [values]}."""
    pos = 0

    def fail(what: str):
        raise UserError(f"{path}: bad SGF at character {pos + 1}: {what}")

    def skip_space() -> None:
        nonlocal pos
        while pos < len(text) and text[pos].isspace():
            pos += 1

    def tree() -> list[dict]:
        nonlocal pos
        pos += 1                                    # the "("
        nodes: list[dict] = []
        skip_space()
        while pos < len(text) and text[pos] == ";":
            pos += 1
            node: dict = {}
            while (m := _PROP.match(text, pos)) is not None:
                node[m.group(1).upper()] = [re.sub(r"\\(.)", r"\1", v)
                                            for v in _VALUE.findall(m.group(2))]
                pos = m.end()
            nodes.append(node)
            skip_space()
        first = True
        while pos < len(text) and text[pos] == "(":
            sub = tree()
            if first:
                nodes += sub
                first = False
            skip_space()
        if pos >= len(text) or text[pos] != ")":
            fail("expected ')'")
        pos += 1
        return nodes

    trees = []
    skip_space()
    while pos < len(text):
        if text[pos] != "(":
            fail(f"expected '(', got {text[pos:pos + 20]!r}")
        trees.append(tree())
        skip_space()
    return trees


def _sgf_game_name(root: dict, path: Path) -> str:
    facts = dict(line.split(": ", 1) for line in root.get("C", [""])[0].splitlines()
                 if ": " in line)
    if "game" in facts:
        return _game_of(facts["game"], str(path))
    gm = int(root.get("GM", ["1"])[0])
    for name in games.built_names():
        info = games.info_of(name)
        if info.sgf_game == gm:
            size = root.get("SZ", [None])[0]
            key = info.gtp_boardsize
            spec = f"{name}({key}={int(size)})" if size and isinstance(key, str) else name
            return _game_of(spec, str(path))
    raise UserError(f"{path}: SGF of GM[{gm}], a game mcts_arena does not play")


def _sgf(text: str, path: Path) -> list[dict]:
    out = []
    for nodes in _sgf_nodes(text, path):
        if not nodes:
            continue
        root = nodes[0]
        game = _sgf_game_name(root, path)
        info = games.info_of(game)
        facts = dict(line.split(": ", 1) for line in root.get("C", [""])[0].splitlines()
                     if ": " in line)
        if ("AB" in root or "AW" in root) and "opening" not in facts:
            raise UserError(f"{path}: setup stones (AB/AW) without an 'opening: TEXT' line in "
                            f"the root comment: only the files arena export writes are read")
        parse = info.sgf_parse or (lambda v: v)
        cols = ["B" if c.lower() == "b" else "W" for c in info.gtp_colors]
        moves, stats = [], []
        for node in nodes:
            for prop in ("B", "W"):
                if prop in node and node is not root:
                    moves.append(parse(node[prop][0]))
                    stats.append({"seat": cols.index(prop),
                                  **_stats(node.get("C", [""])[0])})
        re_ = root.get("RE", ["?"])[0]
        result = "*" if re_ in ("Void", "?", "") else "1/2-1/2" if re_ in ("0", "Draw") else \
            ("1-0" if re_.startswith(cols[0]) else "0-1")
        out.append({"game": game, "game_id": root.get("GN", [""])[0],
                    "seats": [root.get(f"P{cols[0]}", ["?"])[0],
                              root.get(f"P{cols[1]}", ["?"])[0]],
                    "opening": facts.get("opening", "start"), "moves": moves, "stats": stats,
                    "result": result, "termination": facts.get("termination", "")})
    return out


# ---- JSON lines -------------------------------------------------------------------------------
def _jsonl(text: str, path: Path) -> list[dict]:
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
            game = _game_of(rec.get("game"), f"{path}:{number}")
            out.append({"game": game, "game_id": rec.get("game_id", ""),
                        "seats": list(rec["seats"]), "opening": rec.get("opening") or "start",
                        "moves": list(rec["moves"]), "stats": list(rec.get("stats") or []),
                        "result": rec.get("result", "*"),
                        "termination": rec.get("reason", "")
                        + (f": {rec['error']}" if rec.get("error") else "")})
        except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as e:
            raise UserError(f"{path}:{number}: not a game record of arena export "
                            f"({type(e).__name__}: {e})") from None
    return out
