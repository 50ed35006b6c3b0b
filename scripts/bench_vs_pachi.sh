#!/usr/bin/env bash
# hane against Pachi at fixed playouts, one thread each, in one run: for
# 9x9 (20,000 playouts) and 19x19 (10,000), from the empty board and from
# each shipped middle-game position (data/bench/), each engine answers one
# genmove and the whole process is timed (start-up included, as a client
# sees it). Rounds interleave the engines; the best time of each counts.
# Needs a Pachi binary; never run by CI.
#
#   scripts/bench_vs_pachi.sh PACHI [ROUNDS] [HANE]
#
# PACHI_ARGS adds to Pachi's arguments (default: none beyond -t =N
# threads=1; e.g. --nodcnn for a build with the neural network).
set -euo pipefail
cd "$(dirname "$0")/.."
pachi=${1:?usage: bench_vs_pachi.sh PACHI [ROUNDS] [HANE]}
rounds=${2:-3}
hane=${3:-target/release/hane}
[[ $hane == target/release/hane ]] && cargo build --release --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# GTP for a position: size, komi, the SGF's moves as play commands, the
# genmove of the side to move.
position() { # size [sgf]
    python3 - "$@" <<'PY'
import re, sys
size = int(sys.argv[1])
print(f"boardsize {size}\nclear_board\nkomi 7")
color = "b"
if len(sys.argv) > 2:
    text = open(sys.argv[2]).read()
    for c, m in re.findall(r";([BW])\[([a-s]{2})?\]", text):
        if m:
            col = "ABCDEFGHJKLMNOPQRST"[ord(m[0]) - 97]
            print(f"play {c} {col}{size - (ord(m[1]) - 97)}")
        else:
            print(f"play {c} pass")
        color = "w" if c == "B" else "b"
print(f"genmove {color}\nquit")
PY
}

seconds() { # commands-file command...
    local start end
    start=$(date +%s.%N)
    "${@:2}" <"$1" >/dev/null 2>&1
    end=$(date +%s.%N)
    python3 -c "print(f'{$end - $start:.2f}')"
}

printf '%-22s %10s %10s %7s\n' position hane pachi ratio
for size in 9 19; do
    playouts=$([[ $size == 9 ]] && echo 20000 || echo 10000)
    for sgf in empty data/bench/${size}x${size}-*.sgf; do
        if [[ $sgf == empty ]]; then position "$size" >"$tmp/gtp"; else position "$size" "$sgf" >"$tmp/gtp"; fi
        best_h=999999 best_p=999999
        for ((r = 0; r < rounds; r++)); do
            h=$(seconds "$tmp/gtp" "$hane" --threads 1 --playouts "$playouts" --resign 0)
            # shellcheck disable=SC2086
            p=$(seconds "$tmp/gtp" "$pachi" -t "=$playouts" threads=1 ${PACHI_ARGS:-})
            best_h=$(python3 -c "print(min($best_h, $h))")
            best_p=$(python3 -c "print(min($best_p, $p))")
        done
        name="${size}x${size} $(basename "$sgf" .sgf)"
        printf '%-22s %9ss %9ss %7s\n' "$name" "$best_h" "$best_p" \
            "$(python3 -c "print(f'{$best_p / $best_h:.2f}')")"
    done
done
echo "ratio: Pachi's time over hane's (above 1: hane faster), $playouts playouts on 19x19, 20000 on 9x9"
