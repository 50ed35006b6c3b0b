#!/usr/bin/env bash
# The network trained on a lent GPU machine in one call of the device tool,
# and what that call carries, packed here (docs/network.md, "On a lent
# GPU"). The training is the one entry point, scripts/hane_train/train.py:
# every head (policy, value, ownership) together, in steps, resumable.
#
#   scripts/gpu_train.sh slices MIRROR  # here: every slice of the corpus
#                                       # (Tom and TYGEM, no game of 2011) into
#                                       # slices/ (.gitignore) with its
#                                       # manifest.json (scripts/pack_corpus.py;
#                                       # MIRROR a git dir of
#                                       # yenw/computer-go-dataset)
#   scripts/gpu_train.sh pack N [MIRROR] # here: gpu-kit/ (.gitignore): the plane
#                                       # writer, statically linked, slice N
#                                       # (slices/ made first from MIRROR if it
#                                       # is not there) and its manifest entry
#                                       # (slice.json) and, from OWNERSHIP
#                                       # (scripts/final_ownership.py's files,
#                                       # space-separated), the ownership
#                                       # targets of the slice's games, packed
#                                       # (scripts/pack_ownership.py)
#   scripts/gpu_train.sh run            # there, carry gpu-kit: the planes of the
#                                       # slice carried, the training, the
#                                       # results under $OUT
#
# A call takes the next slice: the checkpoint records the slice it trained
# on (its name, slice-NNN, and the manifest's fingerprint), so the next
# call packs the slice after it.
#
# run's settings come from the environment: STEPS, the schedule's length in
# batches of 1,024 (required for a new run; a resumed one keeps its
# checkpoint's); BLOCKS (10) and CHANNELS (128), the network's size for a
# new run; MINUTES (6), this call's training time (the planes, about half a
# minute on 16 cores, and the last measures keep the call well inside its
# 10 minutes); LR, the peak learning rate for a new run (0.1); GAMES, the
# slice's first games only (0: all; for a check on a CPU); PER_GAME, the
# positions taken of each game (write_planes --per-game; 0: all, about 220
# a game: 44 million positions and 38 GB of planes for a slice of 200,000,
# more than a call trains on); CALL_SECONDS (540), the time the whole call
# may take, the training cut short to fit it; FIT (1: --fit-schedule, the schedule's
# length set from this call's pace so that its rate reaches 0 when MINUTES
# are up; STEPS is then only an upper bound); INIT, a weights file a new
# run starts from (data/policy-net.bin: the shipped network, its komi
# plane's weights starting at 0); DEVICE (cuda where there is one); EXTRA,
# more arguments for train.py; PROBE_SIZES (BLOCKSxCHANNELS, comma-separated:
# 6x64,10x128), a probe first of what a training step of each size costs
# on the machine (hane_train/size_probe.py, some seconds a size; its time
# comes out of the training's). A checkpoint
# gpu-kit/resume.pt, the net.pt an earlier call brought back, is continued
# (its step count, schedule and data slice are in it), so that calls of
# several sessions add up to one training.
#
# $OUT gets net.bin (the engine's weights, version 6, every head it reads),
# net-golden.json (the golden file the engine's test reads), net.json (the
# measures), net.pt (the lean checkpoint: weights in float16, under 8 MB for
# 10 x 128), train.log and, with PROBE_SIZES, size-probe.log.
set -euo pipefail

KIT=${KIT:-gpu-kit}
SLICES=${SLICES:-slices}

slices() {
    local mirror=${1:?usage: gpu_train.sh slices MIRROR}
    mkdir -p "$SLICES"
    nice -n 10 python3 scripts/pack_corpus.py --mirror "$mirror" --out "$SLICES"
}

pack() {
    local n=${1:?usage: gpu_train.sh pack N [MIRROR]}
    local name
    name=$(printf 'slice-%03d' "$n")
    if [[ ! -f $SLICES/$name.hgm.xz ]]; then
        slices "${2:?slice $n is not in $SLICES: give MIRROR to pack the corpus}"
    fi
    mkdir -p "$KIT"
    # Static, so that it runs on the lent machine's own system libraries.
    RUSTFLAGS="-C target-feature=+crt-static" cargo build --release \
        --example write_planes --target x86_64-unknown-linux-gnu
    cp target/x86_64-unknown-linux-gnu/release/examples/write_planes "$KIT/"
    # Its debug information out: 4.5 MB to 1.4 MB of the 64 MiB carried.
    strip "$KIT/write_planes" 2>/dev/null || true
    # One slice a kit: the previous call's slice out, this one in.
    rm -f "$KIT"/slice-*.hgm.xz "$KIT/tom.txt.xz" "$KIT/Kifu.index.xz" "$KIT"/ownership.*
    cp "$SLICES/$name.hgm.xz" "$KIT/"
    python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
s = [s for s in m["slices"] if s["slice"] == int(sys.argv[2])][0]
json.dump(dict(s, name=sys.argv[3]), open(sys.argv[4], "w"), indent=1)' \
        "$SLICES/manifest.json" "$n" "$name" "$KIT/slice.json"
    if [[ -n ${OWNERSHIP:-} ]]; then
        # shellcheck disable=SC2086
        python3 scripts/pack_ownership.py --slice "$SLICES/$name.hgm.xz" \
            --out "$KIT/ownership.own.xz" $OWNERSHIP
    else
        echo "no OWNERSHIP file: the ownership head will not be taught" >&2
    fi
    du -sh "$KIT"
    du -cb "$KIT"/* | tail -1 | awk '{ printf "%d bytes (64 MiB: %d)\n", $1, 64 * 1048576 }'
}

run() {
    : "${OUT:?run writes its results under \$OUT}"
    # The whole call ends by then (CALL_SECONDS from now: inside the device
    # tool's 600 s): the training stops in time for the export, however
    # long the planes took.
    local end_by=$(($(date +%s) + ${CALL_SECONDS:-540}))
    local minutes=${MINUTES:-6} games=${GAMES:-0} work=${WORK:-/tmp/hane-gpu}
    local args=(--lean-checkpoint --minutes "$minutes" --end-by "$end_by")
    if [[ -f $KIT/resume.pt ]]; then
        args+=(--resume "$KIT/resume.pt")
        [[ -n ${STEPS:-} ]] && args+=(--steps "$STEPS")
    else
        args+=(--blocks "${BLOCKS:-10}" --channels "${CHANNELS:-128}"
            --steps "${STEPS:?a new run needs STEPS (the schedule length)}")
    fi
    [[ -n ${LR:-} ]] && args+=(--lr "$LR")
    [[ ${FIT:-0} == 1 ]] && args+=(--fit-schedule)
    [[ -n ${INIT:-} && ! -f $KIT/resume.pt ]] && args+=(--init "$INIT")
    [[ -n ${DEVICE:-} ]] && args+=(--device "$DEVICE")
    # shellcheck disable=SC2206
    [[ -n ${EXTRA:-} ]] && args+=($EXTRA)
    export PYTHONUNBUFFERED=1
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || true
    rm -rf "$work" && mkdir -p "$work"
    local slice name fingerprint
    slice=$(ls "$KIT"/slice-*.hgm.xz)
    name=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["name"])' "$KIT/slice.json")
    fingerprint=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["fingerprint"])' "$KIT/slice.json")
    xz -dc "$slice" >"$work/slice.hgm"
    local limit=()
    [[ $games -gt 0 ]] && limit=(--games "$games")
    limit+=(--per-game "${PER_GAME:-0}")
    local ownership=()
    if [[ -f $KIT/ownership.own.xz ]]; then
        xz -dc "$KIT/ownership.own.xz" >"$work/ownership.own"
        ownership=(--ownership "$work/ownership.own")
    fi
    "$KIT/write_planes" "${limit[@]}" "${ownership[@]}" \
        --out "$work/planes" "$work/slice.hgm"
    "$KIT/write_planes" --held-out-every 0 --threads 1 --out "$work/golden" \
        data/selfplay/19x19/game-0000.sgf
    if [[ -n ${PROBE_SIZES:-} ]]; then
        PYTHONPATH=scripts python3 -m hane_train.size_probe --sizes "$PROBE_SIZES" \
            2>&1 | tee "$OUT/size-probe.log"
    fi
    PYTHONPATH=scripts python3 -m hane_train.train --data "$work/planes" \
        --slice "$name" --slice-fingerprint "$fingerprint" --out "$OUT/net" --golden "$work/golden" "${args[@]}" \
        2>&1 | tee "$OUT/train.log"
    ls -l "$OUT"
}

case ${1:-} in
slices) slices "${2:-}" ;;
pack) pack "${2:-}" "${3:-}" ;;
run) run ;;
*)
    echo "usage: gpu_train.sh slices MIRROR | pack N [MIRROR] | run" >&2
    exit 2
    ;;
esac
