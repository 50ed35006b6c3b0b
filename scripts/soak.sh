#!/usr/bin/env bash
# Soak run: many fast games against GNU Go on 9x9 and 19x19 through
# scripts/match.py, checking that no game ends with an illegal move, a
# timeout or a crash, and how often hane's Tromp-Taylor count of the final
# board agrees with GNU Go's own final_score (area counting after its
# dead-stone judgement): agreement shows hane scored the board out before
# passing.
#
# GNU Go runs with --capture-all-dead: it then removes hane's dead stones
# before it passes, as a player under Tromp-Taylor rules must. Without it GNU
# Go passes with dead hane stones inside its area, the Tromp-Taylor count of
# that board wins for hane, and hane passes back (the rules' own pass rule);
# the two counts then differ through no fault of hane's.
#
# On 19x19 at these speeds hane loses nearly every game and resigns, so a
# third part plays 19x19 with resigning off: those games end by two passes
# and check the count there.
#
#   scripts/soak.sh [GAMES_9x9] [GAMES_19x19] [GAMES_19x19_NO_RESIGN] [OUT]
#   (default 470 60 24 out/soak)
set -euo pipefail
cd "$(dirname "$0")/.."
games9=${1:-470}
games19=${2:-60}
games19_out=${3:-24}
out=${4:-out/soak}
gnugo="/usr/games/gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead"
cargo build --release --quiet
scripts/match.py --no-twogtp --games "$games9" --size 9 --komi 7.5 --out "$out/9x9" \
  --opponent "$gnugo" --hane-args "--threads 1 --time 0.05 --no-suicide"
scripts/match.py --no-twogtp --games "$games19" --size 19 --komi 7.5 --out "$out/19x19" \
  --opponent "$gnugo" --hane-args "--threads 1 --time 0.1 --no-suicide"
scripts/match.py --no-twogtp --games "$games19_out" --size 19 --komi 7.5 \
  --out "$out/19x19-noresign" \
  --opponent "$gnugo" --hane-args "--threads 1 --time 0.1 --no-suicide --resign 0"
for part in 9x9 19x19 19x19-noresign; do
  echo "== $part"
  cat "$out/$part/summary.txt"
done
