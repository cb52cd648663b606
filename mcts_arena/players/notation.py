"""The player notation, read and written in one place: `KIND(argument,...)` for every kind.

    MCTS(bl,im0.4)    αβ(efMS,d4)    Random    Greedy(efLH)    FlatMC(C=0.8)       built-in
    GTP(cmd="./my_engine --level 3", name=mine, timeout=120)                      GTP engine
    py(mypackage.players:MyPlayer, depth=3, name=proto)                           Python class

This module is syntax only (no game, no option or kind table): the outer form `KIND(...)`, the
arguments of built-in kinds (comma-separated
tokens, no quoting: `tokens`) and of external kinds (`key=value` items whose value may be
double-quoted, and must be when it holds a comma, a parenthesis or a double quote; inside
quotes `\\"` is a quote and `\\\\` a backslash: `items`), how a value or a number is written
back (`quote`, `number`), and what reports call a player (`display_name`). What the tokens
mean is players/options.py (the option table) and players/spec.py (parsing a spec for a game).

Everything that reads a spec string goes through here: the players' parser, the report's
display names and sweep detection (`parts`), the paper's spec normalisation.
"""
from __future__ import annotations

import re

from mcts_arena.errors import SpecError

#: The heads whose arguments are `key=value` items that may be quoted (the outside engines'
#: spellings in players/kinds.py, the kind table): everything else takes plain tokens.
EXTERNAL_KINDS = {"GTP": "GTP", "gtp": "GTP", "py": "py", "gameframe": "gameframe"}

# The outer form: a head, then optionally one parenthesised argument text (greedy: a nested or
# unbalanced parenthesis stays inside and is refused by the argument readers).
_FORM = re.compile(r"^\s*([^()]*?)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_KEY_RE = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=\s*")
_BARE_RE = re.compile(r"^[A-Za-z0-9_.:/+\-]+$")


def split(text: str) -> tuple[str, str | None]:
    """(kind as written, argument text or None) of `KIND(...)`; SpecError if it is not one."""
    if not isinstance(text, str) or not text.strip():
        raise SpecError("empty player specification")
    m = _FORM.match(text)
    if not m or not m.group(1) or any(c.isspace() or c == "," for c in m.group(1)):
        raise SpecError(f"bad player specification {text!r}: expected KIND(token,...), "
                        f"e.g. MCTS(bl,im0.4)")
    return m.group(1), m.group(2)


def parts(text: str) -> tuple[str, list[str]]:
    """(head, tokens) of any spec or display name, never failing: the tokens are the
    comma-separated arguments, stripped, empty ones left out (`MCTS(bl, im0.4)` -> ("MCTS",
    ["bl", "im0.4"])); a text without the form is its own head with no tokens. For reading
    specs that were written by someone else (the report's sweeps, the paper's tables)."""
    m = _FORM.match(text or "")
    if not m or not m.group(1):
        return text, []
    return m.group(1), [t.strip() for t in (m.group(2) or "").split(",") if t.strip()]


def tokens(args: str, text: str) -> list[str]:
    """The comma-separated tokens of a built-in kind's arguments (no quoting)."""
    if "(" in args or ")" in args:
        raise SpecError(f"bad player specification {text!r}: nested or unbalanced parentheses")
    if not args.strip():
        return []
    toks = [t.strip() for t in args.split(",")]
    if any(not t for t in toks):
        raise SpecError(f"empty token in {text!r} (a doubled or trailing comma?)")
    return toks


def items(args: str, text: str) -> list[tuple[str | None, str, bool]]:
    """Split an external kind's `a, key=value, key="quoted, value"` into
    [(key or None, value, quoted)]."""
    out: list[tuple[str | None, str, bool]] = []
    if not args.strip():
        return out
    i, n = 0, len(args)
    while True:
        while i < n and args[i].isspace():
            i += 1
        key = None
        m = _KEY_RE.match(args, i)
        if m:
            key, i = m.group(1), m.end()
        if i < n and args[i] == '"':
            j, buf = i + 1, []
            while True:
                if j >= n:
                    raise SpecError(f"unterminated double quote in {text!r}")
                c = args[j]
                if c == "\\" and j + 1 < n and args[j + 1] in '"\\':
                    buf.append(args[j + 1])
                    j += 2
                    continue
                if c == '"':
                    j += 1
                    break
                buf.append(c)
                j += 1
            value, quoted, i = "".join(buf), True, j
            while i < n and args[i].isspace():
                i += 1
            if i < n and args[i] != ",":
                raise SpecError(f"unexpected {args[i]!r} after a quoted value in {text!r} "
                                "(a quoted value must be the whole value)")
        else:
            j = i
            while j < n and args[j] != ",":
                if args[j] in '()"':
                    raise SpecError(f"{args[j]!r} outside double quotes in {text!r}; quote the "
                                    'value, e.g. cmd="./engine --opt (x)"')
                j += 1
            value, quoted, i = args[i:j].strip(), False, j
        if not value and not quoted:
            raise SpecError(f"empty token in {text!r} (a doubled or trailing comma?)")
        out.append((key, value, quoted))
        if i >= n:
            return out
        i += 1          # the comma
        if not args[i:].strip():
            raise SpecError(f"empty token in {text!r} (a doubled or trailing comma?)")


def quote(value: str, always: bool = False) -> str:
    """A value as the notation writes it: bare when it can be (and not `always`), else
    double-quoted."""
    if value and _BARE_RE.match(value):
        return '"' + value + '"' if always else value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def number(v) -> str:
    """A value as a canonical spec writes it: floats to 6 significant digits, booleans as
    true/false, anything else as str() does."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def display_name(canonical: str) -> str:
    """What reports call a player given by its canonical spec: an external player's `name`
    (else its command, or module:Class); any other spec unchanged."""
    m = _FORM.match(canonical or "")
    if not m or m.group(1) not in EXTERNAL_KINDS or m.group(2) is None:
        return canonical
    try:
        args = items(m.group(2), canonical)
    except ValueError:
        return canonical
    for key, value, _ in args:
        if key == "name" and value:
            return value
    for key, value, _ in args:
        if (m.group(1) == "py" and key is None) or key == "cmd":
            return value
    return canonical
