"""Print one hash of Hex behaviour: random and bridge playout results and boards, bridge replies
and MCTS trees (fixed seeds) on boards of size 3 to 19, swap rule included. Two builds that
print the same hash play Hex identically; a speed change must not change it.

    .venv/bin/python tools/hex_identity.py                                   # this tree
    (cd /tmp/main-build && PYTHONPATH=. $OLDPWD/.venv/bin/python $OLDPWD/tools/hex_identity.py)
"""
import hashlib
import random

from mcts_arena import games, players

h = hashlib.sha256()
rng = random.Random(3)
for size in (5, 8, 11, 13):
    for g in range(8):
        s = games.new_state(f"hex(size={size})")
        for _ in range(rng.randint(0, size * size // 2)):
            s.play(rng.choice(s.moves()))
            if s.is_terminal():
                s.undo()
                break
        for seed in range(30):
            h.update(repr((s.bridge_playout_board(seed), s.random_playout_result(seed),
                           s.py_forced_move(seed), s.bridge_playout_result(seed))).encode())
        for spec in ("MCTS", "MCTS(bridge)", "MCTS(rave300)", "MCTS(bridge,im0.3)"):
            p = players.make(spec, "hex", seed=g)
            m, st = p.choose(s, sims=300)
            h.update(repr((m, st["nodes"], [c[:2] for c in st["children"]])).encode())
for size in (3, 5, 11, 19):
    for first in ("a1", "b2", "c1"):
        s = games.new_state(f"hex(size={size},swap=1)")
        s.play(first)
        h.update(repr([s.random_playout_result(i) for i in range(300)]).encode())
        h.update(repr([s.bridge_playout_result(i) for i in range(100)]).encode())
    s = games.new_state(f"hex(size={size})")
    h.update(repr([s.random_playout_result(i) for i in range(300)]).encode())
print(h.hexdigest())
