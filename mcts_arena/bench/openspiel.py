"""`arena bench --openspiel`: our game cores and MCTS against OpenSpiel's, like with like.

Two measures per game, each at the same settings on both sides:

- search: plain UCT with one uniformly random rollout per simulation from the start position
  (a game of dice: its first decision, after the opening roll), the same exploration constant
  (the game's default C; both use rewards in [-1, 1] and Q + C sqrt(ln N / n)), MCTS-Solver on
  both (ours always has it; OpenSpiel's `solve=True`), and the same number of simulations per
  search from a fresh tree (the count OpenSpiel completes in about one slice), so the two trees
  are the same size. Ours: the `MCTS(C=...)` player; OpenSpiel: its C++ `MCTSBot` with
  `RandomRolloutEvaluator(1)`. Figures are simulations per second.
- random games: whole uniformly random games (dice by their probabilities). Ours: the game
  core's `random_playout`; OpenSpiel: its C++ `RandomRolloutEvaluator` with many rollouts
  inside a single MCTS simulation, so that one Python call plays them all in C++ (they start
  one move after the start: the root's first child). Figures are games per second, and moves
  per second from each side's mean game length (measured apart from the timing).

The two sides alternate in rounds (ours first in even rounds, OpenSpiel's first in odd ones)
and each side's figure is the total over the rounds, so a machine whose load changes during the
run charges both alike. Where the two games' rules differ, `note` says how.
"""
from __future__ import annotations

import time

from mcts_arena import games

# our game -> (OpenSpiel's name, {our parameter: OpenSpiel's}, values of ours that OpenSpiel's
# game cannot play: {parameter: allowed values}, a note on what differs)
_COUNTERPARTS: dict[str, tuple[str, dict, dict, str]] = {
    "amazons": ("amazons", {"size": "board_size"}, {"size": {6, 8, 10}},
                "the same rules and start (OpenSpiel: 6, 8 or 10 squares a side); its move is "
                "three actions (amazon, destination, arrow), each drawn uniformly in its random "
                "games, ours one whole move drawn uniformly: its games count actions and run "
                "shorter in moves"),
    "breakthrough": ("breakthrough", {}, {},
                     "8x8 on both sides; the same rules"),
    "hex": ("hex", {"size": "board_size"}, {"swap": {0}},
            "no swap rule on either side (OpenSpiel's swap=False)"),
    "gomoku": ("gomoku", {"size": "size"}, {"exact": {0}},
               "five or more in a row wins on both; ours searches every empty cell here "
               "(near=0), as OpenSpiel does, where its default searches near the stones"),
    "kalah": ("mancala", {}, {"stones": {4}},
              "OpenSpiel's mancala is Kalah(6,4); it has no stones parameter"),
    "loa": ("lines_of_action", {}, {},
            "8x8, the same moves; the ends may differ (ours: the MSO rules of docs/loa.md, "
            "a draw at the first repetition; OpenSpiel's: its own, with a 1000-move cap): "
            "compare the mean lengths"),
    "backgammon": ("backgammon", {"max_turns": "max_player_turns"}, {"scoring": {1}},
                   "win/loss scoring; OpenSpiel's move is a whole turn of both dice (a double: "
                   "two actions), ours a whole turn, its random turn is drawn over its actions, "
                   "ours over the distinct positions a roll reaches"),
    "pig": ("pig", {"target": "winscore", "sides": "diceoutcomes", "horizon": "horizon"}, {},
            "the same rules and parameters"),
    "einstein": ("einstein_wurfelt_nicht", {}, {},
                 "the same rules; our start is its first decision after the setups"),
    "tictactoe": ("tic_tac_toe", {}, {}, "the same game"),
}

# settings our side needs to match OpenSpiel's (a parameter of ours OpenSpiel has no word for)
_OURS_FIXED = {"gomoku": {"near": 0}}

_MEMORY_MB = 4000       # OpenSpiel's tree limit: never reached at these budgets


def counterpart(game: str) -> tuple[str, str, str] | str:
    """(our game spec as measured, OpenSpiel's `load_game` text, note), or a sentence saying
    why there is no like-for-like counterpart."""
    name, params = games.parse(game)
    if name not in _COUNTERPARTS:
        return f"OpenSpiel has no {name}"
    os_name, mapping, allowed, note = _COUNTERPARTS[name]
    for key, values in allowed.items():
        if params[key] not in values:
            return f"OpenSpiel's {os_name} has no {key}={params[key]}"
    params.update(_OURS_FIXED.get(name, {}))
    ours = games.canonical(f"{name}({','.join(f'{k}={v}' for k, v in params.items())})")
    os_params = {theirs: params[key] for key, theirs in mapping.items()}
    return ours, _os_text(os_name, os_params), note


def _os_text(name: str, params: dict) -> str:
    if not params:
        return name
    return f"{name}({','.join(f'{k}={v}' for k, v in sorted(params.items()))})"


def _our_start(game: str):
    state = games.new_state(game)
    while state.is_chance_node():
        state.play(state.outcome_probs()[0][0])
    return state


def _os_start(game):
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    return state


def _search_os(game, state, C: float, sims: int, rollouts: int, seed: int) -> tuple[int, float]:
    """(simulations done, seconds) of one `MCTSBot` search of at most `sims` simulations, each
    evaluated by `rollouts` random games; with one simulation, the rollouts are OpenSpiel's
    random games in C++."""
    import pyspiel

    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(rollouts, seed), C, sims,
                          _MEMORY_MB, sims > 1, seed, False)
    t = time.perf_counter()
    root = bot.mcts_search(state)
    return root.explore_count, time.perf_counter() - t


def _time_os(game, state, C: float, sims: int, rollouts: int, seed: int) -> float:
    return _search_os(game, state, C, sims, rollouts, seed)[1]


def _grow(n: int, timer, seconds: float) -> int:
    """The count that makes `timer(count)` last about `seconds`."""
    while True:
        dt = timer(n)
        if dt >= seconds / 4 or n >= 10**7:
            return max(1, int(n * seconds / max(dt, 1e-6)))
        n = int(n * max(2.0, seconds / 4 / max(dt, 1e-6)))


def random_games_rate(game: str, seconds: float) -> float | None:
    """OpenSpiel's uniformly random games per second of its counterpart of `game` (played in
    C++ as one MCTS simulation's rollouts, from the start's first child), measured for about
    `seconds`; None without a counterpart or without open_spiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    match = counterpart(game)
    if isinstance(match, str):
        return None
    os_game = pyspiel.load_game(match[1])
    state = _os_start(os_game)
    n = _grow(20, lambda k: _time_os(os_game, state, 1.0, 1, k, 1), seconds)
    return n / _time_os(os_game, state, 1.0, 1, n, 2)


class _Pair:
    """The two sides of one game, each timed slice by slice."""

    def __init__(self, ours: str, os_text: str, seconds: float, rounds: int):
        import pyspiel

        from mcts_arena import players

        self.os_game = pyspiel.load_game(os_text)
        self.os_state = _os_start(self.os_game)
        self.state = _our_start(ours)
        self.C = games.info_of(ours).default_c
        self.player = players.make(f"MCTS(C={self.C})", ours, seed=1)
        self.slice = seconds / rounds
        # per measure, per round: [count, seconds]
        self.rounds = {k: [[0, 0.0] for _ in range(rounds)]
                       for k in ("ours_sims", "os_sims", "ours_games", "os_games")}
        self.sims = self._calibrate_sims()
        self.rollouts = self._calibrate_rollouts()

    def _time_os(self, sims: int, rollouts: int, seed: int) -> float:
        return _time_os(self.os_game, self.os_state, self.C, sims, rollouts, seed)

    def _calibrate_sims(self) -> int:
        return _grow(20, lambda n: self._time_os(n, 1, 1), self.slice)

    def _calibrate_rollouts(self) -> int:
        return _grow(20, lambda n: self._time_os(1, n, 1), self.slice)

    def _add(self, key: str, r: int, count: int, dt: float) -> None:
        self.rounds[key][r][0] += count
        self.rounds[key][r][1] += dt

    def os_search(self, r: int) -> None:
        done = _search_os(self.os_game, self.os_state, self.C, self.sims, 1, 1 + r)
        self._add("os_sims", r, *done)

    def our_search(self, r: int) -> None:
        """Searches of OpenSpiel's simulation count, fresh trees, until one slice is used."""
        t0 = time.perf_counter()
        while True:
            _, st = self.player.choose(self.state, sims=self.sims)
            dt = time.perf_counter() - t0
            self._add("ours_sims", r, st["sims"], 0.0)
            if dt >= self.slice:
                self._add("ours_sims", r, 0, dt)
                return

    def os_games(self, r: int) -> None:
        self._add("os_games", r, self.rollouts, self._time_os(1, self.rollouts, 1 + r))

    def our_games(self, r: int) -> None:
        from mcts_arena.bench.loops import playout_rate

        count, dt = playout_rate(self.state, self.slice, seed=1 + r)
        self._add("ours_games", r, count, dt)

    def rates(self) -> dict:
        """Each measure's rate over all rounds: its total count over its total seconds."""
        out = {}
        for k, rows in self.rounds.items():
            t = sum(dt for _, dt in rows)
            out[k] = sum(c for c, _ in rows) / t if t > 0 else 0.0
        return out

    def counts(self) -> dict:
        return {k: sum(c for c, _ in rows) for k, rows in self.rounds.items()}

    def ratio_range(self, ours: str, theirs: str) -> list[float]:
        """The smallest and largest of the rounds' ratios ours / theirs: how much the load
        moved the figure during the run."""
        ratios = [(a[0] / a[1]) / (b[0] / b[1]) for a, b in zip(self.rounds[ours],
                                                                self.rounds[theirs])
                  if a[1] > 0 and b[1] > 0 and b[0] > 0]
        return [round(min(ratios), 2), round(max(ratios), 2)] if ratios else []


def _os_mean_plies(start, games_: int, limit_s: float = 2.0, seed: int = 1) -> float:
    """Mean length in moves (chance outcomes included) of OpenSpiel's uniformly random games
    from `start`'s first child, as its rollouts play them (in Python, apart from the timing:
    `games_` games, fewer where they take over `limit_s` seconds)."""
    import random

    rng = random.Random(seed)
    total = played = 0
    t0 = time.perf_counter()
    while played < games_ and (played == 0 or time.perf_counter() - t0 < limit_s):
        played += 1
        s = start.clone()
        s.apply_action(s.legal_actions()[0])
        n = 1
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            n += 1
        total += n
    return total / played


def compare(names: list[str], seconds: float, rounds: int = 4, length_games: int = 200) -> dict:
    """Per game: both sides' simulations/s and random games/s, their ratios (ours / theirs),
    the settings, and the note on rules; a game without a counterpart gets `skipped`.
    `seconds` is each side's time per measure, split over `rounds` alternating slices."""
    from mcts_arena.bench.loops import average_plies

    out: dict = {}
    pairs: dict[str, _Pair] = {}
    for game in names:
        match = counterpart(game)
        if isinstance(match, str):
            out[game] = {"skipped": match}
            continue
        ours, os_text, note = match
        pairs[game] = _Pair(ours, os_text, seconds, rounds)
        out[game] = {"ours_game": ours, "openspiel_game": os_text, "note": note,
                     "C": pairs[game].C, "sims_per_search": pairs[game].sims}
    for r in range(rounds):
        for pair in pairs.values():
            steps = [pair.our_search, pair.os_search, pair.our_games, pair.os_games]
            if r % 2:
                steps = [pair.os_search, pair.our_search, pair.os_games, pair.our_games]
            for step in steps:
                step(r)
    for game, pair in pairs.items():
        rate, count = pair.rates(), pair.counts()
        ours_plies = average_plies(pair.state, length_games)
        os_plies = _os_mean_plies(pair.os_state, length_games)
        out[game].update({
            "search": {"ours_sims_per_s": round(rate["ours_sims"], 1),
                       "openspiel_sims_per_s": round(rate["os_sims"], 1),
                       "ratio": round(rate["ours_sims"] / rate["os_sims"], 2),
                       "ratio_range": pair.ratio_range("ours_sims", "os_sims"),
                       "ours_sims": count["ours_sims"], "openspiel_sims": count["os_sims"]},
            "random_games": {"ours_games_per_s": round(rate["ours_games"], 1),
                             "openspiel_games_per_s": round(rate["os_games"], 1),
                             "ratio": round(rate["ours_games"] / rate["os_games"], 2),
                             "ratio_range": pair.ratio_range("ours_games", "os_games"),
                             "ours_games": count["ours_games"],
                             "openspiel_games": count["os_games"],
                             "ours_avg_plies": round(ours_plies, 2),
                             "openspiel_avg_plies": round(os_plies, 2),
                             "ours_moves_per_s": round(rate["ours_games"] * ours_plies, 1),
                             "openspiel_moves_per_s": round(rate["os_games"] * os_plies, 1)},
        })
        out[game]["random_games"]["moves_ratio"] = round(
            out[game]["random_games"]["ours_moves_per_s"]
            / out[game]["random_games"]["openspiel_moves_per_s"], 2)
    return {"seconds": seconds, "rounds": rounds, "games": out}


def format_table(result: dict) -> list[str]:
    """The comparison as a text table: one line per game and measure, then the notes."""
    head = (f"{'game':13s} {'measure':14s} {'ours':>12s} {'OpenSpiel':>12s} {'ours/OS':>8s} "
            f"{'rounds':>13s}  settings")
    lines = [f"OpenSpiel against ours, {result['rounds']} alternating rounds, "
             f"{result['seconds']:g} s a side per measure (rounds: the lowest and highest "
             "round's ratio)", head, "-" * len(head)]
    notes = []
    for game, row in result["games"].items():
        if "skipped" in row:
            lines.append(f"{game:13s} skipped: {row['skipped']}")
            continue
        s, g = row["search"], row["random_games"]
        lines.append(f"{game:13s} {'sims/s':14s} {s['ours_sims_per_s']:12,.0f} "
                     f"{s['openspiel_sims_per_s']:12,.0f} {s['ratio']:7.1f}x "
                     f"{_span(s['ratio_range']):>13s}  UCT C={row['C']:g}, random rollouts, "
                     f"solver, {row['sims_per_search']:,} sims a search")
        lines.append(f"{'':13s} {'random games/s':14s} {g['ours_games_per_s']:12,.0f} "
                     f"{g['openspiel_games_per_s']:12,.0f} {g['ratio']:7.1f}x "
                     f"{_span(g['ratio_range']):>13s}  {g['ours_games']:,} and "
                     f"{g['openspiel_games']:,} games")
        lines.append(f"{'':13s} {'moves/s':14s} {g['ours_moves_per_s']:12,.0f} "
                     f"{g['openspiel_moves_per_s']:12,.0f} {g['moves_ratio']:7.1f}x "
                     f"{'':13s}  mean length {g['ours_avg_plies']:g} and "
                     f"{g['openspiel_avg_plies']:g} moves")
        notes.append(f"  {game}: ours {row['ours_game']}, OpenSpiel {row['openspiel_game']}: "
                     f"{row['note']}")
    return lines + (["notes:"] + notes if notes else [])


def _span(r: list[float]) -> str:
    return f"{r[0]:.1f}-{r[1]:.1f}x" if r else ""
