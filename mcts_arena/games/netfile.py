"""The network file: what `arena train` writes and a player's `nn=FILE` names (a value and
policy network, games/network.pyx).

A JSON object:

    format      "mcts_arena-net/1"
    game        the game (its registry name)
    encoding    the game's input encoding (its NetInput's name, games/netinput.pxd), with
    inputs      its number of inputs and
    actions     its number of actions (the policy head's logits)
    hidden      the hidden layers' widths (ReLU)
    layers      per hidden layer {"w": rows (one per unit, `inputs` of the layer below), "b"}
    value       {"w": one per last hidden unit, "b"}: value = tanh(w . h + b)
    policy      {"w": one row per action, "b": one per action}: logits over the actions
    trained_on  what it was trained on: the sources, games and positions, the held-out split
    training    how: epochs, learning rate, L2, seed, the losses (train and held out), seconds
    created     UTC time

A player names the file as `nn=PATH`; its canonical form adds the first 12 hex digits of the
file's SHA-256 (`nn=PATH@3f2a9c0112ab`), as `ef=` does (games/evalfile.py), and a spec
carrying a digest the file no longer has is refused.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from mcts_arena import games
from mcts_arena.errors import UserError
from mcts_arena.games import evalfile

FORMAT = "mcts_arena-net/1"
WHAT = ("network file", "network file")
MAX_HIDDEN_LAYERS = 8


def net_input(game: str):
    """The game's network encoding (its knowledge's `net_input()`); UserError for a game
    without one."""
    know = games.new_state(game).knowledge()
    if not hasattr(know, "net_input"):
        have = [g for g in games.names()
                if hasattr(games.new_state(g).knowledge(), "net_input")]
        raise UserError(f"{games.resolve(game).name} has no network input encoding (the games "
                        f"with one: {', '.join(have)})")
    return know.net_input()


def _array(x, shape: tuple, what: str, path) -> np.ndarray:
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise UserError(f"{path}: {what} must be numbers of shape {shape}") from None
    if a.shape != shape:
        raise UserError(f"{path}: {what} has shape {a.shape}, not {shape}")
    if not np.all(np.isfinite(a)):
        raise UserError(f"{path}: {what} holds a number that is not finite")
    return a


def arrays(obj: dict, path="the network") -> list[np.ndarray]:
    """The network's parameters as arrays, in the file's order (each hidden layer's W and b,
    the value head's w and b, the policy head's W and b), each checked for its shape and for
    finite numbers; UserError naming the first that is not."""
    hidden = obj.get("hidden")
    if not isinstance(hidden, list) or not 1 <= len(hidden) <= MAX_HIDDEN_LAYERS or not all(
            isinstance(h, int) and not isinstance(h, bool) and h >= 1 for h in hidden):
        raise UserError(f"{path}: hidden must be 1 to {MAX_HIDDEN_LAYERS} layer widths >= 1")
    layers = obj.get("layers")
    if not isinstance(layers, list) or len(layers) != len(hidden):
        raise UserError(f"{path}: layers must be {len(hidden)} (one per hidden width)")
    out, below = [], obj["inputs"]
    for i, (width, layer) in enumerate(zip(hidden, layers)):
        layer = layer if isinstance(layer, dict) else {}
        out.append(_array(layer.get("w"), (width, below), f"layer {i + 1}'s w", path))
        out.append(_array(layer.get("b"), (width,), f"layer {i + 1}'s b", path))
        below = width
    value = obj.get("value") if isinstance(obj.get("value"), dict) else {}
    out.append(_array(value.get("w"), (below,), "value's w", path))
    out.append(_array([value.get("b")], (1,), "value's b", path))
    policy = obj.get("policy") if isinstance(obj.get("policy"), dict) else {}
    out.append(_array(policy.get("w"), (obj["actions"], below), "policy's w", path))
    out.append(_array(policy.get("b"), (obj["actions"],), "policy's b", path))
    return out


def read(path: str | Path, game: str | None = None) -> dict:
    """The file's object, checked: its format, its game (== `game` when given), its encoding
    (the game's today, with its sizes), its layers' shapes and finite numbers; UserError
    naming the problem otherwise."""
    obj = evalfile.contents(path, WHAT)[0]
    g = evalfile.checked_game(obj, path, game, FORMAT, WHAT[1], "`arena train`", "trained")
    enc = net_input(g)
    if (obj.get("encoding"), obj.get("inputs"), obj.get("actions")) != \
            (enc.name, enc.n_inputs, enc.n_actions):
        raise UserError(f"{path}: its encoding {obj.get('encoding')!r} ({obj.get('inputs')} "
                        f"inputs, {obj.get('actions')} actions) is not {g}'s today ({enc.name}, "
                        f"{enc.n_inputs} inputs, {enc.n_actions} actions); train it again")
    arrays(obj, path)
    return dict(obj)


def file_object(game: str, params: list[np.ndarray], hidden: list[int], trained_on: dict,
                training: dict, created: str) -> dict:
    """The file's object for a network's parameters (`arrays`' order)."""
    enc = net_input(game)
    n = len(hidden)
    return {"format": FORMAT, "game": game, "encoding": enc.name, "inputs": enc.n_inputs,
            "actions": enc.n_actions, "hidden": list(hidden),
            "layers": [{"w": params[2 * i].tolist(), "b": params[2 * i + 1].tolist()}
                       for i in range(n)],
            "value": {"w": params[2 * n].tolist(), "b": float(params[2 * n + 1].reshape(-1)[0])},
            "policy": {"w": params[2 * n + 2].tolist(), "b": params[2 * n + 3].tolist()},
            "trained_on": trained_on, "training": training, "created": created}


def forward(obj: dict, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """numpy's forward pass over inputs x (one row a position): (values, logits per action)."""
    p = arrays(obj)
    n = len(obj["hidden"])
    h = np.asarray(x, dtype=np.float64)
    for i in range(n):
        h = np.maximum(h @ p[2 * i].T + p[2 * i + 1], 0.0)
    return np.tanh(h @ p[2 * n] + p[2 * n + 1][0]), h @ p[2 * n + 2].T + p[2 * n + 3]


def parse_token(raw: str, game: str) -> str:
    """The canonical `nn=PATH@DIGEST` of a spec's `nn=PATH` (or `nn=PATH@DIGEST`, checked
    against the file); UserError names a problem."""
    return evalfile.parse_token(raw, game, "nn", read, "a value and policy network, "
                                                     "`arena train`")


def is_net(evalfn: str) -> bool:
    """Is this spec evaluation a network file's (`nn=...`)?"""
    return evalfn.startswith("nn=")


def knowledge(evalfn: str, game: str):
    """The NetKnowledge a canonical `nn=PATH@DIGEST` names, on the game's own knowledge."""
    from mcts_arena.games.network import NetKnowledge

    obj = evalfile.checked_path(evalfn, read, game)[1]
    state = games.new_state(game)
    flat = np.concatenate([a.reshape(-1) for a in arrays(obj)])
    return NetKnowledge(state.knowledge(), net_input(game), obj["hidden"],
                        np.ascontiguousarray(flat), state.max_moves)


def sizes(obj: dict) -> str:
    """The architecture in a few words: 128-64-64 -> 1 + 192."""
    return f"{obj['inputs']}-{'-'.join(str(h) for h in obj['hidden'])} -> 1 + {obj['actions']}"
