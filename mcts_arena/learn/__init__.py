"""Learned knowledge: evaluations fitted to game outcomes (`arena fit`, fit.py), written to the
file a player names (`ef=FILE`: games/evalfile.py) and played as a `Knowledge`
(games/learned.pyx); and a value and policy network trained on stored games (`arena train`,
net.py; torch, an optional extra), its file named by `nn=FILE` (games/netfile.py) and played
as a `Knowledge` too (games/network.pyx)."""
