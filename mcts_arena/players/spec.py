"""Player notation: parse `MCTS(bl,im0.4)`, `MCTS(efLH,bl',im0.6)`, `αβ(efMS)` as the paper writes.

A spec is `KIND(token,token,...)` or a bare `KIND`. Tokens are paper labels (`ipp`, `fet20`,
`det0.5`, `ege0.1`, `np`, `np50`, `mb1000`, `PB`, `pb2`, `im0.4`, `cb0.4`, `pbim0.4`, `rave300`,
`pu3`, `exp1`, `abp2`, `efMS`, ...), per-game macros (`bl`, `bl'`/`blp`) and `key=value` for any
option (`C=0.8`, `np=50`, `time=1`, `sims=2000`, `depth=4`).

Parsing gives a frozen, picklable `PlayerSpec`. Its `canonical` string lists only the options that
differ from the kind's defaults for the game, in one fixed order, so two spellings of one player
(`MCTS(im0.4,bl)`, `MCTS(efMS,ipp,ege0.1,det0.5,im0.4)`, `MCTS(bl,im0.4)`) print the same.
Macros are data each game declares (`GameInfo.macros`), and a config may add its own.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from mcts_arena import budgets, games
from mcts_arena.games.info import KNOWLEDGE_OPTIONS


class SpecError(ValueError):
    """A player specification that cannot be parsed; the message names the token."""


# ---- per-game data --------------------------------------------------------------------------

# Each game declares its macros, default evaluation, default UCT constant and the options that
# need its knowledge (mcts_arena/games/info.py); these read them.
def macros_of(game: str) -> dict[str, str]:
    """The game's built-in macros: name -> token list (`bl` -> `efMS,ipp,ege0.1,det0.5`)."""
    return dict(games.info_of(game).macros)


def default_eval(game: str) -> str:
    return games.info_of(game).default_eval


def default_c(game: str) -> float:
    return games.info_of(game).default_c

KINDS = {"MCTS": "MCTS", "αβ": "alphabeta", "ab": "alphabeta", "alphabeta": "alphabeta",
         "AB": "alphabeta", "Random": "Random", "random": "Random", "Greedy": "Greedy",
         "greedy": "Greedy", "FlatMC": "FlatMC", "flatmc": "FlatMC", "mcts": "MCTS"}
DISPLAY_KIND = {"MCTS": "MCTS", "alphabeta": "αβ", "Random": "Random", "Greedy": "Greedy",
                "FlatMC": "FlatMC"}

# ---- token table ----------------------------------------------------------------------------
# name -> (field, type, low, high, meaning); a bare token with a number suffix sets the field.
_NUM = r"(\d+(?:\.\d*)?|\.\d+)"


@dataclass(frozen=True)
class _Tok:
    field: str
    kind: str            # "flag", "int", "float"
    low: float
    high: float
    meaning: str
    bare: object = None  # value when written without a number (None: number required)


MCTS_TOKENS: dict[str, _Tok] = {
    "ipp": _Tok("policy", "flag", 0, 0, "improved (game-specific) playout policy", "ipp"),
    "fet": _Tok("fet", "int", 0, 10**6, "fixed early termination: X playout moves, then v0(s)"),
    "det": _Tok("det", "float", 0, 1, "dynamic early termination: stop when |v0(s)| >= X"),
    "df": _Tok("df", "int", 1, 10**6, "check the det condition after every N playout moves (default 5)"),
    "ege": _Tok("ege", "float", 0, 1, "epsilon-greedy playouts: random with probability e, else best successor"),
    "np": _Tok("np", "int", 0, 10**6, "node priors with N virtual visits (bare np: 10 per second of budget)", 0),
    "fa": _Tok("fa", "flag", 0, 0, "forced actions: play the game's urgent move at once, without search", True),
    "mb": _Tok("mb", "int", 0, 10**9, "max backpropagation once a node has T visits"),
    "pb": _Tok("pb", "float", 0, 10**6, "progressive bias W*H(s,a)/(n+1) (PB = weight 1)", 1.0),
    "im": _Tok("im", "float", 0, 1, "implicit minimax backups with weight alpha"),
    "cb": _Tok("cb", "float", 0, 1, "control: constant bias (1-a)Q + a*v0(child), no backups"),
    "pbim": _Tok("pbim", "float", 0, 1, "control: progressive bias of implicit values a*v/(n+1)"),
    "rave": _Tok("rave", "int", 1, 10**9, "UCT-RAVE, beta = max(0, (K - n_s) / K); untried moves ranked by AMAF (K above the sims per move)"),
    "pu": _Tok("pu", "int", 1, 10**4, "progressive unpruning: start with K children by heuristic"),
    "exp": _Tok("exp1", "int", 1, 1, "exp1: expand one child per simulation (memory-saving)"),
    "abp": _Tok("abp", "int", 1, 8, "alpha-beta playouts: each playout move by a depth-N search", 2),
    "sl": _Tok("sims", "int", 1, budgets.SIMS_MAX, "fixed simulation budget per move (the paper's _sl)"),
}
AB_TOKENS: dict[str, _Tok] = {
    "d": _Tok("depth", "int", 1, 64, "fixed search depth"),
}
#: key=value options: name -> (field, type, low, high, meaning), for the kinds that take them.
KEY_OPTIONS: dict[str, tuple[str, str, float, float, str]] = {
    "C": ("C", "float", 0, 100, "UCT exploration constant"),
    "time": ("time", "float", budgets.TIME_MIN, budgets.TIME_MAX, "seconds per move (overrides the experiment budget)"),
    "sims": ("sims", "int", 1, budgets.SIMS_MAX, "simulations per move (MCTS, FlatMC) or nodes (αβ)"),
    "depth": ("depth", "int", 1, 64, "αβ: fixed depth"),
    "np": ("np", "int", 0, 10**6, "node-prior virtual visits"),
    "npk": ("npk", "float", 0.001, 100, "node priors as the sigmoid 1/(1+e^-(k v + b)) of the evaluation after the move: k"),
    "npb": ("npb", "float", -100, 100, "the sigmoid prior's offset b (with npk)"),
    "seed": ("seed", "int", 0, 2**63, "extra seed salt for this player"),
    "abw": ("abw", "int", 0, 256, "αβ playouts: moves searched per node (default 8, 0 = all)"),
    "tt": ("tt", "int", 0, 1, "αβ: transposition table (1, default) or none (0, as the paper's αβ)"),
    "hh": ("hh", "int", 0, 1, "αβ: history heuristic (1, default) or none (0, as the paper's αβ)"),
}
KIND_KEYS = {"MCTS": {"C", "time", "sims", "np", "npk", "npb", "seed", "abw"} | set(MCTS_TOKENS),
             "alphabeta": {"time", "sims", "depth", "seed", "tt", "hh"},
             "FlatMC": {"C", "time", "sims", "seed"}, "Greedy": {"seed"}, "Random": {"seed"}}

# Canonical order of MCTS options.
_MCTS_ORDER = ["policy", "fet", "det", "df", "ege", "np", "npk", "npb", "fa", "mb", "pb", "im", "cb", "pbim", "rave",
               "pu", "exp1", "abp", "abw", "C"]


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player: kind, game, options that differ from the defaults, canonical string."""

    kind: str                       # MCTS, alphabeta, Random, Greedy, FlatMC
    game: str
    options: tuple = ()             # sorted ((name, value), ...) of non-default options
    evalfn: str = ""                # evaluation function name (game default filled in)
    label: str = ""                 # the text as the user wrote it (whitespace normalised)
    budget: tuple = ()              # (("time", 1.0),) or (("sims", 2000),) or ()
    seed_salt: int = 0

    def get(self, name: str, default=None):
        for k, v in self.options:
            if k == name:
                return v
        return default

    @property
    def canonical(self) -> str:
        """One string per distinct player: macros contracted, options in a fixed order."""
        parts = []
        opts = dict(self.options)
        evalfn = self.evalfn
        if self.kind == "MCTS":
            for macro, (m_eval, m_opts) in _macro_specs(self.game):
                if all(k in opts and opts[k] == v for k, v in m_opts.items()) and \
                        (m_eval in ("", evalfn)):
                    parts.append(macro)
                    for k in m_opts:
                        del opts[k]
                    evalfn = default_eval(self.game)
                    break
        show_eval = self.kind in ("alphabeta", "Greedy") or (
            evalfn and evalfn != default_eval(self.game) and self.kind != "Random")
        if show_eval and evalfn:
            parts.insert(0, evalfn)
        if self.kind == "MCTS":
            for name in _MCTS_ORDER:
                if name in opts:
                    parts.append(_format_option(name, opts[name]))
        else:
            parts.extend(_format_option(k, v) for k, v in sorted(opts.items()))
        for k, v in self.budget:
            parts.append(f"{k}={_num(v)}")
        if self.seed_salt:
            parts.append(f"seed={self.seed_salt}")
        name = DISPLAY_KIND[self.kind]
        return f"{name}({','.join(parts)})" if parts else name

    def __str__(self) -> str:
        return self.canonical

    @property
    def budget_dict(self) -> dict | None:
        return dict(self.budget) or None


def _num(v) -> str:
    if isinstance(v, float):
        s = f"{v:.6g}"
        return s
    return str(v)


def _format_option(name: str, value) -> str:
    if name == "policy":
        return str(value)
    if name == "exp1":
        return "exp1"
    if name == "fa":
        return "fa"
    if name in ("C", "abw", "tt", "hh", "npk", "npb"):
        return f"{name}={_num(value)}"
    if name == "np" and value == 0:
        return "np"
    if name == "pb" and value == 1.0:
        return "PB"
    if name == "depth":
        return f"d{value}"
    return f"{name}{_num(value)}"


# ---- parsing --------------------------------------------------------------------------------

_SPEC_RE = re.compile(r"^\s*([^\s(),]+)\s*(?:\((.*)\))?\s*$", re.DOTALL)
_TOKEN_RE = re.compile(r"^([A-Za-z]+?)" + _NUM + r"?$")


def parse(text: str, game: str, macros: dict[str, str] | None = None) -> PlayerSpec:
    """Parse a player specification for `game`; SpecError names the bad token."""
    try:
        info = games.info_of(game)
    except ValueError as e:
        raise SpecError(str(e)) from None
    if not isinstance(text, str) or not text.strip():
        raise SpecError("empty player specification")
    m = _SPEC_RE.match(text)
    if not m:
        raise SpecError(f"bad player specification {text!r}: expected KIND(token,...), "
                        f"e.g. MCTS(bl,im0.4)")
    kind_text, args = m.group(1), m.group(2)
    from mcts_arena.players import gtp_process as external

    if kind_text in external.EXTERNAL_KINDS:
        try:
            return external.parse(kind_text, args, text, game)
        except external.ExternalError as e:
            raise SpecError(str(e)) from None
    kind = KINDS.get(kind_text)
    if kind is None:
        raise SpecError(f"unknown player kind {kind_text!r} in {text!r}; valid kinds: "
                        "MCTS, αβ (ab, alphabeta), Random, Greedy, FlatMC, GTP, py")
    all_macros = dict(info.macros)
    all_macros.update(macros or {})
    tokens = _split_tokens(args or "", text)
    tokens = _expand_macros(tokens, all_macros, text)

    evalfn = ""
    opts: dict[str, object] = {}
    budget: dict[str, object] = {}
    seed_salt = 0
    valid_evals = list(info.evals)
    for tok in tokens:
        if tok.startswith("ef"):
            if valid_evals and tok not in valid_evals:
                raise SpecError(f"unknown evaluation {tok!r} in {text!r} for {game}; valid: "
                                f"{', '.join(valid_evals)}")
            if evalfn and evalfn != tok:
                raise SpecError(f"conflicting evaluations {evalfn!r} and {tok!r} in {text!r}")
            evalfn = tok
            continue
        if "=" in tok:
            key, _, raw = tok.partition("=")
            key = key.strip()
            if key not in KEY_OPTIONS or key not in KIND_KEYS[kind]:
                valid = sorted(k for k in KEY_OPTIONS if k in KIND_KEYS[kind])
                raise SpecError(f"unknown option {key!r} in {text!r} for {DISPLAY_KIND[kind]}; "
                                f"valid: {', '.join(valid) or 'none'}")
            fld, typ, lo, hi, _ = KEY_OPTIONS[key]
            val = _number(raw.strip(), typ, lo, hi, tok, text)
            if fld in ("time", "sims"):
                budget = {fld: val}
            elif fld == "seed":
                seed_salt = int(val)
            else:
                _check_game(fld, tok, game, text)
                _set(opts, fld, val, tok, text)
            continue
        name, val = _parse_token(tok, kind, text)
        _check_game(name, tok, game, text)
        if name in ("time", "sims"):
            budget = {name: val}
        else:
            _set(opts, name, val, tok, text)

    if kind in ("MCTS", "alphabeta", "Greedy", "FlatMC") and not evalfn:
        evalfn = info.default_eval
    if kind == "Random":
        evalfn = ""
    if kind == "MCTS" and "C" in opts and opts["C"] == info.default_c:
        del opts["C"]
    for on_by_default in ("tt", "hh"):
        if opts.get(on_by_default) == 1:
            del opts[on_by_default]
    if ("npk" in opts or "npb" in opts) and "np" not in opts:
        raise SpecError(f"npk/npb in {text!r} shape node priors: add np (e.g. np10)")
    for exclusive in (("im", "cb", "pbim"),):
        present = [k for k in exclusive if k in opts]
        if len(present) > 1:
            raise SpecError(f"options {' and '.join(present)} in {text!r} cannot be combined "
                            "(each is a different use of the evaluation in selection)")
    return PlayerSpec(kind=kind, game=game, options=tuple(sorted(opts.items())), evalfn=evalfn,
                      label=" ".join(text.split()), budget=tuple(budget.items()),
                      seed_salt=seed_salt)


_MACRO_CACHE: dict[str, list] = {}


def _macro_specs(game: str) -> list:
    """[(macro name, (its evaluation or "", {option: value}))] for the game's built-in macros,
    longest first, so `canonical` can print `MCTS(bl,im0.4)` the way the paper does."""
    if game not in _MACRO_CACHE:
        rows = []
        for name, body in macros_of(game).items():
            sp = parse(f"MCTS({body})", game)
            has_eval = any(t.startswith("ef") for t in body.split(","))
            rows.append((name, (sp.evalfn if has_eval else "", dict(sp.options))))
        rows.sort(key=lambda r: -len(r[1][1]))
        _MACRO_CACHE[game] = rows
    return _MACRO_CACHE[game]


def _supports(game: str, field: str) -> bool:
    return field not in KNOWLEDGE_OPTIONS or field in games.info_of(game).options


def _check_game(field: str, tok: str, game: str, text: str) -> None:
    if not _supports(game, field):
        have = sorted(g for g in games.names() if _supports(g, field))
        raise SpecError(f"token {tok!r} in {text!r} does not apply to {game} (it needs game "
                        f"knowledge only {', '.join(have) or 'no registered game'} has)")


def _split_tokens(args: str, text: str) -> list[str]:
    if "(" in args or ")" in args:
        raise SpecError(f"bad player specification {text!r}: nested or unbalanced parentheses")
    if not args.strip():
        return []
    toks = [t.strip() for t in args.split(",")]
    if any(not t for t in toks):
        raise SpecError(f"empty token in {text!r} (a doubled or trailing comma?)")
    return toks


def _expand_macros(tokens: list[str], macros: dict[str, str], text: str, depth: int = 0) -> list[str]:
    if depth > 8:
        raise SpecError(f"macros nest too deeply in {text!r}")
    out = []
    for tok in tokens:
        key = "bl'" if tok == "blp" else tok
        key = key.replace("’", "'")
        if key in macros:
            out.extend(_expand_macros(_split_tokens(macros[key], text), macros, text, depth + 1))
        else:
            out.append(tok)
    return out


def _number(raw: str, typ: str, lo: float, hi: float, tok: str, text: str):
    try:
        val = int(raw) if typ == "int" else float(raw)
    except ValueError:
        raise SpecError(f"bad number in token {tok!r} of {text!r}: expected "
                        f"{'an integer' if typ == 'int' else 'a number'}") from None
    if not (lo <= val <= hi):
        raise SpecError(f"value out of range in token {tok!r} of {text!r}: expected "
                        f"{_num(lo) if typ == 'float' else int(lo)} to "
                        f"{_num(hi) if typ == 'float' else int(hi)}")
    return val


def _parse_token(tok: str, kind: str, text: str):
    table = MCTS_TOKENS if kind == "MCTS" else AB_TOKENS if kind == "alphabeta" else {}
    low = tok
    if tok == "PB":
        low = "pb"
    m = _TOKEN_RE.match(low)
    if m and m.group(1) in table:
        name, raw = m.group(1), m.group(2)
        spec = table[name]
        if raw is None:
            if spec.kind == "flag":
                return spec.field, spec.bare
            if spec.bare is None:
                raise SpecError(f"token {tok!r} in {text!r} needs a number (e.g. {name}{_example(name)})")
            return spec.field, spec.bare
        if spec.kind == "flag":
            raise SpecError(f"token {tok!r} in {text!r} takes no number")
        val = _number(raw, spec.kind, spec.low, spec.high, tok, text)
        if spec.field == "exp1":
            return "exp1", True
        return spec.field, val
    valid = sorted(table) + ["ef…", "key=value"] if table else ["ef…", "key=value"]
    raise SpecError(f"unknown token {tok!r} in {text!r} for {DISPLAY_KIND[kind]}; valid tokens: "
                    f"{', '.join(valid)}")


def _example(name: str) -> str:
    return {"fet": "20", "det": "0.5", "ege": "0.1", "im": "0.4", "mb": "1000", "cb": "0.4",
            "pbim": "0.4", "rave": "300", "pu": "3", "df": "5", "d": "4", "sl": "1000"}.get(name, "1")


def _set(opts: dict, name: str, val, tok: str, text: str) -> None:
    if name in opts and opts[name] != val:
        raise SpecError(f"token {tok!r} in {text!r} conflicts with an earlier {name} option")
    opts[name] = val


def describe_tokens(game: str | None = None) -> list[tuple[str, str]]:
    """(token, meaning) rows for `arena players`."""
    rows = [(("PB / pbW" if n == "pb" else "exp1" if n == "exp" else f"{n}X" if t.kind != "flag"
              else n), t.meaning)
            for n, t in MCTS_TOKENS.items()
            if game is None or _supports(game, t.field)]
    rows += [(f"{k}=V", meaning) for k, (_, _, _, _, meaning) in KEY_OPTIONS.items()]
    rows += [("dN (αβ)", AB_TOKENS["d"].meaning)]
    return rows
