"""Lines of Action's speed work changes no behaviour: the line-pattern tables agree with the
square-by-square rules, leaf_after and is_among_best with the position after the move where
repetitions and siblings' shared replies come up (the conformance harness checks every fast path
against its default on plainer positions), and the whole of LOA (rules, evaluations, αβ playout
moves, MCTS trees, the αβ search) hashes as recorded in tests/data/loa_identity.json
(tools/loa_identity.py)."""
import importlib.util
import json
import random
from pathlib import Path

import pytest

from mcts_arena import games

ROOT = Path(__file__).resolve().parents[1]


def _identity():
    spec = importlib.util.spec_from_file_location("loa_identity", ROOT / "tools" / "loa_identity.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def random_positions(count, seed):
    rng = random.Random(seed)
    for _ in range(count):
        s = games.new_state("loa")
        while not s.is_terminal():
            yield s
            s.play(rng.choice(s.move_ids()))
        yield s


def test_line_patterns_and_mobility_tables_agree_with_the_rules():
    seen = 0
    for s in random_positions(30, 4):
        patterns, fresh = s.line_patterns()
        assert patterns == fresh
        for side, (tables, by_pieces) in enumerate(s.mobility2()):
            assert tables == by_pieces, (side, s.to_text())
        seen += 1
    # and after undoing a whole game
    rng = random.Random(8)
    s = games.new_state("loa")
    while not s.is_terminal():
        s.play(rng.choice(s.move_ids()))
    while s.ply:
        s.undo()
        assert s.line_patterns()[0] == s.line_patterns()[1]
    assert seen > 3000


@pytest.mark.slow
def test_leaf_after_is_the_position_after_the_move():
    """LOA's leaf_after (the move not played) against do_move, the result and the tanh
    argument, to the last bit, for every move along random games whose sides often move a
    piece back where it came from (so that repetitions come up), both evaluations; the
    position is left as it was."""
    rng = random.Random(12)
    seen = {}
    for _ in range(40):          # about 250,000 checks, 700 of them repetition draws
        s = games.new_state("loa")
        last = {}
        while not s.is_terminal() and s.ply < 400:
            before = (s.to_text(), s.zobrist(), s.ply)
            ids = s.move_ids()
            for m in ids:
                for ef in ("efWB", "efLOA0"):
                    res, player, is_arg, x = s.py_leaf_after(m, ef)
                    s.play(m)
                    if s.is_terminal():
                        want = ("draw" if s.is_draw() else s.winner(), False, 0.0)
                    else:
                        want = ("on", True, s.py_evaluate_tanh_arg(ef))
                    got = ({-1: "on", 2: "draw"}.get(res, res), is_arg,
                           x if is_arg else (0.0 if res != -1 else s.py_evaluate_tanh_arg(ef)))
                    assert got == want and player == s.to_move(), (before[0], m, ef)
                    seen[want[0]] = seen.get(want[0], 0) + 1
                    s.undo()
            assert (s.to_text(), s.zobrist(), s.ply) == before
            back = last.get(s.to_move())
            back = (back >> 6) | ((back & 63) << 6) if back is not None else None
            m = back if back in ids and rng.random() < 0.1 else rng.choice(ids)
            last[s.to_move()] = m
            s.play(m)
    assert seen.get("draw", 0) > 10 and seen.get(0, 0) + seen.get(1, 0) > 10, seen
    assert seen["on"] > 100_000, seen


def test_is_among_best_agrees_with_ordered_moves():
    """is_among_best's yes (1) and no (0) against ordered_moves' list, for replies after a
    move that captured nothing (the siblings of a 2-ply search, each parent's base built
    first), for the parent's replies (often the killer) and for moves of other lines."""
    rng = random.Random(21)
    answers = {1: 0, 0: 0, -1: 0}
    for s in random_positions(10, 8):
        if s.is_terminal():
            continue
        moves = s.move_ids()
        rng.shuffle(moves)
        for m in moves[:8]:
            s.play(m)
            if not s.is_terminal():
                replies = s.move_ids()
                s.undo()
                s.play(moves[0])                        # a sibling first: the base is built
                candidates = s.move_ids() if not s.is_terminal() else []
                s.undo()
                s.play(m)
                for width in (1, 3, 8):
                    listed = set(s.py_ordered_moves(width))
                    for k in replies + candidates[:10]:
                        got = s.py_is_among_best(k, width)
                        answers[got] += 1
                        if got == 1:
                            assert k in listed, (s.to_text(), k, width)
                        elif got == 0:
                            assert k not in listed, (s.to_text(), k, width)
            s.undo()
    assert answers[1] > 1000 and answers[0] > 100 and answers[-1] > 1000, answers


@pytest.mark.slow
def test_replies_shared_between_siblings_are_the_replies_generated_afresh():
    """After a move that captures nothing, ordered_moves merges the parent's reply base with
    the replies along the move's lines; a position read from text (no last move) generates them
    all. Siblings in turn, the same parent again after others, a grandchild between them (its
    own slot), every width."""
    from mcts_arena.games.loa import LinesOfAction
    rng = random.Random(11)
    shared = 0
    for s in random_positions(12, 6):
        if s.is_terminal():
            continue
        white_to_move = s.to_move() == 1
        moves = s.move_ids()
        rng.shuffle(moves)
        for m in moves[:10] + moves[:3]:
            captures = s.format_move(m)[2] == "x"
            s.play(m)
            if not s.is_terminal():
                fresh = LinesOfAction.from_text(s.to_text())
                for width in (0, 1, 3, 8, 40):
                    assert s.py_ordered_moves(width) == fresh.py_ordered_moves(width), \
                        (s.to_text(), width)
                shared += not captures
                replies = s.move_ids()
                if replies and rng.random() < 0.3:      # one ply deeper, then back
                    s.play(rng.choice(replies))
                    if not s.is_terminal():
                        assert s.py_ordered_moves(8) == \
                            LinesOfAction.from_text(s.to_text()).py_ordered_moves(8)
                    s.undo()
            s.undo()
        assert (s.to_move() == 1) == white_to_move
    assert shared > 2000


def test_efwb_features_are_the_same_from_the_cache():
    # the second evaluation of a position reads its sides' features from the cache
    for s in random_positions(3, 6):
        first = (s.evaluation("efWB"), s.features(0), s.features(1))
        assert (s.evaluation("efWB"), s.features(0), s.features(1)) == first
        assert s.copy().evaluation("efWB") == first[0]        # a fresh cache


def test_connected_agrees_with_a_flood_fill():
    """connected()'s row and column gap test gives the flood fill's answer, on random piece
    sets of every size, clustered and spread; a connected set never has an Euler number above
    1 (the feature cache's shortcut)."""
    from mcts_arena.games.boardtext import format_ranks

    def flood(bits):
        sqs = {i for i in range(64) if bits >> i & 1}
        todo, seen = [min(sqs)], {min(sqs)}
        while todo:
            q = todo.pop()
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    r, c = (q >> 3) + dr, (q & 7) + dc
                    if 0 <= r < 8 and 0 <= c < 8 and (r * 8 + c) in sqs and r * 8 + c not in seen:
                        seen.add(r * 8 + c)
                        todo.append(r * 8 + c)
        return len(seen) == len(sqs)

    rng = random.Random(5)
    checked = {True: 0, False: 0}
    shortcut = 0
    for _ in range(3000):
        n = rng.randint(1, 12)
        if rng.random() < 0.5:      # clustered: a random walk of neighbours, often connected
            sq, sqs = rng.randrange(64), set()
            while len(sqs) < n:
                sqs.add(sq)
                r = min(7, max(0, (sq >> 3) + rng.choice((-1, 0, 1))))
                c = min(7, max(0, (sq & 7) + rng.choice((-1, 0, 1, 2))))
                sq = r * 8 + c
        else:
            sqs = set(rng.sample(range(64), n))
        black = sum(1 << q for q in sqs)
        free = [q for q in range(64) if q not in sqs]
        white = sum(1 << q for q in rng.sample(free, 3))
        s = games.new_state("loa", format_ranks(black, white, 0, "b", "w"))
        assert s.is_connected(0) == flood(black), format_ranks(black, white, 0, "b", "w")
        checked[flood(black)] += 1
        # the feature cache's shortcut: an Euler number above 1 means two groups or more
        if flood(black):
            assert s.euler_number(0) <= 1, format_ranks(black, white, 0, "b", "w")
        shortcut += s.euler_number(0) > 1
    assert min(checked.values()) > 300          # both answers were tested many times
    assert shortcut > 300


def _recorded(scale):
    """main's digests, and the corrected ones of the parts changed on purpose."""
    recorded = json.loads((ROOT / "tests" / "data" / "loa_identity.json").read_text())
    return recorded[scale], recorded["corrected"][scale]


@pytest.mark.parametrize("scale", ["quick", pytest.param("full", marks=pytest.mark.slow)])
def test_loa_plays_as_the_recorded_build_did(scale):
    """αβ playout moves for fixed seeds, MCTS trees, αβ searches, evaluations to the last bit
    and the rules hash as recorded (tools/loa_identity.py); the fast random
    playout, corrected on purpose (repetition draws), differs from main's and hashes as
    recorded with the correction."""
    main, corrected = _recorded(scale)
    got = _identity().digests(1 if scale == "quick" else 5)
    for part, digest in main.items():
        if part in corrected:
            assert got[part] != digest and got[part] == corrected[part], part
        else:
            assert got[part] == digest, part
