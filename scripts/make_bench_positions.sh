#!/usr/bin/env bash
# Makes the middle-game positions `hane bench` searches (data/bench/):
# hane plays itself from the empty board, MOVES moves at PLAYOUTS
# playouts on one thread with a fixed seed, and the game so far is written
# as SGF. Rerun only to change the set; the bench's figures are comparable
# only over the same files.
#
#   scripts/make_bench_positions.sh [HANE]
set -euo pipefail
hane=${1:-target/release/hane}
out=data/bench
mkdir -p "$out"

position() { # size moves playouts seed
    local commands="boardsize $1"$'\n'"clear_board"$'\n'"komi 7"$'\n'
    local color=b
    for ((i = 0; i < $2; i++)); do
        commands+="genmove $color"$'\n'
        if [[ $color == b ]]; then color=w; else color=b; fi
    done
    local file="$out/${1}x${1}-$4.sgf"
    commands+="printsgf $PWD/$file"$'\n'
    printf '%s' "$commands" |
        "$hane" --threads 1 --seed "$4" --playouts "$3" --resign 0 >/dev/null 2>&1
    echo "$file: $(grep -o ';[BW]\[' "$file" | wc -l) moves"
}

for seed in 1 2 3; do
    position 9 30 1000 "$seed"
    position 19 60 500 "$seed"
done
