#!/usr/bin/env bash
# The record's long runs, in order, each resumable (run this again after any stop; finished work
# is never redone). Run it on a build no one changes under it: a worktree of its own, e.g.
#   git worktree add /work/wt-record-build main && cd /work/wt-record-build && make build
#   nohup tools/record_campaign.sh rates   > rates.log 2>&1 &
#   nohup tools/record_campaign.sh play    > play.log  2>&1 &    # any load (fixed budgets)
#
# rates: the paper engine's rates (benchmarks/paper_engine/measure.py), 10 whole games a player
#   at 1 s a move, the players of the headline page first; rates per CPU-second of the search
#   thread, so other work may run beside it (pinning with --cpu keeps the search on its CPU).
#   ENGINE: a clone of tpepels/mcts_gameframe (full history). Then LOA's entries, which no
#   public engine of the paper's can give: an anchor and this engine's cost ratios
#   (benchmarks/loa_rates.py, 10 whole games a player at 0.1 s a move).
# play: the headline page at the paper's own effort, then the 0.1 pages replayed on the one
#   rates table, each page published to docs/reproduction/data as it finishes.
# save NAME...: before this machine goes (a session ending on a machine that will not be there
#   next time), the named stores of results/reproduction as they stand, to
#   docs/reproduction/data/playing (committed: tools/record_checkpoint.py);
# restore: on the next machine, before `play`, a store for every saved file whose store is
#   missing; `play` then goes on from the next game, as if it had never stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
ENGINE=${ENGINE:-/work/gameframe/src}
BUILD=${BUILD:-/work/gameframe/build}
DATA=${DATA:-benchmarks/paper_engine/data}
case "${1:-}" in
  rates)
    [ -f "$BUILD/BUILD.json" ] || $PY benchmarks/paper_engine/measure.py build --src "$ENGINE" --out "$BUILD"
    first=(--only "breakthrough:MCTS(ipp)" --only "breakthrough:MCTS(bl)" --only "breakthrough:αβ(efMS,tt=0)"
           --only "breakthrough:MCTS(bl')" --only "breakthrough:MCTS(bl',im0.6)" --only "breakthrough:αβ(efLH,tt=0)")
    $PY benchmarks/paper_engine/measure.py play --build "$BUILD" --data "$DATA" --games 10 "${first[@]}"
    $PY benchmarks/paper_engine/measure.py play --build "$BUILD" --data "$DATA" --games 10
    $PY benchmarks/paper_engine/measure.py summarise --data "$DATA" --update
    nice -n 5 $PY benchmarks/loa_rates.py play --games 10        # LOA: anchor and cost ratios
    $PY benchmarks/loa_rates.py summarise --update
    ;;
  play)
    nice -n 19 .venv/bin/arena reproduce --only headline --scale 1.0 --games 200 --precision 4 \
      --max-games 600 --aim paper --quiet --publish docs/reproduction/data
    for page in table2 table4 tables7-9 table3 fig1 fig2 fig3 table5 fig4 appendix-b; do
      nice -n 19 .venv/bin/arena reproduce --only "$page" --scale 0.1 --games 200 --precision 5 \
        --max-games 600 --sweep-games 60 --tournament-games 200 --quiet \
        --replace-record --publish docs/reproduction/data
    done
    ;;
  save)
    shift
    $PY tools/record_checkpoint.py save docs/reproduction/data/playing "$@"
    ;;
  restore)
    $PY tools/record_checkpoint.py restore docs/reproduction/data/playing
    ;;
  *) echo "usage: $0 rates|play|save NAME...|restore" >&2; exit 2 ;;
esac
