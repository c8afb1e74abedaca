//! The Grundy table against the definition and against a brute force over whole positions.

mod common;

use std::collections::HashMap;

use bitgames::grid::grundy::{Census, Table, shared};
use bitgames::grid::reference::brute_force_table;
use bitgames::grid::{Game, Rect};

/// A position as a bitmask of permitted cells (bit `row * cols + col`, from 0).
struct Positions {
    rows: usize,
    cols: usize,
    memo: HashMap<u32, u16>,
}

impl Positions {
    /// The cells a move at (`row`, `col`) forbids.
    fn cross(&self, permitted: u32, row: usize, col: usize) -> u32 {
        let bit = |r: usize, c: usize| 1u32 << (r * self.cols + c);
        let mut cut = bit(row, col);
        for (dr, dc) in [(0isize, -1isize), (0, 1), (-1, 0), (1, 0)] {
            let (mut r, mut c) = (row as isize + dr, col as isize + dc);
            while r >= 0
                && c >= 0
                && (r as usize) < self.rows
                && (c as usize) < self.cols
                && permitted & bit(r as usize, c as usize) != 0
            {
                cut |= bit(r as usize, c as usize);
                r += dr;
                c += dc;
            }
        }
        cut
    }

    /// The true Grundy value of the position, by mex over its moves.
    fn grundy(&mut self, permitted: u32) -> u16 {
        if let Some(&v) = self.memo.get(&permitted) {
            return v;
        }
        let mut seen = 0u64;
        let mut cells = permitted;
        while cells != 0 {
            let k = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let next = permitted & !self.cross(permitted, k / self.cols, k % self.cols);
            seen |= 1 << self.grundy(next);
        }
        let v = seen.trailing_ones() as u16;
        self.memo.insert(permitted, v);
        v
    }
}

/// Every position reachable on every board up to 4 × 5: the XOR of the table values of the
/// engine's rectangles equals the true value of the position.
#[test]
#[cfg_attr(miri, ignore)]
fn rectangle_sums_equal_true_values_up_to_4_by_5() {
    let table = shared();
    for rows in 1..=4 {
        for cols in 1..=5 {
            let mut p = Positions {
                rows,
                cols,
                memo: HashMap::new(),
            };
            let full = (1u32 << (rows * cols)) - 1;
            assert_eq!(p.grundy(full), table.get(rows, cols), "{rows} × {cols}");
            // Walk every reachable position with the engine alongside.
            let mut stack = vec![(full, Game::new(rows as u32, cols as u32).unwrap())];
            let mut visited = std::collections::HashSet::new();
            while let Some((permitted, grid)) = stack.pop() {
                if !visited.insert(permitted) {
                    continue;
                }
                let sum = grid.rectangles().iter().fold(0, |v, r: &Rect| {
                    v ^ table.get(r.rows as usize, r.cols as usize)
                });
                assert_eq!(sum, p.grundy(permitted), "{grid:?}");
                assert_eq!(grid.grundy(), sum, "{grid:?}");
                for k in 0..rows * cols {
                    if permitted >> k & 1 == 1 {
                        let (row, col) = (k / cols, k % cols);
                        let mut next = grid.clone();
                        next.play(row as u32 + 1, col as u32 + 1).unwrap();
                        stack.push((permitted & !p.cross(permitted, row, col), next));
                    }
                }
            }
        }
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn shared_table_equals_the_definition() {
    let brute = brute_force_table(128);
    let table = shared();
    for (a, row) in brute.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            assert_eq!(table.get(a, b), v, "g({a}, {b})");
        }
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn census_table_equals_the_definition() {
    let brute = brute_force_table(100);
    let table = Table::compute(100, |_| ()).unwrap();
    for (a, row) in brute.iter().enumerate() {
        for (b, &v) in row.iter().enumerate() {
            assert_eq!(table.get(a, b), v, "g({a}, {b})");
        }
    }
}

/// The facts of spec/grid.md: the zeros up to 80 and the largest value 98.
#[test]
fn known_facts_up_to_80() {
    let table = Table::new(80);
    assert_eq!(
        table.zeros(),
        vec![(2, 2), (4, 4), (4, 6), (8, 12), (10, 10)]
    );
    assert_eq!(table.largest(), 98);
    assert_eq!(shared().zeros(), table.zeros(), "no new zeros up to 128");
}

/// 64-bit FNV-1a of g(a, b) for 1 ≤ a, b ≤ `n`, row-major, each value as two bytes (little
/// endian).
fn checksum(table: &Table, n: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for a in 1..=n {
        for b in 1..=n {
            for byte in table.get(a, b).to_le_bytes() {
                h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    h
}

/// Checksums of the table up to 2048 as the earlier algorithm computed it (the one before
/// `Census`: each value by marking the first rows of moves and comparing the others with four
/// candidates), and of its upper-left squares; with its largest value.
const EARLIER: [(usize, u64, u16); 4] = [
    (256, 0x75d0_7505_e26b_0076, 145),
    (512, 0x4231_389e_0548_5e6b, 164),
    (1024, 0xbe46_c06e_fd8c_a3e9, 186),
    (2048, 0x9f4d_5ab9_f06e_12a1, 256),
];

/// The census up to 2048 gives the earlier table, value for value (by its checksum), and so
/// do its squares; resuming from a checkpoint changes nothing. Unoptimised test builds (where
/// the census to 2048 takes minutes) go to 1024 and say so: `cargo test --release --test
/// grid_table` checks 2048.
#[test]
#[cfg_attr(miri, ignore)]
fn census_to_2048_equals_the_earlier_table() {
    let max = if cfg!(debug_assertions) {
        common::skipped(
            "census_to_2048_equals_the_earlier_table",
            "the table to 2048 in a debug build (checked to 1024; run `cargo test --release \
             --test grid_table` for 2048)",
        );
        1024
    } else {
        2048
    };
    let mut census = Census::new(max);
    while census.rows_done() < max / 3 {
        census.next_row().unwrap();
    }
    let mut file = Vec::new();
    census.save(&mut file).unwrap();
    let mut census = Census::load(&mut &file[..]).unwrap();
    while census.next_row().unwrap() {}
    let table = census.into_table();
    for (n, sum, largest) in EARLIER.into_iter().filter(|e| e.0 <= max) {
        assert_eq!(checksum(&table, n), sum, "the table up to {n}");
        let square = (1..=n).flat_map(|a| (1..=n).map(move |b| (a, b)));
        assert_eq!(square.map(|(a, b)| table.get(a, b)).max(), Some(largest));
    }
    assert_eq!(
        table.zeros(),
        vec![(2, 2), (4, 4), (4, 6), (8, 12), (10, 10)]
    );
}

/// The census to 4096 gives the table of the run published in docs/grid-census.md (the
/// checksum given there, its largest value and its zeros). About 45 minutes of CPU, so not in
/// `cargo test`: run it with `cargo test --release --test grid_table -- --ignored`.
#[test]
#[ignore = "about 45 minutes of CPU: cargo test --release --test grid_table -- --ignored"]
fn census_to_4096_equals_the_published_table() {
    let table = Table::compute(4096, |_| {}).unwrap();
    assert_eq!(checksum(&table, 4096), 0x592b_e8f7_78ff_9a97);
    assert_eq!(checksum(&table, 2048), EARLIER[3].1);
    assert_eq!(table.largest(), 259);
    assert_eq!(
        table.zeros(),
        vec![(2, 2), (4, 4), (4, 6), (8, 12), (10, 10)]
    );
}
