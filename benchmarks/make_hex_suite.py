"""Find 5x5 Hex positions with exactly one winning move (proven)."""
import random
import sys
import time

from mcts_arena.games.hex import Hex
from mcts_arena.players.search.prover import Prover

from mcts_arena import players

rng = random.Random(int(sys.argv[1]))
stones = int(sys.argv[2])
sv = Prover()
found = 0
t0 = time.time()
while found < int(sys.argv[3]) and time.time() - t0 < float(sys.argv[4]):
    s = Hex(5)
    for _ in range(stones):
        s.play(rng.choice(s.moves()))
        if s.is_terminal():
            break
    if s.is_terminal():
        continue
    s = Hex.from_text(s.to_text())
    vals, st = sv.prove_moves(s, 2_000_000)
    if None in vals.values():
        continue
    wins = [s.format_move(m) for m, v in vals.items() if v == 1]
    if len(wins) != 1:
        continue
    # the tempting wrong move: FlatMC's choice at 2000 sims (seed 1)
    fm, _ = players.make("FlatMC", "hex", seed=1).choose(s, sims=2000)
    fm = s.format_move(fm)
    if fm in wins:
        continue
    found += 1
    print(f"hex(size=5) | {s.to_text()} | best: {wins[0]} | wrong: {fm} | id: h5-{stones}-{found}-{sys.argv[1]} | note: proven {st['nodes']} nodes", flush=True)
