//! The sweep over board sizes: every (n, m) with 3 ≤ m ≤ n ≤ 7, its games cut into slices
//! (`--shard i/k`: the games whose index is i − 1 modulo k) that are written as text and
//! merged into one table. The merge sorts each pair's games by index before summarising, so
//! any set of slices that covers the games gives the table one run gives.
//!
//! A slice is a text file: a header line naming what was played, then one line per game:
//! `index,winner,length,lead_change,drama,decisiveness_threshold,decisiveness_moves,uncertainty`
//! (winner `B`, `W` or `D`; an undefined metric is an empty field; numbers printed in the
//! shortest form that reads back to the same `f64`).

use std::fmt::{self, Write as _};
use std::str::FromStr;

use super::Match;
use super::metrics::{GameStats, Summary};
use crate::sequence::Color;

/// The 15 pairs (n, m), 3 ≤ m ≤ n ≤ 7, by n then m.
pub fn all_pairs() -> Vec<(u32, u32)> {
    (3..=7).flat_map(|n| (3..=n).map(move |m| (n, m))).collect()
}

/// Reads a pair list: `all`, or pairs `NxM` separated by commas (`4x4,5x4`), each with
/// 3 ≤ m ≤ n ≤ 7, none twice.
///
/// # Errors
/// A message naming the bad pair and what was expected.
///
/// ```
/// use bitgames::sequence::sim::sweep::parse_pairs;
/// assert_eq!(parse_pairs("4x4,5x3")?, [(4, 4), (5, 3)]);
/// assert_eq!(parse_pairs("all")?.len(), 15);
/// assert!(parse_pairs("4x5").is_err());
/// # Ok::<(), String>(())
/// ```
pub fn parse_pairs(text: &str) -> Result<Vec<(u32, u32)>, String> {
    if text == "all" {
        return Ok(all_pairs());
    }
    let mut pairs = Vec::new();
    for item in text.split(',') {
        let bad = || {
            format!("pair `{item}`: expected NxM with 3 <= M <= N <= 7 (e.g. 4x4,5x4), or `all`")
        };
        let (n, m) = item.split_once('x').ok_or_else(bad)?;
        let (n, m): (u32, u32) = (n.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
        if !(3..=7).contains(&n) || !(3..=n).contains(&m) {
            return Err(bad());
        }
        if pairs.contains(&(n, m)) {
            return Err(format!("pair `{item}` is listed twice"));
        }
        pairs.push((n, m));
    }
    Ok(pairs)
}

/// Slice `index` of `count` (from 1): the games whose index is `index − 1` modulo `count`.
///
/// ```
/// use bitgames::sequence::sim::sweep::Shard;
/// let shard: Shard = "2/3".parse()?;
/// assert_eq!(shard.games(7), [1, 4]);
/// assert!("0/3".parse::<Shard>().is_err());
/// assert!("4/3".parse::<Shard>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// From 1 to `count`.
    pub index: u32,
    /// The number of slices.
    pub count: u32,
}

impl Shard {
    /// The whole run as one slice.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The game indices of this slice among `games` games.
    pub fn games(self, games: u64) -> Vec<u64> {
        (u64::from(self.index - 1)..games)
            .step_by(self.count as usize)
            .collect()
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard `{s}`: expected I/K with 1 <= I <= K (e.g. 2/8)");
        let (i, k) = s.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) =
            (i.parse().map_err(|_| bad())?, k.parse().map_err(|_| bad())?);
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What a slice holds: the match, the number of games of the whole run, and the slice.
#[derive(Debug, Clone, PartialEq)]
pub struct SliceHeader {
    /// The board and agents.
    pub game: Match,
    /// Games of the whole run for this pair.
    pub games: u64,
    /// Which slice.
    pub shard: Shard,
}

impl fmt::Display for SliceHeader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = &self.game;
        write!(
            f,
            "# bitgames-sweep-slice n={} m={} games={} black={} white={} seed={} shard={}",
            g.n, g.m, self.games, g.black, g.white, g.seed, self.shard
        )
    }
}

impl FromStr for SliceHeader {
    type Err = String;

    fn from_str(line: &str) -> Result<SliceHeader, String> {
        let rest = line
            .strip_prefix("# bitgames-sweep-slice ")
            .ok_or("the first line is not a sweep slice header")?;
        let mut fields = std::collections::HashMap::new();
        for kv in rest.split(' ') {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("header field `{kv}` is not key=value"))?;
            fields.insert(k, v);
        }
        let get = |k: &str| {
            fields
                .get(k)
                .copied()
                .ok_or_else(|| format!("the header has no `{k}`"))
        };
        let num = |k: &str| {
            get(k)?
                .parse::<u64>()
                .map_err(|_| format!("header field `{k}` is not a number"))
        };
        let spec = |k: &str| get(k)?.parse().map_err(|e| format!("header: {e}"));
        Ok(SliceHeader {
            game: Match {
                n: num("n")? as u32,
                m: num("m")? as u32,
                black: spec("black")?,
                white: spec("white")?,
                seed: num("seed")?,
            },
            games: num("games")?,
            shard: get("shard")?.parse()?,
        })
    }
}

/// One slice: its header and the statistics of its games, by game index.
#[derive(Debug, Clone, PartialEq)]
pub struct Slice {
    /// What was played.
    pub header: SliceHeader,
    /// `(index, stats)` of each game of the slice.
    pub games: Vec<(u64, GameStats)>,
}

fn field(x: Option<f64>) -> String {
    x.map_or(String::new(), |x| x.to_string())
}

impl Slice {
    /// The slice as text (header, then one line per game).
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n", self.header);
        for (i, g) in &self.games {
            let winner = match g.winner {
                Some(Color::Black) => 'B',
                Some(Color::White) => 'W',
                None => 'D',
            };
            // Writing to a String cannot fail.
            let _ = writeln!(
                out,
                "{i},{winner},{},{},{},{},{},{}",
                g.length,
                field(g.lead_change),
                field(g.drama),
                field(g.decisiveness_threshold),
                field(g.decisiveness_moves),
                field(g.uncertainty)
            );
        }
        out
    }

    /// Reads a slice written by [`Slice::to_text`] and checks that it holds exactly the games
    /// of its shard.
    ///
    /// # Errors
    /// A message with the line number and what was expected.
    pub fn parse(text: &str) -> Result<Slice, String> {
        let mut lines = text.lines();
        let header: SliceHeader = lines.next().ok_or("empty slice")?.parse()?;
        let mut games = Vec::new();
        for (k, line) in lines.enumerate() {
            let bad = |what: &str| format!("line {}: {what}", k + 2);
            let f: Vec<&str> = line.split(',').collect();
            if f.len() != 8 {
                return Err(bad("expected 8 comma-separated fields"));
            }
            let num = |s: &str| -> Result<Option<f64>, String> {
                if s.is_empty() {
                    Ok(None)
                } else {
                    s.parse()
                        .map(Some)
                        .map_err(|_| bad("a metric is not a number"))
                }
            };
            let winner = match f[1] {
                "B" => Some(Color::Black),
                "W" => Some(Color::White),
                "D" => None,
                _ => return Err(bad("the winner is not B, W or D")),
            };
            games.push((
                f[0].parse().map_err(|_| bad("the index is not a number"))?,
                GameStats {
                    winner,
                    length: f[2]
                        .parse()
                        .map_err(|_| bad("the length is not a number"))?,
                    lead_change: num(f[3])?,
                    drama: num(f[4])?,
                    decisiveness_threshold: num(f[5])?,
                    decisiveness_moves: num(f[6])?,
                    uncertainty: num(f[7])?,
                },
            ));
        }
        let want = header.shard.games(header.games);
        let have: Vec<u64> = games.iter().map(|&(i, _)| i).collect();
        if have != want {
            return Err(format!(
                "the slice holds {} games, not the {} of shard {} (incomplete or altered)",
                have.len(),
                want.len(),
                header.shard
            ));
        }
        Ok(Slice { header, games })
    }
}

/// One row of the sweep's table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Board side.
    pub n: u32,
    /// Winning length.
    pub m: u32,
    /// The summary of the pair's games.
    pub summary: Summary,
}

/// Merges slices into the table, one row per pair (by n, then m).
///
/// # Errors
/// When the slices disagree on what was played (games, agents, seed, shard count), or do not
/// cover each pair's games exactly once.
pub fn merge(slices: &[Slice]) -> Result<Vec<Row>, String> {
    let first = slices.first().ok_or("no slices to merge")?;
    let mut pairs: Vec<(u32, u32)> = slices
        .iter()
        .map(|s| (s.header.game.n, s.header.game.m))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut rows = Vec::new();
    for (n, m) in pairs {
        let mine: Vec<&Slice> = slices
            .iter()
            .filter(|s| (s.header.game.n, s.header.game.m) == (n, m))
            .collect();
        let h = &first.header;
        for s in &mine {
            let g = &s.header.game;
            if s.header.games != h.games
                || g.black != h.game.black
                || g.white != h.game.white
                || g.seed != h.game.seed
                || s.header.shard.count != h.shard.count
            {
                return Err(format!(
                    "slice `{}` was played differently from `{}`",
                    s.header, h
                ));
            }
        }
        let mut games: Vec<(u64, GameStats)> =
            mine.iter().flat_map(|s| s.games.iter().copied()).collect();
        games.sort_by_key(|&(i, _)| i);
        let covered = games.iter().map(|&(i, _)| i).eq(0..h.games);
        if !covered {
            let have: Vec<u32> = mine.iter().map(|s| s.header.shard.index).collect();
            return Err(format!(
                "pair {n}x{m}: the slices ({have:?} of {}) do not cover its {} games exactly once",
                h.shard.count, h.games
            ));
        }
        let stats: Vec<GameStats> = games.into_iter().map(|(_, g)| g).collect();
        rows.push(Row {
            n,
            m,
            summary: Summary::of(&stats),
        });
    }
    Ok(rows)
}
