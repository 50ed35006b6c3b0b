#!/usr/bin/env bash
# Soak run: many fast games against GNU Go on 9x9 and 19x19 through
# scripts/match.py, checking that no game ends with an illegal move, a
# timeout, a loss on time or a crash, and how often hane's Tromp-Taylor
# count of the final board agrees with GNU Go's own final_score (area
# counting after its dead-stone judgement): agreement shows hane scored the
# board out before passing.
#
# Two streams run side by side (one per core):
#   1. the own driver, a fixed time a move (--time), 9x9 then 19x19;
#   2. gogui-twogtp with -time: sudden death and byo-yomi clocks, which
#      twogtp sends as time_settings only (no time_left): hane keeps its own
#      clock, and a game where its real time is over what the clock can give
#      is scored as lost on time (match.py --twogtp-time).
#
# GNU Go runs with --capture-all-dead: it then removes hane's dead stones
# before it passes, as a player under Tromp-Taylor rules must. Without it GNU
# Go passes with dead hane stones inside its area, the Tromp-Taylor count of
# that board wins for hane, and hane passes back (the rules' own pass rule);
# the two counts then differ through no fault of hane's.
#
#   scripts/soak.sh [GAMES_9x9] [GAMES_19x19] [OUT]
#   (default 300 60 out/soak: of each, a third under twogtp clocks)
# gogui-twogtp must be on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
games9=${1:-300}
games19=${2:-60}
out=${3:-out/soak}
command -v gogui-twogtp >/dev/null || { echo "gogui-twogtp not on PATH" >&2; exit 2; }
gnugo="/usr/games/gnugo --mode gtp --level 1 --chinese-rules --capture-all-dead"
hane="--threads 1 --no-suicide"
cargo build --release --quiet
clock9=$((games9 / 3))
clock19=$((games19 / 3))
(
  scripts/match.py --no-twogtp --games $((games9 - clock9)) --size 9 --komi 7.5 \
    --out "$out/9x9-time" --opponent "$gnugo" --hane-args "$hane --time 0.05"
  scripts/match.py --no-twogtp --games $((games19 - clock19)) --size 19 --komi 7.5 \
    --out "$out/19x19-time" --opponent "$gnugo" --hane-args "$hane --time 0.1"
) > "$out.fixed.log" 2>&1 &
fixed=$!
(
  # 12 s sudden death; 6 s, then byo-yomi of 3 s for 5 moves (9x9);
  # 30 s sudden death; 10 s, then 6 s for 10 moves (19x19).
  scripts/match.py --games $((clock9 - clock9 / 3)) --size 9 --komi 7.5 --out "$out/9x9-sudden-death" \
    --opponent "$gnugo" --hane-args "$hane" --twogtp-time 12s
  scripts/match.py --games $((clock9 / 3)) --size 9 --komi 7.5 --out "$out/9x9-byoyomi" \
    --opponent "$gnugo" --hane-args "$hane" --twogtp-time 6s+3s/5
  scripts/match.py --games $((clock19 - clock19 / 2)) --size 19 --komi 7.5 \
    --out "$out/19x19-sudden-death" --opponent "$gnugo" --hane-args "$hane" --twogtp-time 30s
  scripts/match.py --games $((clock19 / 2)) --size 19 --komi 7.5 --out "$out/19x19-byoyomi" \
    --opponent "$gnugo" --hane-args "$hane" --twogtp-time 10s+6s/10
) > "$out.clocks.log" 2>&1 &
clocks=$!
wait $fixed $clocks
for part in 9x9-time 9x9-sudden-death 9x9-byoyomi 19x19-time 19x19-sudden-death 19x19-byoyomi; do
  echo "== $part"
  cat "$out/$part/summary.txt"
done
