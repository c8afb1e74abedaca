//! The 3-D Sequence cube as SVG ([`svg`]): one small n × n board per layer, the bottom layer
//! (z = 1) first, left to right and then on a second row for n ≥ 5. In each board x runs to
//! the right and y upwards (as [`Cube`](crate::sequence::Cube)'s `Debug` draws them), both
//! labelled. Balls are black or white discs with their move numbers; the balls of the winning
//! line ([`Game::winning_line`]) are ringed in red, and the caption gives the outcome.
//!
//! Classes: `cell` for each cell of each layer, `ball black` and `ball white`, `win` for the
//! red rings, `label`, `layer`, `number`, `caption`; cells, balls and rings carry
//! `data-cell="x,y,z"`.
//!
//! ```
//! use bitgames::render::{Options, sequence};
//! use bitgames::sequence::Game;
//!
//! let mut game = Game::new(3, 3)?;
//! for (x, y) in [(1, 1), (2, 1), (1, 1), (2, 1), (1, 1)] {
//!     game.play(x, y)?; // Black stacks three balls on peg (1, 1)
//! }
//! let svg = sequence::svg(&game, &Options::default());
//! assert_eq!(svg.matches("class=\"ball black\"").count(), 3);
//! assert_eq!(svg.matches("class=\"win\"").count(), 3);
//! assert!(svg.contains("Black wins at move 5"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{LINE, Options, Svg, caption_lines, text_width};
use crate::sequence::{Color, Game, Outcome};

/// The side of a cell, in SVG units.
const C: f64 = 34.0;
/// The room for the labels beside and below a board, and for the layer's name above it.
const LABEL: f64 = 22.0;
/// The space between two boards, and around the picture.
const GAP: f64 = 26.0;

const STYLE: &str = "\
.cell { fill: #e9edf2; stroke: #8a96a8; stroke-width: 1; }
.ball.black { fill: #1e1e1e; stroke: #000000; stroke-width: 1; }
.ball.white { fill: #ffffff; stroke: #1e1e1e; stroke-width: 1.6; }
.win { fill: none; stroke: #d0120c; stroke-width: 3.5; }
.number { font-size: 12px; text-anchor: middle; }
.number.black { fill: #ffffff; }
.number.white { fill: #1e1e1e; }
.label { font-size: 12px; fill: #5a5a5a; text-anchor: middle; }
.layer { font-size: 13px; fill: #1e1e1e; text-anchor: middle; font-weight: bold; }
.caption { font-size: 14px; fill: #1e1e1e; }
.caption.first { font-weight: bold; }
";

/// The picture of a game: every layer, every ball with its move number, the winning line
/// ringed.
pub fn svg(game: &Game, options: &Options) -> String {
    let n = game.n();
    // Each ball's move number, by cell (x, y, z from 0: x + 8y + 64z).
    let mut number = [0u32; 512];
    let mut heights = [0u32; 64];
    for (k, peg) in game.history().enumerate() {
        let p = ((peg.x - 1) + 8 * (peg.y - 1)) as usize;
        number[p + 64 * heights[p] as usize] = k as u32 + 1;
        heights[p] += 1;
    }
    let line = game.winning_line();

    let mut lines = vec![format!(
        "3-D Sequence, n = {n}, m = {}: layers z = 1 (bottom) to {n} (top), x to the right, y up",
        game.m()
    )];
    lines.push(match game.outcome() {
        Some(Outcome::Win { color, at }) => format!(
            "{color} wins at move {at}: {} balls on lines of {} or more, ringed in red",
            line.count(),
            game.m()
        ),
        Some(Outcome::Draw) => format!(
            "Draw: the board is full after {} balls",
            game.moves_played()
        ),
        None => format!(
            "{} ball{} played, {} to move",
            game.moves_played(),
            if game.moves_played() == 1 { "" } else { "s" },
            game.to_move()
        ),
    });
    let caption = caption_lines(options, lines);

    let per_row = if n <= 4 { n } else { n.div_ceil(2) };
    let rows = n.div_ceil(per_row);
    let side = f64::from(n) * C;
    let (block_w, block_h) = (LABEL + side + GAP, LABEL + side + LABEL + GAP);
    let caption_width = caption
        .iter()
        .map(|l| text_width(l, 14.0))
        .fold(0.0, f64::max);
    let width = (GAP + f64::from(per_row) * block_w).max(caption_width + 2.0 * GAP);
    let boards_height = GAP + f64::from(rows) * block_h;
    let height = boards_height + LINE * caption.len() as f64 + GAP / 2.0;
    let mut svg = Svg::new(width, height, STYLE);

    for z in 1..=n {
        let (col, row) = ((z - 1) % per_row, (z - 1) / per_row);
        let left = GAP + f64::from(col) * block_w + LABEL;
        let top = GAP + f64::from(row) * block_h + LABEL;
        let name = match z {
            1 => "z = 1 (bottom)".to_owned(),
            z if z == n => format!("z = {z} (top)"),
            z => format!("z = {z}"),
        };
        svg.text(left + side / 2.0, top - 8.0, "layer", &name);
        // Cell (x, y): column x from the left, row y from the bottom.
        let corner = |x: u32, y: u32| (left + f64::from(x - 1) * C, top + f64::from(n - y) * C);
        for v in 1..=n {
            let (x, _) = corner(v, 1);
            svg.text(x + C / 2.0, top + side + 16.0, "label", &v.to_string());
            let (_, y) = corner(1, v);
            svg.text(left - 11.0, y + C / 2.0 + 4.0, "label", &v.to_string());
        }
        for y in 1..=n {
            for x in 1..=n {
                let (cx, cy) = corner(x, y);
                let cell = format!("{x},{y},{z}");
                svg.element(
                    "rect",
                    &[
                        ("class", "cell".into()),
                        ("data-cell", (&cell).into()),
                        ("x", cx.into()),
                        ("y", cy.into()),
                        ("width", C.into()),
                        ("height", C.into()),
                    ],
                );
                let Some(color) = game.ball(x, y, z) else {
                    continue;
                };
                let color = match color {
                    Color::Black => "black",
                    Color::White => "white",
                };
                let (mx, my) = (cx + C / 2.0, cy + C / 2.0);
                let class = format!("ball {color}");
                svg.element(
                    "circle",
                    &[
                        ("class", (&class).into()),
                        ("data-cell", (&cell).into()),
                        ("cx", mx.into()),
                        ("cy", my.into()),
                        ("r", (0.36 * C).into()),
                    ],
                );
                if options.numbers {
                    let k = number[((x - 1) + 8 * (y - 1) + 64 * (z - 1)) as usize];
                    svg.text(mx, my + 4.0, &format!("number {color}"), &k.to_string());
                }
                if line.contains(x - 1, y - 1, z - 1) {
                    svg.element(
                        "circle",
                        &[
                            ("class", "win".into()),
                            ("data-cell", (&cell).into()),
                            ("cx", mx.into()),
                            ("cy", my.into()),
                            ("r", (0.44 * C).into()),
                        ],
                    );
                }
            }
        }
    }
    svg.caption(GAP, boards_height, &caption);
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layer_and_ball_is_drawn() {
        let mut game = Game::new(5, 4).unwrap();
        for (x, y) in [(1, 1), (1, 1), (5, 5), (1, 1)] {
            game.play(x, y).unwrap();
        }
        let svg = svg(&game, &Options::default());
        assert_eq!(svg.matches("class=\"cell\"").count(), 125);
        assert_eq!(svg.matches("class=\"layer\"").count(), 5);
        assert_eq!(svg.matches("class=\"ball black\"").count(), 2);
        assert_eq!(svg.matches("class=\"ball white\"").count(), 2);
        assert!(svg.contains("class=\"ball white\" data-cell=\"1,1,2\""));
        assert!(svg.contains("class=\"ball white\" data-cell=\"1,1,3\""));
        assert!(svg.contains("class=\"ball black\" data-cell=\"5,5,1\""));
        // Move 4 is the white ball on (1, 1, 3).
        assert!(svg.contains(">4</text>"));
        assert!(svg.contains("4 balls played, Black to move"));
        assert!(!svg.contains("class=\"win\""));
    }

    /// A caption wider than the boards widens the picture to it and a margin on each side.
    #[test]
    fn a_long_caption_sets_the_width() {
        let game = Game::new(3, 3).unwrap();
        // 200 characters of 14-pixel text at 0.6 em each: 1680, and a gap of 26 each side.
        let svg = svg(&game, &Options::default().title("x".repeat(200)));
        assert!(svg.contains("width=\"1732\""), "{}", &svg[..200]);
    }

    #[test]
    fn two_lines_at_once_are_both_ringed() {
        // The sample's dataset 3 (see `Game::winning_line`): 7 balls on two lines.
        let mut game = Game::new(4, 3).unwrap();
        for p in "11 22 11 33 33 11 33 33 44 11 44 44 44 41 22".split(' ') {
            let b = p.as_bytes();
            game.play(u32::from(b[0] - b'0'), u32::from(b[1] - b'0'))
                .unwrap();
        }
        let svg = svg(&game, &Options::default());
        assert_eq!(svg.matches("class=\"win\"").count(), 7);
        for cell in [
            "1,1,1", "2,2,2", "3,3,3", "4,4,4", "1,1,2", "3,3,2", "4,4,2",
        ] {
            assert!(
                svg.contains(&format!("class=\"win\" data-cell=\"{cell}\"")),
                "{cell}"
            );
        }
        assert!(svg.contains("Black wins at move 15"));
    }
}
