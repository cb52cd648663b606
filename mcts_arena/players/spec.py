"""Player specs: `parse(text, game)` reads any player (built-in, `GTP(...)`, `py(...)`) for a game
into a frozen, picklable spec with one canonical string.

Built-in kinds (`MCTS(bl,im0.4)`, `MCTS(efLH,bl',im0.6)`, `αβ(efMS)`): tokens are paper labels
and `key=value` options (players/options.py, the option table), evaluation functions (`efMS`)
and macros (`bl`, `bl'`/`blp`: data each game declares in `GameInfo.macros`; a config may add
its own). The canonical string lists only the options that differ from the kind's defaults for
the game, in the table's order, so two spellings of one player (`MCTS(im0.4,bl)`,
`MCTS(efMS,ipp,ege0.1,det0.5,im0.4)`, `MCTS(bl,im0.4)`) print the same.

External kinds (docs/engines.md):

    GTP(cmd="./my_engine --level 3", name=mine, timeout=120, time=2)
    py(mypackage.players:MyPlayer, depth=3, name=proto)
    py(examples/example_player.py:WinFirst, name=winfirst)

GTP keys: `cmd` (required: the engine's command line, split like a shell would, never run by a
shell; `{seed}`, `{sims}`, `{time}`, `{game}` are filled in per game), `name` (what reports
call the player; default the command), `timeout` (seconds one move may take under a simulation
budget, default 60), `time=`/`sims=` (this seat's own budget), `clock=` (its own game clock,
with a `sims=` beside it a cap per move). py: the first argument is `module:Class`
(importable, or a `path/to/file.py`); `name`, `time=`, `sims=`, `clock=` as above; every
other `key=value` goes to the class's constructor (numbers as numbers, `true`/`false` as
booleans, anything else as a string); the class is loaded (and its constructor checked) when
the spec is parsed.

The syntax of all of it is players/notation.py; every mistake is a SpecError naming the token.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from mcts_arena import budgets, games, inputs
from mcts_arena.budgets import Budget
from mcts_arena.errors import SpecError, UserError
from mcts_arena.games import evalfile, netfile
from mcts_arena.games.info import CAPABILITIES, KNOWLEDGE_OPTIONS
from mcts_arena.players import kinds as kind_table
from mcts_arena.players import notation
from mcts_arena.players.kinds import BY_NAME
from mcts_arena.players.notation import number
from mcts_arena.players.options import (
    BY_FIELD,
    EXCLUSIVE,
    OPTIONS,
    RULES,
    STAR,
    Option,
    keys_of,
    tokens_of,
    write,
)

__all__ = ["ExternalSpec", "PlayerSpec", "SpecError", "default_c", "default_eval",
           "describe_tokens", "macros_of", "parse"]

GTP_KEYS = ("cmd", "name", "timeout", "time", "sims", "clock")
PLACEHOLDERS = ("seed", "sims", "time", "game")


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


# ---- the specs ------------------------------------------------------------------------------
@dataclass(frozen=True)
class PlayerSpec:
    """A parsed built-in player: kind, game, options that differ from the defaults, canonical
    string."""

    kind: str               # MCTS, alphabeta, Random, Greedy, FlatMC, expectimax, Star1/2, MCMS
    game: str
    options: tuple = ()             # sorted ((name, value), ...) of non-default options
    evalfn: str = ""                # evaluation function name (game default filled in)
    label: str = ""                 # the text as the user wrote it (whitespace normalised)
    budget: Budget | None = None    # the spec's own budget per move (time= / sims=), if any
    seed_salt: int = 0

    def get(self, name: str, default=None):
        for k, v in self.options:
            if k == name:
                return v
        return default

    @property
    def canonical(self) -> str:
        """One string per distinct player: macros contracted, options in the table's order."""
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
        evaluation = BY_NAME[self.kind].evaluation
        show_eval = evaluation == "shown" or (
            evalfn and evalfn != default_eval(self.game) and evaluation != "none")
        if show_eval and evalfn:
            parts.insert(0, evalfn)
        parts += [write(o, opts[o.field]) for o in OPTIONS if o.field in opts]
        parts += _budget_parts(self.budget)
        if self.seed_salt:
            parts.append(f"seed={self.seed_salt}")
        name = BY_NAME[self.kind].display
        return f"{name}({','.join(parts)})" if parts else name

    def __str__(self) -> str:
        return self.canonical


@dataclass(frozen=True)
class ExternalSpec:
    """A parsed `GTP(...)` or `py(...)` player (the same face as PlayerSpec)."""

    kind: str                   # "GTP", "py" or "gameframe"
    game: str
    target: str                 # GTP: the command line; py: module:Class; gameframe: the label
    name: str = ""
    options: tuple = ()         # py: constructor keywords; GTP: (("timeout", s),) if given
    budget: Budget | None = None
    label: str = ""
    seed_salt: int = 0
    evalfn: str = ""

    def get(self, key: str, default=None):
        return dict(self.options).get(key, default)

    @property
    def display_name(self) -> str:
        """What reports call the player: its `name`, else the command (or module:Class; the
        authors' engine: gameframe(LABEL))."""
        if self.kind == "gameframe":
            return self.name or f"gameframe({self.target})"
        return self.name or self.target

    @property
    def canonical(self) -> str:
        quote = notation.quote
        if self.kind == "GTP":
            parts = [f"cmd={quote(self.target)}"]
            if self.name:
                parts.append(f"name={quote(self.name)}")
            if "timeout" in dict(self.options):
                parts.append(f"timeout={number(self.get('timeout'))}")
        elif self.kind == "gameframe":
            parts = [self.target]
            if self.name:
                parts.append(f"name={quote(self.name)}")
            if "timeout" in dict(self.options):
                parts.append(f"timeout={number(self.get('timeout'))}")
        else:
            parts = [self.target]
            parts += [f"{k}={_format_py_value(v)}" for k, v in self.options]
            if self.name:
                parts.append(f"name={quote(self.name)}")
        parts += _budget_parts(self.budget)
        return f"{self.kind}({','.join(parts)})"

    def __str__(self) -> str:
        return self.canonical


def _budget_parts(budget: Budget | None) -> list[str]:
    if budget is None:
        return []
    return [f"{k}={number(v)}" for k, v in budget.as_dict().items()]


# ---- parsing --------------------------------------------------------------------------------
_TOKEN_RE = re.compile(r"^([A-Za-z]+?)(\d+(?:\.\d*)?|\.\d+)?$")


def parse(text: str, game: str, macros: dict[str, str] | None = None
          ) -> PlayerSpec | ExternalSpec:
    """Parse a player specification for `game`; SpecError names the bad token."""
    try:
        game = games.resolve(game)
        info = game.info
    except ValueError as e:
        raise SpecError(str(e)) from None
    kind_text, args = notation.split(text)
    found = kind_table.kind_of(kind_text)
    if found is None:
        raise SpecError(f"unknown player kind {kind_text!r} in {text!r}; valid kinds: "
                        f"{kind_table.valid_kinds()}")
    kind = found.name
    _check_playable(found, game, text)
    if found.external:
        return _parse_external(kind, args, text, game)
    all_macros = dict(info.macros)
    all_macros.update(macros or {})
    tokens = _expand_macros(notation.tokens(args or "", text), all_macros, text)

    evalfn = ""
    opts: dict[str, object] = {}
    budget: dict[str, object] = {}
    clock: str | None = None
    seed_salt = 0
    given: dict[str, str] = {}      # role -> the token that gave it (budget, seed)
    valid_evals = list(info.evals)
    keys = keys_of(kind)
    # a network's policy gives every game node priors (PUCT's `puctp`, `np`)
    net = any(tok.startswith("nn=") for tok in tokens)
    for tok in tokens:
        if tok.startswith(("ef=", "nn=")) or (tok.startswith("ef") and "=" not in tok):
            evalfn = _evaluation(tok, evalfn, found, game, valid_evals, text)
            continue
        if "=" in tok:
            key, _, raw = tok.partition("=")
            key = key.strip()
            token = tokens_of(kind).get(key)
            if key in keys:
                o = keys[key]
                val = _clock(raw, tok, text) if o.type == "clock" else \
                    _number(raw.strip(), o, tok, text)
            elif token is not None and token.type != "flag":    # im=0.4 is the token im0.4
                o, val = _parse_token(f"{key}{raw.strip()}", kind, text)
            else:
                raise _unknown_key(kind, key, keys, text)
        else:
            o, val = _parse_token(tok, kind, text)
        if o.role in ("budget", "seed", "clock"):
            # one budget, one clock and one seed per spec: a second is refused, never
            # last-one-wins (mcts_arena.inputs.once is the same rule for keys)
            name = {"budget": "budget (time=, sims= or effort=)"}.get(o.role, o.role)
            if o.role in given:
                raise SpecError(f"{name} given twice in {text!r} ({given[o.role]!r} and "
                                f"{tok!r}); give it once")
            given[o.role] = tok
            if o.role == "budget":
                budget = {o.field: val}
            elif o.role == "clock":
                clock = val
            else:
                seed_salt = int(val)
        else:
            _check_game(o.field, tok, game, text, net)
            _set(opts, o.field, val, tok, text)

    if found.evaluation != "none" and not evalfn:
        evalfn = info.default_eval
    if found.evaluation == "none":
        evalfn = ""
    _settle(kind, opts, info, text)
    return PlayerSpec(kind=kind, game=game, options=tuple(sorted(opts.items())), evalfn=evalfn,
                      label=" ".join(text.split()), budget=_own_budget(budget, clock, text),
                      seed_salt=seed_salt)


def _evaluation(tok: str, evalfn: str, kind: kind_table.Kind, game: games.Game,
                valid: list[str], text: str) -> str:
    """The spec's evaluation after its token `tok`, given the one so far (`evalfn`): a game's
    named one (efMS), or a fitted file's (`ef=PATH`, canonical `ef=PATH@DIGEST`:
    games/evalfile.py) or a network's (`nn=PATH@DIGEST`: games/netfile.py, its value the
    evaluation and its policy the node priors), which replaces the game's, also one a macro
    names (MCTS(bl,ef=F) is bl's playouts on F's evaluation). Two different ones of the same
    sort are refused."""
    if tok.startswith(("ef=", "nn=")):
        if kind.evaluation == "none":
            raise SpecError(f"{kind.display} in {text!r} uses no evaluation: {tok[:3]} does "
                            f"not apply")
        try:
            tok = (netfile if tok.startswith("nn=") else evalfile).parse_token(
                tok[3:].strip(), game)
        except UserError as e:
            raise SpecError(f"{e} (in {text!r})") from None
        if evalfile.is_file_eval(evalfn) and evalfn != tok:
            raise SpecError(f"conflicting evaluations {evalfn!r} and {tok!r} in {text!r}")
        return tok
    if valid and tok not in valid:
        raise SpecError(f"unknown evaluation {tok!r} in {text!r} for {game}; valid: "
                        f"{', '.join(valid)}")
    if evalfile.is_file_eval(evalfn):
        return evalfn
    if evalfn and evalfn != tok:
        raise SpecError(f"conflicting evaluations {evalfn!r} and {tok!r} in {text!r}")
    return tok


def _unknown_key(kind: str, key: str, keys: dict, text: str) -> SpecError:
    """The error for a `key=value` the kind does not take (`clock=` on one that cannot keep a
    clock says why)."""
    if key == "clock":
        return SpecError(f"{BY_NAME[kind].display} in {text!r} manages no time, so it keeps "
                         f"no clock of its own: clock= is for the searching kinds and the "
                         f"outside engines")
    return SpecError(f"unknown option {key!r} in {text!r} for {BY_NAME[kind].display}; valid: "
                     f"{', '.join(sorted(keys)) or 'none'}, or a token's number as key=value "
                     f"(im=0.4)")


def _budget_value(key: str, value: str, text: str):
    """An outside player's own `time=`, `sims=` or `clock=` value."""
    if key == "clock":
        return _clock(value, f"{key}={value}", text)
    return _number(value, BY_FIELD[key], f"{key}={value}", text)


def _clock(raw: str, tok: str, text: str) -> str:
    """A player's own clock (`clock=10+0.1`) in its one text form; SpecError for a malformed
    one, or `inf`, which would take the player off every clock."""
    if raw.strip() == budgets.NO_CLOCK:
        raise SpecError(f"clock=inf in {text!r}: a player's own clock sets a time limit; for a "
                        f"side without one give it a budget per move (time= or sims=) in a "
                        f"config without a clock, or the match entry's clock: {{player: inf}}")
    try:
        return budgets.parse_clock(raw.strip()).text()
    except ValueError as e:
        raise SpecError(f"bad clock in {tok!r} of {text!r}: {e}") from None


def _own_budget(budget: dict, clock: str | None, text: str) -> Budget | None:
    """A spec's own budget: its time=, sims= or effort=, or its own clock (a sims= beside it
    a cap per move); a fixed time or effort per move beside a clock is refused."""
    if clock is None:
        return Budget.of(budget)
    if "sims" not in budget and budget:
        key = next(iter(budget))
        raise SpecError(f"clock={clock} and {key}= in {text!r} contradict: the clock decides "
                        f"each move's time; give the clock alone, or with sims= (a cap per "
                        f"move)")
    return Budget(clock=clock, sims=budget.get("sims"))


def _settle(kind: str, opts: dict, info, text: str) -> None:
    """The options of a parsed spec as its canonical form keeps them (defaults left out), and
    the combinations refused."""
    if kind == "MCTS" and "C" in opts and opts["C"] == info.default_c:
        del opts["C"]              # the game's own constant is no option
    for name in [k for k, v in opts.items() if BY_FIELD[k].off is not None
                 and v == BY_FIELD[k].off]:
        del opts[name]             # on by default (tt=1, hh=1)
    if "msv" in opts and "ms" not in opts:
        raise SpecError(f"msv in {text!r} is MCTS-MS's visit threshold: add ms=N (its depth)")
    if "v0q" in opts and not {"im", "cb", "pbim", "ima", "imas"} & set(opts):
        raise SpecError(f"v0q in {text!r} sets the initial values v0(s) that im, ima, imas, cb "
                        f"and pbim blend in: add one of them (e.g. im0.4)")
    if ("npk" in opts or "npb" in opts) and "np" not in opts:
        raise SpecError(f"npk/npb in {text!r} shape node priors: add np (e.g. np10)")
    if "open_loop" in opts:
        _check_open_loop(opts, text)
    if "gumbel" in opts:
        _check_gumbel(opts, text)
    elif "cvisit" in opts or "cscale" in opts:
        raise SpecError(f"cvisit/cscale in {text!r} shape the Gumbel root's sigma(q): add "
                        f"gumbel (e.g. gumbel16)")
    for rule, replaced in RULES.items():
        for name in (k for k in replaced if rule in opts and k in opts):
            raise SpecError(f"tokens {BY_FIELD[rule].token} and {BY_FIELD[name].token} in "
                            f"{text!r} cannot be combined (two uses of the child's prior "
                            "or of the selection rule)")
    for exclusive in EXCLUSIVE:
        present = [k for k in exclusive if k in opts]
        if len(present) > 1:
            raise SpecError(f"options {' and '.join(present)} in {text!r} cannot be combined "
                            "(each is a different use of the evaluation in selection)")


#: What each option open-loop MCTS refuses would need: a node that is one position.
OPEN_LOOP_REFUSES = {"exp1": "its children come as the dice allow, not one per simulation",
                     "pu": "its children come as the dice allow, not in a heuristic order",
                     "rave": "its availability counts take RAVE's place in a node",
                     "imas": "its selection has no per-simulation α of each side",
                     "mb": "the best child's mean would count moves the dice did not allow",
                     "puct": "its children come as the dice allow: no prior sums to 1 over them",
                     "puctp": "its children come as the dice allow: no prior sums to 1 over "
                              "them",
                     "tuned": "its exploration term counts a move's availability, and UCB1-Tuned's "
                              "is written for the parent's visits",
                     "gumbel": "its root's moves come as the dice allow: no fixed set to halve"}

#: What each option the Gumbel root refuses would break: its schedule counts each root move's
#: real visits over a fixed set of moves.
GUMBEL_REFUSES = {"exp1": "its Sequential Halving starts from every root move, not one more "
                          "per simulation",
                  "np": "node priors' virtual visits would count in its schedule (its logits "
                        "take the game's priors already)",
                  "stop": "its schedule spends the whole budget: the most-visited move is not "
                          "its choice"}


def _check_gumbel(opts: dict, text: str) -> None:
    """Refuse, in one line, the Gumbel root beside an option that breaks its schedule."""
    for name, why in GUMBEL_REFUSES.items():
        if name in opts:
            o = BY_FIELD[name]
            raise SpecError(f"token 'gumbel' in {text!r} cannot be combined with "
                            f"{o.token or o.field}: {why}")


def _check_open_loop(opts: dict, text: str) -> None:
    """Refuse, in one line, open-loop MCTS beside an option that needs a node to be one
    position (a game without chance nodes is refused when the token is read)."""
    for name, why in OPEN_LOOP_REFUSES.items():
        if name in opts:
            raise SpecError(f"token 'ol' in {text!r} cannot be combined with "
                            f"{BY_FIELD[name].label or BY_FIELD[name].token}: {why}")


def _check_playable(kind: kind_table.Kind, game: games.Game, text: str) -> None:
    """Refuse, in one line, a player kind that cannot play this game: one without chance nodes
    on a game with dice, one needing a capability the game lacks (kinds.py `Kind.needs`)."""
    info = game.info
    if info.has_chance and not kind.plays_chance:
        raise SpecError(f"{' '.join(text.split())} cannot play {game}, a game with dice: "
                        f"{kind.no_chance}; {kind_table.listed(kind_table.playing(info))} can")
    if kind.needs is not None and not info.has(kind.needs):
        have = [g for g in games.names() if games.info_of(g).has(kind.needs)]
        raise SpecError(f"{kind.display} plays {', '.join(have) or 'no game'}, not {game}: it "
                        f"needs a game that {CAPABILITIES[kind.needs]}")
    if kind.name == "gnubg":
        from mcts_arena.players.gnubg_player import gnubg_path

        gnubg_path()        # not installed: one line now, not an error game per game
    if kind.needs == "exact_solution":
        try:
            info.exact_solver(dict(game.params), check=True)
        except ValueError as e:
            raise SpecError(f"{kind.display} cannot play {game}: {e}") from None


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
    """Does `game` have the knowledge option `field` needs (Option.needs)?"""
    needs = BY_FIELD[field].needs if field in BY_FIELD else None
    needs = needs or (field if field in KNOWLEDGE_OPTIONS else None)
    if needs == "chance":
        return games.info_of(game).has_chance
    if needs == "no_chance":
        return not games.info_of(game).has_chance
    return needs is None or needs in games.info_of(game).options


def _check_game(field: str, tok: str, game: str, text: str, net: bool = False) -> None:
    if net and BY_FIELD[field].needs == "np":
        return                  # the network's policy gives the node priors (games/network.pyx)
    if not _supports(game, field) and BY_FIELD[field].needs == "chance":
        have = sorted(g for g in games.names() if games.info_of(g).has_chance)
        raise SpecError(f"token {tok!r} in {text!r} does not apply to {game}: it has no chance "
                        f"nodes (only {', '.join(have)} have; there closed-loop MCTS is the "
                        "same search)")
    if not _supports(game, field) and BY_FIELD[field].needs == "no_chance":
        raise SpecError(f"token {tok!r} in {text!r} does not apply to {game}: a win/loss "
                        f"minimax searches games without chance nodes")
    if not _supports(game, field):
        have = sorted(g for g in games.names() if _supports(g, field))
        raise SpecError(f"token {tok!r} in {text!r} does not apply to {game} (it needs game "
                        f"knowledge only {', '.join(have) or 'no registered game'} has)")


def _expand_macros(tokens: list[str], macros: dict[str, str], text: str,
                   depth: int = 0) -> list[str]:
    if depth > 8:
        raise SpecError(f"macros nest too deeply in {text!r}")
    out = []
    for tok in tokens:
        key = "bl'" if tok == "blp" else tok
        key = key.replace("’", "'")
        if key in macros:
            out.extend(_expand_macros(notation.tokens(macros[key], text), macros, text,
                                      depth + 1))
        else:
            out.append(tok)
    return out


def _number(raw: str, o: Option, tok: str, text: str):
    typ, lo, hi = o.type, o.low, o.high
    try:
        val = int(raw) if typ == "int" else float(raw)
    except ValueError:
        raise SpecError(f"bad number in token {tok!r} of {text!r}: expected "
                        f"{'an integer' if typ == 'int' else 'a number'}") from None
    if not (lo <= val <= hi):
        raise SpecError(f"value out of range in token {tok!r} of {text!r}: expected "
                        f"{number(lo) if typ == 'float' else int(lo)} to "
                        f"{number(hi) if typ == 'float' else int(hi)}")
    return val


def _parse_token(tok: str, kind: str, text: str) -> tuple[Option, object]:
    table = tokens_of(kind)
    aliases = {o.alias: o for o in table.values() if o.alias}
    if tok in aliases:
        return aliases[tok], aliases[tok].bare
    m = _TOKEN_RE.match(tok)
    if m and m.group(1) in table:
        name, raw = m.group(1), m.group(2)
        o = table[name]
        if raw is None:
            if o.type != "flag" and o.bare is None:
                raise SpecError(f"token {tok!r} in {text!r} needs a number (e.g. "
                                f"{name}{o.example})")
            return o, o.bare
        if o.type == "flag":
            raise SpecError(f"token {tok!r} in {text!r} takes no number")
        val = _number(raw, o, tok, text)
        return o, (o.fixed if o.fixed is not None else val)
    valid = sorted(table) + ["ef…", "key=value"] if table else ["ef…", "key=value"]
    raise SpecError(f"unknown token {tok!r} in {text!r} for {BY_NAME[kind].display}; valid tokens: "
                    f"{', '.join(valid)}")


def _set(opts: dict, name: str, val, tok: str, text: str) -> None:
    if name in opts and opts[name] != val:
        raise SpecError(f"token {tok!r} in {text!r} conflicts with an earlier {name} option")
    opts[name] = val


def describe_tokens(game: str | None = None) -> list[tuple[str, str]]:
    """(token, meaning) rows for `arena players`: MCTS's paper tokens, every key=value option,
    then αβ's tokens; for a `game`, only those it accepts (an option needing knowledge the game
    lacks is left out). A value's placeholder is the letter its meaning uses (fetX, egeε)."""
    def label(o: Option) -> str:
        return o.label or (o.token if o.type == "flag" else f"{o.token}{o.symbol}")
    able = playing_kinds(game)

    def ok(o: Option, kinds=None) -> bool:
        return (game is None or _supports(game, o.field)) and bool((kinds or o.kinds) & able)
    rows = [(label(o), o.meaning) for o in tokens_of("MCTS").values()
            if ok(o, frozenset({"MCTS"}))]
    rows += [(f"{o.field}={o.symbol}", o.key_meaning or o.meaning) for o in OPTIONS
             if o.key and ok(o)]
    if game is None or evalfile.feature_names(game):
        rows.append(("ef=FILE", "the evaluation fitted into FILE (`arena fit`) in place of "
                                "the game's: MCTS, αβ, Greedy, *-minimax"))
    if game is None or _has_net(game):
        rows.append(("nn=FILE", "the value and policy network in FILE (`arena train`): its "
                                "value the evaluation (fet0: leaves by the value), its policy "
                                "the node priors (puctp, np)"))
    rows += [(f"{label(o)} (αβ)", o.meaning) for o in tokens_of("alphabeta").values()
             if ok(o, frozenset({"alphabeta"}))]
    rows += [(f"{label(o)} ({'MCMS' if o.kinds <= {'MCMS'} else '*-minimax'})", o.meaning)
             for o in tokens_of("MCMS").values()
             if ok(o, STAR) and not ("alphabeta" in o.kinds and "alphabeta" in able)]
    listed = {o.field for k in ("MCTS", "alphabeta", "MCMS") for o in tokens_of(k).values()}
    for kind in kind_table.KINDS:          # a registered kind's own tokens, under its heading
        own = [o for o in tokens_of(kind.name).values()
               if o.field not in listed and ok(o, frozenset({kind.name}))]
        rows += [(f"{label(o)} ({kind.tokens_heading or kind.display})", o.meaning) for o in own]
        listed |= {o.field for o in own}
    return rows


def _has_net(game: str) -> bool:
    try:
        netfile.net_input(game)
    except UserError:
        return False
    return True


def playing_kinds(game: str | None = None) -> frozenset:
    """The player kinds that can play `game` (all of them without a game): a game with dice
    leaves out the searches without chance nodes, and a kind needing a capability (gnubg,
    PigOptimal) plays only the games that have it (players/kinds.py)."""
    info = None if game is None else games.info_of(game)
    return frozenset(k.name for k in kind_table.playing(info))


# ---- external players -----------------------------------------------------------------------
def _py_value(value: str, quoted: bool):
    if quoted:
        return value
    low = value.lower()
    if low in ("true", "false"):
        return low == "true"
    for conv in (int, float):
        try:
            return conv(value)
        except ValueError:
            pass
    return value


def _format_py_value(v) -> str:
    if isinstance(v, (bool, int, float)):
        return number(v)
    s = str(v)
    # a string that looks like a number or a boolean is quoted, so it stays a string
    return notation.quote(s, always=_py_value(s, False) != s)


def _parse_external(kind: str, args: str | None, text: str, game: str) -> ExternalSpec:
    """The inside of `GTP(...)` / `py(...)`; SpecError names the problem."""
    items = notation.items(args or "", text)
    # a key given twice is refused (GTP(cmd=a,cmd=b)); time= and sims= are one budget
    try:
        inputs.once(("time/sims" if k in ("time", "sims") else k for k, _v, _q in items
                     if k is not None), repr(text))
    except inputs.InputError as e:
        raise SpecError(str(e)) from None
    budget: dict = {}
    name = ""
    label = " ".join(text.split())

    if kind == "GTP":
        cmd, opts = None, {}
        for key, value, _quoted in items:
            if key is None:
                raise SpecError(f"GTP player {text!r}: expected key=value, got {value!r}; "
                                'write GTP(cmd="./engine --args", name=mine)')
            if key not in GTP_KEYS:
                raise SpecError(f"unknown option {key!r} in {text!r} for GTP; valid: "
                                f"{', '.join(GTP_KEYS)}")
            if key == "cmd":
                cmd = value
            elif key == "name":
                name = value
            elif key == "timeout":
                t = _number(value, Option("timeout", "float", 0.001, 1e6, ""),
                            f"timeout={value}", text)
                opts["timeout"] = float(t)
            else:
                budget[key] = _budget_value(key, value, text)
        if cmd is None or not cmd.strip():
            raise SpecError(f'GTP player {text!r} needs cmd="..." (the engine\'s command line)')
        try:
            argv = shlex.split(cmd)
        except ValueError as e:
            raise SpecError(f"GTP player {text!r}: bad command line: {e}") from None
        if not argv:
            raise SpecError(f'GTP player {text!r} needs cmd="..." (the engine\'s command line)')
        for field in re.findall(r"\{([^{}]*)\}", cmd):
            if field not in PLACEHOLDERS:
                raise SpecError(f"GTP player {text!r}: unknown placeholder {{{field}}} in cmd; "
                                f"valid: {', '.join('{' + p + '}' for p in PLACEHOLDERS)}")
        return ExternalSpec("GTP", game, cmd.strip(), name, tuple(sorted(opts.items())),
                            _own_budget(budget, budget.pop("clock", None), text), label)

    if kind == "gameframe":
        return _parse_gameframe(items, text, game, label)

    # py(module:Class, ...)
    if not items or items[0][0] is not None:
        raise SpecError(f"py player {text!r}: the first argument must be module:Class, "
                        "e.g. py(mypackage.players:MyPlayer)")
    target = items[0][1].strip()
    if ":" not in target or not target.rpartition(":")[2]:
        raise SpecError(f"py player {text!r}: expected module:Class, got {target!r}")
    kwargs = {}
    for key, value, quoted in items[1:]:
        if key is None:
            raise SpecError(f"py player {text!r}: expected key=value after module:Class, "
                            f"got {value!r}")
        if key == "name":
            name = value
        elif key in ("time", "sims", "clock"):
            budget[key] = _budget_value(key, value, text)
        elif key in ("seed", "game"):
            raise SpecError(f"py player {text!r}: {key!r} is given by the runner (the "
                            "constructor receives it); choose another keyword")
        else:
            if key in kwargs:
                raise SpecError(f"py player {text!r}: {key!r} given twice")
            kwargs[key] = _py_value(value, quoted)
    spec = ExternalSpec("py", game, target, name, tuple(sorted(kwargs.items())),
                        _own_budget(budget, budget.pop("clock", None), text), label)
    from mcts_arena.players.python_player import check_class

    check_class(spec)           # an unknown module or class is a start-up error
    return spec


def _parse_gameframe(items, text: str, game, label: str) -> ExternalSpec:
    """The inside of `gameframe(LABEL, name=..., time=S | sims=N, timeout=S)`."""
    from mcts_arena.players import gameframe

    if not items or items[0][0] is not None:
        raise SpecError(f"gameframe player {text!r}: the first argument must be the engine's "
                        "label, e.g. gameframe(ab_tt_ev1)")
    target = items[0][1].strip()
    gameframe.check_spec(target, game, text)
    name, budget, opts = "", {}, {}
    for key, value, _quoted in items[1:]:
        if key is None:
            raise SpecError(f"gameframe player {text!r}: expected key=value after the label, "
                            f"got {value!r}")
        if key == "name":
            name = value
        elif key in ("time", "sims", "clock"):
            budget[key] = _budget_value(key, value, text)
        elif key == "timeout":
            opts["timeout"] = float(_number(value, Option("timeout", "float", 0.001, 1e6, ""),
                                            f"timeout={value}", text))
        else:
            raise SpecError(f"unknown option {key!r} in {text!r} for gameframe; valid: name, "
                            "time, sims, clock, timeout")
    return ExternalSpec("gameframe", game, target, name, tuple(sorted(opts.items())),
                        _own_budget(budget, budget.pop("clock", None), text), label)
