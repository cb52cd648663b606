# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Optimal play of Pig by value iteration (Neller & Presser, "Optimal Play of the Dice Game
Pig", The UMAP Journal 25(1), 2004), for any target and die.

States are (i, j, k): the score of the player to move, the other player's score and the turn
total, with i, j < target and i + k < target (at i + k >= target the player stops and wins).
P(i, j, k), the probability that the player to move wins when both play optimally, is

    P(i, j, k)  = max(P_roll, P_stop)
    P_stop      = 1 - P(j, i + k, 0)                        (1 when i + k >= target)
    P_roll      = (1 - P(j, i, 0) + sum_{f=2..sides} P(i, j, k + f)) / sides

(a 1 hands the turn over with nothing banked). The equations are cyclic (a 1 or a stop at k = 0
returns to the same scores), so they are solved by iteration; as in the paper the states are
taken by score sum i + j, highest first: a stop with k > 0 leads to a higher sum, already
solved, so each sum is a small system iterated to convergence (in place, k from high to low)
before the next. The game's horizon (a draw after 1,000 decisions in OpenSpiel's rules) is left
out: optimal players end a game to 100 long before it.

For the standard game (target 100, six-sided die) the first player wins with probability
0.5306 (the paper's figure); `solve(100).first_player_win()` reproduces it.
"""
from libc.math cimport fabs
from libc.stdlib cimport malloc, free

#: the largest target solved: the table holds target^3 / 2 doubles (216 MB at 300)
MAX_SOLVE_TARGET = 300


cdef class PigSolution:
    """Win probabilities and the optimal policy of Pig to `target` with a `sides`-sided die."""

    cdef double* p          # P(i, j, k) at off[i] + j * (target - i) + k
    cdef long* off
    cdef readonly int target, sides, sweeps
    cdef readonly double tol

    def __cinit__(self):
        self.p = NULL
        self.off = NULL

    def __dealloc__(self):
        free(self.p)
        free(self.off)

    cdef inline double get(self, int i, int j, int k) noexcept nogil:
        if i + k >= self.target:
            return 1.0
        return self.p[self.off[i] + j * (self.target - i) + k]

    def _check(self, int i, int j, int k):
        if not (0 <= i < self.target and 0 <= j < self.target and k >= 0):
            raise ValueError(f"no Pig state ({i}, {j}, {k}) below target {self.target}: "
                             "scores 0 to target - 1, turn total >= 0")

    def win_probability(self, int i, int j, int k=0):
        """P(i, j, k): the player to move (score i, other j, turn total k) wins under optimal
        play by both."""
        self._check(i, j, k)
        return self.get(i, j, k)

    def should_roll(self, int i, int j, int k=0):
        """Does optimal play roll here (False: stop)? At i + k >= target it stops (and wins).
        On equal values it stops: a banked score cannot be lost."""
        self._check(i, j, k)
        if i + k >= self.target:
            return False
        return self._roll_value(i, j, k) > self._stop_value(i, j, k)

    cdef double _stop_value(self, int i, int j, int k) noexcept nogil:
        if i + k >= self.target:
            return 1.0
        return 1.0 - self.get(j, i + k, 0)

    cdef double _roll_value(self, int i, int j, int k) noexcept nogil:
        cdef double s = 1.0 - self.get(j, i, 0)
        cdef int f
        for f in range(2, self.sides + 1):
            s += self.get(i, j, k + f)
        return s / self.sides

    def move(self, state):
        """The optimal move id ('roll' or 'stop') of the side to move in a Pig position of
        this target and die (not at a chance node or a finished game)."""
        self._same_game(state)
        if state.is_terminal() or state.is_chance_node():
            raise ValueError("no move to choose: the game is over or the die is rolled next")
        scores, k, p = state.scores(), state.turn_total(), state.to_move()
        i, j = scores[p], scores[1 - p]
        return state.parse_move("roll" if self.should_roll(i, j, k) else "stop")

    def win_probability_at(self, state):
        """P for the side to move of a Pig position of this target and die (before its roll
        or decision; at a chance node, the roller's chance before the die lands)."""
        self._same_game(state)
        if state.is_terminal():
            raise ValueError("the game is over")
        scores, k, p = state.scores(), state.turn_total(), state.to_move()
        i, j = scores[p], scores[1 - p]
        if state.is_chance_node():
            return self._roll_value(i, j, k)
        return self.get(i, j, k)

    def _same_game(self, state):
        if (state.target, state.sides) != (self.target, self.sides):
            raise ValueError(f"this solution is for pig(target={self.target}, sides="
                             f"{self.sides}), the position is of pig(target={state.target}, "
                             f"sides={state.sides})")

    def first_player_win(self):
        """The first player's winning probability from 0-0 under optimal play by both."""
        return self.get(0, 0, 0)

    def hold_at(self, int i, int j):
        """The smallest turn total at which optimal play stops with scores i (own) and j, or
        target - i when it rolls all the way to the target."""
        cdef int k
        self._check(i, j, 0)
        for k in range(self.target - i + 1):
            if not self.should_roll(i, j, k):
                return k
        return self.target - i

    def summary(self):
        """A few lines describing the solution (for `arena prove`)."""
        step = max(1, self.target // 10)
        others = list(range(0, self.target, step))
        holds = ", ".join(f"{j}: {self.hold_at(0, j)}" for j in others)
        return "\n".join([
            f"pig(target={self.target}, sides={self.sides}): optimal play by value iteration "
            f"({self.sweeps} sweeps, tolerance {self.tol:g})",
            f"first player wins with probability {self.first_player_win():.6f}",
            f"optimal first turn: roll until the turn total is {self.hold_at(0, 0)}, then stop",
            f"with no points yet, stop at turn total (by the other's score) {holds}"])


_CACHE = {}


def exact(params, check=False):
    """GameInfo.exact_solver of pig: the solution for the game's target and die (check=True:
    only whether it can be solved, ValueError if not, without solving it)."""
    target, sides = params.get("target", 100), params.get("sides", 6)
    if check:
        _check(target, sides)
        return None
    return solution(target, sides)


def _check(int target, int sides):
    if not 1 <= target <= MAX_SOLVE_TARGET:
        raise ValueError(f"Pig is solved for targets 1 to {MAX_SOLVE_TARGET} (the table grows "
                         f"as target^3), got {target}")
    if not 2 <= sides <= 20:
        raise ValueError(f"Pig is solved for dice of 2 to 20 sides, got {sides}")


def solution(int target=100, int sides=6):
    """solve(target, sides), computed once per process (a player asks at every move)."""
    key = (target, sides)
    if key not in _CACHE:
        _CACHE[key] = solve(target, sides)
    return _CACHE[key]


def solve(int target=100, int sides=6, double tol=1e-12):
    """Solve Pig to `target` with a `sides`-sided die; ValueError for a target out of range."""
    _check(target, sides)
    cdef PigSolution sol = PigSolution.__new__(PigSolution)
    cdef long total = 0, i
    sol.target = target
    sol.sides = sides
    sol.tol = tol
    sol.off = <long*>malloc(target * sizeof(long))
    if sol.off == NULL:
        raise MemoryError()
    for i in range(target):
        sol.off[i] = total
        total += <long>target * (target - i)
    sol.p = <double*>malloc(total * sizeof(double))
    if sol.p == NULL:
        raise MemoryError()
    for i in range(total):
        sol.p[i] = 0.5
    with nogil:
        sol.sweeps = _solve(sol, tol)
    return sol


cdef int _solve(PigSolution sol, double tol) noexcept nogil:
    """Score sums from the highest down; each sum's states iterated in place to `tol`."""
    cdef int n = sol.target, s, i, j, k, sweeps = 0
    cdef double v, roll, stop, delta
    cdef double* p = sol.p
    for s in range(2 * n - 2, -1, -1):
        while True:
            sweeps += 1
            delta = 0.0
            for i in range(max(0, s - n + 1), min(s, n - 1) + 1):
                j = s - i
                for k in range(n - i - 1, -1, -1):
                    roll = sol._roll_value(i, j, k)
                    stop = sol._stop_value(i, j, k)
                    v = roll if roll > stop else stop
                    delta = max(delta, fabs(v - p[sol.off[i] + j * (n - i) + k]))
                    p[sol.off[i] + j * (n - i) + k] = v
            if delta < tol:
                break
    return sweeps
