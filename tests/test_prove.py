"""arena prove: the exact prover (players/search/prover.pyx) on known positions and its command."""
from click.testing import CliRunner
from mcts_arena.players.search.prover import Prover

from mcts_arena import games
from mcts_arena.cli import cli


def test_solver_matches_known_4x4_openings():
    vals, _ = Prover().prove_moves(games.new_state("hex(size=4)"))
    s = games.new_state("hex(size=4)")
    assert sorted(s.format_move(m) for m, v in vals.items() if v == 1) == ["a4", "b3", "c2", "d1"]
    # tic-tac-toe is a draw
    assert Prover().prove(games.new_state("tictactoe")) == 0


def test_prove_cli():
    res = CliRunner().invoke(cli, ["prove", "hex(size=4)"])
    assert res.exit_code == 0, res.output
    assert "winning moves (4): d1 c2 b3 a4" in res.output


def test_solver_does_not_take_a_lost_extra_turn_for_a_win():
    # Kalah: sowing the last seed into the store earns another turn and empties the side, so the
    # game ends and the opponent's 5 seeds make it 25-11. GameState's default is_decisive
    # compares the result with the side to move after the move (the mover again) and calls
    # this a win; the solver confirms every such claim by playing the move.
    s = games.new_state("kalah", "0,0,0,0,0,1,10/0,0,0,0,0,5,20 0")
    t = s.copy()
    t.play("6")
    assert t.is_terminal() and t.winner() == 1 and t.to_move() == 0
    assert Prover().prove(s) == -1
    vals, _ = Prover().prove_moves(s)
    assert vals == {s.parse_move("6"): -1}
