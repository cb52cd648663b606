# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A value and policy network as knowledge: a small multilayer perceptron over a game's input
encoding (games/netinput.pxd), trained from stored games (mcts_arena/learn/net.py), on top of the
game's own knowledge for everything else.

    h_0 = x(s)                        the encoding, from the side to move's view
    h_l = max(0, W_l h_(l-1) + b_l)   the hidden layers
    value(s) = tanh(w_v . h_L + b_v)
    P(a | s) = softmax over the legal moves of (W_p h_L + b_p)[action(a)]

`evaluate` is the value head (a finished game ±1, a draw 0, as every evaluation) and
`move_prior` the policy head's probability of the move among the legal ones: PUCT's prior
(`puctp`) and node priors ask it once per child, so the whole position's priors are computed
at the first child and kept for the position's hash; values are kept in a small table by hash
too (a child evaluated for im is not evaluated again when it becomes a leaf). The forward pass is C
loops over C arrays, no Python objects; the first layer adds only the non-zero inputs.

Move orders, biases, playout policies, forced moves, threats and the selective search's move
lists are the base knowledge's (an `Overlay`, games/learned.pxd, as LinearKnowledge is).
"""
from libc.math cimport tanh, exp
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free

from mcts_arena.games.learned cimport Overlay, finished
from mcts_arena.games.netinput cimport NetInput
from mcts_arena.games.state cimport GameState, Knowledge, ONGOING

cdef enum:
    MAX_LAYERS = 8
    VALUE_SLOTS = 4096      # the value table's size (a power of 2)


cdef class NetKnowledge(Overlay):
    """The base knowledge with the network's value as its evaluation and its policy as priors."""

    cdef readonly NetInput encoding
    cdef int n_hidden                   # hidden layers
    cdef int width[MAX_LAYERS + 1]      # width[0] inputs, width[l] hidden layer l
    cdef double* w                      # every parameter, in the file's order
    cdef int w_at[MAX_LAYERS]           # hidden layer l's W (width[l+1] x width[l], by rows)
    cdef int b_at[MAX_LAYERS]
    cdef int value_at, policy_at, policy_b_at, n_params
    cdef double* act                    # two activation buffers of the widest layer
    cdef double* act2
    cdef int* nz                        # the non-zero inputs' indices
    cdef int* moves                     # the cached position's legal moves and priors
    cdef double* probs
    cdef int n_moves
    cdef uint64_t prior_hash
    cdef bint prior_valid
    cdef uint64_t* value_key
    cdef double* value_val
    cdef char* value_used

    def __cinit__(self):
        self.w = self.act = self.act2 = self.probs = self.value_val = NULL
        self.nz = self.moves = NULL
        self.value_key = NULL
        self.value_used = NULL

    def __dealloc__(self):
        free(self.w)
        free(self.act)
        free(self.act2)
        free(self.nz)
        free(self.moves)
        free(self.probs)
        free(self.value_key)
        free(self.value_val)
        free(self.value_used)

    def __init__(self, Knowledge base, NetInput encoding, hidden, const double[::1] params,
                 int max_moves):
        """hidden: the hidden layers' widths; params: every weight, in the order of the file
        (each hidden layer's W by rows, then its b; the value head's w, b; the policy head's
        W by rows, b); max_moves: the most legal moves a position of the game has."""
        cdef int i, l, at = 0, widest
        if self.w != NULL:
            raise ValueError("a NetKnowledge is set up once")
        if not 1 <= len(hidden) <= MAX_LAYERS or any(int(h) < 1 for h in hidden):
            raise ValueError(f"hidden layers {list(hidden)}: 1 to {MAX_LAYERS} widths >= 1")
        Overlay.__init__(self, base)
        self.encoding = encoding
        self.n_hidden = len(hidden)
        self.width[0] = encoding.n_inputs
        widest = encoding.n_inputs
        for l in range(self.n_hidden):
            self.width[l + 1] = int(hidden[l])
            widest = max(widest, self.width[l + 1])
        for l in range(self.n_hidden):
            self.w_at[l] = at
            at += self.width[l + 1] * self.width[l]
            self.b_at[l] = at
            at += self.width[l + 1]
        self.value_at = at
        at += self.width[self.n_hidden] + 1
        self.policy_at = at
        at += encoding.n_actions * self.width[self.n_hidden]
        self.policy_b_at = at
        at += encoding.n_actions
        self.n_params = at
        if params.shape[0] != at:
            raise ValueError(f"{params.shape[0]} parameters for a network of {at} "
                             f"({encoding.n_inputs} inputs, hidden {list(hidden)}, "
                             f"{encoding.n_actions} actions)")
        self.w = <double*>malloc(at * sizeof(double))
        self.act = <double*>malloc(widest * sizeof(double))
        self.act2 = <double*>malloc(widest * sizeof(double))
        self.nz = <int*>malloc(encoding.n_inputs * sizeof(int))
        self.moves = <int*>malloc(max_moves * sizeof(int))
        self.probs = <double*>malloc(max_moves * sizeof(double))
        self.value_key = <uint64_t*>malloc(VALUE_SLOTS * sizeof(uint64_t))
        self.value_val = <double*>malloc(VALUE_SLOTS * sizeof(double))
        self.value_used = <char*>malloc(VALUE_SLOTS)
        if self.w == NULL or self.act == NULL or self.act2 == NULL or self.nz == NULL or \
                self.moves == NULL or self.probs == NULL or self.value_key == NULL or \
                self.value_val == NULL or self.value_used == NULL:
            raise MemoryError()
        for i in range(at):
            self.w[i] = params[i]
        for i in range(VALUE_SLOTS):
            self.value_used[i] = 0
        self.prior_valid = False

    # ---- the forward pass -------------------------------------------------------------------
    cdef double* _hidden(self, GameState s) noexcept nogil:
        """The last hidden layer's activations at s (a buffer of this object's)."""
        cdef double* x = self.act
        cdef double* y = self.act2
        cdef double* t
        cdef double* row
        cdef double acc
        cdef int i, j, l, nnz = 0, n_in = self.width[0], n_out
        self.encoding.encode(s, x)
        for i in range(n_in):
            if x[i] != 0.0:
                self.nz[nnz] = i
                nnz += 1
        for l in range(self.n_hidden):
            n_in = self.width[l]
            n_out = self.width[l + 1]
            for j in range(n_out):
                row = &self.w[self.w_at[l] + j * n_in]
                acc = self.w[self.b_at[l] + j]
                if l == 0:
                    for i in range(nnz):
                        acc += row[self.nz[i]] * x[self.nz[i]]
                else:
                    for i in range(n_in):
                        acc += row[i] * x[i]
                y[j] = acc if acc > 0.0 else 0.0
            t = x
            x = y
            y = t
        return x

    cdef inline double _value_arg(self, double* h) noexcept nogil:
        cdef int i, n = self.width[self.n_hidden]
        cdef double acc = self.w[self.value_at + n]
        for i in range(n):
            acc += self.w[self.value_at + i] * h[i]
        return acc

    cdef double _value_of(self, GameState s) noexcept nogil:
        """tanh of the value head at an ongoing s, from the table or computed."""
        cdef int slot = <int>(s.hash & (VALUE_SLOTS - 1))
        cdef double v
        if self.value_used[slot] and self.value_key[slot] == s.hash:
            return self.value_val[slot]
        v = tanh(self._value_arg(self._hidden(s)))
        self.value_key[slot] = s.hash
        self.value_val[slot] = v
        self.value_used[slot] = 1
        return v

    cdef void _priors(self, GameState s) noexcept nogil:
        """The policy's softmax over the legal moves at s, kept for s's hash."""
        cdef double* h = self._hidden(s)
        cdef double* row
        cdef double acc, top = -1e300, total = 0.0
        cdef int i, k, a, n = s.gen_moves(self.moves), width = self.width[self.n_hidden]
        cdef int slot = <int>(s.hash & (VALUE_SLOTS - 1))
        self.value_key[slot] = s.hash
        self.value_val[slot] = tanh(self._value_arg(h))
        self.value_used[slot] = 1
        for k in range(n):
            a = self.encoding.action(s, self.moves[k])
            row = &self.w[self.policy_at + a * width]
            acc = self.w[self.policy_b_at + a]
            for i in range(width):
                acc += row[i] * h[i]
            self.probs[k] = acc
            if acc > top:
                top = acc
        for k in range(n):
            self.probs[k] = exp(self.probs[k] - top)
            total += self.probs[k]
        for k in range(n):
            self.probs[k] /= total
        self.n_moves = n
        self.prior_hash = s.hash
        self.prior_valid = True

    # ---- the knowledge it replaces ----------------------------------------------------------
    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        cdef int r = s.result()
        if r != ONGOING:
            return finished(s, r)
        return self._value_of(s)

    cdef bint evaluate_tanh_arg(self, GameState s, int evalfn, double* x) noexcept nogil:
        if s.result() != ONGOING:
            return False
        x[0] = self._value_arg(self._hidden(s))
        return True

    cdef double move_prior(self, GameState s, int move) noexcept nogil:
        cdef int k
        if s.result() != ONGOING:
            return -1.0
        if not self.prior_valid or self.prior_hash != s.hash:
            self._priors(s)
        for k in range(self.n_moves):
            if self.moves[k] == move:
                return self.probs[k]
        return -1.0

    def py_move_prior(self, GameState state, int move):
        """move_prior(state, move), through the cache as a search asks it (tests)."""
        return self.move_prior(state, move)

    def py_forward(self, GameState state):
        """(value, {move id: prior}) at an ongoing position, computed afresh (tests)."""
        self.prior_valid = False
        value = tanh(self._value_arg(self._hidden(state)))
        self._priors(state)
        return value, {self.moves[k]: self.probs[k] for k in range(self.n_moves)}
