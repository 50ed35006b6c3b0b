#!/usr/bin/env bash
# Runs every gtp-tests/*.tst against hane and prints passes and failures.
# Uses GoGui's gogui-regress when it is on PATH (its summary.dat is printed),
# otherwise the project's own harness (tests/regress.rs), which follows
# gogui-regress's semantics.
#
#   scripts/regress.sh [OUTPUT_DIR]      (default out/regress)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-out/regress}
cargo build --release --quiet
hane="$PWD/target/release/hane --threads 1"
if command -v gogui-regress >/dev/null 2>&1; then
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  # gogui-regress starts the engine in the .tst file's folder, so the
  # loadsgf paths inside the files are relative to gtp-tests/.
  cd gtp-tests
  status=0
  gogui-regress -output "$out" "$hane" ./*.tst || status=$?
  echo "gogui-regress summary ($out/summary.dat):"
  column -t "$out/summary.dat" 2>/dev/null || cat "$out/summary.dat"
  # 0: all passed; 1: an unexpected failure; 2: a crash or a bad file.
  exit "$status"
else
  echo "gogui-regress not on PATH: running the project's harness (cargo test --test regress)"
  cargo test --profile fast-test --quiet --test regress -- --nocapture
fi
