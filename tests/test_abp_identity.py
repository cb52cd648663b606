"""The αβ playouts of every game choose the moves they chose before a change of the depth-1
search they share (leaf_after, one tanh per uncut node, the killer tried
before the moves are listed): a node's cut-offs and the order of its leaves may change, the
value its caller takes may not. The digests below were printed by main's build at 0300c64,
before that round, except Hex's: it is taken on a 7 x 7 board (the same playouts at an eighth
of the 11 x 11 board's five seconds), printed by a build whose 11 x 11 digest was 0300c64's
(56b2293ade43873c). A change of the playouts' moves on purpose must record new ones and say
why."""
import hashlib
import random

import pytest

from mcts_arena import games, players

SPECS = {"breakthrough": ("MCTS(abp2)", "MCTS(abp1)", "MCTS(abp3,im0.4)"),
         "kalah": ("MCTS(abp2)", "MCTS(abp3)"),
         "tictactoe": ("MCTS(abp2)",),
         "gomoku": ("MCTS(abp1)",),
         "hex(size=7)": ("MCTS(abp1)",),
         "loa": ("MCTS(abp2)", "MCTS(ipp,abp3)", "MCTS(abp2,efLOA0)")}

BEFORE = {"breakthrough": "8946598e2d92156d", "kalah": "8ba7d85a5d8ebec7",
          "tictactoe": "40597abc701713cf", "gomoku": "662c63460ad01ae0",
          "hex(size=7)": "53192b42adf6e829", "loa": "161f00120478dc8d"}


def digest(game: str, positions: int = 4, sims: int = 200) -> str:
    """Moves, tree sizes and playout plies of short MCTS searches with αβ playouts from
    seeded positions of `game`."""
    h = hashlib.sha256()
    rng = random.Random(5)
    for g in range(positions):
        s = games.new_state(game)
        for _ in range(rng.randint(0, 12)):
            if s.is_terminal():
                break
            s.play(rng.choice(s.moves()))
        if s.is_terminal():
            continue
        for spec in SPECS[game]:
            m, st = players.make(spec, game, seed=g).choose(s, sims=sims)
            h.update(repr((m, st["nodes"], st["playout_plies"])).encode())
    return h.hexdigest()[:16]


@pytest.mark.slow
def test_every_games_ab_playouts_choose_as_before():
    assert {game: digest(game) for game in SPECS} == BEFORE
