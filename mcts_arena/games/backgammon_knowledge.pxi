# backgammon.pyx's knowledge (included at its end): the evaluations efBG and efPip (the race,
# the contact features and their fitted weights) and the Knowledge class the searches hold.

cdef inline double race_value(const unsigned char* me, const unsigned char* op) noexcept nogil:
    """The race from the view of the side on roll, in (-1, 1): 2W - 1 with W its winning
    chance by the normal model behind the Kleinman count (Danny Kleinman; rec.games.backgammon,
    Oystein Johansen 2001): the lead in standard deviations is Z = (D + 4) / sqrt(S - 4), with
    D = the other's pips - mine and S their sum (+-4 for being on roll), and W = Phi(0.706 Z),
    the constant reproducing Kleinman's table (K = Z^2 = 0.5, 1, 2 give W = 0.69, 0.76, 0.84;
    100 against 113 pips on roll gives 0.797, as his count does). Where W rounds to 0 or 1 the
    pip difference still orders positions, by a term below 1e-6, and the value stays inside
    (-1, 1): only a finished game is worth +-1."""
    cdef int mine = pips(me), theirs = pips(op)
    cdef double ss = theirs + mine - 4.0
    cdef double z, v
    if ss < 1.0:
        ss = 1.0
    z = 0.706 * (theirs - mine + 4.0) / sqrt(ss)
    v = erfc(-z * 0.7071067811865476) - 1.0         # 2 Phi(z) - 1
    return v * (1.0 - 2e-6) + 1e-6 * tanh((theirs - mine) / 100.0)


cdef inline bint contact(const unsigned char* me, const unsigned char* op) noexcept nogil:
    """Can a checker still hit or block one of the other side? (Some checker of the mover is
    behind some checker of the other side: my highest point + its highest point > 25.)"""
    return highest(me) + highest(op) > 25


# The contact evaluation: P(the side on roll wins) = 1 / (1 + exp(-w . f)) over the features
# below, each the mover's count minus the other side's (so a mirrored position is worth minus
# as much), plus a constant for being on roll:
#   f0  1 (on roll)
#   f1  pip counts: (other's - mine) / 100
#   f2  points made (2+ checkers) in the home board, 1-6
#   f3  the longest prime: consecutive made points anywhere
#   f4  anchors: points made in the other side's home board (own points 19-24)
#   f5  exposed blots: single checkers with a checker of the other side (or its bar) behind
#       them within 11 points (a direct or combination shot)
#   f6  checkers on the bar
#   f7  checkers borne off
#   f8  checkers back: on the own points 19-24 and the bar (slow to come home)
# The weights are not set by hand: they are the logistic regression of who won on these
# features, over 165,000 contact positions of 3,000 games of 1-ply greedy self-play after five
# rounds of refitting (benchmarks/fit_backgammon_eval.py, its default command; log loss 0.548
# against 0.693 for a coin). Signs as a player expects: being on roll, a pip lead, home points,
# primes and borne-off checkers help; anchors (checkers held back), exposed blots, checkers on
# the bar and back checkers hurt.
cdef enum:
    NFEAT = 9
cdef double W[NFEAT]
W[:] = [0.1522, 1.2114, 0.1834, 0.1050, -0.0885, -0.0697, -0.2134, 0.2763, -0.1149]


cdef inline int made_in(const unsigned char* me, int lo, int hi) noexcept nogil:
    cdef int q, n = 0
    for q in range(lo, hi + 1):
        if me[q] >= 2:
            n += 1
    return n


cdef inline int longest_prime(const unsigned char* me) noexcept nogil:
    cdef int q, run = 0, best = 0
    for q in range(1, 25):
        if me[q] >= 2:
            run += 1
            if run > best:
                best = run
        else:
            run = 0
    return best


cdef inline int exposed_blots(const unsigned char* me, const unsigned char* op) noexcept nogil:
    """My blots with a checker of the other side behind them within 11 points. The other side
    moves up my numbering: its checker on its point u is on my point 25 - u, its bar below my
    point 1 (my point 0 for this count)."""
    cdef int q, k, n = 0
    cdef int behind[26]
    # behind[q]: does the other side have a checker on my point q (0 = its bar)?
    behind[0] = op[BAR] > 0
    for q in range(1, 25):
        behind[q] = op[25 - q] > 0
    for q in range(1, 25):
        if me[q] != 1:
            continue
        for k in range(1, 12):
            if q - k < 0:
                break
            if behind[q - k]:
                n += 1
                break
    return n


cdef void eval_features(const unsigned char* me, const unsigned char* op, double* f) noexcept nogil:
    f[0] = 1.0
    f[1] = (pips(op) - pips(me)) / 100.0
    f[2] = made_in(me, 1, 6) - made_in(op, 1, 6)
    f[3] = longest_prime(me) - longest_prime(op)
    f[4] = made_in(me, 19, 24) - made_in(op, 19, 24)
    f[5] = exposed_blots(me, op) - exposed_blots(op, me)
    f[6] = me[BAR] - op[BAR]
    f[7] = me[OFF] - op[OFF]
    f[8] = (me[19] + me[20] + me[21] + me[22] + me[23] + me[24] + me[BAR]) - (
        op[19] + op[20] + op[21] + op[22] + op[23] + op[24] + op[BAR])


cdef inline double contact_value(const unsigned char* me, const unsigned char* op) noexcept nogil:
    cdef double f[NFEAT]
    cdef double z = 0.0
    cdef int i
    eval_features(me, op, f)
    for i in range(NFEAT):
        z += W[i] * f[i]
    return 2.0 / (1.0 + exp(-z)) - 1.0


cdef inline double _evaluate(Backgammon s, int evalfn) noexcept nogil:
    cdef int p = s.player
    cdef double v
    if s.res != ONGOING:
        v = s.terminal_reward()
        return v if p == 0 else -v
    if s.phase == OPENING:
        # nobody is on roll yet: the mean of both sides' views on roll
        return 0.5 * (s._eval_on_roll(0, evalfn) - s._eval_on_roll(1, evalfn))
    return s._eval_on_roll(p, evalfn)


cdef class BackgammonKnowledge(Knowledge):
    """Backgammon's evaluations (efBG, efPip; module docstring)."""

    game = "backgammon"

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<Backgammon>s, evalfn)
