#!/usr/bin/env bash
# Side-by-side runs of the bitgames judges and the C++ baselines on the same generated input:
# the outputs must be identical, then hyperfine times both.
#
#   bash benches/side_by_side.sh [GAME...]     GAME: sequence havannah grid grid-short
#                                              (default: the first three)
#
# BASELINES (default ../shared/baselines) holds seq.cpp, hav.cpp and grid.cpp; WORK (default
# /tmp/bitgames-bench) receives the binaries, inputs and outputs.
set -euo pipefail
cd "$(dirname "$0")/.."
work="${WORK:-/tmp/bitgames-bench}"
if ! command -v hyperfine >/dev/null 2>&1; then
    # 1.20 is the last release that builds on the project's Rust (1.95).
    cargo install --locked hyperfine@1.20.0
fi
# shellcheck source=benches/prepare.sh
source benches/prepare.sh

run() {
    local name=$1 game=$2 cpp=$3
    prepare "$@"
    echo "$name: $(wc -c < "$work/$name.in") bytes of input, outputs identical"
    # On an AVX-512 machine the best back end is AVX-512; the AVX2 path is timed too, capped.
    local capped=()
    if grep -qw avx512_vbmi2 /proc/cpuinfo 2>/dev/null; then
        capped=(-n "bitgames $game --threads 1, BITGAMES_SIMD=avx2"
            "BITGAMES_SIMD=avx2 $bin $game --threads 1 $work/$name.in"
            -n "bitgames $game (all cores), BITGAMES_SIMD=avx2"
            "BITGAMES_SIMD=avx2 $bin $game $work/$name.in")
    fi
    hyperfine --warmup 2 --runs 10 \
        -n "baseline $cpp (g++ -O2)" "$work/base_$game < $work/$name.in" \
        -n "bitgames $game --threads 1" "$bin $game --threads 1 $work/$name.in" \
        -n "bitgames $game (all cores)" "$bin $game $work/$name.in" \
        "${capped[@]}" \
        -n "bitgames $game --threads 1, BITGAMES_SIMD=portable" \
        "BITGAMES_SIMD=portable $bin $game --threads 1 $work/$name.in"
}

games=("$@")
[ ${#games[@]} -gt 0 ] || games=(sequence havannah grid)
for game in "${games[@]}"; do
    case $game in
        sequence) run sequence sequence seq.cpp gen_sequence 50000 7 1 ;;
        havannah) run havannah havannah hav.cpp gen_havannah 400 3000 10000 1 ;;
        grid) run grid grid grid.cpp gen_grid 400000 1 80 ;;
        grid-short) run grid-short grid grid.cpp gen_grid 4000000 2 80 10 ;;
        *) echo "unknown game $game" >&2; exit 2 ;;
    esac
done
