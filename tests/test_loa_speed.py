"""Issue 23's speed work on Lines of Action changes no behaviour: the line-pattern tables agree
with the square-by-square rules, the fused ordered generation with a stable sort, and the whole
of LOA (rules, evaluations, αβ playout moves, MCTS trees, the αβ search) hashes as main's build
did before the change (tools/loa_identity.py; the digests in tests/data/loa_identity.json were
printed by main's build at d3bc0db)."""
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


def test_ordered_moves_are_a_stable_sort_by_category():
    for s in random_positions(6, 5):
        if s.is_terminal():
            continue
        ids = s.move_ids()
        keyed = sorted(ids, key=lambda m: -s.py_move_order(m))     # sorted() is stable
        for width in (0, 1, 3, 8, 40):
            assert s.py_ordered_moves(width) == (keyed[:width] if width else keyed)


def test_efwb_features_are_the_same_from_the_cache():
    # the second evaluation of a position reads its sides' features from the cache
    for s in random_positions(3, 6):
        first = (s.evaluation("efWB"), s.features(0), s.features(1))
        assert (s.evaluation("efWB"), s.features(0), s.features(1)) == first
        assert s.copy().evaluation("efWB") == first[0]        # a fresh cache


def _recorded(scale):
    """main's digests, and the corrected ones of the parts changed on purpose."""
    recorded = json.loads((ROOT / "tests" / "data" / "loa_identity.json").read_text())
    return recorded[scale], recorded["corrected"][scale]


@pytest.mark.parametrize("scale", ["quick", pytest.param("full", marks=pytest.mark.slow)])
def test_loa_behaves_as_main_did_before_issue_23(scale):
    """αβ playout moves for fixed seeds, MCTS trees, αβ searches, evaluations to the last bit
    and the rules hash as main's build printed them (tools/loa_identity.py); the fast random
    playout, corrected on purpose (repetition draws), differs from main's and hashes as
    recorded with the correction."""
    main, corrected = _recorded(scale)
    got = _identity().digests(1 if scale == "quick" else 5)
    for part, digest in main.items():
        if part in corrected:
            assert got[part] != digest and got[part] == corrected[part], part
        else:
            assert got[part] == digest, part
