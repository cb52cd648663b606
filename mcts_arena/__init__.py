"""mcts_arena: head-to-head game-AI tournaments on compiled game cores.

Reproduces "Monte Carlo Tree Search with Heuristic Evaluations using Implicit Minimax Backups"
(Lanctot, Winands, Pepels, Sturtevant 2014) and goes beyond it.
"""
__version__ = "0.1.0"
