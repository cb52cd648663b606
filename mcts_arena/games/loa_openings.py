"""The Lines of Action opening set: 100 positions, one per line, in the core's text form.

The paper played its LOA matches from 100 fixed openings; ours are made by
`data/make_loa_openings.py` (seeded, reproducible). The runner plays each opening twice with the
seats swapped.
"""
from __future__ import annotations

from importlib import resources


def loa_openings() -> list[str]:
    """The shipped openings as text positions (read with LinesOfAction.from_text)."""
    text = resources.files("mcts_arena.games").joinpath("data/loa_openings.txt").read_text()
    return [line.strip() for line in text.splitlines() if line.strip()]
