#!/usr/bin/env bash
# The network trained on this machine's CPU, in the background of every
# session (issue 72; docs/network.md, "Training on the CPU"). The same
# training as on a lent GPU (scripts/hane_train/train.py, every head
# together), continuing the committed checkpoint data/training/cpu/net.pt
# (or, the first time, data/training/net.pt, the lent GPU's call), and
# writing the next one there every CHECKPOINT_MINUTES so that a session
# stopped at any moment loses little.
#
#   scripts/cpu_train.sh prepare   # the session's data: ownership targets
#                                  # of GAMES games of slice SLICE from game
#                                  # FIRST on (final_ownership.py, hane's own
#                                  # reading of each game's end), then their
#                                  # planes (examples/write_planes), in WORK
#   scripts/cpu_train.sh run       # the training, MINUTES long, from the
#                                  # committed checkpoint; its checkpoints,
#                                  # weights, measures and progress log in
#                                  # data/training/cpu/
#
# Settings from the environment: SLICE (1), FIRST (0), GAMES (50000),
# PER_GAME (80, positions a game), WORK (/work/corpus/cpu), SLICES (slices),
# MINUTES (150), CHECKPOINT_MINUTES (20), THREADS (2; 1 beside a match
# on a 2-core machine: two threads that share a core wait on each other,
# 57 positions a second against one thread's 106), BATCH (256), LR
# (0.0015, the peak of this run's cosine: 0.004 on a trained network
# spent a session's first hour recovering from it), PRECISION (auto: bf16 autocast
# where the CPU has AMX or AVX512-BF16), NICE (10: the trainer yields to
# the work beside it), EXTRA (more arguments for train.py). A run whose
# loss is not finite stops without writing; the checkpoint it started from
# stays.
set -euo pipefail

SLICE=${SLICE:-1}
FIRST=${FIRST:-0}
GAMES=${GAMES:-50000}
PER_GAME=${PER_GAME:-80}
WORK=${WORK:-/work/corpus/cpu}
SLICES=${SLICES:-slices}
OUTDIR=data/training/cpu
name=$(printf 'slice-%03d' "$SLICE")
part="$name-games-$FIRST-$((FIRST + GAMES))"

prepare() {
    local slice=$SLICES/$name.hgm.xz
    [[ -f $slice ]] || { echo "$slice: pack it first (scripts/gpu_train.sh slices MIRROR)" >&2; exit 1; }
    mkdir -p "$WORK"
    cargo build --release --bin hane --example write_planes
    local own=$WORK/ownership-$part.txt
    if [[ ! -s $own.done ]]; then
        # --skip: a run stopped part way is finished by the next.
        local skip=()
        [[ -s $own ]] && skip=(--skip "$own.partial") && cp "$own" "$own.partial"
        python3 scripts/final_ownership.py --out "$own.new" --first-game "$FIRST" --games "$GAMES" \
            --analysis-threads "${THREADS:-2}" "${skip[@]}" "$slice"
        cat "$own.new" >>"$own" && rm -f "$own.new" "$own.partial"
        date -u >"$own.done"
    fi
    python3 scripts/pack_ownership.py --slice "$slice" --out "$WORK/$part.own.xz" "$own"
    local raw=$WORK/$name.hgm
    [[ -f $raw ]] || xz -dc "$slice" >"$raw"
    xz -dc "$WORK/$part.own.xz" >"$WORK/$part.own"
    rm -rf "$WORK/$part"
    target/release/examples/write_planes --first-game "$FIRST" --games "$GAMES" --per-game "$PER_GAME" \
        --ownership "$WORK/$part.own" --out "$WORK/$part" "$raw"
    rm -rf "$WORK/golden"
    target/release/examples/write_planes --held-out-every 0 --threads 1 --out "$WORK/golden" \
        data/selfplay/19x19/game-0000.sgf
    du -sh "$WORK/$part"
}

run() {
    mkdir -p "$OUTDIR"
    local resume=$OUTDIR/net.pt
    [[ -f $resume ]] || resume=data/training/net.pt
    # The training writes beside its outputs and they are copied in whole:
    # the committed files are never a half-written one.
    local args=(--data "$WORK/$part" --slice "$part" --out "$OUTDIR/net" --golden "$WORK/golden"
        --resume "$resume" --lean-checkpoint --fit-schedule --minutes "${MINUTES:-150}"
        --checkpoint-every "${CHECKPOINT_MINUTES:-20}" --threads "${THREADS:-2}"
        --batch "${BATCH:-256}" --lr "${LR:-0.0015}" --precision "${PRECISION:-auto}"
        --progress "$OUTDIR/progress.tsv")
    # shellcheck disable=SC2206
    [[ -n ${EXTRA:-} ]] && args+=($EXTRA)
    export PYTHONUNBUFFERED=1
    PYTHONPATH=scripts nice -n "${NICE:-10}" python3 -m hane_train.train "${args[@]}" 2>&1 | tee -a "$OUTDIR/train.log"
}

case ${1:-} in
prepare) prepare ;;
run) run ;;
*)
    echo "usage: cpu_train.sh prepare | run" >&2
    exit 2
    ;;
esac
