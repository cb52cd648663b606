"""The Cython searches: MCTS (mcts.pyx, its open-loop variant openloop.pyx, its policies in
selection.pxd and backup.pxd), αβ (alphabeta.pyx) and the exact prover (prover.pyx)."""


def mcts_search(options: dict, seed: int = 1):
    """The MCTS engine for an option dict (players/builtin.py `mcts_options`): the open-loop
    variant where `open_loop` is set, else the core."""
    if options.get("open_loop"):
        from mcts_arena.players.search.openloop import OpenLoopSearch

        return OpenLoopSearch(options, seed)
    from mcts_arena.players.search.mcts import MCTSSearch

    return MCTSSearch(options, seed)
