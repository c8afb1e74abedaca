#!/usr/bin/env bash
# Side-by-side runs of the bitgames judges and the C++ baselines on the same generated input:
# the outputs must be identical, then hyperfine times both.
#
#   bash benches/side_by_side.sh [GAME...]     GAME: sequence havannah grid (default: all)
#
# BASELINES (default ../shared/baselines) holds seq.cpp, hav.cpp and grid.cpp; WORK (default
# /tmp/bitgames-bench) receives the binaries, inputs and outputs.
set -euo pipefail
cd "$(dirname "$0")/.."
baselines="${BASELINES:-../shared/baselines}"
work="${WORK:-/tmp/bitgames-bench}"
mkdir -p "$work"
cargo build --release --quiet --bin bitgames --examples
bin=target/release/bitgames

run() {
    local game=$1 cpp=$2 gen=$3
    shift 3
    g++ -O2 -o "$work/base_$game" "$baselines/$cpp"
    "target/release/examples/$gen" "$@" > "$work/$game.in"
    "$work/base_$game" < "$work/$game.in" > "$work/$game.base.out"
    for threads in 1 2; do
        "$bin" "$game" --threads "$threads" "$work/$game.in" > "$work/$game.out"
        cmp "$work/$game.base.out" "$work/$game.out"
    done
    echo "$game: $(wc -c < "$work/$game.in") bytes of input, outputs identical"
    hyperfine --warmup 2 --runs 10 \
        -n "baseline $cpp (g++ -O2)" "$work/base_$game < $work/$game.in" \
        -n "bitgames $game --threads 1" "$bin $game --threads 1 $work/$game.in" \
        -n "bitgames $game (all cores)" "$bin $game $work/$game.in"
}

games=("$@")
[ ${#games[@]} -gt 0 ] || games=(sequence havannah grid)
for game in "${games[@]}"; do
    case $game in
        sequence) run sequence seq.cpp gen_sequence 50000 7 1 ;;
        havannah) run havannah hav.cpp gen_havannah 400 3000 10000 1 ;;
        grid) run grid grid.cpp gen_grid 400000 1 80 ;;
        *) echo "unknown game $game" >&2; exit 2 ;;
    esac
done
