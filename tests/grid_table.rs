//! The Grundy table against the definition and against a brute force over whole positions.

use std::collections::HashMap;

use bitgames::grid::grundy::{Table, shared};
use bitgames::grid::reference::brute_force_table;
use bitgames::grid::{Grid, Rect};

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
            let mut stack = vec![(full, Grid::new(rows, cols).unwrap())];
            let mut visited = std::collections::HashSet::new();
            while let Some((permitted, grid)) = stack.pop() {
                if !visited.insert(permitted) {
                    continue;
                }
                let sum = grid
                    .rectangles()
                    .iter()
                    .fold(0, |v, r: &Rect| v ^ table.get(r.rows, r.cols));
                assert_eq!(sum, p.grundy(permitted), "{grid:?}");
                assert_eq!(grid.grundy(), sum, "{grid:?}");
                for k in 0..rows * cols {
                    if permitted >> k & 1 == 1 {
                        let (row, col) = (k / cols, k % cols);
                        let mut next = grid.clone();
                        next.play(row + 1, col + 1).unwrap();
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
fn parallel_table_equals_the_definition() {
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
