"""Bracket rule and printout: hand-made cases and every Appendix B bracket of the paper."""

import pytest

from mcts_arena.paper import load_paper_results
from mcts_arena.results import bracket
from mcts_arena.results.bracket import Bracket, pair_round


def parse_printed(text):
    """Rounds of a printed bracket: list of (matches [(winner, w, loser, l)], bye), and the winner."""
    rounds, winner = bracket.parse_printed(text)
    return [([(m.a, m.wins_a, m.b, m.wins_b) for m in r.matches], r.bye) for r in rounds], winner


@pytest.mark.parametrize(
    "entrants,pairs,bye",
    [
        (["a"], [], "a"),
        (["a", "b"], [("a", "b")], None),
        (["a", "b", "c"], [("a", "c")], "b"),
        (["a", "b", "c", "d"], [("a", "d"), ("b", "c")], None),
        (["a", "b", "c", "d", "e"], [("a", "e"), ("b", "d")], "c"),
        (list("abcdefg"), [("a", "g"), ("b", "f"), ("c", "e")], "d"),
    ],
)
def test_pair_round(entrants, pairs, bye):
    assert pair_round(entrants) == (pairs, bye)


def test_hand_made_five_entrants_exact():
    def play(a, b):
        if "e" in (a, b):
            return (10, 0) if b == "e" else (0, 10)
        return (4, 6) if a < b else (6, 4)

    # round 1 list [a b c d e]: a-e, b-d, c bye; round 2 list [a d c]: a-c, d bye; round 3 [c d]
    b = Bracket(["a", "b", "c", "d", "e"])
    assert b.pending_matches() == [("a", "e"), ("b", "d")]
    assert b.run(play) == "d"
    assert [r.bye for r in b.rounds] == ["c", "d", None]
    assert [[(m.a, m.b) for m in r.matches] for r in b.rounds] == [
        [("a", "e"), ("b", "d")],
        [("a", "c")],
        [("c", "d")],
    ]
    assert b.render() == (
        "round 1\n"
        "winner a (10) vs. loser e (0)\n"
        "winner d (6) vs. loser b (4)\n"
        "c gets a by\n\n"
        "round 2\n"
        "winner c (6) vs. loser a (4)\n"
        "d gets a by\n\n"
        "round 3\n"
        "winner d (6) vs. loser c (4)\n\n"
        "Winner: d\n"
    )


TOURNAMENTS = [t.id for t in load_paper_results().tournaments]


@pytest.mark.parametrize("tid", TOURNAMENTS)
def test_reproduces_appendix_b_bracket(tid):
    """Drive the bracket with the paper's match results; it must pair, bye and print as printed."""
    t = load_paper_results().tournament(tid)
    printed_rounds, printed_winner = parse_printed(t.bracket)
    results = {}  # frozenset pair -> {name: wins}
    for matches, _ in printed_rounds:
        for w, wn, l, ln in matches:
            results[frozenset((w, l))] = {w: wn, l: ln}

    b = Bracket(t.entrants)  # the paper's 'first' tie rule
    while not b.done:
        round_no = b.round_number
        expected_matches, expected_bye = printed_rounds[round_no - 1]
        assert b.current_round.bye == expected_bye, f"round {round_no} bye"
        pending = b.pending_matches()
        assert {frozenset(p) for p in pending} == {
            frozenset((w, l)) for w, _, l, _ in expected_matches
        }
        for a, c in pending:
            r = results[frozenset((a, c))]
            b.record(a, c, r[a], r[c])
        b.advance()
    assert len(b.rounds) == len(printed_rounds)
    assert b.winner == printed_winner == t.winner
    assert b.render() == t.bracket


@pytest.mark.parametrize(
    "tid,winner",
    [("kalah-fet", "mcts_h_fet4"), ("breakthrough-efms-det", "mcts_h_det0.3")],
)
def test_paper_md_winners(tid, winner):
    t = load_paper_results().tournament(tid)
    rounds, _ = parse_printed(t.bracket)
    lookup = {frozenset((w, l)): {w: wn, l: ln} for ms, _ in rounds for w, wn, l, ln in ms}
    assert (
        Bracket(t.entrants).run(
            lambda a, c: (lookup[frozenset((a, c))][a], lookup[frozenset((a, c))][c])
        )
        == winner
    )


def test_tie_rule_first_advances_first_of_pair_even_if_recorded_reversed():
    b = Bracket(["x", "y", "z", "w"])
    b.record("w", "x", 50, 50)  # pair is (x, w): x is first
    b.record("y", "z", 10, 90)
    b.advance()
    assert b.standing == ("x", "z")
    assert b.rounds[0].matches[0].line() == "winner x (50) vs. loser w (50)"


def test_playoff_step_wise():
    b = Bracket(["p", "q", "r"], tie_rule="playoff", max_playoffs=2)
    b.record("p", "r", 3, 3)
    assert b.pending_matches() == [("p", "r")]  # still needs games
    with pytest.raises(ValueError, match="round 1 is not finished; pending: p vs. r"):
        b.advance()
    b.record("r", "p", 2, 1)  # extra games, reversed order
    assert b.pending_matches() == []
    b.advance()
    assert b.standing == ("r", "q")
    assert b.rounds[0].matches[0].line() == "winner r (5) vs. loser p (4)"


def test_playoff_cap_falls_back_to_first():
    b = Bracket(["p", "q"], tie_rule="playoff", max_playoffs=1)
    b.record("p", "q", 1, 1)
    b.record("p", "q", 2, 2)
    assert b.pending_matches() == []
    with pytest.raises(ValueError, match="already decided"):
        b.record("p", "q", 1, 0)
    b.advance()
    assert b.done and b.winner == "p"


def test_playoff_callback_resolves_ties_in_advance():
    calls = []

    def playoff(a, c):
        calls.append((a, c))
        return (0, 0) if len(calls) < 3 else (0, 2)

    b = Bracket(["p", "q", "r", "s"], tie_rule="playoff", playoff=playoff, max_playoffs=5)
    b.record("p", "s", 4, 4)
    b.record("q", "r", 5, 3)
    assert b.pending_matches() == []
    b.advance()
    assert calls == [("p", "s")] * 3
    assert b.standing == ("s", "q")
    assert b.rounds[0].matches[0].playoffs == 3


def test_single_entrant_and_partial_render():
    one = Bracket(["solo"])
    assert one.done and one.winner == "solo" and one.render() == "Winner: solo\n"
    b = Bracket(["a", "b", "c", "d", "e"])
    b.record("b", "d", 1, 2)
    assert not b.done and b.winner is None
    assert b.render() == "round 1\nwinner d (2) vs. loser b (1)\nc gets a by\n"


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: Bracket([]), "at least one entrant"),
        (lambda: Bracket(["a", "a"]), "duplicate entrant 'a'"),
        (
            lambda: Bracket(["a", "b"], tie_rule="coin"),
            "unknown tie rule 'coin'; valid: first, playoff",
        ),
        (lambda: Bracket(["a", "b"], playoff=lambda a, b: (1, 0)), "needs tie_rule='playoff'"),
    ],
)
def test_construction_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_record_errors():
    b = Bracket(["a", "b", "c", "d"])
    with pytest.raises(
        ValueError, match="a vs. b is not a match of round 1; matches: a vs. d, b vs. c"
    ):
        b.record("a", "b", 1, 0)
    b.record("a", "d", 1, 0)
    with pytest.raises(ValueError, match="a vs. d is already decided in round 1"):
        b.record("a", "d", 1, 0)
    with pytest.raises(ValueError, match="wins must be non-negative"):
        b.record("b", "c", -1, 0)
    b.record("b", "c", 0, 1)
    b.advance()
    b.record("a", "c", 0, 3)
    b.advance()
    assert b.done and b.winner == "c"
    with pytest.raises(ValueError, match="the bracket is finished"):
        b.advance()
    with pytest.raises(ValueError, match="the bracket is finished"):
        b.record("a", "c", 1, 0)


def test_a_rendered_bracket_reads_back_as_played():
    """parse_printed reads render()'s layout: every match with its winner first, the byes, the
    winner; a running bracket reads back its decided matches and no winner."""
    import random

    rng = random.Random(3)
    b = Bracket([f"e{i}" for i in range(11)])
    played = []
    while not b.done:
        for a, c in b.pending_matches():
            wa, wc = rng.randrange(20), rng.randrange(20)
            b.record(a, c, wa, wc)
            played.append((b.round_number, *((a, wa, c, wc) if wa >= wc else (c, wc, a, wa))))
        if b.round_number == 2 and len(played) == 5 + 3:
            rounds, winner = bracket.parse_printed(b.render())
            assert winner is None and len(rounds) == 2
        b.advance()
    rounds, winner = bracket.parse_printed(b.render())
    assert winner == b.winner
    assert [(r.number, m.a, m.wins_a, m.b, m.wins_b) for r in rounds for m in r.matches] == played
    assert [r.bye for r in rounds] == [r.bye for r in b.rounds]
    with pytest.raises(ValueError, match="round 1: not a match or a bye: 'a beat b'"):
        bracket.parse_printed("round 1\na beat b\n")
    with pytest.raises(ValueError, match="not a round of a printed bracket"):
        bracket.parse_printed("rnd 1\n")
