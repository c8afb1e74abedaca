#!/usr/bin/env bash
# Alternating runs of two builds of the command-line tool on one input, for changes too small
# for separate hyperfine runs on a shared machine: the minimum and median wall time of each.
#
#   bash benches/ab.sh GAME INPUT THREADS OLD_BINARY NEW_BINARY [ROUNDS]
#
# (as in docs/perf-log.md: `bash benches/ab.sh grid /tmp/bitgames-bench/grid.in 1
# /tmp/old /tmp/new 10`, after copying each build's target/release/bitgames aside.)
set -euo pipefail
game=$1 input=$2 threads=$3 old=$4 new=$5 rounds=${6:-10}
for _ in $(seq "$rounds"); do
    for bin in "$old" "$new"; do
        start=$(date +%s%N)
        "$bin" "$game" --threads "$threads" "$input" > /dev/null
        end=$(date +%s%N)
        echo "$bin $(((end - start) / 1000000))"
    done
done | sort -k1,1 -k2,2n | awk '
    { c[$1]++; v[$1, c[$1]] = $2 }
    END { for (k in c) printf "%s: min %d ms, median %d ms\n", k, v[k, 1], v[k, int((c[k] + 1) / 2)] }'
