"""The one conformance harness: every registered game, and every parameter at its low and high
end, passes the same checks. A new game gets all of them by registering (and adding its perft
counts to tests/data/perft.json and its reference rules to tests/reference_games.py).

- perft from the start equals the data file, and the data file equals a second, deliberately
  simple generator (reference_games.py) up to the depth the file names;
- thousands of random plies with undo / hash / clone / text round trips at every ply;
- the fast `random_playout` against the generic generate/do loop (restores the state, same end
  conditions, same result distribution from the start with fixed seeds);
- evaluations in [-1, 1], ±1 / 0 for a finished game from the side to move's view (a game
  scoring gammons: its scaled score), 0 at a symmetric start; terminal, winner, reward and
  legal moves agree;
- games with chance nodes (dice): random games sample the dice by their probabilities, so
  every round trip above also passes through chance nodes; perft counts the dice as branches
  and a probability-weighted perft is checked against the reference too (from the start and
  from set positions in perft.json); a chance node's outcomes, probabilities and sampler
  agree; a deterministic game has no chance node anywhere;
- the drawing hook (`GameInfo.draw`, the board of `arena serve`'s game viewer): an SVG
  document for every position, one picture per position, the last move marked;
- every fast path a game or its knowledge overrides (the "fast paths" tiers of GameState and
  Knowledge in state.pxd; the overrides are read from the vtables, so a new game's are found
  without a new test) gives its default's answer on positions of seeded random games.
"""
from __future__ import annotations

import ctypes
import json
import math
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from mcts_arena.games.state import POLICY_IDS, RESULT_DRAW, RESULT_ONGOING, GameState, Knowledge
from reference_games import REFERENCE
from reference_games import perft as ref_perft
from reference_games import perft_weighted as ref_perft_weighted

from mcts_arena import games

PERFT = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())


def variants() -> list[str]:
    """Every registered game, and each parameter at its low and its high end."""
    out = []
    for name in games.names():
        out.append(name)
        for key, p in games.info_of(name).params.items():
            out += [f"{name}({key}={v})" for v in sorted({p.low, p.high} - {p.default})]
    return out


VARIANTS = variants()
#: The variants with the heaviest checks marked slow where a parameter is set (boards up to
#: 19 x 19): `make test-fast` checks every game at its defaults, `make test` every variant.
HEAVY = [pytest.param(g, marks=pytest.mark.slow) if "(" in g else g for g in VARIANTS]


def samples(game: str, at_default: int, with_a_parameter: int) -> int:
    """How many random games (or plies) a heavy check walks: the game at its defaults gets the
    full count; a variant with a parameter set (a board up to 19 x 19, where each position
    costs many times more) a smaller one, enough to meet its edges (board sides, rules the
    parameter switches) in many positions."""
    return at_default if "(" not in game else with_a_parameter


def random_move(s, rng: random.Random) -> int:
    """A uniformly random legal move, or at a chance node the dice drawn by probability."""
    if s.is_chance_node():
        return s.outcome_at(rng.random())
    return rng.choice(s.move_ids())


def random_game(game: str, seed: int, max_plies: int = 400):
    """The states along one uniformly random game (the same object, moved on)."""
    rng = random.Random(seed)
    s = games.new_state(game)
    yield s
    while not s.is_terminal() and s.ply < max_plies:
        s.play(random_move(s, rng))
        yield s


# ---- registry and declarations --------------------------------------------------------------

@pytest.mark.parametrize("game", VARIANTS)
def test_declaration_is_complete(game):
    info = games.info_of(game)
    assert games.canonical(game) == game
    assert info.name in games.names() and info.cls.name == info.name
    assert info.evals and info.default_eval in info.evals
    assert sorted(info.evals.values()) == list(range(1, len(info.evals) + 1)), \
        "evaluation ids are local to the game: 1..n (0 is the default)"
    assert info.default_opening in info.opening_kinds()
    for kind in info.opening_kinds()[2:]:
        text = info.openings[kind](games.parse(game)[1], 7, 3)
        s = games.new_state(game, text)
        assert not s.is_terminal() and s.to_text() == text
    for spec in info.bench_players:
        from mcts_arena import players
        players.parse(spec, game)
    for macro in info.macros:
        from mcts_arena import players
        players.parse(f"MCTS({macro})", game)


def test_bad_game_parameters_are_one_line_errors():
    name = next(n for n in games.names() if games.info_of(n).params)
    key, p = next(iter(games.info_of(name).params.items()))
    with pytest.raises(games.UnknownGameError, match=rf"^{name} parameter {key}={p.high + 1} "
                       rf"out of range: expected {p.low} to {p.high}$"):
        games.new_state(f"{name}({key}={p.high + 1})")
    with pytest.raises(games.UnknownGameError, match=rf"^unknown parameter 'nosuch' of {name}"):
        games.canonical(f"{name}(nosuch=1)")
    with pytest.raises(games.UnknownGameError, match="expected an integer"):
        games.canonical(f"{name}({key}=big)")
    assert games.canonical(f"{name}({key}={p.default})") == name
    v = p.low if p.low != p.default else p.high     # a value the canonical name keeps
    assert games.canonical(f" {name}( {key} = {v} ) ") == f"{name}({key}={v})"


def test_every_variant_has_perft_data_and_a_reference():
    assert set(PERFT) == set(VARIANTS), "tests/data/perft.json must list every variant"
    for name in games.names():
        assert name in REFERENCE, f"add {name}'s reference rules to tests/reference_games.py"


# ---- perft ------------------------------------------------------------------------------------

def _perft_cases(game):
    """(position text or None for the start, its data entry) of a variant: the start, then
    the set positions a game with chance lists (bear-offs, the bar, blocked dice, ...)."""
    entry = PERFT[game]
    yield None, entry
    for pos in entry.get("positions", []):
        yield pos["text"], pos


@pytest.mark.parametrize("game", VARIANTS)
def test_perft_matches_data(game):
    for text, entry in _perft_cases(game):
        s = games.new_state(game, text)
        want = entry["start"] if text is None else entry["perft"]
        assert [s.perft(d) for d in range(len(want))] == want, text
        assert s.perft(1) == len(s.moves())
        if games.info_of(game).has_chance:
            assert [s.perft_weighted(d) for d in range(len(want))] == pytest.approx(
                entry["weighted"], rel=1e-12), text
        else:
            assert "weighted" not in entry
            assert [s.perft_weighted(d) for d in range(len(want))] == want


@pytest.mark.parametrize("game", HEAVY)
def test_perft_data_matches_reference(game):
    name, params = games.parse(game)
    ref = REFERENCE[name]
    for text, entry in _perft_cases(game):
        pos = ref.start(params, games.new_state(game, text).to_text())
        want = entry["start"] if text is None else entry["perft"]
        depth = entry["reference_depth"]
        assert [ref_perft(ref, pos, d) for d in range(depth + 1)] == want[:depth + 1], text
        if "weighted" in entry:
            got = [ref_perft_weighted(ref, pos, d) for d in range(depth + 1)]
            assert got == pytest.approx(entry["weighted"][:depth + 1], rel=1e-12), text


@pytest.mark.parametrize("game", HEAVY)
def test_midgame_perft_matches_reference(game):
    """Positions along random games: the core and the reference agree at depth 2."""
    name, params = games.parse(game)
    ref = REFERENCE[name]
    for seed in range(samples(game, 2, 1)):
        for s in random_game(game, seed, 60):
            if s.ply % 20 == 5:
                # from the text alone: the played history (LOA's repetition draws) is not in it
                pos = ref.start(params, s.to_text())
                core = games.new_state(game, s.to_text())
                assert core.perft(2) == ref_perft(ref, pos, 2), s.to_text()


# ---- do / undo / hash / clone / text ----------------------------------------------------------

@pytest.mark.parametrize("game", HEAVY)
def test_random_plies_round_trips(game):
    start = games.new_state(game)
    cls = games.game_class(game)
    plies = 0
    for seed in range(400):              # short games (pig to 1) need many
        if plies >= samples(game, 1000, 400):
            break
        s = games.new_state(game)
        history = [(s.to_text(), s.zobrist())]
        rng = random.Random(seed)
        while not s.is_terminal() and s.ply < 300:
            moves = s.move_ids()
            assert moves and s.perft(1) == len(moves)
            assert len(moves) <= s.max_moves, "the searches size their buffers by max_moves"
            for m in moves[:6]:          # every move taken back restores text and hash
                s.play(m)
                s.undo()
                assert (s.to_text(), s.zobrist()) == history[-1]
            m = random_move(s, rng)
            c = s.copy()
            s.play(m)
            plies += 1
            assert c.to_text() == history[-1][0] and c.zobrist() == history[-1][1], \
                "a clone must not share state"
            c.play(m)
            assert c.to_text() == s.to_text() and c.zobrist() == s.zobrist()
            # the hash is a function of the position: rebuilt from text it is the same
            r = cls.from_text(s.to_text()) if not games.parse(game)[1] else \
                games.new_state(game, s.to_text())
            assert r.to_text() == s.to_text() and r.zobrist() == s.zobrist()
            assert sorted(r.move_ids()) == sorted(s.move_ids()) or s.is_terminal()
            for mv in s.moves():
                assert s.format_move(s.parse_move(mv)) == mv
            history.append((s.to_text(), s.zobrist()))
        while s.ply > 0:
            s.undo()
            history.pop()
            assert (s.to_text(), s.zobrist()) == history[-1]
        assert s.to_text() == start.to_text() and s.zobrist() == start.zobrist()
        with pytest.raises(IndexError):
            s.undo()
    assert plies >= 300


# ---- random playouts --------------------------------------------------------------------------

def _generic_playout(s, rng):
    n = 0
    while not s.is_terminal():
        s.play(random_move(s, rng))
        n += 1
    w = s.winner()
    for _ in range(n):
        s.undo()
    return RESULT_DRAW if w is None else w


# ---- evaluation and results -------------------------------------------------------------------

@pytest.mark.parametrize("game", VARIANTS)
def test_evaluations_and_results_agree(game):
    info = games.info_of(game)
    start = games.new_state(game)
    for ef in info.evals:
        assert start.evaluation(ef) == pytest.approx(0.0, abs=1e-12), \
            f"{ef}: a symmetric start position evaluates to 0"
    assert start.evaluation("default") == start.evaluation(info.default_eval)
    for seed in range(8):
        for s in random_game(game, seed):
            for ef in info.evals:
                v = s.evaluation(ef)
                assert -1.0 <= v <= 1.0
            r = s.winner()
            assert s.is_terminal() == (s.moves() == [])
            if not s.is_terminal():
                assert r is None and not s.is_draw() and s.reward(0) == s.reward(1) == 0
                continue
            if r is None:
                assert s.is_draw() and s.reward(0) == s.reward(1) == 0
                assert all(s.evaluation(ef) == 0.0 for ef in info.evals)
            else:
                assert not s.is_draw() and s.reward(r) == 1 and s.reward(1 - r) == -1
                # ±1, or a game's scaled score (backgammon's gammons), for the winner
                final = s.final_reward()
                assert 0.0 < (final if r == 0 else -final) <= 1.0
                if not info.has_chance:
                    assert final == (1.0 if r == 0 else -1.0)
                want = final if s.to_move() == 0 else -final
                assert all(s.evaluation(ef) == want for ef in info.evals)


# ---- how a position is drawn ----------------------------------------------------------------

@pytest.mark.parametrize("game", HEAVY)
def test_every_position_is_drawn(game):
    """Each game declares its board drawing with one hook in its own file (GameInfo.draw): an
    SVG document (no script, no event handler, no outside reference) for every position of
    random games; positions that differ (board or side to move) give pictures that differ, the
    same position the same picture; the last move changes the picture (its mark)."""
    info = games.info_of(game)
    assert callable(info.draw), f"{game}: no GameInfo.draw (the game viewer's board)"
    pictures: dict[str, str] = {}
    for seed in range(1, 1 + samples(game, 2, 1)):
        rng = random.Random(seed)
        s = games.new_state(game)
        last = None
        while True:
            plain = info.draw(s, None)
            root = ET.fromstring(plain)
            assert root.tag == "{http://www.w3.org/2000/svg}svg" and root.get("viewBox")
            for el in root.iter():
                assert not el.tag.endswith(("script", "foreignObject", "image", "use", "a"))
                assert not any(k.startswith("on") or k.endswith("href") for k in el.attrib)
            assert pictures.setdefault(s.to_text(), plain) == plain
            if last is not None and last[2] != "swap":
                assert info.draw(s, last[:2]) != plain, f"{game}: the last move is not marked"
            if s.is_terminal() or s.ply >= 60:
                break
            seat, move = s.to_move(), rng.choice(s.move_ids())
            last = (seat, move, s.format_move(move))
            s.play(move)
    assert len(set(pictures.values())) == len(pictures)


# ---- chance nodes -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", VARIANTS)
def test_chance_nodes(game):
    """Outcomes, probabilities, the sampler and the move list agree at every chance node of
    random games; a deterministic game declares no chance and never has a chance node."""
    info = games.info_of(game)
    start = games.new_state(game)
    assert info.has_chance == start.has_chance == (start.max_outcomes > 0)
    seen = 0
    move_texts = set()
    outcome_texts = set()
    for seed in range(4):
        for s in random_game(game, seed, 120):
            if s.is_terminal():
                assert not s.is_chance_node() and s.outcome_probs() == []
                continue
            if not s.is_chance_node():
                assert s.outcome_probs() == []
                move_texts.update(s.moves())
                continue
            assert info.has_chance
            seen += 1
            probs = s.outcome_probs()
            ids = [m for m, _ in probs]
            assert ids == s.move_ids(), "gen_moves lists a chance node's outcomes in order"
            assert 0 < len(ids) <= s.max_outcomes <= s.max_moves
            assert len(set(ids)) == len(ids)
            assert all(p > 0 for _, p in probs) and sum(p for _, p in probs) == \
                pytest.approx(1.0, abs=1e-12)
            assert s.outcome_at(0.0) == ids[0] and s.outcome_at(1 - 1e-12) == ids[-1]
            for mv in s.moves():
                assert s.format_move(s.parse_move(mv)) == mv
            outcome_texts.update(s.moves())
            text, h = s.to_text(), s.zobrist()
            for k in range(1, 30):
                assert s.sample_chance_id(k) in ids
            assert (s.to_text(), s.zobrist()) == (text, h)
    if info.has_chance:
        assert seen > 0
        assert not move_texts & outcome_texts, "dice and moves are told apart by notation"


@pytest.mark.parametrize("game", [g for g in VARIANTS if games.info_of(g).has_chance])
def test_sampler_follows_the_probabilities(game):
    """sample_chance draws each outcome with its probability (fixed seeds: within 5 standard
    errors over 6,000 draws at every kind of chance node met)."""
    kinds = {}
    for seed in range(3):
        for s in random_game(game, seed, 60):
            if s.is_chance_node():
                key = tuple(p for _, p in s.outcome_probs())
                kinds.setdefault(key, s.copy())
    assert kinds
    n = 6000
    for s in kinds.values():
        probs = dict(s.outcome_probs())
        draws = [s.sample_chance_id(seed) for seed in range(n)]
        for m, p in probs.items():
            se = (p * (1 - p) / n) ** 0.5
            assert abs(draws.count(m) / n - p) < 5 * se, (s.to_text(), s.format_move(m))


@pytest.mark.parametrize("game", [g for g in VARIANTS if games.info_of(g).has_chance])
def test_recorded_playout_records_moves_not_dice(game):
    """RAVE's recorded playout in a game of chance: the dice are played (plies) but not
    recorded as anybody's move; the state is restored; seeded."""
    s = games.new_state(game)
    dice = set()
    for t in random_game(game, 1, 200):
        dice.update(m for m, _ in t.outcome_probs())
    text, h = s.to_text(), s.zobrist()
    for seed in range(1, 6):
        res, moves, movers, plies = s.py_recorded_playout(seed)
        assert (s.to_text(), s.zobrist()) == (text, h)
        assert res in (0, 1, RESULT_DRAW) and len(moves) == len(movers) < plies
        assert not set(moves) & dice and set(movers) <= {0, 1}
        assert (res, moves) == s.py_recorded_playout(seed)[:2]


# ---- fast paths: each one a game overrides gives its default's answer -------------------------

def _tiers(cls_name: str) -> dict[str, list[str]]:
    """{tier: its C-level methods} from the labelled sections of class `cls_name` (GameState
    or Knowledge) in state.pxd, in declaration order (the order of the vtable's slots)."""
    pxd = Path(games.__file__).parent / "state.pxd"
    tiers: dict[str, list[str]] = {}
    tier = None
    body = pxd.read_text().split(f"cdef class {cls_name}:", 1)[1]
    body = re.split(r"\n(?=\S)", body, maxsplit=1)[0]     # up to the next top-level line
    for line in body.splitlines():
        head = re.match(r"    # ---- ([a-z ]+):", line)
        if head:
            tier = head.group(1)
            tiers[tier] = []
        method = re.match(r"    cdef [\w ]+?\**\s*(\w+)\(self", line)
        if method:
            assert tier, f"state.pxd: {method.group(1)} is in no labelled section"
            tiers[tier].append(method.group(1))
    return tiers


TIERS = _tiers("GameState")
KNOWLEDGE_TIERS = _tiers("Knowledge")
SLOTS = {"GameState": [m for methods in TIERS.values() for m in methods],
         "Knowledge": [m for methods in KNOWLEDGE_TIERS.values() for m in methods]}
#: every fast path of either class (their names do not overlap)
FAST_PATHS = TIERS["fast paths"] + KNOWLEDGE_TIERS["fast paths"]


def _vtable(cls, base) -> list[int]:
    """The C function pointers of cls's vtable, one per method of `base` (GameState or
    Knowledge: Cython keeps the vtable in the type's `__pyx_vtable__` capsule; a subclass's
    starts with its base's slots)."""
    capsule = next(k.__dict__["__pyx_vtable__"] for k in cls.__mro__
                   if "__pyx_vtable__" in k.__dict__)
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    slots = SLOTS[base.__name__]
    return list((ctypes.c_void_p * len(slots)).from_address(get(capsule, None)))


def overrides(cls) -> set[str]:
    """The methods cls (a game's GameState or Knowledge class) implements itself: its vtable
    slot is not its base's."""
    base = Knowledge if issubclass(cls, Knowledge) else GameState
    return {name for name, mine, theirs in zip(SLOTS[base.__name__], _vtable(cls, base),
                                               _vtable(base, base))
            if mine != theirs}


def knowledge_class(game: str):
    """The class of the game's own knowledge (what its searches hold by default)."""
    return type(games.new_state(game).knowledge())


def test_every_game_implements_the_rules_and_only_dice_games_the_chance_tier():
    """The tiers as state.pxd labels them, read through the vtables (which also checks that
    the slots are read in their order): every game implements the rules; a game of dice the
    chance tier, a deterministic game none of it; and every game's knowledge is its own
    class, judging that game, with an evaluation."""
    assert set(TIERS) == {"rules", "chance", "fast paths"}
    assert set(KNOWLEDGE_TIERS) == {"knowledge", "fast paths"}
    for name in games.names():
        cls = games.game_class(name)
        mine = overrides(cls)
        assert set(TIERS["rules"]) <= mine, (name, set(TIERS["rules"]) - mine)
        chance = mine & set(TIERS["chance"])
        if cls.has_chance:
            assert {"is_chance", "chance_outcomes"} <= chance, name
        else:
            assert not chance, (name, chance)
        kcls = knowledge_class(name)
        assert kcls is not Knowledge and kcls.game == name, (name, kcls)
        assert "evaluate" in overrides(kcls), name


def test_the_state_holds_no_knowledge_and_few_hooks_have_one_implementer():
    """Knowledge lives in the knowledge classes: GameState has no knowledge tier, and fewer
    than four of its hooks are implemented by a single game (a hook only one game needs is
    knowledge in disguise, or a fast path worth a second look)."""
    single = {}
    for slot in SLOTS["GameState"]:
        implementers = [n for n in games.names() if slot in overrides(games.game_class(n))]
        if len(implementers) == 1:
            single[slot] = implementers[0]
    assert len(single) < 4, single


def _positions(game: str, seeds: int = 2, plies: int = 60, every: int = 3) -> list:
    """Copies of the ongoing decision positions (no chance node) along seeded random games,
    each with its played history."""
    out = []
    for seed in range(seeds):
        for s in random_game(game, seed, plies):
            if s.ply % every == 1 and not s.is_terminal() and not s.is_chance_node():
                out.append(s.copy())
    return out


def _unchanged(s):
    return s.to_text(), s.zobrist(), s.ply


def _check_random_playout(game):
    s = games.new_state(game)
    before = _unchanged(s)
    n = 300
    fast = [s.random_playout_result(seed) for seed in range(1, n + 1)]
    assert _unchanged(s) == before, "random_playout must restore the state"
    assert fast == [s.random_playout_result(seed) for seed in range(1, n + 1)], "seeded"
    assert set(fast) <= {0, 1, RESULT_DRAW}
    rng = random.Random(5)
    slow = [_generic_playout(s, rng) for _ in range(n)]
    for outcome in (0, 1, RESULT_DRAW):
        # same distribution: both are uniformly random games (fixed seeds: deterministic)
        assert abs(fast.count(outcome) - slow.count(outcome)) / n < 0.12, outcome
    # same end conditions: a playout from a finished game returns its result at once, and a
    # ply limit of 0 returns the position's own result
    for s2 in random_game(game, 3, 100000):  # noqa: B007 - the game played to its end
        pass
    assert s2.is_terminal()
    assert s2.random_playout_result(1) == (s2.winner() if s2.winner() is not None
                                           else RESULT_DRAW)
    assert games.new_state(game).random_playout_result(1, 0) == RESULT_ONGOING


def _check_recorded_playout(game):
    # the same distribution of results as the default loop, and every recorded game is a legal
    # game of the rules that ends as the playout said (a game may draw its moves its own way:
    # Hex's draws the default's moves, Gomoku's others)
    s = games.new_state(game)
    before = _unchanged(s)
    n = 300
    fast = [s.py_recorded_playout(seed) for seed in range(1, n + 1)]
    slow = [s.py_recorded_playout(seed, base=True)[0] for seed in range(1, n + 1)]
    assert _unchanged(s) == before, "recorded_playout must restore the state"
    assert fast[:5] == [s.py_recorded_playout(seed) for seed in range(1, 6)], "seeded"
    for outcome in (0, 1, RESULT_DRAW):
        assert abs([r for r, *_ in fast].count(outcome) - slow.count(outcome)) / n < 0.12, outcome
    for res, moves, movers, plies in fast[:10]:
        if s.has_chance:
            continue                # the dice are played but not recorded
        assert len(moves) == plies == len(movers)
        for m, who in zip(moves, movers):
            assert s.to_move() == who and m in s.move_ids()
            s.play(m)
        assert s.is_terminal() and (RESULT_DRAW if s.winner() is None else s.winner()) == res
        for _ in moves:
            s.undo()
    capped = s.py_recorded_playout(1, 5)        # the first 5 moves recorded, all played
    assert capped[1] == fast[0][1][:5] and capped[3] == fast[0][3]


def _policy_loop(s, policy, rng):
    """The search's move-by-move playout by a policy (the default): forced_move, else
    playout_move; the result."""
    n = 0
    while not s.is_terminal():
        ids = s.move_ids()
        m = s.py_forced_move_of(ids, rng.randrange(1 << 30)) if policy else -1
        s.play(m if m >= 0 else s.py_playout_move(policy, ids, rng.randrange(1 << 30)))
        n += 1
    w = s.winner()
    for _ in range(n):
        s.undo()
    return RESULT_DRAW if w is None else w


def _check_policy_playout(game):
    s = games.new_state(game)
    before = _unchanged(s)
    n = 300
    for name, policy in POLICY_IDS.items():
        fast = [s.py_policy_playout(policy, seed) for seed in range(1, n + 1)]
        assert _unchanged(s) == before
        if set(fast) == {-3}:
            continue                    # no fast path for this policy: the search loops
        assert set(fast) <= {0, 1, RESULT_DRAW}, name
        rng = random.Random(7)
        slow = [_policy_loop(s, policy, rng) for _ in range(n)]
        for outcome in (0, 1, RESULT_DRAW):
            assert abs(fast.count(outcome) - slow.count(outcome)) / n < 0.12, (name, outcome)


def _moves(s, limit=24):
    return s.move_ids()[:limit]


def _check_eval_after(game):
    evals = list(games.info_of(game).evals)
    for s in _positions(game):
        before = _unchanged(s)
        for m in _moves(s):
            for ef in evals:
                assert s.py_eval_after(m, ef) == s.py_eval_after(m, ef, base=True), \
                    (s.to_text(), s.format_move(m), ef)
        assert _unchanged(s) == before


def _check_best_successor(game):
    evals = list(games.info_of(game).evals)
    for s in _positions(game):
        ids = s.move_ids()
        for ef in evals:
            values = [s.py_eval_after(m, ef, base=True) for m in ids]
            tied = {m for m, v in zip(ids, values) if v == max(values)}
            for seed in (1, 2, 3):
                assert s.py_best_successor(ef, seed) in tied, (s.to_text(), ef)


def _check_is_decisive(game):
    for s in _positions(game):
        for m in s.move_ids():
            assert s.py_is_decisive(m) == s.py_is_decisive(m, base=True), \
                (s.to_text(), s.format_move(m))


def _check_evaluate_tanh_arg(game):
    given = 0
    for s in _positions(game):
        for ef in games.info_of(game).evals:
            x = s.py_evaluate_tanh_arg(ef)
            if x is not None:
                assert math.tanh(x) == s.evaluation(ef), (s.to_text(), ef)
                given += 1
    assert given, "an override that never gives an argument is the default"


def _check_leaf_after(game):
    evals = list(games.info_of(game).evals)
    for s in _positions(game):
        before = _unchanged(s)
        for m in s.move_ids():
            for ef in evals:
                assert s.py_leaf_after(m, ef) == s.py_leaf_after(m, ef, base=True), \
                    (s.to_text(), s.format_move(m), ef)
        assert _unchanged(s) == before


WIDTHS = (0, 1, 3, 8, 40)


def _check_select_best(game):
    rng = random.Random(3)
    for s in _positions(game):
        ids = s.move_ids()
        rng.shuffle(ids)            # as the αβ playout's root shuffles them
        for width in WIDTHS:
            assert s.py_select_best(ids, width) == s.py_select_best(ids, width, base=True), \
                (s.to_text(), width)


def _check_ordered_moves(game):
    for s in _positions(game):
        for width in WIDTHS:
            assert s.py_ordered_moves(width) == s.py_ordered_moves(width, base=True), \
                (s.to_text(), width)


def _check_is_among_best(game):
    answers = {1: 0, 0: 0, -1: 0}
    earlier: list[int] = []
    for s in _positions(game):
        ids = s.move_ids()
        # the legal moves, and some of an earlier position's that are not legal here
        candidates = ids + [m for m in earlier if m not in ids][:8]
        earlier = ids
        for width in (1, 3, 8):
            listed = set(s.py_ordered_moves(width))
            for m in candidates:
                got = s.py_is_among_best(m, width)
                answers[got] += 1
                assert got in (1, 0, -1)
                if got == 1:
                    assert m in listed, (s.to_text(), m, width)
                elif got == 0:
                    assert m not in listed, (s.to_text(), m, width)
    assert answers[1] + answers[0] > 0, "an override that never answers is the default"


#: How each fast path is checked against its default: the one place a new fast path adds a check.
FAST_PATH_CHECKS = {
    "random_playout": _check_random_playout,
    "recorded_playout": _check_recorded_playout,
    "policy_playout": _check_policy_playout,
    "eval_after": _check_eval_after,
    "best_successor": _check_best_successor,
    "is_decisive": _check_is_decisive,
    "evaluate_tanh_arg": _check_evaluate_tanh_arg,
    "leaf_after": _check_leaf_after,
    "select_best": _check_select_best,
    "ordered_moves": _check_ordered_moves,
    "is_among_best": _check_is_among_best,
}


def test_every_fast_path_has_a_check():
    assert set(FAST_PATH_CHECKS) == set(FAST_PATHS)


def _fast_path_cases():
    for game in VARIANTS:
        mine = overrides(games.game_class(game)) | overrides(knowledge_class(game))
        for name in FAST_PATHS:
            if name in mine:
                marks = [pytest.mark.slow] if "(" in game else []
                yield pytest.param(game, name, id=f"{game}-{name}", marks=marks)


@pytest.mark.parametrize(("game", "fast_path"), list(_fast_path_cases()))
def test_fast_path_gives_the_default_answer(game, fast_path):
    FAST_PATH_CHECKS[fast_path](game)


@pytest.mark.parametrize("game", HEAVY)
def test_ordered_moves_are_the_search_moves_in_a_stable_order(game):
    """The default `ordered_moves` (which a game's fast path must equal) keeps what a stable
    sort of the search moves by `move_order` keeps, cut to a width."""
    for seed in range(2):
        for s in random_game(game, seed, max_plies=60):
            if s.is_terminal():
                continue
            full = s.py_ordered_moves(0, base=True)
            assert len(set(full)) == len(full) and set(full) <= set(s.move_ids())
            keys = [s.py_move_order(m) for m in full]
            assert keys == sorted(keys, reverse=True)
            assert [s.py_ordered_moves(w, base=True) for w in (1, 3, 8)] == \
                [full[:1], full[:3], full[:8]]
