"""A small Gaussian process whose observations each carry their own noise variance: the model a
noise-aware tune fits to its trials (chess-tuning-tools' approach: each trial a mean score and
the variance of that mean, rather than TPE's good/bad split of raw scores).

Over points in the unit cube (a tune's unit coordinates, a categorical parameter one-hot), with
a constant mean (the trials' mean weighted by their precision), a Matérn 5/2 kernel with a
length scale per dimension and a signal variance, and the observation noise of trial i its own
known variance v_i on the diagonal. The length scales and signal variance maximise the log
marginal likelihood (L-BFGS-B from a few fixed starts: the same trials give the same model).
numpy and scipy only: Optuna's GP sampler needs torch, scikit-optimize's and scikit-learn's GP
are a dependency for a hundred lines. `posterior` gives the mean and variance of the response
(the noise-free score) at new points, `samples` joint draws of it there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from scipy.optimize import minimize

LENGTH = (0.1, 3.0)             # length scales in unit coordinates
SIGNAL = (1e-4, 0.25)           # the response's variance: a score lies in [0, 1]
JITTER = 1e-9


def matern52(a: np.ndarray, b: np.ndarray, length: np.ndarray, signal: float) -> np.ndarray:
    """The Matérn 5/2 covariance between the rows of a and of b."""
    d = np.sqrt(np.maximum(((a[:, None, :] - b[None, :, :]) / length) ** 2, 0).sum(-1))
    r = math.sqrt(5) * d
    return signal * (1 + r + r * r / 3) * np.exp(-r)


@dataclass
class GP:
    x: np.ndarray
    y: np.ndarray
    noise: np.ndarray
    length: np.ndarray
    signal: float
    mean: float
    _chol: tuple = ()
    _alpha: np.ndarray | None = None

    def __post_init__(self):
        k = matern52(self.x, self.x, self.length, self.signal)
        self._chol = cho_factor(k + np.diag(self.noise + JITTER), lower=True)
        self._alpha = cho_solve(self._chol, self.y - self.mean)

    def posterior(self, xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Mean and variance of the response (noise apart) at the rows of xs."""
        ks = matern52(xs, self.x, self.length, self.signal)
        mu = self.mean + ks @ self._alpha
        v = cho_solve(self._chol, ks.T)
        var = np.maximum(self.signal - np.einsum("ij,ji->i", ks, v), 1e-12)
        return mu, var

    def samples(self, xs: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
        """n joint draws of the response at the rows of xs (n x len(xs))."""
        ks = matern52(xs, self.x, self.length, self.signal)
        mu = self.mean + ks @ self._alpha
        cov = matern52(xs, xs, self.length, self.signal) - ks @ cho_solve(self._chol, ks.T)
        cov = (cov + cov.T) / 2
        # a Cholesky root (an eigendecomposition costs seconds where BLAS threads contend for
        # a loaded machine's cores), with jitter added until the nearly singular matrix takes it
        jitter = 1e-8 * max(self.signal, 1e-12)
        while True:
            try:
                root = np.linalg.cholesky(cov + np.eye(len(xs)) * jitter)
                break
            except np.linalg.LinAlgError:
                jitter *= 10
        return mu + rng.standard_normal((n, len(xs))) @ root.T

    def believe(self, x: np.ndarray, noise: float) -> GP:
        """The same model told that the response at x is its posterior mean (the kriging
        believer: the next point of a batch is asked away from the ones asked before it)."""
        mu, _ = self.posterior(x[None, :])
        return GP(np.vstack([self.x, x]), np.append(self.y, mu), np.append(self.noise, noise),
                  self.length, self.signal, self.mean)


def fit(x: np.ndarray, y: np.ndarray, noise: np.ndarray, seed: int = 0) -> GP:
    """The GP of observations y at the rows of x with noise variances `noise`, its length
    scales and signal variance at the highest marginal likelihood found from four starts."""
    x, y, noise = np.asarray(x, float), np.asarray(y, float), np.asarray(noise, float)
    w = 1 / noise
    mean = float((w * y).sum() / w.sum())
    yc = y - mean
    d = x.shape[1]

    def nll(theta):
        length, signal = np.exp(theta[:d]), math.exp(theta[d])
        k = matern52(x, x, length, signal) + np.diag(noise + JITTER)
        try:
            c = cho_factor(k, lower=True)
        except np.linalg.LinAlgError:
            return 1e10
        return float(0.5 * yc @ cho_solve(c, yc) + np.log(np.diag(c[0])).sum())

    bounds = [tuple(map(math.log, LENGTH))] * d + [tuple(map(math.log, SIGNAL))]
    spread = min(max(float(np.var(y)), SIGNAL[0]), SIGNAL[1])
    starts = [np.array([math.log(0.3)] * d + [math.log(spread)])]
    rng = np.random.default_rng(seed)
    starts += [np.array([rng.uniform(*b) for b in bounds]) for _ in range(3)]
    best = min((minimize(nll, s, method="L-BFGS-B", bounds=bounds) for s in starts),
               key=lambda r: r.fun)
    return GP(x, y, noise, np.exp(best.x[:d]), float(math.exp(best.x[d])), mean)


def score_variance(score: float, games: int) -> float:
    """The variance of a trial's mean score over `games` games: p(1-p)/n at the score shrunk
    towards 1/2 by one win and one loss (a trial of 8 wins out of 8 is not noiseless). Draws
    count as half a win, which makes it an upper bound; the games of a seat-swapped pair are
    taken as independent."""
    p = (score * games + 1) / (games + 2)
    return p * (1 - p) / games
