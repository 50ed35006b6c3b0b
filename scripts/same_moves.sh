#!/usr/bin/env bash
# Whether two hane binaries play the same moves: for 9x9 and 19x19 and
# seeds 1 and 2, each binary plays GENMOVES genmoves alternating colours at
# PLAYOUTS playouts on one thread (deterministic for a given seed), and the
# move lists are compared. A refactor that must not change behaviour (the
# same random draws, the same lines read) shows no difference here.
#
#   scripts/same_moves.sh /tmp/hane-base target/release/hane [PLAYOUTS] [GENMOVES]
#
# Prints each list pair's verdict; exits 1 if any differ.
set -euo pipefail
base=${1:?usage: same_moves.sh BASE NEW [PLAYOUTS] [GENMOVES]}
new=${2:?usage: same_moves.sh BASE NEW [PLAYOUTS] [GENMOVES]}
playouts=${3:-1500}
genmoves=${4:-24}

moves() { # binary size seed
    local commands="boardsize $2"$'\n'"clear_board"$'\n'"komi 7"$'\n'
    local color=b
    for ((i = 0; i < genmoves; i++)); do
        commands+="genmove $color"$'\n'
        if [[ $color == b ]]; then color=w; else color=b; fi
    done
    printf '%s' "$commands" |
        "$1" --threads 1 --seed "$3" --playouts "$playouts" --resign 0 2>/dev/null |
        grep '^= .' | cut -c3- | tr '\n' ' '
}

status=0
for size in 9 19; do
    for seed in 1 2; do
        a=$(moves "$base" "$size" "$seed")
        b=$(moves "$new" "$size" "$seed")
        if [[ "$a" == "$b" ]]; then
            echo "${size}x${size} seed $seed: same ($a)"
        else
            echo "${size}x${size} seed $seed: DIFFERENT"
            echo "  base: $a"
            echo "  new:  $b"
            status=1
        fi
    done
done
exit $status
