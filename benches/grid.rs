//! Throughput of the grid judge (MB/s of judge input) and the time of the Grundy table.
//!
//! `cargo bench --bench grid`. Tables for N = 1024 and 2048 take seconds to minutes: they are
//! timed once with the CLI (`bitgames grid-table --max N`), see BENCHMARKS.md.

mod common;

use std::hint::black_box;

use bitgames::grid::grundy::Table;
use bitgames::grid::judge::{Judge, generate};
use bitgames::rng::Rng;
use criterion::{Criterion, criterion_group, criterion_main};

fn judge_throughput(c: &mut Criterion) {
    // 400 000 random partial games on grids up to 80 × 80 (about 200 MB).
    const CASES: u64 = 400_000;
    let mut input = Vec::new();
    generate(&mut Rng::new(1), CASES as usize, 80, usize::MAX, &mut input);
    common::judge_throughput(c, "grid_judge", &Judge, &input, CASES);
}

fn table(c: &mut Criterion) {
    let mut group = c.benchmark_group("grid_table");
    group.sample_size(10);
    for max in [80, 256] {
        group.bench_function(format!("compute_{max}"), |b| {
            b.iter(|| {
                let table = Table::compute(black_box(max), |_| ()).unwrap();
                assert_eq!(table.zeros().len(), 5);
                table
            })
        });
    }
    group.bench_function("plain_128", |b| {
        b.iter(|| {
            let table = Table::new(black_box(128));
            assert_eq!(table.largest(), 133);
            table
        })
    });
    group.finish();
}

criterion_group!(benches, judge_throughput, table);
criterion_main!(benches);
