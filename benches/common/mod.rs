//! What the three judge throughput benches share.

use std::hint::black_box;

use bitgames::judge::{self, Format, Options};
use criterion::{Criterion, Throughput};

/// Benches `format` on `input`, which holds `datasets` datasets, in bytes of input per second:
/// on one thread and on all cores, the input judged in place (as the CLI judges a file). Every
/// iteration asserts the number of datasets answered.
pub fn judge_throughput<F: Format>(
    c: &mut Criterion,
    group: &str,
    format: &F,
    input: &[u8],
    datasets: u64,
) {
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Bytes(input.len() as u64));
    group.sample_size(10);
    let mut out = Vec::with_capacity(1 << 20);
    for (name, options) in [
        ("one_thread", Options::single_threaded()),
        ("all_cores", Options::default()),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                out.clear();
                let summary = judge::run_bytes(format, input, &mut out, options).unwrap();
                assert_eq!(summary.datasets, datasets);
                black_box(&out);
            })
        });
    }
    group.finish();
}
