"""`arena gtp SPEC --game GAME`: one of our players as a GTP engine on stdin/stdout.

Standard commands: protocol_version, name, version, known_command, list_commands, boardsize
(games whose size is a parameter switch size: `boardsize 9` makes `gomoku` `gomoku(size=9)`),
clear_board, komi (ignored), play, genmove, undo, time_settings, time_left, showboard, quit.
Extensions: `set_position TEXT` (the game's text form, as `arena show` prints it: openings no
move sequence reaches, such as Kalah's random boards) and `set_random_seed N` (the player's
seed from the next `clear_board` on).

The player is rebuilt with the seed at every `clear_board`, so with `--seed N --sims M` a game
served here is the game `players.make(SPEC, seed=N)` plays at M simulations per move: the
runner's `GTP(cmd="arena gtp ... --seed {seed} --sims {sims}")` plays exactly the games of the
internal player. Budget: `--sims`/`--time` (or one in the spec) win; otherwise the last
`time_settings`/`time_left` give seconds per move; otherwise 1 s.
"""
from __future__ import annotations

import sys

from mcts_arena import __version__, games
from mcts_arena.players.gtp_player import gtp_facts, parse_color

COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands",
            "boardsize", "clear_board", "komi", "play", "genmove", "undo", "time_settings",
            "time_left", "showboard", "set_position", "set_random_seed", "quit")


class GTPServer:
    def __init__(self, spec_text: str, game: str, seed: int = 1, time: float | None = None,
                 sims: int | None = None):
        from mcts_arena import players

        self.players = players
        self.spec_text = spec_text
        self.game = games.resolve(game)
        self.spec = players.parse(spec_text, self.game)
        self.seed = seed
        self.fixed = {"time": time} if time is not None else {"sims": sims} if sims else None
        self.clock: float | None = None          # seconds per move from time_settings/time_left
        self.facts = gtp_facts(game)
        self.state = self.game.new_state()
        self.player = players.make(self.spec, seed=self.seed)

    # -- command handlers: return the answer text, raise ValueError for '? message' --
    def protocol_version(self, args):
        return "2"

    def name(self, args):
        return "mcts_arena"

    def version(self, args):
        return f"{__version__} {self.spec.canonical}"

    def known_command(self, args):
        return "true" if args and args[0] in COMMANDS else "false"

    def list_commands(self, args):
        return "\n".join(COMMANDS)

    def boardsize(self, args):
        """The game's size: a game whose size is a parameter (Hex, Gomoku: `size`) switches to
        any size in the parameter's range, keeping its other parameters, and starts afresh;
        other games accept only their one size."""
        info = self.game.info
        key = info.gtp_boardsize
        try:
            n = int(args[0])
        except (IndexError, ValueError):
            raise ValueError("unacceptable size") from None
        if isinstance(key, str):
            p = info.params[key]
            if not p.low <= n <= p.high:
                raise ValueError("unacceptable size")
            game = self.game.with_params(**{key: n})
            if game != self.game:
                self.game = game
                self.spec = self.players.parse(self.spec_text, game)
                self.facts = gtp_facts(game)
            return self.clear_board(args)
        if key is None or n != key:
            raise ValueError("unacceptable size")
        return ""

    def clear_board(self, args):
        self.state = self.game.new_state()
        self.player = self.players.make(self.spec, seed=self.seed)
        return ""

    def komi(self, args):
        return ""

    def set_position(self, args):
        text = " ".join(args)
        try:
            self.state = self.game.new_state(text)
        except ValueError as e:
            raise ValueError(f"bad position: {e}") from None
        self.player = self.players.make(self.spec, seed=self.seed)
        return ""

    def set_random_seed(self, args):
        try:
            self.seed = int(args[0])
        except (IndexError, ValueError):
            raise ValueError("expected an integer seed") from None
        return ""

    def _seat(self, args) -> int:
        seat = parse_color(args[0], self.facts["colors"]) if args else None
        if seat is None:
            raise ValueError("invalid color")
        return seat

    def play(self, args):
        seat = self._seat(args)
        if len(args) < 2:
            raise ValueError("invalid vertex")
        if self.state.is_terminal() or seat != self.state.to_move():
            raise ValueError("illegal move")
        text = self.facts["from_gtp"](args[1]) if self.facts["from_gtp"] else args[1]
        try:
            self.state.play(text)
        except ValueError:
            raise ValueError("illegal move") from None
        return ""

    def genmove(self, args):
        seat = self._seat(args)
        if self.state.is_terminal():
            raise ValueError("the game is over")
        if seat != self.state.to_move():
            raise ValueError(f"it is not {args[0]}'s turn")
        budget = self.fixed or {"time": self.clock or 1.0}
        move, _ = self.player.choose(self.state, time=budget.get("time"), sims=budget.get("sims"))
        text = self.state.format_move(move)
        self.state.play(move)
        return self.facts["to_gtp"](text) if self.facts["to_gtp"] else text

    def undo(self, args):
        try:
            self.state.undo()
        except IndexError:
            raise ValueError("cannot undo") from None
        return ""

    def time_settings(self, args):
        try:
            main, byo, stones = float(args[0]), float(args[1]), int(args[2])
        except (IndexError, ValueError):
            raise ValueError("syntax error") from None
        self.clock = byo / stones if byo > 0 and stones > 0 else (main / 30 if main > 0 else None)
        return ""

    def time_left(self, args):
        try:
            t, stones = float(args[1]), int(args[2])
        except (IndexError, ValueError):
            raise ValueError("syntax error") from None
        if t > 0:
            self.clock = t / stones if stones > 0 else t / 30
        return ""

    def showboard(self, args):
        return "\n" + str(self.state)

    # -- the loop --
    def serve(self, inp=None, out=None) -> None:
        inp = inp or sys.stdin
        out = out or sys.stdout
        for raw in inp:
            line = "".join(c for c in raw.split("#", 1)[0] if c == "\t" or c >= " ")
            words = line.replace("\t", " ").split()
            if not words:
                continue
            ident = ""
            if words[0].isdigit():
                ident, words = words[0], words[1:]
                if not words:
                    continue
            cmd, args = words[0], words[1:]
            if cmd == "quit":
                out.write(f"={ident}\n\n")
                out.flush()
                return
            handler = getattr(self, cmd, None) if cmd in COMMANDS else None
            if handler is None:
                out.write(f"?{ident} unknown command\n\n")
            else:
                try:
                    out.write(f"={ident} {handler(args)}".rstrip(" ") + "\n\n")
                except Exception as e:  # noqa: BLE001 - an answer, never a crash
                    out.write(f"?{ident} {' '.join(str(e).split())}\n\n")
            out.flush()
