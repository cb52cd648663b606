"""What a tune reports (results/tune.py reads it): the value found with its range, the SPSA
trajectory or the BO trials, the confirmation match with its 95% interval (and its SPRT's
outcome, where the config asks for one), and a picture of the path (each parameter against the
games played; for BO every trial's point, its score and the fitted response along the first
numeric parameter)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from mcts_arena import budgets
from mcts_arena.report.figures import _figure, _save
from mcts_arena.results.store import DB_NAME, Store
from mcts_arena.results.tune import (
    TuneSettings,
    TuneState,
    encode,
    fishtest_inputs,
    gp_model,
    read,
    response_at,
    response_fit,
)


def text_of(directory: str | Path) -> str | None:
    """The tune a results directory holds, as `render` writes it (None: not a tune's)."""
    if not (Path(directory) / DB_NAME).is_file():
        return None
    with Store.open(directory) as store:
        st = read(store)
    return None if st is None else render(st)


def settings_text(s: TuneSettings) -> str:
    """The tune's settings as `render` and `arena tune --dry-run` begin with them."""
    return "\n".join(_settings_lines(s)) + "\n"


def _settings_lines(s: TuneSettings) -> list[str]:
    lines = [f"tune {s.name}: {s.method} of {s.template} on {s.game}, budget "
             f"{_budget(s.budget)}, seed {s.seed}"]
    for p in s.params:
        dom = (f"choices {', '.join(p.choices)}" if p.kind == "choice" else
               f"{p.kind} [{p.text(p.low)}, {p.text(p.high)}]{' log' if p.log else ''}")
        lines.append(f"  {p.name}: {dom}, start {p.text(p.start)}")
    if s.method == "spsa":
        g = s.spsa
        lines.append(f"  SPSA: {s.steps} steps (a pair each, θ+cΔ vs θ-cΔ), {g.batch} at a "
                     f"time; a {g.a:.4g}, c {g.c:g}, A {g.A:g}, alpha {g.alpha:g}, "
                     f"gamma {g.gamma:g} (unit coordinates)")
        own = "each parameter its own" if g.c_each else "shared"
        lines.append(f"  as fishtest's inputs ({own}; c_end in the parameter's units"
                     f"{', at its start for a log scale' if any(p.log for p in s.params) else ''}"
                     f"): " + "; ".join(f"{p.name} c_end {c:.4g} r_end {r:.4g}" for p, (c, r)
                                        in zip(s.params, fishtest_inputs(s))))
        if any(p.kind == "int" for p in s.params):
            how = "at random (as fishtest)" if g.rounding == "random" else "to the nearest"
            lines.append(f"  integers at θ±cΔ rounded {how}")
    else:
        b = s.bo
        how = ("a Gaussian process told each trial's variance" if b.sampler == "gp" else
               "Optuna TPE")
        lines.append(f"  BO: {how}, {s.steps} trials of {b.games_per_trial} games against "
                     f"{s.opponent}, {b.batch} at a time, {b.startup} random first")
    return lines


def render(st: TuneState, every: int = 0) -> str:
    """The tune as plain text: settings, the path (every `every`-th SPSA point; 0: about 20
    lines), the estimate and the confirmation."""
    s = st.settings
    lines = _settings_lines(s)
    if s.method == "spsa":
        lines.append("")
        lines.append(f"  {'step':>5} {'games':>6}  " + "  ".join(f"{p.name:>8}" for p in s.params))
        every = every or max(1, (len(st.path) - 1) // 20)
        for i, u in enumerate(st.path):
            if i % every and i != len(st.path) - 1:
                continue
            vals = s.unit_values(u)
            lines.append(f"  {i:>5} {2 * i:>6}  " +
                         "  ".join(f"{p.text(vals[p.name]):>8}" for p in s.params))
    else:
        lines.append("")
        lines.append(f"  {'trial':>5} {'games':>6} {'score':>6}  " +
                     "  ".join(f"{p.name:>8}" for p in s.params))
        for t in st.trials:
            sc = "-" if t["score"] is None else f"{100 * t['score']:.0f}%"
            lines.append(f"  {t['trial']:>5} {t['games']:>6} {sc:>6}  " +
                         "  ".join(f"{p.text(t['values'][p.name]):>8}" for p in s.params))
    lines.append("")
    e = st.estimate
    state = "found" if st.search_done else "so far"
    lines.append(f"value {state} after {st.search_games} games: " + ", ".join(
        f"{p.name} {p.text(e.values[p.name])} [{p.text(e.low[p.name])}, "
        f"{p.text(e.high[p.name])}]" for p in s.params))
    lines.append(f"  ({e.how})")
    c = st.confirmation
    if c is not None:
        score, lo, hi = c.interval()
        lines.append(f"confirmation: {c.tuned} vs {c.reference}: {c.played} of {c.games} games, "
                     f"+{c.wins:g} ={c.draws:g} -{c.losses:g}, score {100 * score:.1f}% "
                     f"[{100 * lo:.1f}, {100 * hi:.1f}] (95%)" if c.played else
                     f"confirmation: {c.tuned} vs {c.reference}: none of {c.games} games yet")
        if c.sprt is not None:
            lines.append(f"  {c.sprt_line()}")
            lines.append(f"  ({s.confirm_sprt}: LLR bounds {c.sprt['lower']:.2f}, "
                         f"{c.sprt['upper']:.2f}; at most {c.games} games)")
    return "\n".join(lines) + "\n"


def _budget(d: dict) -> str:
    if "clock" in d:            # a tune on a clock: the budget's one text (`clock 10+0.1`)
        return budgets.text(d)
    return ", ".join(f"{k} {v:g}" for k, v in d.items() if v is not None)


def picture(st: TuneState, path: str | Path, dpi: int = 100) -> Path:
    """One panel per parameter, in the parameter's own units (a log axis where its domain is
    log-scaled). SPSA: the parameter's value against the games played, the estimate and its
    range shaded. BO: each trial's score against the parameter (a choice: its choices on the
    axis), the fitted response along it with the other parameters at the estimate (the
    quadratic surface; with the GP sampler the GP's mean ± 2 sd), the estimate and its range
    marked."""
    s = st.settings
    n = len(s.params)
    fig = _figure(6.4, 1.2 + 2.2 * n)
    axes = [fig.add_subplot(n, 1, i + 1) for i in range(n)]
    if s.method == "spsa":
        _spsa_panels(st, axes)
    else:
        _bo_panels(st, axes)
    what = "SPSA" if s.method == "spsa" else (
        "BO (Gaussian process)" if s.bo.sampler == "gp" else "BO (TPE)")
    axes[0].set_title(f"{what}: {s.template} ({s.game})", fontsize=9)
    fig.tight_layout()
    return _save(fig, path, dpi)


def _spsa_panels(st: TuneState, axes) -> None:
    s, e = st.settings, st.estimate
    games = 2 * np.arange(len(st.path))
    for i, (p, ax) in enumerate(zip(s.params, axes)):
        ax.plot(games, [p.exact(u[i]) for u in st.path], lw=1, label="θ")
        ax.axhline(float(e.values[p.name]), color="k", lw=1, label="estimate")
        ax.axhspan(float(e.low[p.name]), float(e.high[p.name]), color="k", alpha=0.1,
                   label="its range")
        ax.set_ylim(p.low, p.high)
        if p.log:
            ax.set_yscale("log")
        ax.set_ylabel(p.name)
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    axes[-1].set_xlabel("games")


def _bo_panels(st: TuneState, axes) -> None:
    s, e = st.settings, st.estimate
    done = [t for t in st.trials if t["score"] is not None]
    curve = _response_along(st, done)
    for p, ax in zip(s.params, axes):
        ax.set_ylabel(f"score vs {s.opponent} (%)", fontsize=7)
        ax.set_xlabel(p.name)
        if not done:
            continue
        if p.kind == "choice":
            pos = {c: k for k, c in enumerate(p.choices)}
            ax.scatter([pos[str(t["values"][p.name])] for t in done],
                       [100 * t["score"] for t in done],
                       s=[6 + 2 * t["games"] for t in done], alpha=0.6)
            ax.set_xticks(range(len(p.choices)), p.choices)
            ax.axvline(pos[str(e.values[p.name])], color="k", lw=1)
            continue
        ax.scatter([t["values"][p.name] for t in done], [100 * t["score"] for t in done],
                   s=[6 + 2 * t["games"] for t in done], alpha=0.6,
                   label="trials (area: games)")
        line = curve(p)
        if line is not None:
            xs, mu, sd = line
            ax.plot(xs, 100 * mu, label="fitted response")
            if sd is not None:
                ax.fill_between(xs, 100 * (mu - 2 * sd), 100 * (mu + 2 * sd), alpha=0.15,
                                label="± 2 sd")
        ax.axvline(float(e.values[p.name]), color="k", lw=1, label="estimate")
        ax.axvspan(float(e.low[p.name]), float(e.high[p.name]), color="k", alpha=0.1)
        if p.log:
            ax.set_xscale("log")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))


def _response_along(st: TuneState, done: list[dict]):
    """A function of a numeric parameter p: (its values, the response's mean, its sd or None)
    along p's range with the others at the estimate, or None without a model."""
    s, e = st.settings, st.estimate
    grid = np.linspace(0, 1, 101)
    if s.bo.sampler == "gp":
        if len(done) < 2:
            return lambda p: None
        model = gp_model(s, done, s.seed)

        def along(p):
            pts = np.array([encode(s, {**e.values, p.name: p.exact(g)}) for g in grid])
            mu, var = model.posterior(pts)
            return [p.exact(g) for g in grid], mu, np.sqrt(var)
        return along
    num = [q for q in s.params if q.kind != "choice"]
    same = [t for t in done if all(t["values"][q.name] == e.values[q.name]
                                   for q in s.params if q.kind == "choice")]
    if not same:
        return lambda p: None
    u = np.array([[q.to_unit(t["values"][q.name]) for q in num] for t in same])
    coef = response_fit(u, np.array([t["score"] for t in same]),
                        np.array([t["games"] for t in same], dtype=float))
    if coef is None:
        return lambda p: None

    def quadratic(p):
        pts = np.array([[g if q is p else q.to_unit(e.values[q.name]) for q in num]
                        for g in grid])
        return [p.exact(g) for g in grid], response_at(coef, pts), None
    return quadratic
