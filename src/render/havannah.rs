//! A Havannah board as SVG: the two-player [`Game`] ([`svg`]) or the Code Jam judge's one
//! player [`Stones`] ([`stones_svg`]).
//!
//! The board is drawn as the Code Jam statement describes it ([`crate::havannah::geometry`]):
//! hexagons with flat tops, the corner (1, 1) at the bottom, (x, y + 1) towards 2 o'clock and
//! (x + 1, y) towards 10 o'clock. The lines of equal x are labelled below the lower-left sides,
//! the lines of equal y below the lower-right sides: with GTP names (the letter of x, the
//! number y; see [`crate::havannah::gtp`]) for a [`Game`] of side up to 13, with the numbers
//! x and y otherwise. The stones of the winning group (for a judge case, the group of the
//! first winning move) are tinted and the group is outlined in red; the caption says who won,
//! with what and at which move.
//!
//! Classes: `cell` for every cell (`cell win` for the winning group's), `stone white` and
//! `stone black` (a judge case's stones are all `stone black`; those played after the first
//! win are also `late`), `win-outline` for the outline, `label`, `number`, `caption`. Cells,
//! stones and numbers carry `data-cell="x,y"`.
//!
//! ```
//! use bitgames::havannah::Game;
//! use bitgames::render::{Options, havannah};
//!
//! let mut game = Game::new(2)?;
//! for (x, y) in [(1, 1), (2, 2), (1, 2)] {
//!     game.play(x, y)?; // White joins the corners (1, 1) and (1, 2): a bridge
//! }
//! let svg = havannah::svg(&game, &Options::default())?;
//! assert_eq!(svg.matches("class=\"stone white\"").count(), 2);
//! assert_eq!(svg.matches("class=\"cell win\"").count(), 2);
//! assert!(svg.contains("White wins with a bridge at move 3"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use super::{LINE, Options, Svg, caption_lines, text_width};
use crate::havannah::gtp::MAX_GTP_SIDE;
use crate::havannah::{Board, Cell, Color, Game, Move, Outcome, RingRule, Stones, Wins};

/// The largest side drawn: 11 000 cells, a picture still worth looking at.
pub const MAX_SIDE: u32 = 60;

/// A board too large to draw (its side is above [`MAX_SIDE`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct TooLarge {
    /// The board's side.
    pub side: u32,
}

impl fmt::Display for TooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a board of side {} is too large to draw (the largest is {MAX_SIDE})",
            self.side
        )
    }
}

impl std::error::Error for TooLarge {}

/// The circumradius of a cell, in SVG units.
const R: f64 = 20.0;
/// The margin around the board.
const MARGIN: f64 = 16.0;

const STYLE: &str = "\
.cell { fill: #f1dfb4; stroke: #8c6d3f; stroke-width: 1; }
.cell.win { fill: #f7b9ad; }
.stone.white { fill: #ffffff; stroke: #1e1e1e; stroke-width: 1.6; }
.stone.black { fill: #1e1e1e; stroke: #000000; stroke-width: 1; }
.stone.late { opacity: 0.3; }
.win-outline { fill: none; stroke: #d0120c; stroke-width: 3.5; stroke-linecap: round; }
.number { font-size: 11px; text-anchor: middle; }
.number.white { fill: #1e1e1e; }
.number.black { fill: #ffffff; }
.label { font-size: 12px; fill: #5a5a5a; text-anchor: middle; }
.caption { font-size: 14px; fill: #1e1e1e; }
.caption.first { font-weight: bold; }
";

/// A stone as drawn: its colour class, its move number, and whether it came after the win.
struct Stone {
    color: &'static str,
    number: u32,
    late: bool,
}

/// What a picture shows: the board, the stones by cell, the winning group, the caption and
/// how the lines are labelled.
struct Picture {
    board: Board,
    stones: BTreeMap<Cell, Stone>,
    winning: BTreeSet<Cell>,
    caption: Vec<String>,
    gtp_names: bool,
}

/// The picture of a two-player game: both colours with their move numbers, the winning group
/// outlined, the outcome in the caption.
///
/// # Errors
/// [`TooLarge`] for a side above [`MAX_SIDE`].
pub fn svg(game: &Game, options: &Options) -> Result<String, TooLarge> {
    let board = game.board();
    check(board)?;
    let mut stones = BTreeMap::new();
    for (k, played) in game.history().enumerate() {
        if let Move::Place(cell) = played {
            let color = match game.stone(cell.x, cell.y) {
                Some(Color::White) => "white",
                _ => "black",
            };
            let number = k as u32 + 1;
            stones.insert(
                cell,
                Stone {
                    color,
                    number,
                    late: false,
                },
            );
        }
    }
    let ring = match game.rules().ring_rule() {
        RingRule::CodeJam => "the Code Jam ring rule",
        _ => "the official ring rule",
    };
    let swap = if game.rules().allows_swap() {
        ", swap allowed"
    } else {
        ""
    };
    let mut lines = vec![format!("Havannah, side {}, {ring}{swap}", board.side())];
    if game.history().nth(1) == Some(Move::Swap) {
        lines.push("Black swapped at move 2: White's first stone is Black's".to_owned());
    }
    lines.push(match game.outcome() {
        Some(Outcome::Win { color, wins, at }) => {
            let color = match color {
                Color::White => "White",
                Color::Black => "Black",
            };
            format!("{color} wins with {} at move {at}", structures(wins))
        }
        Some(Outcome::Draw) => format!(
            "Draw: the board is full after {} moves",
            game.moves_played()
        ),
        None => format!(
            "{} moves played, {} to move",
            game.moves_played(),
            match game.to_move() {
                Color::White => "White",
                Color::Black => "Black",
            }
        ),
    });
    let picture = Picture {
        board,
        stones,
        winning: game.winning_group().into_iter().collect(),
        caption: caption_lines(options, lines),
        gtp_names: board.side() <= MAX_GTP_SIDE,
    };
    Ok(draw(&picture, options))
}

/// The picture of a Code Jam judge case: one player's stones (drawn black) with their move
/// numbers, the group of the first winning move outlined (stones played after it faded), and
/// the judge's answer in the caption. The lines are labelled with the numbers x and y.
///
/// # Errors
/// [`TooLarge`] for a side above [`MAX_SIDE`].
pub fn stones_svg(stones: &Stones, options: &Options) -> Result<String, TooLarge> {
    let board = stones.board();
    check(board)?;
    let first_win = stones.first_win();
    let decided = first_win.map_or(u32::MAX, |(_, at)| at);
    let drawn = stones
        .stones()
        .iter()
        .enumerate()
        .map(|(k, &cell)| {
            let number = k as u32 + 1;
            let late = number > decided;
            (
                cell,
                Stone {
                    color: "black",
                    number,
                    late,
                },
            )
        })
        .collect();
    let placed = stones.stones().len();
    let mut lines = vec![
        format!(
            "Havannah (Code Jam), side {}: one player's {placed} stones",
            board.side()
        ),
        "x is labelled on the lower left, y on the lower right".to_owned(),
    ];
    lines.push(match first_win {
        Some((wins, at)) => {
            let mut line = format!(
                "the first win: {} at move {at}, its group outlined",
                structures(wins)
            );
            if at as usize != placed {
                let later = placed - at as usize;
                line.push_str(&format!(", {later} later stone{} faded", plural(later)));
            }
            line
        }
        None => "no bridge, fork or ring".to_owned(),
    });
    let winning = match first_win {
        Some((_, at)) => group(&stones.stones()[..at as usize]),
        None => BTreeSet::new(),
    };
    let picture = Picture {
        board,
        stones: drawn,
        winning,
        caption: caption_lines(options, lines),
        gtp_names: false,
    };
    Ok(draw(&picture, options))
}

fn check(board: Board) -> Result<(), TooLarge> {
    if board.side() > MAX_SIDE {
        Err(TooLarge { side: board.side() })
    } else {
        Ok(())
    }
}

/// "s" unless `count` is 1.
fn plural(count: usize) -> &'static str {
    if count == 1 { "" } else { "s" }
}

/// `wins` in words: "a bridge", "a bridge and a fork", ...
fn structures(wins: Wins) -> String {
    let names: Vec<&str> = [
        (Wins::BRIDGE, "a bridge"),
        (Wins::FORK, "a fork"),
        (Wins::RING, "a ring"),
    ]
    .into_iter()
    .filter(|&(w, _)| wins.contains(w))
    .map(|(_, name)| name)
    .collect();
    match names.as_slice() {
        [] => "nothing".to_owned(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The group of the last of `stones` (all one player's): the stones connected to it.
fn group(stones: &[Cell]) -> BTreeSet<Cell> {
    let all: BTreeSet<Cell> = stones.iter().copied().collect();
    let mut seen = BTreeSet::new();
    let mut todo: Vec<Cell> = stones.last().copied().into_iter().collect();
    while let Some(cell) = todo.pop() {
        if !seen.insert(cell) {
            continue;
        }
        for d in 0..6 {
            if let Some(next) = cell.neighbour(d)
                && all.contains(&next)
                && !seen.contains(&next)
            {
                todo.push(next);
            }
        }
    }
    seen
}

/// The centre of cell (x, y) before the picture's offset; any integers, so the labels' places
/// just off the board work too.
fn centre(x: i64, y: i64) -> (f64, f64) {
    (
        1.5 * R * (y - x) as f64,
        -(3f64.sqrt() / 2.0) * R * (x + y) as f64,
    )
}

/// The neighbour (dx, dy) across each side of a flat-topped hexagon, side k running from
/// corner k to corner k + 1 (corner k at 60k degrees, clockwise on screen from the right).
const ACROSS: [(i64, i64); 6] = [(-1, 0), (-1, -1), (0, -1), (1, 0), (1, 1), (0, 1)];

fn corner(c: (f64, f64), k: usize) -> (f64, f64) {
    let angle = (60.0 * k as f64).to_radians();
    (c.0 + R * angle.cos(), c.1 + R * angle.sin())
}

fn draw(picture: &Picture, options: &Options) -> String {
    let board = picture.board;
    let (s, n) = (i64::from(board.side()), i64::from(board.n()));
    // The label of line x sits just off the board below its lowest cell (x, lo − 1), towards
    // 8 o'clock; the label of line y at (lo − 1, y), towards 4 o'clock.
    let low = |v: i64| (v - s + 1).max(1);
    let mut labels = Vec::new();
    for v in 1..=n {
        let (x_name, y_name) = if picture.gtp_names {
            (char::from(b'a' + (v - 1) as u8).to_string(), v.to_string())
        } else {
            (v.to_string(), v.to_string())
        };
        labels.push((centre(v, low(v) - 1), x_name));
        labels.push((centre(low(v) - 1, v), y_name));
    }
    // The extent: every cell and label, one radius around.
    let points = board
        .iter()
        .map(|c| centre(i64::from(c.x), i64::from(c.y)))
        .chain(labels.iter().map(|l| l.0));
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in points {
        (x0, y0, x1, y1) = (x0.min(x - R), y0.min(y - R), x1.max(x + R), y1.max(y + R));
    }
    let caption_width = picture
        .caption
        .iter()
        .map(|l| text_width(l, 14.0))
        .fold(0.0, f64::max);
    let width = (x1 - x0 + 2.0 * MARGIN).max(caption_width + 2.0 * MARGIN);
    let board_height = y1 - y0 + 2.0 * MARGIN;
    let height = board_height + LINE * picture.caption.len() as f64 + MARGIN;
    // Centred horizontally.
    let dx = (width - (x1 - x0)) / 2.0 - x0;
    let dy = MARGIN - y0;
    let at = |x: u32, y: u32| {
        let (cx, cy) = centre(i64::from(x), i64::from(y));
        (cx + dx, cy + dy)
    };
    let mut svg = Svg::new(width, height, STYLE);

    for cell in board.iter() {
        let c = at(cell.x, cell.y);
        let class = if picture.winning.contains(&cell) {
            "cell win"
        } else {
            "cell"
        };
        let hexagon: Vec<(f64, f64)> = (0..6).map(|k| corner(c, k)).collect();
        svg.polygon(class, &data(cell), &hexagon);
    }
    for ((x, y), name) in &labels {
        svg.text(x + dx, y + dy + 4.0, "label", name);
    }
    for (&cell, stone) in &picture.stones {
        let (cx, cy) = at(cell.x, cell.y);
        let class = if stone.late {
            format!("stone {} late", stone.color)
        } else {
            format!("stone {}", stone.color)
        };
        svg.element(
            "circle",
            &[
                ("class", (&class).into()),
                ("data-cell", (&data(cell)).into()),
                ("cx", cx.into()),
                ("cy", cy.into()),
                ("r", (0.68 * R).into()),
            ],
        );
        if options.numbers && !stone.late {
            let class = format!("number {}", stone.color);
            svg.text(cx, cy + 4.0, &class, &stone.number.to_string());
        }
    }
    // The outline: every side of a winning cell whose neighbour across is not in the group.
    if !picture.winning.is_empty() {
        let mut path = String::new();
        for &cell in &picture.winning {
            let c = at(cell.x, cell.y);
            for (k, &(ax, ay)) in ACROSS.iter().enumerate() {
                let across = (i64::from(cell.x) + ax, i64::from(cell.y) + ay);
                let inside = u32::try_from(across.0)
                    .ok()
                    .zip(u32::try_from(across.1).ok())
                    .is_some_and(|(x, y)| picture.winning.contains(&Cell::new(x, y)));
                if !inside {
                    let (a, b) = (corner(c, k), corner(c, (k + 1) % 6));
                    path.push_str(&format!(
                        "M{},{}L{},{}",
                        super::num(a.0),
                        super::num(a.1),
                        super::num(b.0),
                        super::num(b.1)
                    ));
                }
            }
        }
        svg.element(
            "path",
            &[("class", "win-outline".into()), ("d", (&path).into())],
        );
    }
    svg.caption(MARGIN, board_height, &picture.caption);
    svg.finish()
}

/// The `data-cell` value of a cell: `x,y`.
fn data(cell: Cell) -> String {
    format!("{},{}", cell.x, cell.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::havannah::Rules;

    #[test]
    fn structures_in_words() {
        assert_eq!(structures(Wins::RING), "a ring");
        assert_eq!(
            structures(Wins::BRIDGE.with(Wins::FORK)),
            "a bridge and a fork"
        );
        assert_eq!(
            structures(Wins::BRIDGE.with(Wins::FORK).with(Wins::RING)),
            "a bridge, a fork and a ring"
        );
    }

    #[test]
    fn every_cell_is_drawn_once_and_neighbours_share_a_side() {
        let game = Game::new(4).unwrap();
        let svg = svg(&game, &Options::default()).unwrap();
        assert_eq!(svg.matches("class=\"cell\"").count(), 37);
        // A cell's neighbour across side k lies at twice the inradius, through that side's
        // midpoint: the hexagons tile.
        let c = centre(5, 5);
        for (k, &(ax, ay)) in ACROSS.iter().enumerate() {
            let (a, b) = (corner(c, k), corner(c, (k + 1) % 6));
            let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let o = centre(5 + ax, 5 + ay);
            let expected = ((c.0 + o.0) / 2.0, (c.1 + o.1) / 2.0);
            assert!((mid.0 - expected.0).abs() < 1e-9 && (mid.1 - expected.1).abs() < 1e-9);
        }
        // (x + 1, y + 1) is straight above (x, y); (x, y + 1) up and to the right.
        assert!(centre(2, 2).1 < centre(1, 1).1 && centre(2, 2).0 == centre(1, 1).0);
        assert!(centre(1, 2).0 > centre(1, 1).0 && centre(1, 2).1 < centre(1, 1).1);
    }

    #[test]
    fn a_ring_is_outlined_inside_and_out() {
        // White closes a ring around (3, 3) on side 3; Black plays far away.
        let mut game = Game::with_rules(3, Rules::default()).unwrap();
        let ring = [(2, 2), (2, 3), (3, 4), (4, 4), (4, 3), (3, 2)];
        let black = [(1, 3), (5, 3), (3, 1), (3, 5), (1, 1)];
        for k in 0..ring.len() {
            game.play(ring[k].0, ring[k].1).unwrap();
            if k < black.len() {
                game.play(black[k].0, black[k].1).unwrap();
            }
        }
        assert!(matches!(
            game.outcome(),
            Some(Outcome::Win {
                color: Color::White,
                ..
            })
        ));
        let svg = svg(&game, &Options::default().title("a <ring>")).unwrap();
        assert_eq!(svg.matches("class=\"cell win\"").count(), 6);
        assert!(!svg.contains("class=\"cell win\" data-cell=\"3,3\""));
        assert!(svg.contains("White wins with a ring at move 11"), "{svg}");
        assert!(svg.contains("a &lt;ring&gt;"));
        // Each ring cell has two ring neighbours: 4 sides of 6 outlined, 24 segments.
        let path = svg.split("class=\"win-outline\" d=\"").nth(1).unwrap();
        let path = &path[..path.find('"').unwrap()];
        assert_eq!(path.matches('M').count(), 24);
    }

    #[test]
    fn judge_stones_outline_the_first_win_and_fade_later_stones() {
        let mut stones = Stones::new(3).unwrap();
        for (x, y) in [(1, 1), (2, 1), (3, 1), (5, 5)] {
            stones.play(x, y).unwrap();
        }
        assert_eq!(stones.first_win(), Some((Wins::BRIDGE, 3)));
        let svg = stones_svg(&stones, &Options::default()).unwrap();
        assert_eq!(svg.matches("class=\"cell win\"").count(), 3);
        assert_eq!(svg.matches("class=\"stone black\"").count(), 3);
        assert_eq!(svg.matches("class=\"stone black late\"").count(), 1);
        assert!(svg.contains(
            "the first win: a bridge at move 3, its group outlined, 1 later stone faded"
        ));
    }

    #[test]
    fn too_large_and_deterministic() {
        let game = Game::new(MAX_SIDE + 1).unwrap();
        assert_eq!(
            svg(&game, &Options::default()),
            Err(TooLarge { side: MAX_SIDE + 1 })
        );
        let mut game = Game::new(5).unwrap();
        game.play(3, 3).unwrap();
        let a = svg(&game, &Options::default()).unwrap();
        assert_eq!(a, svg(&game.clone(), &Options::default()).unwrap());
        assert!(
            !svg(&game, &Options::default().numbers(false))
                .unwrap()
                .contains("class=\"number")
        );
    }
}
