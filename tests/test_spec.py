"""Player notation: the paper's spellings, canonical strings, and exact error messages."""
import pickle

import pytest

from mcts_arena import players
from mcts_arena.players import SpecError, parse

SAME = [
    ("breakthrough", ["MCTS(bl,im0.4)", "MCTS(im0.4,bl)", "MCTS(efMS,ipp,ege0.1,det0.5,im0.4)",
                      "mcts( bl , im0.40 )", "MCTS(efMS,bl,im0.4)"], "MCTS(bl,im0.4)"),
    ("breakthrough", ["MCTS(efLH,bl',im0.6)", "MCTS(blp,im0.6)", "MCTS(efLH,ipp,fet20,np,im0.6)"],
     "MCTS(bl',im0.6)"),
    ("breakthrough", ["MCTS(ipp,fet20,np)", "MCTS(np,fet20,ipp)"], "MCTS(ipp,fet20,np)"),
    ("breakthrough", ["αβ(efMS)", "ab(efMS)", "alphabeta()", "ab"], "αβ(efMS)"),
    ("breakthrough", ["ab(efLH)", "αβ(efLH)"], "αβ(efLH)"),
    ("breakthrough", ["MCTS", "MCTS()", "MCTS(C=0.8)"], "MCTS"),
    ("breakthrough", ["MCTS(C=1)", "MCTS(C=1.0)"], "MCTS(C=1)"),
    ("breakthrough", ["MCTS(ege1.0)", "MCTS(ege1)"], "MCTS(ege1)"),
    ("breakthrough", ["MCTS(bl,np50,im0.4)", "MCTS(bl,np=50,im0.4)"], "MCTS(bl,np50,im0.4)"),
    ("breakthrough", ["MCTS(PB)", "MCTS(pb1)"], "MCTS(PB)"),
    ("kalah", ["MCTS(fet4,im0.4)", "MCTS(im0.4,fet4)", "MCTS(efRS,fet4,im0.4)"], "MCTS(fet4,im0.4)"),
    ("kalah", ["Random", "random()"], "Random"),
    ("breakthrough", ["MCTS(bl,time=2)"], "MCTS(bl,time=2)"),
]


@pytest.mark.parametrize("game,spellings,canonical", SAME)
def test_spellings_share_one_canonical_string(game, spellings, canonical):
    for text in spellings:
        assert parse(text, game).canonical == canonical, text
    # the canonical string parses back to itself
    assert parse(canonical, game).canonical == canonical


def test_spec_is_frozen_picklable_and_knows_its_game():
    spec = parse("MCTS(bl,im0.4)", "breakthrough")
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert spec.game == "breakthrough" and spec.kind == "MCTS"
    assert spec.get("im") == 0.4 and spec.get("policy") == "ipp" and spec.evalfn == "efMS"
    with pytest.raises(AttributeError):
        spec.kind = "x"


def test_config_macros():
    spec = parse("MCTS(mine,im0.2)", "kalah", macros={"mine": "fet4,ege0.1"})
    assert spec.canonical == "MCTS(fet4,ege0.1,im0.2)"


BAD = [
    ("MCTS(im1.5)", "breakthrough", "value out of range in token 'im1.5' of 'MCTS(im1.5)': expected 0 to 1"),
    ("MCTS(ege2)", "breakthrough", "value out of range in token 'ege2' of 'MCTS(ege2)': expected 0 to 1"),
    ("MCTS(foo)", "breakthrough", "unknown token 'foo' in 'MCTS(foo)' for MCTS; valid tokens: abp, cb, det, df, ege, exp, fa, fet, gumbel, im, ima, imas, ipp, mb, np, ol, pb, pbim, pu, puct, puctp, rave, sfx, sl, tuned, ef…, key=value"),
    ("MCTS(ipp", "breakthrough", "bad player specification 'MCTS(ipp': expected KIND(token,...), e.g. MCTS(bl,im0.4)"),
    ("XX(ipp)", "breakthrough", "unknown player kind 'XX' in 'XX(ipp)'; valid kinds: MCTS, αβ (ab, alphabeta), Random, Greedy, FlatMC, expectimax, Star1, Star2, MCMS, PigOptimal, gnubg, GTP, gameframe, py"),
    ("MCTS(np)", "kalah", "token 'np' in 'MCTS(np)' does not apply to kalah (it needs game knowledge only breakthrough, gomoku, hex has)"),
    ("MCTS(ipp)", "kalah", "token 'ipp' in 'MCTS(ipp)' does not apply to kalah (it needs game knowledge only amazons, breakthrough, gomoku, hex, loa has)"),
    ("MCTS(efLH)", "kalah", "unknown evaluation 'efLH' in 'MCTS(efLH)' for kalah; valid: efRS"),
    ("MCTS(efLH,bl)", "breakthrough", "conflicting evaluations 'efLH' and 'efMS' in 'MCTS(efLH,bl)'"),
    ("MCTS(fet)", "breakthrough", "token 'fet' in 'MCTS(fet)' needs a number (e.g. fet20)"),
    ("MCTS(ipp2)", "breakthrough", "token 'ipp2' in 'MCTS(ipp2)' takes no number"),
    ("MCTS(im0.4,im0.5)", "breakthrough", "token 'im0.5' in 'MCTS(im0.4,im0.5)' conflicts with an earlier im option"),
    ("MCTS(im0.4,cb0.4)", "breakthrough", "options im and cb in 'MCTS(im0.4,cb0.4)' cannot be combined (each is a different use of the evaluation in selection)"),
    ("MCTS(C=-1)", "breakthrough", "value out of range in token 'C=-1' of 'MCTS(C=-1)': expected 0 to 100"),
    ("MCTS(C=x)", "breakthrough", "bad number in token 'C=x' of 'MCTS(C=x)': expected a number"),
    ("MCTS(depth=3)", "breakthrough", "unknown option 'depth' in 'MCTS(depth=3)' for MCTS; valid: C, abw, clock, cscale, cvisit, effort, mib, ms, msv, np, npb, npk, seed, sims, stop, time, tm, v0q, or a token's number as key=value (im=0.4)"),
    ("ab(d0)", "breakthrough", "value out of range in token 'd0' of 'ab(d0)': expected 1 to 64"),
    ("ab(im0.4)", "breakthrough", "unknown token 'im0.4' in 'ab(im0.4)' for αβ; valid tokens: d, ef…, key=value"),
    ("MCTS(ipp,,im0.4)", "breakthrough", "empty token in 'MCTS(ipp,,im0.4)' (a doubled or trailing comma?)"),
    ("", "breakthrough", "empty player specification"),
    ("MCTS", "chess", "unknown game 'chess'; valid games: amazons, backgammon, breakthrough, einstein, gomoku, hex, kalah, loa, pig, tictactoe"),
]


@pytest.mark.parametrize("text,game,message", BAD)
def test_bad_specs_exact_messages(text, game, message):
    with pytest.raises(SpecError) as err:
        parse(text, game)
    assert str(err.value) == message


def test_make_builds_each_kind():
    from mcts_arena import games

    s = games.new_state("tictactoe")
    for text in ["MCTS", "ab(d2)", "Random", "Greedy", "FlatMC", "MCTS(im0.3,exp1)"]:
        p = players.make(text, game="tictactoe", seed=3)
        move, stats = p.choose(s, sims=200)
        assert move in s.move_ids()
        assert {"sims", "nodes", "depth", "time"} <= set(stats)
    assert s.to_text() == games.new_state("tictactoe").to_text()


def test_describe_tokens_lists_every_mcts_token():
    rows = dict(players.describe_tokens())
    for tok in ["ipp", "fetX", "detX", "egeε", "np / npN", "mbT", "PB / pbW", "imα", "cbα",
                "pbimα", "raveK", "puK"]:
        assert tok in rows
