"""Property-based fuzzing of the promise of docs/reliability.md: whatever config or
player spec a user writes, `arena` exits 0, or prints one line `arena: error: ...` and exits 2
with nothing written. Bounded (a few seconds): fixed example counts, no deadline, derandomized
so CI sees the same examples every run.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from helpers import tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcts_arena.cli import cli

SETTINGS = settings(max_examples=60, deadline=None, derandomize=True,
                    suppress_health_check=list(HealthCheck))

# values of every kind a YAML field can hold, the dangerous ones included
JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                  max_size=3),
    max_leaves=6)

TOKENS = ["bl", "im0.4", "ipp", "efMS", "efLH", "sims=5", "time=0.01", "seed=3", "C=0.8", "d3",
          "tt=0", "np10", "sims=99999999999999999999", "seed=-1", "", " ", "(", ")", "=", ",",
          "sims=5", "x", "cmd=a", "name=n"]
KINDS = ["MCTS", "αβ", "ab", "Random", "Greedy", "FlatMC", "GTP", "py", "mcts", "Nope", ""]


@st.composite
def specs(draw) -> str:
    kind = draw(st.sampled_from(KINDS))
    toks = draw(st.lists(st.sampled_from(TOKENS), max_size=4))
    if draw(st.booleans()) and not toks:
        return kind
    return f"{kind}({','.join(toks)})"


@st.composite
def configs(draw) -> str:
    d: dict = {}
    fields = {
        "name": st.sampled_from(["fz", "a" * 300, "../x", "", "ok.name"]) | JUNK,
        "game": st.sampled_from(["tictactoe", "hex(size=3)", "hex(size=3,size=4)", "chess",
                                 "kalah(seeds=99999999999999999999)"]) | JUNK,
        "budget": st.sampled_from([{"sims": 2}, {"time": 0.001}, {"sims": 0},
                                   {"time": float("inf")}, {"effort": 1e-9}, {"sims": 2**70}])
        | JUNK,
        "games": st.sampled_from([2, 0, -1, 2**70, 100001]) | JUNK,
        "seed": st.sampled_from([1, -1, 2**64]) | JUNK,
        "sprt": st.sampled_from([{"elo0": 0, "elo1": 5}, {"elo0": float("-inf"),
                                                          "elo1": float("inf")}]) | JUNK,
        "matches": st.lists(st.fixed_dictionaries({"player": specs(), "opponent": specs()}),
                            max_size=2) | JUNK,
        "max_plies": st.sampled_from([50, 0, 2**70]) | JUNK,
    }
    for key, strategy in fields.items():
        if key in ("game", "budget", "matches") or draw(st.booleans()):
            d[key] = draw(strategy)
    if draw(st.booleans()):
        d[draw(st.text(min_size=1, max_size=5))] = draw(JUNK)
    text = yaml.safe_dump(d, allow_unicode=True)
    if draw(st.integers(0, 4)) == 0:        # and sometimes text that is not a mapping at all
        text = draw(st.text(max_size=40))
    return text


def _promise(res, before: dict, root: Path) -> None:
    assert res.exit_code in (0, 2), (res.exit_code, res.output, res.exception)
    assert "Traceback" not in res.output
    if res.exit_code == 2:
        lines = res.output.strip("\n").splitlines()
        assert len(lines) == 1 and lines[0].startswith("arena: error: "), res.output
        assert tree(root) == before, "a refused command changed files"


@pytest.mark.slow
@SETTINGS
@given(configs())
def test_any_config_is_run_or_refused_in_one_line(text):
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "c.yaml").write_text(text, encoding="utf-8")
        before = tree(root)
        old = os.getcwd()
        os.chdir(root)
        try:
            res = CliRunner().invoke(cli, ["run", "c.yaml", "--dry-run"])
        finally:
            os.chdir(old)
        _promise(res, before, root)


@SETTINGS
@given(specs(), st.sampled_from(["tictactoe", "hex(size=3)", "kalah(seeds=2)"]))
def test_any_player_spec_is_played_or_refused_in_one_line(spec, game):
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        before = tree(root)
        old = os.getcwd()
        os.chdir(root)
        try:
            res = CliRunner().invoke(cli, ["play", game, spec, "Random", "--sims", "2"])
        finally:
            os.chdir(old)
        if res.exit_code == 3:              # a GTP command that cannot start: an error game
            assert "arena: error: the game could not be played" in res.output
            return
        _promise(res, before, root)
