#!/usr/bin/env bash
# Instructions executed by the C++ baselines and by the bitgames judges (one thread, the best
# back end and BITGAMES_SIMD=portable) on the same generated inputs, counted by callgrind: a
# figure that does not move with the machine's load. Outputs are compared (`cmp`) first.
#
#   bash benches/instructions.sh [GAME...]     GAME: sequence havannah grid grid-short
#
# BASELINES (default ../shared/baselines) holds seq.cpp, hav.cpp and grid.cpp; WORK (default
# /tmp/bitgames-instructions) receives the binaries, inputs and outputs. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
work="${WORK:-/tmp/bitgames-instructions}"
# shellcheck source=benches/prepare.sh
source benches/prepare.sh

count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

run() {
    local name=$1 game=$2 gen=$4
    prepare "$@"
    shift 4
    local base best portable
    base=$(count "$work/base_$game" < "$work/$name.in")
    best=$(count "$bin" "$game" --threads 1 "$work/$name.in")
    portable=$(BITGAMES_SIMD=portable count "$bin" "$game" --threads 1 "$work/$name.in")
    awk -v n="$name" -v g="$gen $*" -v a="$base" -v b="$best" -v p="$portable" 'BEGIN {
        printf "| %s (`%s`) | %.1f M | %.1f M (%.1f×) | %.1f M (%.1f×) |\n",
            n, g, a / 1e6, b / 1e6, a / b, p / 1e6, a / p }'
}

games=("$@")
[ ${#games[@]} -gt 0 ] || games=(sequence havannah grid grid-short)
echo "| input | baseline | bitgames, best back end | bitgames, portable |"
echo "| --- | --- | --- | --- |"
for game in "${games[@]}"; do
    case $game in
        sequence) run sequence sequence seq.cpp gen_sequence 3000 7 1 ;;
        havannah) run havannah havannah hav.cpp gen_havannah 20 3000 10000 1 ;;
        grid) run grid grid grid.cpp gen_grid 20000 1 80 ;;
        grid-short) run grid-short grid grid.cpp gen_grid 200000 2 80 10 ;;
        *) echo "unknown game $game" >&2; exit 2 ;;
    esac
done
