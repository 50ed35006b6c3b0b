#!/usr/bin/env bash
# The network trained on a lent GPU machine in one call of the device tool,
# and what that call carries, packed here (docs/network.md, "On a lent
# GPU"). The training is the one entry point, scripts/hane_train/train.py:
# every head (policy, value, ownership) together, in steps, resumable.
#
#   scripts/gpu_train.sh pack CORPUS   # here: gpu-kit/ (.gitignore): the plane
#                                      # writer, statically linked, and the Tom
#                                      # corpus of CORPUS (a yenw/computer-go-dataset
#                                      # clone) as xz, with its index and, from
#                                      # OWNERSHIP (scripts/final_ownership.py's
#                                      # file), the ownership targets
#   scripts/gpu_train.sh run           # there, carry gpu-kit: the planes, the
#                                      # training, the results under $OUT
#
# run's settings come from the environment: STEPS, the schedule's length in
# batches of 1,024 (required for a new run; a resumed one keeps its
# checkpoint's); BLOCKS (10) and CHANNELS (128), the network's size for a
# new run; MINUTES (6), this call's training time (the planes, about half a
# minute on 16 cores, and the last measures keep the call well inside its
# 10 minutes); LR, the peak learning rate for a new run (0.1); GAMES, the
# corpus's first lines only (0: all; for a check on a CPU); DEVICE (cuda
# where there is one); EXTRA, more arguments for train.py. A checkpoint
# gpu-kit/resume.pt, the net.pt an earlier call brought back, is continued
# (its step count, schedule and data slice are in it), so that calls of
# several sessions add up to one training.
#
# $OUT gets net.bin (the engine's weights, version 3, every head),
# net-golden.json (the golden file the engine's test reads), net.json (the
# measures), net.pt (the lean checkpoint: weights in float16, under 8 MB for
# 10 x 128) and train.log.
set -euo pipefail

KIT=${KIT:-gpu-kit}

pack() {
    local corpus=${1:?usage: gpu_train.sh pack CORPUS}
    mkdir -p "$KIT"
    # Static, so that it runs on the lent machine's own system libraries.
    RUSTFLAGS="-C target-feature=+crt-static" cargo build --release \
        --example write_planes --target x86_64-unknown-linux-gnu
    cp target/x86_64-unknown-linux-gnu/release/examples/write_planes "$KIT/"
    # One game a line, the files in name order: the order write_planes'
    # held-out split counts in.
    cat "$corpus"/Tom/kifu/* | xz -9 -T0 >"$KIT/tom.txt.xz"
    xz -9 <"$corpus/Tom/Kifu.index" >"$KIT/Kifu.index.xz"
    if [[ -n ${OWNERSHIP:-} ]]; then
        xz -9 -T0 <"$OWNERSHIP" >"$KIT/ownership.txt.xz"
    else
        echo "no OWNERSHIP file: the ownership head will not be taught" >&2
    fi
    du -sh "$KIT"
}

run() {
    : "${OUT:?run writes its results under \$OUT}"
    local minutes=${MINUTES:-6} games=${GAMES:-0} work=${WORK:-/tmp/hane-gpu}
    local args=(--lean-checkpoint --minutes "$minutes")
    if [[ -f $KIT/resume.pt ]]; then
        args+=(--resume "$KIT/resume.pt")
        [[ -n ${STEPS:-} ]] && args+=(--steps "$STEPS")
    else
        args+=(--blocks "${BLOCKS:-10}" --channels "${CHANNELS:-128}"
            --steps "${STEPS:?a new run needs STEPS (the schedule length)}")
    fi
    [[ -n ${LR:-} ]] && args+=(--lr "$LR")
    [[ -n ${DEVICE:-} ]] && args+=(--device "$DEVICE")
    # shellcheck disable=SC2206
    [[ -n ${EXTRA:-} ]] && args+=($EXTRA)
    export PYTHONUNBUFFERED=1
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || true
    rm -rf "$work" && mkdir -p "$work"
    if [[ $games -gt 0 ]]; then
        # head stops reading early: xz's broken pipe is no failure here.
        (set +o pipefail; xz -dc "$KIT/tom.txt.xz" | head -n "$games" >"$work/tom.txt")
    else
        xz -dc "$KIT/tom.txt.xz" >"$work/tom.txt"
    fi
    xz -dc "$KIT/Kifu.index.xz" >"$work/Kifu.index"
    local ownership=()
    if [[ -f $KIT/ownership.txt.xz ]]; then
        xz -dc "$KIT/ownership.txt.xz" >"$work/ownership.txt"
        ownership=(--ownership "$work/ownership.txt")
    fi
    "$KIT/write_planes" --results "$work/Kifu.index" "${ownership[@]}" \
        --out "$work/planes" "$work/tom.txt"
    "$KIT/write_planes" --held-out-every 0 --threads 1 --out "$work/golden" \
        data/selfplay/19x19/game-0000.sgf
    PYTHONPATH=scripts python3 -m hane_train.train --data "$work/planes" \
        --slice "${SLICE:-tom}" --out "$OUT/net" --golden "$work/golden" "${args[@]}" \
        2>&1 | tee "$OUT/train.log"
    ls -l "$OUT"
}

case ${1:-} in
pack) pack "${2:-}" ;;
run) run ;;
*)
    echo "usage: gpu_train.sh pack CORPUS | run" >&2
    exit 2
    ;;
esac
