"""SPRT state: the test a config asks for (`Sprt`), the tracker that feeds it one game at a
time (the runner stops a pairing once it decides), and the state a store holds, as decided
during the run or replayed from the stored games (`sprt_status`, for summaries and reports).

The statistics (GSPRT on the pentanomial of seat-swapped pairs) are mcts_arena.stats'. A
decision is kept in the store's meta table (`sprt/<pairing id>`, JSON) by the runner.
"""
from __future__ import annotations

import collections
from dataclasses import asdict, dataclass

from mcts_arena.results import rows


@dataclass(frozen=True)
class Sprt:
    """A GSPRT stopping rule: H0 elo <= elo0 against H1 elo >= elo1, error rates alpha, beta."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "logistic"

    def __str__(self) -> str:
        return (f"SPRT elo0={self.elo0:g} elo1={self.elo1:g} alpha={self.alpha:g} "
                f"beta={self.beta:g}" + ("" if self.model == "logistic" else f" ({self.model})"))


class SprtTracker:
    """GSPRT per pairing, fed one game at a time (pentanomial on complete seat-swapped pairs;
    error games and unpaired games do not count). `add` returns the decision record (a dict)
    the first time a pairing's test decides; afterwards the pairing stays decided."""

    def __init__(self, sprt: Sprt):
        from mcts_arena import stats  # scipy: imported where a test runs, not by every worker

        self.sprt = sprt
        self.bounds = stats.sprt_bounds(sprt.alpha, sprt.beta)
        self.pairs: dict[str, dict[int, dict[int, float]]] = collections.defaultdict(dict)
        self.decisions: dict[str, dict] = {}

    def params(self) -> dict:
        s = self.sprt
        return {"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "model": s.model}

    def penta(self, pairing_id: str) -> tuple[int, int, int, int, int]:
        from mcts_arena import stats

        done = [(p[0], p[1]) for p in self.pairs[pairing_id].values() if len(p) == 2]
        return stats.pentanomial(done)

    def state(self, pairing_id: str) -> dict:
        """The test on the games seen so far (whether or not it has decided before)."""
        from mcts_arena import stats

        counts = self.penta(pairing_id)
        llr = stats.sprt_llr_pentanomial(counts, self.sprt.elo0, self.sprt.elo1, self.sprt.model)
        lower, upper = self.bounds
        return {"decision": stats.sprt_decision(llr, lower, upper), "games": 2 * sum(counts),
                "llr": llr, "lower": lower, "upper": upper, "pentanomial": list(counts),
                **self.params()}

    def add(self, pairing_id: str, pair_index: int, swap: int, score: float | None) -> dict | None:
        if score is None:
            self.pairs[pairing_id].get(pair_index, {}).pop(swap, None)
            return None
        self.pairs[pairing_id].setdefault(pair_index, {})[swap] = score
        if pairing_id in self.decisions or len(self.pairs[pairing_id][pair_index]) < 2:
            return None
        st = self.state(pairing_id)
        if st["decision"] is None:
            return None
        self.decisions[pairing_id] = st
        return st

    def decided(self, pairing_id: str) -> bool:
        return pairing_id in self.decisions


def replay_sprt(store, sprt: Sprt, planned_ids: set[str] | None = None,
                pairing_ids: tuple[str, ...] | None = None) -> SprtTracker:
    """A tracker fed the stored games in the order they finished (decisions as a run made
    them): every pairing's, or only those of `pairing_ids`."""
    tracker = SprtTracker(sprt)
    where, args = "", ()
    if pairing_ids is not None:
        where, args = f"pairing_id IN ({', '.join('?' * len(pairing_ids))})", tuple(pairing_ids)
    for r in store.select("game", "game_id, pairing_id, pair_index, swap, score", where, args,
                          order="finished, game_id"):
        if planned_ids is None or r["game_id"] in planned_ids:
            tracker.add(r["pairing_id"], r["pair_index"], r["swap"], r["score"])
    return tracker


def _kept(store, pairing_id: str, params: dict) -> dict | None:
    """The decision the runner kept for a pairing, if it was made by this test (`params`)."""
    rec = store.meta_json(f"sprt/{pairing_id}", DECISION)
    if rec is None or any(rec.get(k) != v for k, v in params.items()):
        return None
    return rec


def sprt_status(store) -> dict[str, dict]:
    """Per pairing id, the SPRT as the run left it: the stored decision (`decision` "H0"/"H1",
    `games` at the decision, `llr`, `lower`, `upper`, the test's parameters), or the test on
    the games stored so far (`decision` None). Empty when the config has no `sprt`; only the
    pairings it tests when the config names them (`sprt_pairings`)."""
    config = (store.experiment() or {}).get("config", {})
    cfg = config.get("sprt")
    if not cfg:
        return {}
    sprt = Sprt(**cfg)
    only = tuple(config.get("sprt_pairings") or ()) or None
    tracker = None
    out = {}
    for p in store.pairings():
        pid = p["pairing_id"]
        if only is not None and pid not in only:
            continue
        rec = _kept(store, pid, cfg)
        if rec is None:
            try:
                tracker = tracker or replay_sprt(store, sprt, pairing_ids=only)
                rec = tracker.decisions.get(pid) or tracker.state(pid)
            except (ArithmeticError, ValueError) as e:     # a test no run could have made
                raise store.corrupt("the experiment row", "config_json",
                                    f"sprt {cfg}: {e}") from None
        out[pid] = rec
    return out


def pairing_sprt(store, sprt: Sprt, pairing_id: str) -> dict:
    """One pairing's test as `sprt_status` gives it, for a test the experiment row does not
    hold (a tune's confirmation keeps its own in the tune's settings): the stored decision,
    or the test replayed from that pairing's stored games alone. ArithmeticError or
    ValueError for a test no config could ask (the caller names where it came from)."""
    rec = _kept(store, pairing_id, asdict(sprt))
    if rec is None:
        tracker = replay_sprt(store, sprt, pairing_ids=(pairing_id,))
        rec = tracker.decisions.get(pairing_id) or tracker.state(pairing_id)
    return rec


#: A decision (or test state) as the runner keeps it in the meta table (`sprt/<pairing id>`).
DECISION = rows.obj(required={"games": rows.count, "llr": rows.number, "lower": rows.number,
                              "upper": rows.number},
                    optional={"decision": rows.opt(rows.one_of("H0", "H1")),
                              "elo0": rows.number, "elo1": rows.number})


def sprt_text(rec: dict) -> str:
    """`SPRT: H1 accepted after 12 games (LLR 3.01 >= 2.94)` and the like."""
    if rec.get("decision") == "H1":
        return (f"SPRT: H1 accepted after {rec['games']} games (elo >= {rec['elo1']:g}; "
                f"LLR {rec['llr']:.2f} >= {rec['upper']:.2f})")
    if rec.get("decision") == "H0":
        return (f"SPRT: H0 accepted after {rec['games']} games (elo <= {rec['elo0']:g}; "
                f"LLR {rec['llr']:.2f} <= {rec['lower']:.2f})")
    return (f"SPRT: no decision after {rec['games']} games (LLR {rec['llr']:.2f} in "
            f"({rec['lower']:.2f}, {rec['upper']:.2f}))")
