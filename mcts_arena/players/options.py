"""The player options: one table, `OPTIONS`, one entry per option a built-in player takes.

An entry says how the option is written (its paper token, e.g. `fet` in `fet20`, and/or
`key=value`), what it means (the line `arena players` prints), its type and range, which player
kinds take it, how a canonical spec writes it, and which option of the search it sets
(`engine`: the key of `MCTSSearch`'s option dict, players/search/mcts.pyx). The parser
(players/spec.py), the canonical strings, `arena players` and the MCTS player's engine options
(players/builtin.py) all read this table.

Adding an MCTS option is one entry here plus the search code (a field of `Opts` in mcts.pyx,
read in `MCTSSearch.__init__`, and what it does): for example

    Option("foo", "int", 1, 100, "what foo does", token="foo", engine="foo", example="10"),

makes `MCTS(foo10)` parse (range checked, errors naming the token), print canonically as
`foo10` in the table's place, appear in `arena players`, and reach the search as
`options["foo"] = 10`.

The table's order is the canonical order: a canonical spec lists its options in it (so the order
of entries is part of every stored pairing id and must not change for existing options; add new
ones where they read best).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from mcts_arena import budgets
from mcts_arena.players import kinds as kind_table
from mcts_arena.players.adaptive import ARMS
from mcts_arena.players.kinds import KINDS
from mcts_arena.players.notation import number

MCTS = frozenset({"MCTS"})
#: The *-minimax kinds (players/search/expectimax.pyx): games with chance nodes.
STAR = frozenset({"expectimax", "Star1", "Star2", "MCMS"})


def _every(attribute: str) -> frozenset:
    return frozenset(k.name for k in KINDS if getattr(k, attribute))


#: The kinds that search under a budget (players/kinds.py `counts`): time=, sims=, tm=.
SEARCHING = _every("searches")
#: The kinds with an effort unit (players/kinds.py): `effort=` has an engine rate to use.
EFFORT = _every("unit")
#: The kinds that take a seed salt.
SEEDED = _every("seeded")


@dataclass(frozen=True)
class Option:
    """One player option (see the module docstring)."""

    field: str                  # the name a parsed spec keeps it under (PlayerSpec.options)
    type: str                   # "flag", "int", "float" or "clock" (a time control's text)
    low: float
    high: float
    meaning: str
    kinds: frozenset = MCTS     # the player kinds that take it
    token: str | None = None    # the paper's label (`fet` in fet20); None: written key=value only
    token_kinds: frozenset | None = None    # kinds that take the token, if fewer than `kinds`
    key: bool = False           # also written `field=value` (key_meaning: its `arena players` line)
    key_meaning: str = ""
    bare: object = None         # the value of the token written without a number (None: needed)
    fixed: object = None        # the value whatever number the token carries (exp1 -> True)
    alias: str | None = None    # an exact token that means the bare token (PB for pb)
    short: str | None = None    # how a canonical spec writes the bare value (np, PB)
    written: str = "token"      # canonical form: token (fet20), key (C=0.8), flag (fa), value (ipp)
    label: str | None = None    # its `arena players` label (default: token and symbol, fetX)
    example: str = "1"          # a number for "needs a number (e.g. fet20)"
    engine: str | None = None   # the search option it sets (see players/builtin.py); None: none
    #: "option"; "budget" (time, sims); "clock" (the player's own clock); "seed" (its salt)
    role: str = "option"
    off: object = None          # a value that is the kind's default, left out of the spec (tt=1)
    #: the placeholder of the value in `arena players` (fetX, egeε, np=N), the letter its
    #: meaning uses for it
    symbol: str = "X"
    #: the game knowledge it needs (games/info.py KNOWLEDGE_OPTIONS; "chance": chance nodes): a
    #: game without it refuses the option and `arena players GAME` does not list it
    needs: str | None = None
    #: the Kind attribute that brings a kind this option ("searches", "unit", "seeded"): every
    #: kind with it takes it, a registered one too (register_kind)
    every: str | None = None


OPTIONS: list[Option] = [
    Option("open_loop", "flag", 0, 0, "open loop (games of dice): a tree over the players' "
           "moves only, the dice sampled afresh each simulation", token="ol", bare=True,
           written="flag", engine="open_loop", needs="chance"),
    Option("policy", "flag", 0, 0, "improved (game-specific) playout policy", token="ipp",
           bare="ipp", written="value", engine="policy", needs="policy"),
    Option("fet", "int", 0, 10**6, "fixed early termination: X playout moves, then v0(s)",
           token="fet", example="20", engine="fet"),
    Option("det", "float", 0, 1, "dynamic early termination: stop when |v0(s)| >= X",
           token="det", example="0.5", engine="det"),
    Option("df", "int", 1, 10**6, "check the det condition after every N playout moves "
           "(default 5)", token="df", example="5", engine="df", symbol="N"),
    Option("ege", "float", 0, 1, "ε-greedy playouts: a random move with probability ε, else "
           "the best successor", token="ege", example="0.1", engine="ege", symbol="ε"),
    Option("np", "int", 0, 10**6, "node priors with N virtual visits (bare np: 10 per second "
           "of budget)", token="np", key=True, key_meaning="node priors with N virtual visits",
           bare=0, short="np", label="np / npN", symbol="N", needs="np"),
    # the player turns np into virtual visits per move (builtin.py)
    Option("npk", "float", 0.001, 100, "node priors as the sigmoid 1/(1+e^-(k v + b)) of the "
           "evaluation v after the move: k", key=True, written="key", engine="npk", symbol="k",
           needs="np"),
    Option("npb", "float", -100, 100, "the sigmoid prior's offset b (with npk)", key=True,
           written="key", engine="npb", symbol="b", needs="np"),
    Option("fa", "flag", 0, 0, "forced actions: play the game's urgent move at once, without "
           "search", token="fa", bare=True, written="flag", engine="fa"),
    Option("mb", "int", 0, 10**9, "max backpropagation once a node has T visits", token="mb",
           example="1000", engine="mb", symbol="T"),
    Option("pb", "float", 0, 10**6, "progressive bias W*H(s,a)/(n+1) (PB = weight 1)",
           token="pb", bare=1.0, alias="PB", short="PB", label="PB / pbW", engine="pb",
           symbol="W"),
    Option("im", "float", 0, 1, "implicit minimax backups with weight α", token="im",
           example="0.4", engine="sel", symbol="α"),
    Option("cb", "float", 0, 1, "control: constant bias (1-α)Q + α v0(child), no backups",
           token="cb", example="0.4", engine="sel", symbol="α"),
    Option("pbim", "float", 0, 1, "control: progressive bias of implicit values α v/(n+1)",
           token="pbim", example="0.4", engine="sel", symbol="α"),
    Option("ima", "flag", 0, 0, "implicit minimax with α adapted online within a game: "
           f"before each move UCB1 picks α from {', '.join(map(number, ARMS))}, each choice "
           "rewarded by how the side's next search valued it (the change of its root value)",
           token="ima", bare=True, written="flag", engine="adapt_alpha"),
    Option("imas", "flag", 0, 0, "implicit minimax with α adapted per simulation: before each "
           f"simulation each side's UCB1 picks α from {', '.join(map(number, ARMS))} for the "
           "nodes where it moves, rewarded by the simulation's result for that side; afresh "
           "each search", token="imas", bare=True, written="flag", engine="adapt_alpha_sims"),
    Option("v0q", "int", 1, 16, "v0(s), the initial value im, ima, imas, cb and pbim blend in, "
           "by a quiescence search over the game's tactical moves (captures, wins at once), at "
           "most N plies, instead of the static evaluation", key=True, written="key", engine="v0q",
           symbol="N", needs="tactical"),
    Option("ms", "int", 1, 6, "MCTS-MS (Baier & Winands 2013): a win/loss minimax N plies deep "
           "(no evaluation) at a node once it has msv visits; a win or loss it proves is the "
           "node's proof", key=True, written="key", engine="ms", symbol="N", needs="no_chance"),
    Option("msv", "int", 1, 10**6, "MCTS-MS's visit threshold: a node's minimax runs once it has "
           "N visits (with ms; default 1)", key=True, written="key", engine="msv", symbol="N",
           needs="no_chance"),
    Option("mib", "int", 1, 6, "MCTS-MB (Baier & Winands 2013): where the solver proves a "
           "child lost for its mover, a win/loss minimax N plies deep from the node above tries to "
           "prove that node at once", key=True, written="key", engine="mib", symbol="N",
           needs="no_chance"),
    Option("sfx", "flag", 0, 0, "the solver's sibling check (the authors' engine's "
           "solverFix): where the solver proves a child lost for its mover, each sibling not "
           "yet expanded nor proven is proven where the side to move after it wins or loses "
           "in one ply", token="sfx", bare=True, written="flag", engine="sfx",
           needs="no_chance"),
    Option("puct", "float", 0.001, 100, "PUCT selection: Q + c P(s,a) sqrt(n_s) / (1 + n), "
           "P uniform over the moves; unvisited moves at Q = 0", token="puct", example="1.5",
           engine="puct", symbol="c"),
    Option("puctp", "float", 0.001, 100, "PUCT selection with the game's node priors as P "
           "(normalised over the moves): Q + c P(s,a) sqrt(n_s) / (1 + n)", token="puctp",
           example="1.5", engine="puct_prior", symbol="c", needs="np"),
    Option("tuned", "flag", 0, 0, "UCB1-Tuned selection (Auer et al. 2002): UCT's exploration "
           "term sized by the spread of each move's rewards, C sqrt(ln n_s / n min(1, var + "
           "4 sqrt(2 ln n_s / n))) on rewards in [-1, 1] (C=1: Auer's formula)", token="tuned",
           bare=True, written="flag", engine="tuned"),
    Option("gumbel", "int", 2, 10**4, "Gumbel root (Danihelka et al. 2022): Sequential Halving "
           "over the M moves of highest g + log P (Gumbel noise g, P the game's node priors or "
           "uniform), ceil(log2 M) phases of the budget, the move played argmax g + log P + "
           "sigma(q) among the most visited; below the root the selection rule (bare gumbel: "
           "M = 16)", token="gumbel", bare=16, short="gumbel", label="gumbelM",
           example="16", engine="gumbel", symbol="M"),
    Option("cvisit", "float", 0, 10**6, "the Gumbel root's sigma(q) = (c_visit + max N) c_scale "
           "q, q rescaled to [0, 1]: c_visit (default 50)", key=True, written="key", off=50.0,
           engine="gumbel_cv", symbol="c"),
    Option("cscale", "float", 0.001, 1000, "the Gumbel root's c_scale in sigma(q) (default 1)",
           key=True, written="key", off=1.0, engine="gumbel_cs", symbol="c"),
    Option("rave", "int", 1, 10**9, "UCT-RAVE, β = max(0, (K - n_s) / K); untried moves "
           "ranked by AMAF (K above the sims per move)", token="rave", example="300",
           engine="rave", symbol="K"),
    Option("pu", "int", 1, 10**4, "progressive unpruning: start with K children by heuristic",
           token="pu", example="3", engine="pu", symbol="K"),
    Option("exp1", "int", 1, 1, "expand one child per simulation (memory-saving)",
           token="exp", fixed=True, written="flag", label="exp1", engine="exp1"),
    Option("abp", "int", 1, 8, "αβ playouts: each playout move by a depth-N search (bare "
           "abp: 2)", token="abp", bare=2, engine="abp", label="abp / abpN", symbol="N",
           needs="abp"),
    Option("abw", "int", 0, 256, "αβ playouts: N moves searched per node (default 8, 0 = all)",
           key=True, written="key", engine="abw", symbol="N", needs="abp"),
    Option("C", "float", 0, 100, "UCT exploration constant c", kinds=frozenset({"MCTS",
           "FlatMC"}), key=True, written="key", engine="C", symbol="c"),
    Option("depth", "int", 1, 64, "fixed search depth N (decisions; a chance node costs none)",
           kinds=frozenset({"alphabeta"}) | STAR, token="d", key=True,
           key_meaning="αβ, expectimax, Star1/2, MCMS: fixed depth N", label="dN", example="4",
           engine="depth", symbol="N"),
    Option("samples", "int", 1, 1000, "MCMS: N outcomes sampled (with replacement) at each "
           "chance node with more (default 5)", kinds=frozenset({"MCMS"}), token="c",
           key=True, key_meaning="MCMS: N outcomes sampled per chance node", label="cN",
           example="5", engine="samples", symbol="N"),
    Option("star", "int", 1, 2, "MCMS: the *-minimax under the sampling, 1|2 for Star1 or "
           "Star2 (default 2)", kinds=frozenset({"MCMS"}), key=True, written="key", off=2,
           engine="star", symbol="1|2"),
    Option("hh", "int", 0, 1, "αβ: history heuristic (1, default) or none (0, as the paper's "
           "αβ)", kinds=frozenset({"alphabeta"}), key=True, written="key", off=1,
           engine="use_history", symbol="0|1"),
    Option("tt", "int", 0, 1, "αβ, *-minimax: transposition table (1, default) or none (0, as "
           "the paper's αβ)", kinds=frozenset({"alphabeta"}) | STAR, key=True, written="key",
           off=1,
           engine="use_tt", symbol="0|1"),
    # The MIA-like αβ (docs/loa.md): each enhancement a switch, off by default (the αβ the
    # record's rows name); docs/loa.md has their measurements.
    Option("pvs", "int", 0, 1, "αβ: principal variation search (1: null windows after the "
           "first move) or none (0, default)", kinds=frozenset({"alphabeta"}), key=True,
           written="key", off=0, engine="pvs", symbol="0|1"),
    Option("qs", "int", 0, 16, "αβ: quiescence search over the game's tactical moves (LOA: "
           "captures), at most N plies (0, default: none)", kinds=frozenset({"alphabeta"}),
           key=True, written="key", off=0, engine="qs", symbol="N"),
    Option("nm", "int", 0, 1, "αβ: null-move pruning, R=2, where the game allows a pass (1; "
           "LOA: not with 4 pieces or fewer to move) or none (0, default)",
           kinds=frozenset({"alphabeta"}), key=True, written="key", off=0, engine="null",
           symbol="0|1"),
    Option("etc", "int", 0, 1, "αβ: enhanced transposition cutoffs (1, with tt) or none "
           "(0, default)", kinds=frozenset({"alphabeta"}), key=True, written="key", off=0,
           engine="etc", symbol="0|1"),
    Option("lmr", "int", 0, 1, "αβ: late move reductions, one ply from the 5th move on "
           "(1, with pvs) or none (0, default)", kinds=frozenset({"alphabeta"}), key=True,
           written="key", off=0, engine="lmr", symbol="0|1"),
    Option("plies", "int", 0, 2, "gnubg: chequer play evaluation at N plies (0: its neural net "
           "alone, the default)", kinds=frozenset({"gnubg"}), key=True, written="key", off=0,
           symbol="N"),
    # time management on a game clock (players/timing.py)
    Option("tm", "int", 0, 10**4, "on a clock: each move gets the time left / N + the "
           "increment (default 30; with moves per period, / the fewer of N and the moves to "
           "go); 0: no time management (the move's sims cap alone)", kinds=SEARCHING,
           key=True, written="key", off=30, symbol="N", every="searches"),
    Option("stop", "float", 0, 1, "STOP rule (Baier & Winands 2016) under a time budget or a "
           "clock: end the search once the most-visited move cannot be overtaken in f x the "
           "simulations still to come (0, default: off)", key=True, written="key", off=0,
           engine="stop", symbol="f"),
    Option("time", "float", budgets.TIME_MIN, budgets.TIME_MAX, "S seconds per move (overrides "
           "the experiment budget)", kinds=SEARCHING, key=True, role="budget", symbol="S",
           every="searches"),
    Option("sims", "int", 1, budgets.SIMS_MAX, "a fixed budget of N simulations per move (the "
           "paper's _sl)", kinds=SEARCHING, token="sl", token_kinds=MCTS, key=True,
           key_meaning="N simulations per move (MCTS, FlatMC) or nodes (αβ, *-minimax)",
           example="1000", role="budget", symbol="N", every="searches"),
    Option("effort", "float", budgets.TIME_MIN, budgets.TIME_MAX, "the search effort the "
           "paper's engine had in S seconds per move (simulations or nodes from its measured "
           "rate; overrides the experiment budget)", kinds=EFFORT,
           key=True, role="budget", symbol="S", every="unit"),
    Option("clock", "clock", 0, 0, "this player's own game clock TC (time odds), as "
           "cutechess-cli writes one: 10+0.1, 40/60, 0:30+0.1 (overrides the experiment's "
           "clock or budget; with sims= a cap per move)", kinds=SEARCHING, key=True,
           role="clock", symbol="TC", example="10+0.1", every="searches"),
    Option("seed", "int", 0, 2**63, "extra seed salt N for this player",
           kinds=SEEDED, key=True, role="seed", symbol="N", every="seeded"),
]

BY_FIELD: dict[str, Option] = {o.field: o for o in OPTIONS}


def register(option: Option) -> None:
    """Add an option (a plug-in kind's own), after every existing one: the canonical order of
    the existing options, part of every stored pairing id, stays."""
    if option.field in BY_FIELD or (option.token and any(o.token == option.token and
                                                         o.kinds & option.kinds
                                                         for o in OPTIONS)):
        raise ValueError(f"option {option.field}: taken")
    OPTIONS.append(option)
    BY_FIELD[option.field] = option


def register_kind(kind) -> None:
    """Add a player kind from outside the package (players.kinds.register) with the options
    every kind like it takes (`Option.every`: time=, sims= and tm= for one that searches,
    effort= for one with an effort unit, seed= for one that is seeded)."""
    kind_table.register(kind)
    for i, o in enumerate(OPTIONS):
        if o.every is not None and getattr(kind, o.every):
            OPTIONS[i] = BY_FIELD[o.field] = replace(o, kinds=o.kinds | {kind.name})
#: Options that exclude each other (each a different use of the evaluation in selection).
EXCLUSIVE = (("im", "cb", "pbim", "ima", "imas"),)
#: The selection rules other than UCT, and the options each cannot stand beside: the UCT
#: options whose place it takes (PUCT's prior lives where progressive bias and unpruning keep
#: their heuristic) and the other rules (UCB1-Tuned changes UCT's exploration term, which PUCT
#: does not have).
RULES = {"puct": ("pb", "pu", "puctp"), "puctp": ("pb", "pu"), "tuned": ("puct", "puctp")}


def tokens_of(kind: str) -> dict[str, Option]:
    """The paper tokens a kind takes: token -> option."""
    return {o.token: o for o in OPTIONS
            if o.token and kind in (o.token_kinds if o.token_kinds is not None else o.kinds)}


def keys_of(kind: str) -> dict[str, Option]:
    """The `key=value` options a kind takes: key -> option."""
    return {o.field: o for o in OPTIONS if o.key and kind in o.kinds}


def write(o: Option, value) -> str:
    """How a canonical spec writes option `o` at `value`."""
    if o.written == "value":
        return str(value)
    if o.written == "flag":
        return o.label or o.token
    if o.written == "key":
        return f"{o.field}={number(value)}"
    if o.short is not None and value == o.bare:
        return o.short
    return f"{o.token}{number(value)}"
