"""Behaviour lock: fixed-seed, fixed-budget games, perft counts, random playouts and evaluations
recorded from the code as it was before a structural change, checked move for move.

A refactor that must not change behaviour keeps this test green. A change that is meant to
change behaviour (a new enhancement default, a fixed bug) regenerates the data on purpose:

    .venv/bin/python tests/test_behaviour_lock.py --write
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mcts_arena import games, players

DATA = Path(__file__).parent / "data" / "behaviour_lock.json"

# (game, seat 0, seat 1, seed, simulations or nodes per move, plies at most)
MATCHES = [
    ("breakthrough", "MCTS", "MCTS(ipp)", 1, 150, 24),
    ("breakthrough", "MCTS(bl)", "MCTS(bl,im0.4)", 2, 150, 24),
    ("breakthrough", "MCTS(bl',im0.6)", "MCTS(efLH,bl',np,im0.6)", 3, 150, 24),
    ("breakthrough", "MCTS(bl,cb0.4)", "MCTS(bl,pbim0.4)", 4, 150, 20),
    ("breakthrough", "MCTS(ipp,fet20,im0.4)", "MCTS(bl,mb100)", 5, 150, 20),
    ("breakthrough", "MCTS(rave300)", "MCTS(bl,pu3,exp1)", 6, 150, 20),
    ("breakthrough", "MCTS(abp2,PB)", "MCTS(bl,np50,im0.4)", 7, 60, 16),
    ("breakthrough", "αβ(efMS)", "αβ(efLH)", 8, 3000, 30),
    ("breakthrough", "Random", "Greedy(efLH)", 9, 1, 40),
    ("breakthrough", "FlatMC", "Greedy", 10, 150, 30),
    ("kalah", "MCTS(fet4,im0.3)", "MCTS(fet4)", 11, 200, 30),
    ("kalah", "MCTS", "MCTS(ege0.9,im0.2)", 12, 200, 30),
    ("kalah", "αβ(efRS)", "FlatMC", 13, 2000, 40),
    ("kalah", "Random", "Greedy", 14, 1, 60),
    ("loa", "MCTS(abp2)", "MCTS(abp2,im0.2)", 15, 40, 12),
    ("loa", "MCTS(abp2,PB,im0.2)", "MCTS(ipp,det0.5)", 16, 40, 12),
    ("loa", "MCTS(ipp,ege0.1,det0.5,df3)", "MCTS(efLOA0,ipp,fet10)", 17, 80, 16),
    ("loa", "αβ(efWB)", "αβ(efLOA0)", 18, 2000, 20),
    ("loa", "Random", "Greedy(efLOA0)", 19, 1, 40),
    ("tictactoe", "MCTS", "αβ(efTTT)", 20, 200, 9),
    ("tictactoe", "FlatMC", "MCTS(im0.5)", 21, 200, 9),
    ("tictactoe", "Random", "Greedy", 22, 1, 9),
    # from the non-standard openings the experiments use (kind, seed / set index)
    ("kalah", "MCTS(fet4,im0.3)", "αβ(efRS)", 23, 300, 30, "random_boards"),
    ("loa", "MCTS(abp2,PB,im0.2)", "αβ(efWB)", 24, 40, 10, "opening_set"),
    ("breakthrough", "MCTS(bl,im0.4)", "MCTS(bl)", 25, 150, 20, "random_plies"),
]

PERFT = {"breakthrough": 4, "kalah": 6, "loa": 3, "tictactoe": 5}
PLAYOUT_SEEDS = range(1, 9)


def _play(game, a, b, seed, budget, max_plies, opening="start"):
    from mcts_arena.runner.config import Openings
    from mcts_arena.runner.openings import opening_text
    kind = Openings(opening, 4 if opening == "random_plies" else 0)
    state = games.new_state(game, opening_text(game, kind, seed, seed))
    agents = [players.make(a, game=game, seed=seed), players.make(b, game=game, seed=seed + 1000)]
    moves, evals = [], []
    names = list(games.game_class(game).eval_functions)
    while not state.is_terminal() and len(moves) < max_plies:
        move, _ = agents[state.to_move()].choose(state, sims=budget)
        moves.append(state.format_move(move))
        state.play(move)
        evals.append([repr(state.evaluation(n)) for n in names])
    return {"moves": moves, "evals": evals, "text": state.to_text(), "hash": state.zobrist()}


def _perft(game):
    s = games.new_state(game)
    return [s.perft(d) for d in range(PERFT[game] + 1)]


def _playouts(game):
    s = games.new_state(game)
    return [s.random_playout_result(seed) for seed in PLAYOUT_SEEDS]


def compute() -> dict:
    out = {"matches": {}, "perft": {}, "playouts": {}}
    for m in MATCHES:
        out["matches"]["|".join(map(str, m))] = _play(*m)
    for game in PERFT:
        out["perft"][game] = _perft(game)
        out["playouts"][game] = _playouts(game)
    return out


@pytest.fixture(scope="module")
def lock():
    return json.loads(DATA.read_text())


@pytest.mark.parametrize("match", MATCHES, ids=lambda m: f"{m[0]}:{m[1]}-{m[2]}")
def test_moves_unchanged(lock, match):
    got = _play(*match)
    want = lock["matches"]["|".join(map(str, match))]
    assert got["moves"] == want["moves"]
    assert got["evals"] == want["evals"]
    assert got["text"] == want["text"]
    assert got["hash"] == want["hash"]


@pytest.mark.parametrize("game", sorted(PERFT))
def test_perft_and_playouts_unchanged(lock, game):
    assert _perft(game) == lock["perft"][game]
    assert _playouts(game) == lock["playouts"][game]


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: python tests/test_behaviour_lock.py --write   (regenerates the lock)")
    DATA.write_text(json.dumps(compute(), indent=1) + "\n")
    print(f"wrote {DATA}")
