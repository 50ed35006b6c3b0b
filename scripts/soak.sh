#!/usr/bin/env bash
# Soak run: many fast games against GNU Go on 9x9 and 19x19 through
# scripts/match.py, checking that no game ends with an illegal move, a
# timeout or a crash, and how often hane's Tromp-Taylor count of the final
# board agrees with GNU Go's own final_score (area counting after its
# dead-stone judgement): agreement shows hane scored the board out before
# passing.
#
#   scripts/soak.sh [GAMES_9x9] [GAMES_19x19] [OUT]   (default 450 50 out/soak)
set -euo pipefail
cd "$(dirname "$0")/.."
games9=${1:-450}
games19=${2:-50}
out=${3:-out/soak}
gnugo="/usr/games/gnugo --mode gtp --level 1 --chinese-rules"
cargo build --release --quiet
scripts/match.py --no-twogtp --games "$games19" --size 19 --komi 7.5 --out "$out/19x19" \
  --opponent "$gnugo" --hane-args "--threads 1 --time 0.2 --no-suicide"
scripts/match.py --no-twogtp --games "$games9" --size 9 --komi 7.5 --out "$out/9x9" \
  --opponent "$gnugo" --hane-args "--threads 1 --time 0.05 --no-suicide"
echo "== 19x19"; cat "$out/19x19/summary.txt"
echo "== 9x9"; cat "$out/9x9/summary.txt"
