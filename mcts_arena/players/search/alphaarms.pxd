# cython: language_level=3
"""α adapted per simulation (`imas`): a UCB1 bandit for each side over a few α values, in the
manner of Sironi & Winands' self-adaptive MCTS (online parameter tuning in General Game
Playing): before each simulation each side draws its α, which the selection uses at the nodes
where that side moves; the simulation's reward, from that side's view, is its arm's reward. The
arms' counts live in the search (mcts.pyx) and start afresh with every search: the rewards an
arm is compared by all come from one root (counts kept over a game mix positions whose values
drift, and UCB1 then locks onto whichever arm was played while the side's prospects rose)."""
from libc.math cimport log, sqrt

cdef enum:
    ARMS_MAX = 8


cdef struct AlphaArms:
    int k                       # the arms in use (0: off)
    double alpha[ARMS_MAX]      # each arm's α
    long n[2][ARMS_MAX]         # simulations each side played with each arm
    double w[2][ARMS_MAX]       # their summed rewards, that side's view, in [-1, 1]
    int arm[2]                  # each side's arm for the current simulation
    double c                    # UCB1's exploration constant


cdef int arms_set(AlphaArms* b, tuple arms) except -1


cdef inline void arms_clear(AlphaArms* b) noexcept nogil:
    """Forget every simulation: a new search's bandits (the arms and c stay)."""
    cdef int a
    for a in range(ARMS_MAX):
        b.n[0][a] = b.n[1][a] = 0
        b.w[0][a] = b.w[1][a] = 0.0


cdef inline int arms_pick(AlphaArms* b, int side) noexcept nogil:
    """UCB1's arm for `side`: an untried arm first (lowest index), else the largest mean +
    c sqrt(ln N / n), ties to the lower index."""
    cdef int a, best = 0
    cdef long total = 0
    cdef double index, best_index = -1e300, log_n
    for a in range(b.k):
        if b.n[side][a] == 0:
            return a
        total += b.n[side][a]
    log_n = log(<double>total)
    for a in range(b.k):
        index = b.w[side][a] / b.n[side][a] + b.c * sqrt(log_n / b.n[side][a])
        if index > best_index:
            best_index = index
            best = a
    return best


cdef inline void arms_draw(AlphaArms* b) noexcept nogil:
    """Each side's arm for the next simulation."""
    b.arm[0] = arms_pick(b, 0)
    b.arm[1] = arms_pick(b, 1)


cdef inline void arms_reward(AlphaArms* b, double r0) noexcept nogil:
    """The simulation ended with reward r0 (player 0's view): each side's arm gets its own."""
    b.n[0][b.arm[0]] += 1
    b.w[0][b.arm[0]] += r0
    b.n[1][b.arm[1]] += 1
    b.w[1][b.arm[1]] -= r0
