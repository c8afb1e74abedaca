//! The grid game as SVG ([`svg`]), drawn as in the problem's figure: the r × c grid with
//! (1, 1) at the upper left, permitted cells white, forbidden cells grey, and the cells the
//! moves chose darker, with their move numbers. Rows are labelled on the left and columns on
//! top (every one up to 30, then 1 and every fifth); the caption says whether the position is
//! winning or losing for the player to move, with its Grundy value.
//!
//! Classes: `free`, `forbidden` and `chosen` for the cells (each with `data-cell="row,col"`),
//! `label`, `number`, `caption`.
//!
//! ```
//! use bitgames::grid::Game;
//! use bitgames::render::{Options, grid};
//!
//! let mut game = Game::new(2, 2)?;
//! game.play(1, 1)?; // forbids the first row and column
//! let svg = grid::svg(&game, &Options::default());
//! assert_eq!(svg.matches("class=\"forbidden\"").count(), 2);
//! assert_eq!(svg.matches("class=\"free\"").count(), 1);
//! assert!(svg.contains("winning for the second player"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::{LINE, Options, Svg, caption_lines, text_width};
use crate::grid::{Game, Outcome, Player};

/// The room for the row and column labels.
const LABEL: f64 = 26.0;
/// The margin around the picture.
const MARGIN: f64 = 14.0;

const STYLE: &str = "\
.free { fill: #ffffff; stroke: #6e6e6e; stroke-width: 1; }
.forbidden { fill: #c4c4c4; stroke: #6e6e6e; stroke-width: 1; }
.chosen { fill: #6a6a6a; stroke: #3c3c3c; stroke-width: 1; }
.number { fill: #ffffff; text-anchor: middle; }
.label { fill: #5a5a5a; text-anchor: middle; }
.caption { font-size: 14px; fill: #1e1e1e; }
.caption.first { font-weight: bold; }
";

/// The picture of a position: the grid, the forbidden and chosen cells, the verdict.
pub fn svg(game: &Game, options: &Options) -> String {
    let (rows, cols) = (game.rows(), game.cols());
    let longest = rows.max(cols);
    let c: f64 = match longest {
        0..=20 => 32.0,
        21..=50 => 22.0,
        _ => 15.0,
    };
    let font = (0.42 * c).round();
    // Which move chose each cell (0: none), row-major.
    let mut chosen = vec![0u32; (rows * cols) as usize];
    for (k, cell) in game.history().enumerate() {
        chosen[((cell.row - 1) * cols + cell.col - 1) as usize] = k as u32 + 1;
    }

    let player = |p: Player| match p {
        Player::First => "the first player",
        Player::Second => "the second player",
    };
    let mut lines = vec![format!(
        "Grid game, {rows} × {cols}: {} move{}, {} of {} cells still permitted",
        game.moves_played(),
        if game.moves_played() == 1 { "" } else { "s" },
        game.permitted(),
        rows * cols
    )];
    lines.push(match game.outcome() {
        Some(Outcome::Win { player: winner, at }) => format!(
            "no permitted cell is left: {} cannot move and loses ({} won with move {at})",
            player(game.to_move()),
            player(winner)
        ),
        _ => format!(
            "{} for {} to move (Grundy value {})",
            if game.is_winning() {
                "winning"
            } else {
                "losing"
            },
            player(game.to_move()),
            game.grundy()
        ),
    });
    let caption = caption_lines(options, lines);

    let grid_w = f64::from(cols) * c;
    let grid_h = f64::from(rows) * c;
    let caption_width = caption
        .iter()
        .map(|l| text_width(l, 14.0))
        .fold(0.0, f64::max);
    let width = (2.0 * MARGIN + LABEL + grid_w).max(caption_width + 2.0 * MARGIN);
    let grid_bottom = MARGIN + LABEL + grid_h + MARGIN;
    let height = grid_bottom + LINE * caption.len() as f64 + MARGIN / 2.0;
    let style = format!(
        "{STYLE}.number {{ font-size: {font}px; }}\n.label {{ font-size: {}px; }}\n",
        font.max(11.0)
    );
    let mut svg = Svg::new(width, height, &style);
    let (left, top) = (MARGIN + LABEL, MARGIN + LABEL);
    let labelled = |v: u32| longest <= 30 || v == 1 || v.is_multiple_of(5);
    for col in (1..=cols).filter(|&v| labelled(v)) {
        let x = left + (f64::from(col) - 0.5) * c;
        svg.text(x, top - 8.0, "label", &col.to_string());
    }
    for row in (1..=rows).filter(|&v| labelled(v)) {
        let y = top + (f64::from(row) - 0.5) * c + 0.35 * font.max(11.0);
        svg.text(left - LABEL / 2.0, y, "label", &row.to_string());
    }
    for row in 1..=rows {
        for col in 1..=cols {
            let k = chosen[((row - 1) * cols + col - 1) as usize];
            let class = if k > 0 {
                "chosen"
            } else if game.is_permitted(row, col) {
                "free"
            } else {
                "forbidden"
            };
            let (x, y) = (left + f64::from(col - 1) * c, top + f64::from(row - 1) * c);
            let cell = format!("{row},{col}");
            svg.element(
                "rect",
                &[
                    ("class", class.into()),
                    ("data-cell", (&cell).into()),
                    ("x", x.into()),
                    ("y", y.into()),
                    ("width", c.into()),
                    ("height", c.into()),
                ],
            );
            if k > 0 && options.numbers {
                svg.text(
                    x + c / 2.0,
                    y + c / 2.0 + 0.35 * font,
                    "number",
                    &k.to_string(),
                );
            }
        }
    }
    svg.caption(MARGIN, grid_bottom, &caption);
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_problems_example() {
        // 5 × 6, moves (3, 4) and (5, 2): winning for the player to move (the first).
        let mut game = Game::new(5, 6).unwrap();
        game.play(3, 4).unwrap();
        game.play(5, 2).unwrap();
        let svg = svg(&game, &Options::default());
        assert_eq!(svg.matches("class=\"chosen\"").count(), 2);
        // (3, 4) forbids row 3 (6 cells) and column 4 (5): 10 cells; (5, 2) then row 5's
        // cells 1..=3 (cell 4 already is) and column 2's rows 4..=5: 4 more. 14 in all, of
        // which 2 are chosen.
        assert_eq!(svg.matches("class=\"forbidden\"").count(), 12);
        assert_eq!(svg.matches("class=\"free\"").count(), 30 - 14);
        assert_eq!(game.permitted(), 16);
        assert!(svg.contains("class=\"chosen\" data-cell=\"3,4\""));
        assert!(
            svg.contains("winning for the first player to move"),
            "{svg}"
        );
        assert!(svg.contains(">2</text>"));
    }

    #[test]
    fn a_finished_game_and_large_grids() {
        let mut game = Game::new(1, 3).unwrap();
        game.play(1, 2).unwrap();
        let svg = svg(&game, &Options::default());
        assert!(
            svg.contains("the second player cannot move and loses"),
            "{svg}"
        );
        let game = Game::new(80, 80).unwrap();
        let svg = super::svg(&game, &Options::default().numbers(false));
        assert_eq!(svg.matches("class=\"free\"").count(), 6400);
        // Labels 1, 5, ..., 80 on each side.
        assert_eq!(svg.matches("class=\"label\"").count(), 2 * 17);
    }
}
