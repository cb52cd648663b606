# cython: language_level=3
"""imas's bandits (alphaarms.pxd): their arms set from Python, and `arms_choice`, the arm one
side's bandit picks, for tests and for working the rule by hand."""
from libc.string cimport memset


cdef int arms_set(AlphaArms* b, tuple arms) except -1:
    """The bandits' arms: the α values (at most ARMS_MAX, each in [0, 1]), no simulation yet,
    UCB1's c = 1 (rewards in [-1, 1]); an empty tuple: no bandits."""
    cdef int a
    memset(b, 0, sizeof(AlphaArms))
    if len(arms) > ARMS_MAX:
        raise ValueError(f"at most {ARMS_MAX} arms, got {len(arms)}")
    for a in range(len(arms)):
        if not (0.0 <= arms[a] <= 1.0):
            raise ValueError(f"an arm's alpha must be 0 to 1, got {arms[a]}")
        b.alpha[a] = arms[a]
    b.k = len(arms)
    b.c = 1.0
    return 0


def arms_choice(arms, double c=1.0):
    """The arm a side's bandit (`arms_pick`) chooses when its arms are `arms`, a list of
    (simulations, summed reward)."""
    cdef AlphaArms b
    cdef int a
    if not 0 < len(arms) <= ARMS_MAX:
        raise ValueError(f"1 to {ARMS_MAX} arms, got {len(arms)}")
    memset(&b, 0, sizeof(AlphaArms))
    b.k = len(arms)
    b.c = c
    for a in range(b.k):
        b.n[0][a], b.w[0][a] = arms[a]
    return arms_pick(&b, 0)
