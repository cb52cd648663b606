"""Training a value and policy network on stored games (`arena train`): the store is the replay
buffer, the network a small multilayer perceptron over the game's input encoding
(games/netinput.pxd), written to the file a player names with `nn=FILE` (games/netfile.py).

Targets, per position sampled from a stored game (from ply min_ply on, at most per_game of a
game, seeded): the value head's is the game's outcome for the side to move (+1 a win, -1 a loss,
0 a draw), its loss the squared error of tanh(value); the policy head's is the move that was
played, its loss the cross-entropy of the softmax over the position's legal moves (the others
masked). That is imitation of the players in the store, not AlphaZero's target (the search's
visit counts), which the store does not keep. A seeded share of the games is held out, so no
position of a held-out game is trained on; the report gives both losses on both parts beside
the references a network that knows nothing scores (value 0: the mean squared outcome; a
uniform policy over the legal moves: the mean log of their number).

torch is an optional extra (`pip install 'mcts_arena[learn]'`): imported here only inside the
functions that train, never by the base install; without it, one line saying so.
"""
from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

import numpy as np

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.games import netfile
from mcts_arena.learn.fit import read_games

TORCH_MISSING = ("arena train needs torch, an optional extra: pip install 'mcts_arena[learn]' "
                 "(torch>=2.1, CPU is enough)")


def torch_module():
    """torch, or a UserError naming the extra to install."""
    try:
        import torch
    except ImportError:
        raise UserError(TORCH_MISSING) from None
    return torch


@dataclass
class Positions:
    """Encoded positions with their targets."""

    x: np.ndarray           # inputs, one row a position (float32)
    value: np.ndarray       # the outcome for the side to move: 1, 0 or -1
    action: np.ndarray      # the action index of the move played
    legal: np.ndarray       # the legal moves' actions, a mask (bool, one row a position)
    games: int = 0


def encode_games(all_games, game: str, per_game: int, min_ply: int,
                 rng: random.Random) -> Positions:
    """Up to per_game positions of each game from ply min_ply on, encoded (module docstring)."""
    enc = netfile.net_input(game)
    xs, vs, acts, legal = [], [], [], []
    used = 0
    for g in all_games:
        opening = None if g.opening in (None, "", "start") else g.opening
        state = games.new_state(g.game, opening)
        plies = list(range(min_ply, len(g.moves)))
        chosen = set(rng.sample(plies, min(per_game, len(plies))))
        took = False
        for ply, move in enumerate(g.moves):
            if ply in chosen and not state.is_terminal() and not state.is_chance_node():
                mover = state.to_move()
                ids = state.move_ids()
                mid = state.parse_move(move) if isinstance(move, str) else int(move)
                mask = np.zeros(enc.n_actions, bool)
                mask[[enc.py_action(state, m) for m in ids]] = True
                xs.append(enc.py_encode(state))
                vs.append(0.0 if g.draw else (1.0 if g.winner == mover else -1.0))
                acts.append(enc.py_action(state, mid))
                legal.append(mask)
                took = True
            state.play(move)
        used += took
    if not xs:
        raise UserError(f"no positions to train on: the {game} games have none past ply "
                        f"{min_ply}")
    return Positions(np.array(xs, np.float32), np.array(vs, np.float32),
                     np.array(acts, np.int64), np.array(legal, bool), used)


def split_games(sources: list[str], game: str | None, test_share: float, seed: int):
    """(the game's name, the training games, the held-out games, all games read): the games
    of the sources, one game only, a seeded share held out."""
    read = [g for s in sources for g in read_games(s)]
    if not read:
        raise UserError(f"no finished games in {', '.join(map(str, sources))}")
    names = sorted({games.resolve(g.game).name for g in read})
    if len(names) > 1:
        raise UserError(f"the sources hold games of {', '.join(names)}: train one game at a "
                        f"time")
    name = names[0]
    if game is not None and games.resolve(game).name != name:
        raise UserError(f"--game {game}, but the sources hold {name} games")
    netfile.net_input(name)
    order = list(range(len(read)))
    random.Random(seed).shuffle(order)
    n_test = max(1, round(test_share * len(read)))
    if n_test >= len(read):
        raise UserError(f"{len(read)} game(s) cannot be split into a trained and a held-out "
                        f"part")
    held = set(order[:n_test])
    return (name, [g for i, g in enumerate(read) if i not in held],
            [g for i, g in enumerate(read) if i in held], read)


def build(game: str, hidden: list[int], seed: int, start: dict | None = None):
    """The torch model (trunk, value head, policy head) for the game, seeded; its parameters
    from `start` (a network file's object of the same shape) when given."""
    torch = torch_module()
    nn = torch.nn
    enc = netfile.net_input(game)
    torch.manual_seed(seed)
    dims = [enc.n_inputs, *hidden]
    trunk = nn.Sequential(*[m for a, b in zip(dims[:-1], dims[1:])
                            for m in (nn.Linear(a, b), nn.ReLU())])
    model = nn.ModuleDict({"trunk": trunk, "value": nn.Linear(dims[-1], 1),
                           "policy": nn.Linear(dims[-1], enc.n_actions)})
    if start is not None:
        if list(start["hidden"]) != list(hidden):
            raise UserError(f"--from has hidden layers {start['hidden']}, not {list(hidden)}")
        with torch.no_grad():
            for p, a in zip(_ordered(model), netfile.arrays(start)):
                p.copy_(torch.as_tensor(a.reshape(p.shape), dtype=p.dtype))
    return model


def _ordered(model) -> list:
    """The model's parameters in the file's order (netfile.arrays)."""
    linears = [m for m in model["trunk"] if hasattr(m, "weight")]
    out = [t for m in linears for t in (m.weight, m.bias)]
    return out + [model["value"].weight, model["value"].bias, model["policy"].weight,
                  model["policy"].bias]


def params_of(model) -> list[np.ndarray]:
    """The parameters as float64 arrays in the file's order (float32 values, exactly)."""
    n_hidden = sum(1 for m in model["trunk"] if hasattr(m, "weight"))
    arrays = [t.detach().double().numpy().copy() for t in _ordered(model)]
    arrays[2 * n_hidden] = arrays[2 * n_hidden].reshape(-1)
    return arrays


def _losses(model, torch, x, value, action, legal):
    h = model["trunk"](x)
    v = torch.tanh(model["value"](h)).squeeze(1)
    logits = model["policy"](h).masked_fill(~legal, float("-inf"))
    v_loss = torch.mean((v - value) ** 2)
    p_logp = torch.log_softmax(logits, dim=1)
    p_loss = -torch.mean(p_logp.gather(1, action.unsqueeze(1)))
    right = (logits.argmax(dim=1) == action).float().mean()
    return v_loss, p_loss, right


def train(model, data: Positions, held: Positions, epochs: int, lr: float, l2: float,
          batch: int, seed: int, progress=None) -> dict:
    """Adam over `data` for `epochs` (seeded batches), on the CPU; the losses per epoch and,
    at the end, on the held-out positions, beside the references (module docstring)."""
    torch = torch_module()
    # one thread: a network this small trains fastest so (the 2-core development machine under
    # load: 6 ms a batch of 256 on one thread, several times slower on two)
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed)
    t0 = time.perf_counter()
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=l2)
    tensors = [torch.from_numpy(a) for a in (data.x, data.value, data.action, data.legal)]
    n = len(data.value)
    history = []
    for epoch in range(epochs):
        order = torch.randperm(n, generator=g)
        tot_v = tot_p = 0.0
        for lo in range(0, n, batch):
            idx = order[lo:lo + batch]
            v_loss, p_loss, _ = _losses(model, torch, *(t[idx] for t in tensors))
            opt.zero_grad()
            (v_loss + p_loss).backward()
            opt.step()
            tot_v += v_loss.item() * len(idx)
            tot_p += p_loss.item() * len(idx)
        history.append({"epoch": epoch + 1, "value_mse": round(tot_v / n, 5),
                        "policy_ce": round(tot_p / n, 5)})
        if progress:
            progress(history[-1])
    with torch.no_grad():
        report = {part: _measure(model, torch, d) for part, d in (("train", data),
                                                                    ("held_out", held))}
    report["epochs"] = history
    report["seconds"] = round(time.perf_counter() - t0, 1)
    return report


def _measure(model, torch, d: Positions) -> dict:
    v_loss, p_loss, right = _losses(model, torch, *(torch.from_numpy(a) for a in (
        d.x, d.value, d.action, d.legal)))
    return {"positions": len(d.value), "games": d.games, "value_mse": round(float(v_loss), 5),
            "value_mse_of_0": round(float(np.mean(d.value ** 2)), 5),
            "policy_ce": round(float(p_loss), 5),
            "policy_ce_uniform": round(float(np.mean(np.log(d.legal.sum(axis=1)))), 5),
            "policy_top1": round(float(right), 4)}


@dataclass
class Trained:
    game: str
    obj: dict               # the network file's object (games/netfile.py), less `created`


def train_from(sources: list[str], game: str | None = None, hidden=(64, 64), epochs: int = 10,
               lr: float = 1e-3, l2: float = 1e-4, batch: int = 256, per_game: int = 16,
               min_ply: int = 0, test_share: float = 0.1, seed: int = 1,
               start: dict | None = None, progress=None) -> Trained:
    """Train a network on the sources' games (module docstring)."""
    torch_module()
    hidden = [int(h) for h in hidden]
    if not sources:
        raise UserError("arena train needs SOURCE... (results directories or published files)")
    if not 0.0 < test_share < 1.0:
        raise UserError(f"--test-share must be between 0 and 1, got {test_share}")
    if not hidden or len(hidden) > netfile.MAX_HIDDEN_LAYERS or min(hidden) < 1:
        raise UserError(f"--hidden: 1 to {netfile.MAX_HIDDEN_LAYERS} layer widths >= 1")
    if (epochs < 1 or not 0 < lr <= 1 or not 0 <= l2 < math.inf or batch < 1   # NaN fails too
            or per_game < 1 or min_ply < 0):
        raise UserError("--epochs and --batch must be >= 1, --lr in (0, 1], --l2 >= 0, "
                        "--per-game >= 1 and --min-ply >= 0")
    name, train_games, held_games, read = split_games(sources, game, test_share, seed)
    rng = random.Random(seed)
    data = encode_games(train_games, name, per_game, min_ply, rng)
    held = encode_games(held_games, name, per_game, min_ply, rng)
    model = build(name, hidden, seed, start)
    report = train(model, data, held, epochs, lr, l2, batch, seed, progress)
    trained_on = {"sources": [str(s) for s in sources], "games": len(read),
                  "per_game": per_game, "min_ply": min_ply, "test_share": test_share,
                  "targets": "value: the outcome for the side to move; policy: the move played "
                             "(imitation of the stored players)"}
    if start is not None:
        trained_on["started_from"] = start.get("source")
    training = {"optimiser": "Adam", "epochs": epochs, "lr": lr, "l2": l2, "batch": batch,
                "seed": seed, "torch": torch_module().__version__, **report}
    return Trained(name, netfile.file_object(name, params_of(model), hidden, trained_on,
                                             training, ""))


def initial(game: str, hidden=(64, 64), seed: int = 1) -> Trained:
    """An untrained network (torch's seeded initialisation): a self-play run's generation 0."""
    name = games.resolve(game).name
    model = build(name, [int(h) for h in hidden], seed)
    return Trained(name, netfile.file_object(name, params_of(model), [int(h) for h in hidden],
                                             {"sources": [], "games": 0}, {"seed": seed,
                                                                           "epochs": 0}, ""))
