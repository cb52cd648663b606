"""`python -m mcts_arena` is the `arena` command."""
from mcts_arena.cli import main

main()
