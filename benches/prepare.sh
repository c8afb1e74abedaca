# Sourced by side_by_side.sh and instructions.sh (from the repository's root, with `work` set):
# builds bitgames and the generators, and defines `prepare`.
baselines="${BASELINES:-../shared/baselines}"
mkdir -p "$work"
cargo build --release --quiet --bin bitgames --examples
bin=target/release/bitgames

# prepare NAME GAME CPP GEN ARGS...: builds the baseline CPP, writes the input $work/NAME.in
# with the generator GEN ARGS and the baseline's answers to $work/NAME.base.out, and checks
# that bitgames gives the same bytes (one thread and two; the best back end, AVX2 and portable).
prepare() {
    local name=$1 game=$2 cpp=$3 gen=$4
    shift 4
    g++ -O2 -o "$work/base_$game" "$baselines/$cpp"
    "target/release/examples/$gen" "$@" > "$work/$name.in"
    "$work/base_$game" < "$work/$name.in" > "$work/$name.base.out"
    for simd in "" avx2 portable; do
        for threads in 1 2; do
            BITGAMES_SIMD=$simd "$bin" "$game" --threads "$threads" "$work/$name.in" > "$work/$name.out"
            cmp "$work/$name.base.out" "$work/$name.out"
        done
    done
}
