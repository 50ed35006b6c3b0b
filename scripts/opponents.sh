#!/usr/bin/env bash
# Builds the programs that measure hane, outside the project, on a fresh
# development machine: they are never part of hane, its tests or CI
# (docs/strength.md). A machine is not kept between sessions for long, so
# what this writes may be gone next time; run it again.
#
#   scripts/opponents.sh katago KATAGO_GIT_DIR [DEST]   # KataGo 1.17.2 (Eigen, AVX2),
#       KaTrain 1.20.0's network, a GTP wrapper at one visit and the judge's config
#   scripts/opponents.sh pachi PACHI_GIT_DIR [DEST]     # Pachi 12.90 without its network
#   scripts/opponents.sh corpus DATASET_GIT_DIR [DEST]  # tom.txt and Kifu.index
#
# A *_GIT_DIR is a git directory of the public repository (the session's
# `fetch` of lightvector/KataGo, pasky/pachi or yenw/computer-go-dataset);
# DEST defaults to /work/opponents (/work/corpus for the corpus). Building
# KataGo takes some 15-20 minutes on two cores, Pachi two or three.
#
# What it leaves, as the docs' commands name it:
#   DEST/katago/katago                    KataGo's binary
#   DEST/katago/run.sh [VISITS]           its GTP engine, tromp-taylor with
#                                         multi-stone suicide illegal, one thread,
#                                         VISITS a move (1: its raw policy)
#   DEST/katago/judge.cfg                 the judge's config (scripts/judgement.py,
#                                         scripts/move_quality.py): Black's view,
#                                         one thread, 16 visits, no randomness
#   DEST/katrain/katrain/models/b10c384h6nbttflrs.bin.gz   the network
#   DEST/pachi.sh ARGS                    Pachi, e.g. `pachi.sh -t =5000 threads=1 -D`
set -euo pipefail

KATAGO_TAG=v1.17.2
PACHI_TAG=pachi-12.90
KATRAIN=katrain==1.20.0

usage() {
    sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

# The tree `path` of `tag` in the git directory `git_dir`, written out file by
# file into `dest`, skipping paths that match `skip` (a mirror may lack
# the blobs of large test files).
write_tree() {
    local git_dir=$1 tag=$2 path=$3 dest=$4 skip=$5
    git --git-dir "$git_dir" ls-tree -r "$tag" "$path" |
        while read -r _mode type hash file; do
            [ "$type" = blob ] || continue
            if [ -n "$skip" ] && [[ $file == $skip* ]]; then
                continue
            fi
            mkdir -p "$dest/$(dirname "$file")"
            git --git-dir "$git_dir" cat-file blob "$hash" >"$dest/$file"
        done
}

# `git_dir` as a git directory: a mirror's `repo` folder or a clone's `.git`.
git_dir_of() {
    if [ -d "$1/.git" ]; then echo "$1/.git"; else echo "$1"; fi
}

build_katago() {
    local git_dir dest=$2
    git_dir=$(git_dir_of "$1")
    apt-get install -y -qq cmake libeigen3-dev libzip-dev zlib1g-dev >/dev/null
    mkdir -p "$dest/katago" "$dest/katago-src"
    write_tree "$git_dir" "$KATAGO_TAG" cpp "$dest/katago-src" cpp/tests/models
    (cd "$dest/katago" &&
        cmake "$dest/katago-src/cpp" -DUSE_BACKEND=EIGEN -DUSE_AVX2=1 \
            -DCMAKE_BUILD_TYPE=Release -DNO_GIT_REVISION=1 >/dev/null &&
        make -j"$(nproc)" >/dev/null)
    mkdir -p "$dest/katrain-wheel" "$dest/katrain"
    pip download --no-deps "$KATRAIN" -d "$dest/katrain-wheel" >/dev/null
    python3 -m zipfile -e "$dest"/katrain-wheel/katrain-*.whl "$dest/katrain"
    write_katago_configs "$dest"
    echo "KataGo: $dest/katago/katago, $dest/katago/run.sh, $dest/katago/judge.cfg"
}

write_katago_configs() {
    local dest=$1
    cat >"$dest/katago/judge.cfg" <<'EOF'
logDir = /tmp/katago-logs
reportAnalysisWinratesAs = BLACK
conservativePass = true
maxVisits = 16
numAnalysisThreads = 1
numSearchThreads = 1
nnMaxBatchSize = 8
nnCacheSizePowerOfTwo = 18
nnMutexPoolSizePowerOfTwo = 14
nnRandomize = false
nnRandSeed = judge
EOF
    # Tromp-Taylor as hane plays it with --no-suicide: the rule keys one by
    # one, since `rules = tromp-taylor` allows multi-stone suicide.
    cat >"$dest/katago/gtp.cfg" <<'EOF'
logDir = /tmp/katago-logs
logAllGTPCommunication = false
logSearchInfo = false
logToStderr = false
koRule = POSITIONAL
scoringRule = AREA
taxRule = NONE
multiStoneSuicideLegal = false
hasButton = false
whiteHandicapBonus = 0
allowResignation = true
resignThreshold = -0.90
resignConsecTurns = 3
ponderingEnabled = false
numSearchThreads = 1
EOF
    cat >"$dest/katago/run.sh" <<EOF
#!/usr/bin/env bash
# KataGo's GTP engine at \${1:-1} visits a move (1: its raw policy, no search).
exec "$dest/katago/katago" gtp -model "$dest/katrain/katrain/models/b10c384h6nbttflrs.bin.gz" \\
    -config "$dest/katago/gtp.cfg" -override-config "maxVisits=\${1:-1}" 2>/dev/null
EOF
    chmod +x "$dest/katago/run.sh"
}

build_pachi() {
    local git_dir dest=$2
    git_dir=$(git_dir_of "$1")
    rm -rf "$dest/pachi"
    # A clone, not the tree alone: its Makefile reads .git/HEAD.
    git clone -q --branch "$PACHI_TAG" "$git_dir" "$dest/pachi" 2>/dev/null
    # GENERIC=1: no -march=native, so that the binary runs on another
    # machine too (a lent device's).
    make -C "$dest/pachi" -j"$(nproc)" DCNN=0 JOSEKIFIX=0 GENERIC=1 >/dev/null
    cat >"$dest/pachi.sh" <<EOF
#!/usr/bin/env bash
# Pachi 12.90 without its network, run from its folder (its pattern files).
cd "$dest/pachi" && exec ./pachi "\$@" 2>/dev/null
EOF
    chmod +x "$dest/pachi.sh"
    echo "Pachi: $dest/pachi.sh"
}

write_corpus() {
    local git_dir dest=$2
    git_dir=$(git_dir_of "$1")
    mkdir -p "$dest"
    git --git-dir "$git_dir" ls-tree -r --name-only HEAD Tom/kifu | LC_ALL=C sort |
        while read -r file; do git --git-dir "$git_dir" cat-file -p "HEAD:$file"; done >"$dest/tom.txt"
    git --git-dir "$git_dir" cat-file -p HEAD:Tom/Kifu.index >"$dest/Kifu.index"
    echo "corpus: $dest/tom.txt ($(wc -l <"$dest/tom.txt") games), $dest/Kifu.index"
}

[ $# -ge 2 ] || usage
case $1 in
katago) build_katago "$2" "${3:-/work/opponents}" ;;
pachi) build_pachi "$2" "${3:-/work/opponents}" ;;
corpus) write_corpus "$2" "${3:-/work/corpus}" ;;
*) usage ;;
esac
