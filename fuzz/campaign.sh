#!/usr/bin/env bash
# A fuzzing campaign: every cargo-fuzz target for SECONDS each, one after the other on one core,
# then a table of inputs run, rate, coverage and crashes per target (Markdown, ready for
# RELIABILITY.md). Corpora grow in a scratch folder seeded from fuzz/corpus/<target>; a crash
# leaves its input in fuzz/artifacts/<target>/ and is counted.
#
#   bash fuzz/campaign.sh SECONDS [TARGET...]
#
# Needs cargo-fuzz (`cargo install --locked cargo-fuzz`) and, for AddressSanitizer, a nightly
# toolchain; without nightly the targets run without a sanitizer (`-s none`), and the table says
# so.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: bash fuzz/campaign.sh SECONDS [TARGET...]}
shift
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo fuzz list)
fi
# Built without LLVM's trace-compares instrumentation: in 60-second runs every target reached
# as much coverage or more without it, at up to five times the rate (fuzz/README.md, "Build flags").
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    fuzz=(cargo +nightly fuzz run --no-trace-compares)
    sanitizer=address
else
    fuzz=(cargo fuzz run -s none --no-trace-compares)
    sanitizer=none
fi
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rows=()
for target in "${targets[@]}"; do
    corpus="$work/corpus-$target"
    mkdir -p "$corpus"
    log="$work/$target.log"
    status=0
    "${fuzz[@]}" "$target" "$corpus" "fuzz/corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 -detect_leaks=0 >"$log" 2>&1 || status=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    peak=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
    cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
    features=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
    crashes=0
    if [ "$status" -ne 0 ]; then
        crashes=1
        echo "--- $target failed (exit $status); the end of its log:" >&2
        tail -30 "$log" >&2
    fi
    rows+=("| $target | ${seconds} s | ${runs:-?} | ${rate:-?} | ${cov} | ${features} | ${peak:-?} MB | $crashes |")
    echo "$target: ${runs:-?} inputs, ${rate:-?}/s, cov ${cov}, ft ${features}, crashes $crashes" >&2
done
echo
echo "Campaign of $(date -u +%Y-%m-%d), $(nproc) cores, sanitizer: $sanitizer, $(rustc +nightly --version 2>/dev/null || rustc --version)"
echo
echo "| target | time | inputs | inputs/s | coverage (cov) | features (ft) | peak memory | crashes |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
printf '%s\n' "${rows[@]}"
