"""`arena train --self-play N --generations K`: a value and policy network improved by playing
itself, every game played by the runner (the worker pool on every core, the one writer, the
store) and every network trained by learn/net.py.

Into a folder OUT:

    OUT/gen0.json           an untrained network (torch's seeded initialisation)
    OUT/games/gen1/         generation 1's N self-play games: --player with nn=OUT/gen0.json,
                            against itself, seat-swapped pairs from random openings
    OUT/gen1.json           trained on the last --window generations' games (the replay
                            buffer), starting from gen0's weights
    ...                     and so on to genK

The player is any spec that takes an evaluation (`MCTS(puctp1.5,fet0)`: AlphaZero's search, the
policy as PUCT's prior and the value at the leaves; add `im0.4` for implicit minimax over the
value); the generation's network is added to it as `nn=FILE`.
"""
from __future__ import annotations

import datetime
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from mcts_arena import games, players
from mcts_arena.errors import AllErrorGames, SpecError, UserError
from mcts_arena.games import evalfile, netfile
from mcts_arena.learn import net
from mcts_arena.runner import config as config_mod
from mcts_arena.runner import run
from mcts_arena.runner.experiment import all_error_message


@dataclass
class Generation:
    number: int
    file: Path
    store: Path | None = None
    report: dict = field(default_factory=dict)


def with_net(player: str, path: Path) -> str:
    """The spec `player` with the network `path` as its evaluation."""
    text = player.strip()
    if "nn=" in text or "ef=" in text:
        raise UserError(f"--player {player!r} names its own evaluation file: the self-play "
                        f"loop adds each generation's network (nn=FILE) itself")
    if text.endswith(")"):
        head = text[:-1].rstrip()
        return f"{head}{'' if head.endswith('(') else ','}nn={path})"
    return f"{text}(nn={path})"


def replay_buffer(stores: list[Path], window: int) -> list[str]:
    """The stores a generation trains on: the last `window` generations' (its own the last)."""
    return [str(s) for s in stores[-window:]]


def now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _play(cfg: dict, out: Path, jobs: int, say: Callable[[str], None]) -> None:
    """One generation's games, by the `arena run` workflow (the pool, the writer, the store)."""
    exp = config_mod.loads(yaml.safe_dump(cfg), "<self-play>", cfg["name"],
                           config_mod.Overrides())
    job = run.prepare_experiment(exp, str(out), jobs, new=True)
    result = run.play(job, new=True, progress=False,
                      echo=lambda m: say(m) if m.startswith("warning:") else None)
    if result.all_error and not result.interrupted:
        raise AllErrorGames(all_error_message(result.all_error))
    if result.interrupted:
        raise UserError(f"self-play interrupted in {out}: its games are kept; train on them "
                        f"with `arena train {out} ...`")


def self_play(game: str, player: str, out: Path, games_per_generation: int, generations: int,
              sims: int = 200, jobs: int = 0, random_plies: int = 2, window: int = 4,
              hidden=(64, 64), epochs: int = 5, lr: float = 1e-3, l2: float = 1e-4,
              batch: int = 256, per_game: int = 1000, seed: int = 1,
              say: Callable[[str], None] = lambda m: None) -> list[Generation]:
    """The self-play loop (module docstring); the generations, with their training reports."""
    net.torch_module()
    name = games.resolve(game).name
    netfile.net_input(name)
    if games_per_generation < 2 or generations < 1 or window < 1:
        raise UserError("--self-play must be >= 2 games (seat-swapped pairs), --generations "
                        "and --window >= 1")
    if out.exists() and any(out.iterdir()):
        raise UserError(f"{out} is not empty: self-play writes its generations into a new "
                        f"folder")
    first = dict(net.initial(name, hidden, seed).obj, created=now())
    with tempfile.TemporaryDirectory() as tmp:      # the player checked before anything is written
        evalfile.write(Path(tmp) / "gen0.json", first)
        try:
            players.parse(with_net(player, Path(tmp) / "gen0.json"), name)
        except SpecError as e:
            shown = str(e).replace(str(Path(tmp) / "gen0.json"), "GENERATION.json")
            raise UserError(f"--player: {shown}") from None
    out.mkdir(parents=True, exist_ok=True)
    gens = [Generation(0, out / "gen0.json")]
    evalfile.write(gens[0].file, first)
    for k in range(1, generations + 1):
        prev = gens[-1]
        store = out / "games" / f"gen{k}"
        spec = with_net(player, prev.file)
        say(f"generation {k}: {games_per_generation} games of {spec} against itself")
        _play({"name": f"selfplay-gen{k}", "game": name, "games": games_per_generation,
               "seed": seed + k, "budget": {"sims": sims},
               "openings": {"random_plies": random_plies},
               "matches": [{"player": spec, "opponent": spec}]}, store, jobs, say)
        sources = replay_buffer([g.store for g in gens if g.store] + [store], window)
        start = dict(netfile.read(prev.file, name), source=str(prev.file))
        trained = net.train_from(sources, name, hidden, epochs, lr, l2, batch, per_game,
                                 0, 0.1, seed + k, start)
        gen = Generation(k, out / f"gen{k}.json", store, trained.obj["training"])
        trained.obj["trained_on"]["generation"] = k
        evalfile.write(gen.file, dict(trained.obj, created=now()))
        held = gen.report["held_out"]
        say(f"generation {k}: wrote {gen.file} (held out: value MSE {held['value_mse']}, "
            f"policy cross-entropy {held['policy_ce']}, uniform {held['policy_ce_uniform']})")
        gens.append(gen)
    return gens
