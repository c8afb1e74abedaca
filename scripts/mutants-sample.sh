#!/usr/bin/env bash
# A reproducible sample of cargo-mutants' mutants of src/, each run against the library's unit
# tests and the integration tests named in TESTS, for the mutation score in RELIABILITY.md.
#
#   bash scripts/mutants-sample.sh [SHARD/SHARDS]      default 0/18 (about 300 of ~5 500)
#
# cargo-mutants' --shard k/n with --sharding round-robin takes every n-th mutant of its list
# from the k-th, so a shard is a sample spread evenly across every file, and the same on every machine for the same source.
# The outcome lands in mutants.out/ (caught.txt, missed.txt, timeout.txt, unviable.txt).
# Installs the pinned cargo-mutants when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
version=27.1.0
if ! cargo mutants --version 2>/dev/null | grep -qF "$version"; then
    cargo install --locked cargo-mutants --version "$version"
fi
shard=${1:-0/18}
tests=${TESTS:-"--test sequence_engine --test havannah_engine --test havannah_game --test grid_engine --test grid_judge --test judge_driver --test search --test sequence_solver"}
# shellcheck disable=SC2086 # TESTS is a list of cargo test arguments
cargo mutants --shard "$shard" --sharding round-robin --jobs "${JOBS:-2}" --timeout "${TIMEOUT:-300}" \
    --exclude 'src/main.rs' --exclude 'src/cli/**' -- --lib $tests
echo
for outcome in caught missed timeout unviable; do
    printf '%-9s %s\n' "$outcome" "$(wc -l < "mutants.out/$outcome.txt" 2>/dev/null || echo 0)"
done
