//! Pictures of positions as SVG: a Havannah board ([`havannah`]), the Sequence cube layer by
//! layer ([`sequence`]) and the grid game's grid ([`grid`]), each drawn from its game's public
//! API, with the winning structure marked and a caption saying how the game stands.
//!
//! The pictures are hand-written SVG 1.1 text: one `<style>` block, then plain shapes and
//! labels. Every shape a reader (or a test) may want to find carries a class (`stone white`,
//! `win`, `forbidden`, ...) and, where it stands for a cell, a `data-cell` attribute with that
//! cell's coordinates, counted from 1. The output depends only on the position and the
//! [`Options`]: the same input gives the same bytes.
//!
//! ```
//! use bitgames::grid::Game;
//! use bitgames::render::{self, Options};
//!
//! let mut game = Game::new(5, 6)?;
//! game.play(3, 4)?;
//! let svg = render::grid::svg(&game, &Options::default().title("the problem's example"));
//! assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
//! assert_eq!(svg.matches("class=\"chosen\"").count(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! This module sits above the games: it may use every game, and no game uses it
//! (`tests/layering.rs`).

pub mod grid;
pub mod havannah;
pub mod sequence;

use std::fmt::Write;

/// What a picture shows besides the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    title: Option<String>,
    numbers: bool,
}

impl Default for Options {
    /// No title; move numbers shown.
    fn default() -> Options {
        Options {
            title: None,
            numbers: true,
        }
    }
}

impl Options {
    /// These options with `title` as the caption's first line (such as the input's name, or a
    /// judge's answer for the case drawn).
    #[must_use]
    pub fn title(self, title: impl Into<String>) -> Options {
        Options {
            title: Some(title.into()),
            ..self
        }
    }

    /// These options with the move numbers on the stones, balls or chosen cells shown (the
    /// default) or not.
    #[must_use]
    pub fn numbers(self, numbers: bool) -> Options {
        Options { numbers, ..self }
    }

    /// The title, if any.
    pub fn title_text(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// Are move numbers shown?
    pub fn shows_numbers(&self) -> bool {
        self.numbers
    }
}

/// The height of one caption line, in SVG units.
const LINE: f64 = 20.0;

/// An SVG document being written: elements go into a `String` in the order they are drawn
/// (later ones paint over earlier ones).
struct Svg {
    out: String,
}

/// One attribute value of an element.
enum Value<'a> {
    Num(f64),
    Text(&'a str),
}

impl From<f64> for Value<'_> {
    fn from(v: f64) -> Self {
        Value::Num(v)
    }
}

impl<'a> From<&'a str> for Value<'a> {
    fn from(v: &'a str) -> Self {
        Value::Text(v)
    }
}

impl<'a> From<&'a String> for Value<'a> {
    fn from(v: &'a String) -> Self {
        Value::Text(v)
    }
}

impl Svg {
    /// A document of `width` × `height` units with the style sheet `style` (CSS rules).
    fn new(width: f64, height: f64, style: &str) -> Svg {
        let mut out = String::with_capacity(1 << 14);
        let (w, h) = (num(width), num(height));
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" \
             height=\"{h}\" viewBox=\"0 0 {w} {h}\">"
        );
        let _ = writeln!(
            out,
            "<style>\ntext {{ font-family: 'DejaVu Sans', Arial, sans-serif; }}\n{style}</style>"
        );
        let _ = writeln!(
            out,
            "<rect class=\"background\" x=\"0\" y=\"0\" width=\"{w}\" height=\"{h}\" \
             fill=\"#ffffff\"/>"
        );
        Svg { out }
    }

    /// An empty element `<name a="v" .../>`.
    fn element(&mut self, name: &str, attributes: &[(&str, Value<'_>)]) {
        self.start(name, attributes);
        self.out.push_str("/>\n");
    }

    /// `<text>` at (x, y) of class `class`, its content escaped; `x`, `y` is the anchor point
    /// of the class's `text-anchor` on the baseline.
    fn text(&mut self, x: f64, y: f64, class: &str, content: &str) {
        self.start(
            "text",
            &[("class", class.into()), ("x", x.into()), ("y", y.into())],
        );
        self.out.push('>');
        escape_into(&mut self.out, content);
        self.out.push_str("</text>\n");
    }

    /// A polygon of class `class` through `points`, with `data-cell` = `cell`.
    fn polygon(&mut self, class: &str, cell: &str, points: &[(f64, f64)]) {
        let mut list = String::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            if i > 0 {
                list.push(' ');
            }
            let _ = write!(list, "{},{}", num(x), num(y));
        }
        self.element(
            "polygon",
            &[
                ("class", class.into()),
                ("data-cell", cell.into()),
                ("points", Value::Text(&list)),
            ],
        );
    }

    /// The caption: `lines` from `top` down, left-aligned at `left`.
    fn caption(&mut self, left: f64, top: f64, lines: &[String]) {
        for (i, line) in lines.iter().enumerate() {
            let class = if i == 0 { "caption first" } else { "caption" };
            self.text(left, top + LINE * (i as f64 + 0.75), class, line);
        }
    }

    fn start(&mut self, name: &str, attributes: &[(&str, Value<'_>)]) {
        self.out.push('<');
        self.out.push_str(name);
        for (key, value) in attributes {
            let _ = write!(self.out, " {key}=\"");
            match value {
                Value::Num(v) => self.out.push_str(&num(*v)),
                Value::Text(t) => escape_into(&mut self.out, t),
            }
            self.out.push('"');
        }
    }

    /// The finished document.
    fn finish(mut self) -> String {
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// The caption lines of a picture: the title first, if any, then `lines`.
fn caption_lines(options: &Options, lines: impl IntoIterator<Item = String>) -> Vec<String> {
    options.title.iter().cloned().chain(lines).collect()
}

/// A coordinate with at most one decimal, without a trailing `.0` and never `-0`.
fn num(v: f64) -> String {
    let tenths = (v * 10.0).round() as i64;
    let (sign, tenths) = if tenths < 0 {
        ("-", -tenths)
    } else {
        ("", tenths)
    };
    if tenths % 10 == 0 {
        format!("{sign}{}", tenths / 10)
    } else {
        format!("{sign}{}.{}", tenths / 10, tenths % 10)
    }
}

/// Appends `text` with the five XML special characters escaped.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 text: drop them.
            c if c.is_control() && c != '\t' => {}
            c => out.push(c),
        }
    }
}

/// The width of `text` in units, roughly, at font size `size` (for sizing the picture to its
/// caption).
fn text_width(text: &str, size: f64) -> f64 {
    text.chars().count() as f64 * size * 0.6
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_exact() {
        assert_eq!(num(0.0), "0");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(12.25), "12.3");
        assert_eq!(num(-3.5), "-3.5");
        assert_eq!(num(-7.0), "-7");
        assert_eq!(num(100.96), "101");
    }

    #[test]
    fn text_is_escaped() {
        let mut svg = Svg::new(10.0, 10.0, "");
        svg.text(1.0, 2.0, "a\"b", "<x & 'y'>\u{7}");
        let out = svg.finish();
        assert!(
            out.contains(
                "<text class=\"a&quot;b\" x=\"1\" y=\"2\">&lt;x &amp; &apos;y&apos;&gt;</text>"
            ),
            "{out}"
        );
        assert!(out.ends_with("</svg>\n"));
    }
}
