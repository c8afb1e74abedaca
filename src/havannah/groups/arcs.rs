//! Tables of the ring and bridge/fork tests: the arcs of each neighbourhood, and the wins of each
//! border set.

use crate::havannah::geometry::Border;

/// For each border set (12 bits): [`Wins::BRIDGE`] and [`Wins::FORK`] bits, one load instead
/// of two bit counts.
pub(super) static BRIDGE_FORK: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut b = 0;
    while b < 4096 {
        let border = Border::from_bits(b as u16);
        table[b] = border.is_bridge() as u8 | (border.is_fork() as u8) << 1;
        b += 1;
    }
    table
};

/// For each set of occupied neighbours (bit d for direction d): the number of arcs, maximal
/// cyclic runs of occupied neighbours (bits 0–1), and the first direction of each (4 bits
/// each from bit 4; a missing arc repeats the first). All six occupied is one arc from 0.
pub(super) const ARCS: [u16; 64] = {
    let mut arcs = [0u16; 64];
    let mut occ: usize = 0;
    while occ < 64 {
        let starts: u32 = if occ == 0x3f {
            1
        } else {
            let o = occ as u32;
            o & !(((o << 1) | (o >> 5)) & 0x3f)
        };
        let first = if starts == 0 {
            0
        } else {
            starts.trailing_zeros() as u16
        };
        let mut packed = (starts.count_ones() as u16) | first << 4 | first << 8 | first << 12;
        let (mut k, mut d) = (0, 0);
        while d < 6 {
            if starts >> d & 1 == 1 {
                packed = (packed & !(0xf << (4 + 4 * k))) | (d as u16) << (4 + 4 * k);
                k += 1;
            }
            d += 1;
        }
        arcs[occ] = packed;
        occ += 1;
    }
    arcs
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arc_table_lists_every_arc_start() {
        for occ in 0..64u32 {
            let packed = ARCS[occ as usize];
            let count = u32::from(packed & 3);
            let firsts: Vec<u32> = (0..3)
                .map(|k| u32::from(packed >> (4 + 4 * k) & 0xf))
                .collect();
            // Plainly: d starts an arc if it is a stone and d - 1 (cyclically) is not.
            let starts: Vec<u32> = (0..6)
                .filter(|&d| occ >> d & 1 == 1 && occ >> ((d + 5) % 6) & 1 == 0)
                .collect();
            let expected = if occ == 0x3f { vec![0] } else { starts };
            assert_eq!(count as usize, expected.len(), "{occ:06b}");
            for (k, &first) in firsts.iter().enumerate() {
                let want = expected.get(k).or(expected.first()).copied().unwrap_or(0);
                assert_eq!(first, want, "{occ:06b} arc {k}");
            }
        }
        for b in 0..4096u16 {
            let border = Border::from_bits(b);
            let wins = BRIDGE_FORK[usize::from(b)];
            assert_eq!(wins & 1 == 1, border.corners() >= 2);
            assert_eq!(wins & 2 == 2, border.edges() >= 3);
        }
    }
}
