"""Learned knowledge: evaluations fitted to game outcomes (`arena fit`, fit.py), written to the
file a player names (`ef=FILE`: games/evalfile.py) and played as a `Knowledge`
(games/learned.pyx)."""
