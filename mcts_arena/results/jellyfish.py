"""Backgammon records in the Jellyfish match format (`.mat`), what GNU Backgammon, Jellyfish,
Snowie, eXtreme Gammon and BGBlitz import (`arena export --format mat`).

The format is one match: a header line `N point match`, then per game ` Game N`, a line with
the two players' names and scores, and one line per pair of turns, the left column's player
first:

     0 point match

     Game 1
     MCTS : 0                           Random : 0
      1)                             43: 24/20 6/3
      2) 63: 24/18 13/10               65: 13/7* 7/2
     ...
                                      Wins 1 point

A turn is the roll and one `from/to` per die (a double lists four), in an order it can be
played, in the mover's own numbering (24 down to 1, the bar 25, off 0), a hit marked `*`; a
roll with no legal move is the roll alone (`65:`).
The player who starts takes the opening roll, so a game the right column starts has its first
left cell empty. `Wins N point(s)` closes a game someone won (a forfeit reads as the loser
resigning); a drawn game (the turn limit) or an error game ends without it.

Choices (the format has no word for them):
- **A money session (`0 point match`)**: our games are single games, not one match to N points;
  gnubg reads every game of a 0-point match (to N points it stops at the game that ends the
  match). The header's scores are the running points of the two players within the pairing.
- **The pairing's player in the left column**, whichever seat it had (x or o only say who moved
  first, which the first line shows), so a pairing reads as one session of two players; a file
  of several pairings changes names at the game where the pairing changes.
- **Cubeless**: the format has no word for a game without the doubling cube (gnubg's importer
  reads none from the header), so a `;` comment line says so and names the gnubg settings
  (`set cube use off`) that analyse the games as they were played.
- **Names**: the spec, without `:` (the format's separator) and cut to 31 characters (gnubg's
  limit); the full specs, the seat, seeds and game id of each game are in `;` comment lines
  before the match line, which readers skip (a comment between games is read as a move).
- A game that did not start from backgammon's start cannot be written (the format has no
  starting position): refused in one line, nothing written.
"""
from __future__ import annotations

from mcts_arena import games
from mcts_arena.errors import UserError

#: gnubg reads at most 31 characters of a name, up to the `:` that ends it
NAME_LIMIT = 31
#: the column where the right player's cell starts (as gnubg writes it)
RIGHT_COLUMN = 33


class IllegalStoredMove(UserError):
    """A stored move the game cannot play (a damaged store): the caller names the store."""

    def __init__(self, game_id: str, message: str):
        super().__init__(message)
        self.game_id = game_id


def header(recs: list[dict]) -> str:
    """The start of a file: comment lines (`;`) with what the format has no place for, one per
    game, then the match line (the games follow)."""
    lines = ["; mcts_arena backgammon records, Jellyfish .mat format (a money session: one "
             "game per stored game)",
             "; cubeless games: no doubling cube was used. The format has no word for it: in "
             "gnubg give 'set cube use off' before 'import mat' (and 'set jacoby on' where the "
             "game's scoring counts a gammon single), or its analysis reports cube decisions "
             "that were never there"]
    for number, rec in enumerate(recs, 1):
        left = rec["swap"]
        lines.append(f"; Game {number} = {rec['game_id']}, {rec['game']}, left "
                     f"{rec['seats'][left]} ({'x' if left == 0 else 'o'}), right "
                     f"{rec['seats'][1 - left]}, result {rec['result']} ({rec['reason']}), "
                     f"seeds {' '.join(map(str, rec['seeds']))}")
    return "\n".join(lines) + "\n\n 0 point match\n\n"


def _name(spec: str) -> str:
    return (spec.replace(":", ";").strip() or "?")[:NAME_LIMIT]


def _replay(rec: dict) -> tuple[list[tuple[int, str]], object]:
    """[(seat, the turn's cell text)] of a stored game, and its last position; a game that did
    not start at the start is refused (UserError)."""
    state = games.new_state(rec["game"])
    if rec["opening"] not in ("", state.to_text()):
        raise UserError(f"the .mat format starts every game at backgammon's start; game "
                        f"{rec['game_id']} started from {rec['opening']!r} (export it as pgn "
                        "or jsonl)")
    turns: list[tuple[int, str]] = []
    dice = None
    for i, (move, st) in enumerate(zip(rec["moves"], rec["stats"]), 1):
        try:
            if st.get("chance"):
                state.play(move)
                dice = state.dice()
                continue
            seat = state.to_move()
            mid = state.parse_move(move)
            steps = " ".join(f"{s}/{t}{'*' if hit else ''}" for s, t, hit in state.steps(mid)) \
                if mid else ""
            if dice is None:
                raise ValueError("no roll before it")
            state.play(mid)
        except ValueError as e:
            raise IllegalStoredMove(rec["game_id"], f"game {rec['game_id']}: move {i} {move!r} "
                                                    f"is not legal here "
                                                    f"({' '.join(str(e).split())})") from None
        turns.append((seat, f"{dice[0]}{dice[1]}: {steps}".rstrip()))
        dice = None
    # a roll with no move after it (the game ended by a forfeit during the turn) is left out:
    # in a .mat file a roll alone is a pass
    return turns, state


def game(rec: dict, number: int, scores: tuple[int, int]) -> tuple[str, int]:
    """(the text of one game as ` Game number` of the session, the points its winner scored);
    `scores` are the left and right players' points before it."""
    left_seat = rec["swap"]         # the pairing's player: seat 0 unless the pair swapped
    turns, final = _replay(rec)
    names = [_name(rec["seats"][left_seat]), _name(rec["seats"][1 - left_seat])]
    head = f" {names[0]} : {scores[0]}"
    lines = [f" Game {number}", f"{head:<{RIGHT_COLUMN - 2}s} {names[1]} : {scores[1]}"]
    cells: list[list[str]] = []
    for seat, text in turns:
        col = 0 if seat == left_seat else 1
        if col == 0 or not cells or cells[-1][1] is not None:
            cells.append(["", None])
        cells[-1][col] = text
    for i, (left, right) in enumerate(cells, 1):
        line = f"{i:3d}) {left}"
        if right is not None:
            line = f"{line:<{RIGHT_COLUMN}s}{right}" if len(line) < RIGHT_COLUMN - 1 \
                else f"{line}  {right}"
        lines.append(line.rstrip())
    points = 0
    if rec["winner"] is not None and rec["reason"] != "error":
        points = final.points() or 1        # a forfeit: the loser resigns a single game
        word = f"Wins {points} point{'s' if points > 1 else ''}"
        col = 0 if rec["winner"] == left_seat else 1
        lines.append(" " * (6 if col == 0 else RIGHT_COLUMN + 1) + word)
    return "\n".join(lines) + "\n\n", points


def write(recs: list[dict]) -> list[str]:
    """The records as one .mat session: the header, then each game (texts to join)."""
    out = [header(recs)]
    pairing, scores = None, [0, 0]
    for number, rec in enumerate(recs, 1):
        if not games.info_of(rec["game"]).match_file:
            raise UserError(f"the .mat format is backgammon's; game {rec['game_id']} is "
                            f"{rec['game']}")
        if rec["pairing_id"] != pairing:
            pairing, scores = rec["pairing_id"], [0, 0]
        text, points = game(rec, number, (scores[0], scores[1]))
        out.append(text)
        if points:
            scores[0 if rec["winner"] == rec["swap"] else 1] += points
    return out
