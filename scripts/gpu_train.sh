#!/usr/bin/env bash
# The policy network trained on a lent GPU machine in one call of the device
# tool, and what that call carries, packed here (docs/network.md, "On a lent
# GPU").
#
#   scripts/gpu_train.sh pack CORPUS   # here: gpu-kit/ (.gitignore): the plane
#                                      # writer, statically linked, and the Tom
#                                      # corpus of CORPUS (a yenw/computer-go-dataset
#                                      # clone) as xz, about 15 MiB
#   scripts/gpu_train.sh run           # there, carry gpu-kit: the planes, the
#                                      # training, the results under $OUT
#
# run's settings come from the environment: BLOCKS (10) and CHANNELS (128),
# the network's size; MINUTES (6), the training's time, which with the
# planes (about half a minute on 16 cores) and the last measure keeps the
# call well inside its 10 minutes; LR, the peak learning rate (0.1, or 0.05
# when continuing); GAMES, the corpus's first lines only (0: all; for a
# check on a CPU); DEVICE (cuda where there is one). A checkpoint
# gpu-kit/resume.pt, the net.pt an earlier call brought back, is continued
# from, so that calls of several sessions add up to one longer training.
# MODE=joint trains the policy and the value head together from that
# checkpoint instead (scripts/train_value.py --mode joint), for STEPS
# batches (required: its learning rate follows them; the last policy
# call's steps a minute, in its net.json, times MINUTES).
#
# $OUT gets net.bin (the engine's weights), net.json (the measures and the
# golden logits), net.pt (the checkpoint, without the optimizer's momentum:
# a returned file is at most 16 MiB) and train.log.
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
    du -sh "$KIT"
}

run() {
    : "${OUT:?run writes its results under \$OUT}"
    local blocks=${BLOCKS:-10} channels=${CHANNELS:-128} minutes=${MINUTES:-6}
    local games=${GAMES:-0} work=${WORK:-/tmp/hane-gpu}
    local resume=() lr=${LR:-0.1}
    if [[ -f $KIT/resume.pt ]]; then
        resume=(--resume "$KIT/resume.pt")
        lr=${LR:-0.05}
    fi
    local device=()
    [[ -n ${DEVICE:-} ]] && device=(--device "$DEVICE")
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
    "$KIT/write_planes" --results "$work/Kifu.index" --out "$work/planes" "$work/tom.txt"
    "$KIT/write_planes" --held-out-every 0 --threads 1 --out "$work/golden" \
        data/selfplay/19x19/game-0000.sgf
    if [[ ${MODE:-policy} == joint ]]; then
        [[ -f $KIT/resume.pt ]] || { echo "MODE=joint starts from $KIT/resume.pt" >&2; exit 2; }
        python3 scripts/train_value.py --mode joint --data "$work/planes" --out "$OUT/net" \
            --init "$KIT/resume.pt" --blocks "$blocks" --channels "$channels" \
            --steps "${STEPS:?MODE=joint needs STEPS}" --minutes "$minutes" --lr "$lr" \
            --golden "$work/golden" "${device[@]}" 2>&1 | tee "$OUT/train.log"
    else
        python3 scripts/train_policy.py --data "$work/planes" --out "$OUT/net" \
            --blocks "$blocks" --channels "$channels" --minutes "$minutes" --lr "$lr" \
            --golden "$work/golden" --lean-checkpoint "${resume[@]}" "${device[@]}" \
            2>&1 | tee "$OUT/train.log"
    fi
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
