#!/usr/bin/env bash
# A reproducible sample of cargo-mutants' mutants of src/ (outside the CLI), for the mutation
# score in RELIABILITY.md. Module by module, each mutant is run against the library's unit
# tests and the integration tests of its own module only, which keeps a mutant to a rebuild
# and a few seconds of tests.
#
#   bash scripts/mutants-sample.sh [MODULE...]
#
# modules: grid havannah sequence search io render, and tokenizer (the window tokenizers alone,
# a part of io: `SHARD=0/4 bash scripts/mutants-sample.sh tokenizer` samples their rewrite). On a
# CPU without AVX-512 VBMI2 the AVX-512 tokenizer's mutants are left out of the tokenizer
# module (its tests cannot run there), and the script says so; the shard is then drawn from the
# shorter list, so that module's sample depends on the CPU.
#
# SHARD (default 0/23) picks the sample: cargo-mutants' --shard k/n with --sharding round-robin
# takes every n-th mutant of a module's list from the k-th, so the sample is spread evenly over
# every file, and the same on every machine for the same source (about 300 of 6 900 for 0/23).
# Each module's outcome lands in mutants.out/MODULE/mutants.out/ (caught.txt, missed.txt,
# timeout.txt, unviable.txt) and a summary line per module is printed at the end.
# Installs the pinned cargo-mutants when it is missing.
#
# Each of JOBS (default 2) jobs builds in a copy of the tree, from scratch for every module
# (COPY_TARGET=true copies target/ too, but its dependencies were rebuilt all the same).
# IN_PLACE=1 instead mutates this tree itself, one mutant at a time, on its warm target/: for a
# scratch clone (`git clone . /tmp/mut`), never for a working tree with changes (proptest also
# records the failures of mutants in its tests/*.proptest-regressions files there).
set -euo pipefail
cd "$(dirname "$0")/.."
version=27.1.0
if ! cargo mutants --version 2>/dev/null | grep -qF "$version"; then
    cargo install --locked cargo-mutants --version "$version"
fi
shard=${SHARD:-0/23}

# MODULE: the files it covers (cargo-mutants -f globs) and the test targets that check them.
declare -A files tests
files[grid]="src/grid/**"
tests[grid]="--test grid_engine --test grid_judge"
files[havannah]="src/havannah/**"
tests[havannah]="--test havannah_engine --test havannah_game --test havannah_judge --test havannah_gtp --test havannah_search"
files[sequence]="src/sequence/**"
tests[sequence]="--test sequence_engine --test sequence_small --test sequence_sim --test sequence_solver --test search"
files[search]="src/search/** src/rng.rs"
tests[search]="--test search --test havannah_search"
files[io]="src/input/** src/judge/** src/simd/**"
tests[io]="--test judge_driver --test grid_judge --test havannah_judge --test sequence_cli"
files[render]="src/render/**"
tests[render]="--test render"
files[tokenizer]="src/input/window.rs src/input/window/**"
tests[tokenizer]="--test grid_judge --test judge_driver"

modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
    modules=(grid havannah sequence search io render)
fi
for module in "${modules[@]}"; do
    if [ -z "${files[$module]+x}" ]; then
        echo "unknown module '$module': expected one of grid havannah sequence search io render tokenizer" >&2
        exit 2
    fi
done
for module in "${modules[@]}"; do
    globs=()
    read -r -a patterns <<<"${files[$module]}"
    for f in "${patterns[@]}"; do
        globs+=(-f "$f")
    done
    out="mutants.out/$module"
    mkdir -p "$out"
    # The baseline is run here, on the warm tree, instead of in cargo-mutants' copy: the
    # unmutated tree must pass these tests, or every mutant would count as caught.
    # shellcheck disable=SC2086 # tests[...] is a list of cargo test arguments
    if ! cargo test -q --lib ${tests[$module]} >/dev/null; then
        echo "the tests of $module fail on the unmutated tree: no sample" >&2
        exit 1
    fi
    # The test targets go to the build as well as to the test run (--cargo-arg): a bare
    # `cargo test --no-run` would build all two dozen of them for every mutant.
    cargo_args=()
    # shellcheck disable=SC2086 # tests[...] is a list of cargo test arguments
    for arg in --lib ${tests[$module]}; do
        cargo_args+=("--cargo-arg=$arg")
    done
    exclude=()
    if [ "$module" = tokenizer ] && ! grep -qw avx512_vbmi2 /proc/cpuinfo 2>/dev/null; then
        echo "tokenizer: this CPU has no AVX-512 VBMI2; the AVX-512 tokenizer's mutants are left out" >&2
        exclude=(--exclude-re 'tokenize_avx512|replace tokenize with')
    fi
    place=(--jobs "${JOBS:-2}" --copy-target "${COPY_TARGET:-false}")
    if [ -n "${IN_PLACE:-}" ]; then
        place=(--in-place)
    fi
    # cargo-mutants exits 2 when some mutants were missed and 3 when some timed out (listed
    # apart in timeout.txt): outcomes, not failures.
    status=0
    cargo mutants "${globs[@]}" --shard "$shard" --sharding round-robin "${place[@]}" \
        --baseline skip --timeout "${TIMEOUT:-120}" --build-timeout "${BUILD_TIMEOUT:-600}" \
        --output "$out" "${exclude[@]}" "${cargo_args[@]}" || status=$?
    case $status in
        0 | 2 | 3) ;;
        *)
            echo "cargo mutants failed on $module (exit $status)" >&2
            exit "$status"
            ;;
    esac
done
echo
printf '%-9s %7s %7s %7s %8s\n' module caught missed timeout unviable
for module in "${modules[@]}"; do
    dir="mutants.out/$module/mutants.out"
    count() { if [ -f "$dir/$1.txt" ]; then wc -l < "$dir/$1.txt"; else echo 0; fi; }
    printf '%-9s %7s %7s %7s %8s\n' "$module" "$(count caught)" "$(count missed)" \
        "$(count timeout)" "$(count unviable)"
done
