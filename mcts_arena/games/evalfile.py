"""The fitted-evaluation file: what `arena fit` writes and a player's `ef=FILE` names.

A JSON object:

    format      "mcts_arena-linear-eval/1"
    game        the game (its registry name)
    features    the game knowledge's feature names, in order (Knowledge.feature_names)
    weights     one weight per feature: value = tanh(w . f / 2), P(mover wins) = 1/(1+e^-w.f)
    fitted_on   what it was fitted on: the sources (paths, experiments, games), the positions
                sampled, the rule that sampled them, the held-out split and its seed
    fit         how well: L2, log-loss (train, held out, a coin's, the hand-written evaluation's
                best one-parameter calibration on the same held-out positions), calibration bins
    created     UTC time

A player's spec names the file as `ef=PATH`; its canonical form adds the first 12 hex digits of
the file's SHA-256 (`ef=PATH@3f2a9c0112ab`), so a stored pairing says which weights played, and
a spec carrying a digest the file no longer has is refused.
"""
from __future__ import annotations

import functools
import hashlib
import json
import math
from pathlib import Path

from mcts_arena import games
from mcts_arena.errors import UserError

FORMAT = "mcts_arena-linear-eval/1"
DIGEST_CHARS = 12
#: what an error calls the file: when it is missing, when it cannot be read
WHAT = ("evaluation file", "fitted-evaluation file")


def digest(path: str | Path) -> str:
    """The first DIGEST_CHARS hex digits of the file's SHA-256."""
    return contents(path)[1]


def contents(path: str | Path, what: tuple[str, str] = WHAT) -> tuple[object, str]:
    """The file's JSON value and digest, from one read of its bytes (so the weights played are
    the ones digested), kept while the file's size and modification time stay the same: a spec
    is parsed many times (plans, canonical strings, reports), the file read once. `what` names
    the kind of file in an error (a network file, games/netfile.py, is read the same way)."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise UserError(f"{path}: no such {what[0]}") from None
    except OSError as e:
        raise UserError(f"{path}: not a {what[1]} ({e})") from None
    return _read_once(str(p.resolve()), st.st_mtime_ns, st.st_size, str(path), what)


@functools.lru_cache(maxsize=64)
def _read_once(resolved: str, mtime_ns: int, size: int, shown: str,
               what: tuple[str, str]) -> tuple[object, str]:
    try:
        data = Path(resolved).read_bytes()
        return json.loads(data.decode("utf-8")), \
            hashlib.sha256(data).hexdigest()[:DIGEST_CHARS]
    except FileNotFoundError:
        raise UserError(f"{shown}: no such {what[0]}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UserError(f"{shown}: not a {what[1]} ({e})") from None


def feature_names(game: str) -> tuple[str, ...]:
    """The features the game's own knowledge describes a position by (none: it cannot be
    fitted)."""
    return tuple(games.new_state(game).knowledge().feature_names)


def checked_game(obj, path, game: str | None, fmt: str, what: str, writer: str,
                 made: str) -> str:
    """The game of a file's object: its format must be `fmt` (a `what` that `writer` writes,
    `made` for a game) and its game, when `game` is given, that game; UserError otherwise."""
    if not isinstance(obj, dict) or obj.get("format") != fmt:
        raise UserError(f"{path}: not a {what} (format is not {fmt!r}; {writer} writes one)")
    g = obj.get("game")
    if not isinstance(g, str) or g not in games.names():
        raise UserError(f"{path}: unknown game {g!r}")
    if game is not None and games.resolve(game).name != g:
        raise UserError(f"{path} was {made} for {g}, not {games.resolve(game).name}")
    return g


def read(path: str | Path, game: str | None = None) -> dict:
    """The file's object, checked: its format, its game (== `game` when given), its features
    (== the game's today) and finite weights; UserError naming the problem otherwise."""
    obj = contents(path)[0]
    g = checked_game(obj, path, game, FORMAT, WHAT[1], "`arena fit`", "fitted")
    names = feature_names(g)
    if list(obj.get("features") or []) != list(names):
        raise UserError(f"{path}: its features {obj.get('features')} are not {g}'s today "
                        f"({', '.join(names) or 'none'}); fit it again")
    w = obj.get("weights")
    if not isinstance(w, list) or len(w) != len(names) or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in w):
        raise UserError(f"{path}: weights must be {len(names)} finite numbers")
    return dict(obj)


def write(path: str | Path, obj: dict) -> None:
    """Write the file whole or not at all (a temporary file renamed over it)."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=1) + "\n", encoding="utf-8")
    tmp.replace(p)


def parse_token(raw: str, game: str, prefix: str = "ef", reader=None,
                what: str = "a fitted evaluation, `arena fit`") -> str:
    """The canonical `ef=PATH@DIGEST` of a spec's `ef=PATH` (or `ef=PATH@DIGEST`, checked
    against the file): the file read and checked for `game`. UserError names a problem.
    A network file (`nn=`, games/netfile.py) passes its prefix, its reader and what it is."""
    path, _, given = raw.partition("@")
    if not path:
        raise UserError(f"{prefix}= needs a file: {prefix}=PATH ({what})")
    (reader or read)(path, game)
    d = digest(path)
    if given and given != d:
        raise UserError(f"{prefix}={raw}: {path} has changed since (its digest is now {d}); "
                        f"name the file without @{given} to play what it holds now")
    return f"{prefix}={path}@{d}"


def is_file_eval(evalfn: str) -> bool:
    """Is this spec evaluation a file's, a fitted one (`ef=...`) or a network's (`nn=...`,
    games/netfile.py), rather than a game's own (`efMS`)?"""
    return evalfn.startswith(("ef=", "nn="))


def checked_path(evalfn: str, reader, game: str) -> tuple[str, object]:
    """The path and the checked object of a canonical `ef=PATH@DIGEST` (or `nn=...`), read by
    `reader`; UserError when the file's digest is no longer the one named."""
    path, _, want = evalfn[3:].rpartition("@")
    obj, now = reader(path, game), digest(path)
    if now != want:
        raise UserError(f"{path} has changed since the player was named (digest {want}, now "
                        f"{now}): name the file again to play what it holds now")
    return path, obj


def knowledge(evalfn: str, game: str):
    """The LinearKnowledge a canonical `ef=PATH@DIGEST` names, on the game's own knowledge."""
    from mcts_arena.games.learned import LinearKnowledge

    obj = checked_path(evalfn, read, game)[1]
    return LinearKnowledge(games.new_state(game).knowledge(), obj["weights"])
