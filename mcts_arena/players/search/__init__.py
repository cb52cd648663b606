"""The Cython searches: MCTS (mcts.pyx), αβ (alphabeta.pyx) and the exact prover (prover.pyx)."""
