#!/usr/bin/env bash
# Light-playout speed of hane against the plain C reference lite2.c (in
# scripts/reference/, written for this measurement, no engine's code), both
# measured in the same run, interleaved, on one thread. Needs gcc.
#
#   scripts/bench-vs-lite2.sh [LITE2_C] [ROUNDS]
set -euo pipefail
cd "$(dirname "$0")/.."
lite=${1:-scripts/reference/lite2.c}
rounds=${2:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O3 -march=native -DN=9 "$lite" -o "$tmp/lite2_9"
gcc -O3 -march=native -DN=19 "$lite" -o "$tmp/lite2_19"
cargo build --release --quiet
for round in $(seq "$rounds"); do
  for n in 9 19; do
    playouts=$([ "$n" = 9 ] && echo 200000 || echo 50000)
    ref=$("$tmp/lite2_$n" "$playouts" 1 | sed -n 's/.*playouts\/s(cpu)=\([0-9]*\).*/\1/p')
    ours=$(./target/release/hane bench --sizes "$n" --playouts "$playouts" --search-playouts 1 \
      | sed -n 's/^light playouts [0-9x]*: \([0-9]*\)\/s.*/\1/p')
    echo "round $round ${n}x${n}: hane $ours/s lite2 $ref/s ratio $(python3 -c "print(f'{$ours/$ref:.2f}')")"
  done
done
