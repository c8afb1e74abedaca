//! `bitgames render`: the pictures end to end. Each SVG must parse as XML, hold one stone
//! (ball, chosen cell) per move of the right colour, mark exactly the winning structure (as
//! the engine or an independent recomputation finds it), carry the judge's answer, and come
//! out byte for byte the same on every run; every bad input gets its error and exit status.

mod common;

use std::collections::BTreeSet;
use std::fs;

use bitgames::havannah::gtp::parse_cell;
use bitgames::havannah::{self, Cell};
use common::bitgames;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

fn data(name: &str) -> String {
    format!("{DATA}/{name}")
}

/// Runs `bitgames render ARGS` with `stdin`; asserts success and returns the SVG.
fn render(args: &[&str], stdin: &str) -> String {
    let out = bitgames()
        .arg("render")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "render {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stderr.is_empty());
    String::from_utf8(out.stdout).expect("the SVG is UTF-8")
}

/// Runs `bitgames render ARGS` with `stdin`, expecting failure with exit status `code`;
/// returns standard error, which must be one `error: ` line and no panic.
fn fails(args: &[&str], stdin: &str, code: i32) -> String {
    let out = bitgames()
        .arg("render")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "render {args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "render {args:?} wrote output");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    stderr
}

/// The parsed picture: the SVG root, and the `data-cell` values of the elements of a class.
struct Picture {
    text: String,
}

impl Picture {
    fn new(text: String) -> Picture {
        let doc = roxmltree::Document::parse(&text).expect("the SVG is well-formed XML");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        assert_eq!(
            doc.root_element().tag_name().namespace(),
            Some("http://www.w3.org/2000/svg")
        );
        Picture { text }
    }

    /// The `data-cell` of every element whose class is exactly `class`, in document order.
    fn cells(&self, class: &str) -> Vec<String> {
        let doc = roxmltree::Document::parse(&self.text).expect("parsed before");
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .map(|n| n.attribute("data-cell").unwrap_or_default().to_owned())
            .collect()
    }

    fn count(&self, class: &str) -> usize {
        self.cells(class).len()
    }

    /// The text of the caption lines, in order.
    fn caption(&self) -> Vec<String> {
        let doc = roxmltree::Document::parse(&self.text).expect("parsed before");
        doc.descendants()
            .filter(|n| {
                n.attribute("class")
                    .is_some_and(|c| c.split(' ').any(|w| w == "caption"))
            })
            .map(|n| n.text().unwrap_or_default().to_owned())
            .collect()
    }
}

/// Havannah cells as `data-cell` values.
fn cell_set(cells: impl IntoIterator<Item = Cell>) -> BTreeSet<String> {
    cells
        .into_iter()
        .map(|c| format!("{},{}", c.x, c.y))
        .collect()
}

/// The cases of a Code Jam Havannah input: side and moves.
fn havannah_cases(text: &str) -> Vec<(u32, Vec<Cell>)> {
    let mut numbers = text.split_whitespace().map(|t| t.parse::<u32>().unwrap());
    let cases = numbers.next().unwrap();
    (0..cases)
        .map(|_| {
            let (side, moves) = (numbers.next().unwrap(), numbers.next().unwrap());
            let cells = (0..moves)
                .map(|_| Cell::new(numbers.next().unwrap(), numbers.next().unwrap()))
                .collect();
            (side, cells)
        })
        .collect()
}

/// The stones of `stones` connected to the last one: a flood fill written here, independent
/// of the library.
fn flood_group(stones: &[Cell]) -> BTreeSet<Cell> {
    let all: BTreeSet<Cell> = stones.iter().copied().collect();
    let mut group = BTreeSet::new();
    let mut todo = vec![*stones.last().unwrap()];
    while let Some(c) = todo.pop() {
        if !all.contains(&c) || !group.insert(c) {
            continue;
        }
        let (x, y) = (c.x as i64, c.y as i64);
        for (dx, dy) in [(1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0)] {
            let (nx, ny) = (x + dx, y + dy);
            if nx >= 1 && ny >= 1 {
                todo.push(Cell::new(nx as u32, ny as u32));
            }
        }
    }
    group
}

#[test]
fn havannah_judge_cases_mark_the_first_winning_group() {
    let input = fs::read_to_string(data("havannah.in")).unwrap();
    let answers = fs::read_to_string(data("havannah.out")).unwrap();
    let cases = havannah_cases(&input);
    assert_eq!(cases.len(), 7);
    for (k, ((side, moves), answer)) in cases.iter().zip(answers.lines()).enumerate() {
        let case = (k + 1).to_string();
        let picture = Picture::new(render(
            &["havannah", "--case", &case, &data("havannah.in")],
            "",
        ));
        let caption = picture.caption();
        assert_eq!(
            caption[0], answer,
            "case {case}: the judge's answer is the title"
        );
        let s = u64::from(*side);
        assert_eq!(
            picture.count("cell") + picture.count("cell win"),
            (3 * s * s - 3 * s + 1) as usize
        );
        // "... in move K": the stones up to K drawn, the later ones faded; the group of move K
        // outlined.
        let decided = answer
            .rsplit(' ')
            .next()
            .and_then(|k| k.parse::<usize>().ok());
        let drawn = decided.unwrap_or(moves.len());
        assert_eq!(picture.count("stone black"), drawn, "case {case}");
        assert_eq!(
            picture.count("stone black late"),
            moves.len() - drawn,
            "case {case}"
        );
        assert_eq!(picture.count("stone white"), 0);
        let marked: BTreeSet<String> = picture.cells("cell win").into_iter().collect();
        let expected = match decided {
            Some(k) => cell_set(flood_group(&moves[..k])),
            None => BTreeSet::new(),
        };
        assert_eq!(marked, expected, "case {case}");
        assert_eq!(picture.count("win-outline"), usize::from(decided.is_some()));
    }
}

#[test]
fn havannah_sample_cases_by_hand() {
    // Case 1: (1, 1) and (1, 2) are two corners of the side-2 board: a bridge at move 2.
    let picture = Picture::new(render(
        &["havannah", "--case", "1", &data("havannah.in")],
        "",
    ));
    assert_eq!(picture.cells("cell win"), ["1,1", "1,2"]);
    // Case 4: the ring around the empty centre (3, 3), closed by move 6; the centre itself is
    // not marked.
    let picture = Picture::new(render(
        &["havannah", "--case", "4", &data("havannah.in")],
        "",
    ));
    let ring: BTreeSet<String> = ["2,2", "2,3", "3,4", "4,4", "4,3", "3,2"]
        .map(String::from)
        .into();
    assert_eq!(
        picture
            .cells("cell win")
            .into_iter()
            .collect::<BTreeSet<_>>(),
        ring
    );
    assert!(
        picture
            .caption()
            .iter()
            .any(|l| l.contains("a ring at move 6"))
    );
    // Case 3: the same loop around a filled centre: no ring, nothing marked.
    let picture = Picture::new(render(
        &["havannah", "--case", "3", &data("havannah.in")],
        "",
    ));
    assert_eq!(picture.count("cell win"), 0);
    assert_eq!(picture.caption()[0], "Case #3: none");
}

/// The moves of the GTP game in tests/data, as cells, White first.
fn gtp_game_moves() -> Vec<Cell> {
    fs::read_to_string(data("havannah_game.gtp"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("play "))
        .map(|l| parse_cell(&l[2..], 6).unwrap())
        .collect()
}

#[test]
fn havannah_gtp_game_marks_the_engines_winning_group() {
    let moves = gtp_game_moves();
    assert_eq!(moves.len(), 59);
    let mut game = havannah::Game::new(6).unwrap();
    for c in &moves {
        game.play(c.x, c.y).unwrap();
    }
    assert_eq!(game.winner(), Some(havannah::Color::White));
    let picture = Picture::new(render(&["havannah", &data("havannah_game.gtp")], ""));
    assert_eq!(picture.count("stone white"), 30);
    assert_eq!(picture.count("stone black"), 29);
    let white: BTreeSet<String> = picture.cells("stone white").into_iter().collect();
    assert_eq!(white, cell_set(moves.iter().copied().step_by(2)));
    let marked: BTreeSet<String> = picture.cells("cell win").into_iter().collect();
    assert_eq!(marked, cell_set(game.winning_group()));
    assert!(!marked.is_empty());
    let caption = picture.caption();
    assert_eq!(caption[0], "Havannah, side 6, the official ring rule");
    assert_eq!(caption[1], "White wins with a fork at move 59");
    // The labels: GTP letters a..k and numbers 1..11, each once.
    assert!(picture.text.contains(">a</text>") && picture.text.contains(">k</text>"));
    assert!(!picture.text.contains(">l</text>"));
}

#[test]
fn havannah_bare_move_list_draws_the_same_picture() {
    let names: Vec<String> = fs::read_to_string(data("havannah_game.gtp"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("play "))
        .map(|l| l[2..].to_owned())
        .collect();
    // Spaces, commas, line breaks and comments all separate moves.
    let list = format!(
        "# the same game\n{}\n{}, {}\n",
        names[..20].join(" "),
        names[20..40].join(","),
        names[40..].join("\n")
    );
    let from_list = render(&["havannah", "--side", "6"], &list);
    let from_gtp = render(&["havannah", &data("havannah_game.gtp")], "");
    assert_eq!(from_list, from_gtp);
}

#[test]
fn havannah_gtp_undo_swap_and_resign() {
    let record = "boardsize 4\nplay w a1\n2 swap\nplay w d4\nplay b d5\nundo\n";
    let picture = Picture::new(render(&["havannah", "--swap"], record));
    assert_eq!(picture.cells("stone black"), ["1,1"]);
    assert_eq!(picture.cells("stone white"), ["4,4"]);
    let caption = picture.caption();
    assert!(
        caption
            .iter()
            .any(|l| l.contains("Black swapped at move 2")),
        "{caption:?}"
    );
    assert_eq!(caption.last().unwrap(), "3 moves played, Black to move");
    let picture = Picture::new(render(&["havannah"], "boardsize 3\nplay w c3\nresign\n"));
    assert_eq!(picture.caption()[0], "Black resigned: White wins");
    // --title replaces the default title; the text is escaped.
    let picture = Picture::new(render(&["havannah", "--title", "a <b> & c"], "play w d4\n"));
    assert_eq!(picture.caption()[0], "a <b> & c");
    assert_eq!(
        picture.caption()[1],
        "Havannah, side 8, the official ring rule"
    );
    // --no-numbers leaves the move numbers off.
    let with = render(&["havannah"], "play w d4\n");
    let without = render(&["havannah", "--no-numbers"], "play w d4\n");
    assert!(with.contains("class=\"number white\""));
    assert!(!without.contains("class=\"number"));
}

#[test]
fn sequence_datasets_ring_the_winning_line() {
    let answers = fs::read_to_string(data("sequence.out")).unwrap();
    let answers: Vec<&str> = answers.lines().collect();
    let input = data("sequence.in");
    // Dataset 1: three balls on one peg, n = m = 3 and no line of three of one colour.
    let picture = Picture::new(render(&["sequence", &input], ""));
    assert_eq!(picture.caption()[0], format!("Dataset 1: {}", answers[0]));
    assert_eq!(picture.cells("ball black"), ["1,1,1", "1,1,3"]);
    assert_eq!(picture.cells("ball white"), ["1,1,2"]);
    assert_eq!(picture.count("win"), 0);
    assert_eq!(picture.count("cell"), 27);
    // Dataset 2: White's 6th move decides; the 7th ball is not drawn.
    let picture = Picture::new(render(&["sequence", "--case", "2", &input], ""));
    assert_eq!(
        picture.caption()[0],
        format!(
            "Dataset 2: {} (1 later move ignored, as the judge does)",
            answers[1]
        )
    );
    assert_eq!(picture.count("ball black") + picture.count("ball white"), 6);
    assert_eq!(picture.cells("win"), ["1,3,1", "2,3,1", "3,3,1"]);
    // Dataset 3: two lines through (2, 2, 2) at once, both ringed (hand-checked in the
    // spec's sample notes).
    let picture = Picture::new(render(&["sequence", "--case", "3", &input], ""));
    assert_eq!(picture.caption()[0], format!("Dataset 3: {}", answers[2]));
    assert_eq!(picture.count("ball black"), 8);
    assert_eq!(picture.count("ball white"), 7);
    let ringed: BTreeSet<String> = picture.cells("win").into_iter().collect();
    let expected: BTreeSet<String> = [
        "1,1,1", "2,2,2", "3,3,3", "4,4,4", "1,1,2", "3,3,2", "4,4,2",
    ]
    .map(String::from)
    .into();
    assert_eq!(ringed, expected);
    assert_eq!(picture.count("layer"), 4);
}

#[test]
fn grid_cases_show_forbidden_and_chosen_cells() {
    let answers = fs::read_to_string(data("grid.out")).unwrap();
    let input = fs::read_to_string(data("grid.in")).unwrap();
    let mut numbers = input.split_whitespace().map(|t| t.parse::<u32>().unwrap());
    for (k, answer) in answers.lines().enumerate() {
        let case = (k + 1).to_string();
        let (rows, cols, m) = (
            numbers.next().unwrap(),
            numbers.next().unwrap(),
            numbers.next().unwrap(),
        );
        let mut game = bitgames::grid::Game::new(rows, cols).unwrap();
        let mut chosen = Vec::new();
        for _ in 0..m {
            let (r, c) = (numbers.next().unwrap(), numbers.next().unwrap());
            game.play(r, c).unwrap();
            chosen.push(format!("{r},{c}"));
        }
        let picture = Picture::new(render(&["grid", "--case", &case, &data("grid.in")], ""));
        assert_eq!(picture.caption()[0], format!("Case {case}: {answer}"));
        assert!(
            picture.caption()[2].starts_with(answer),
            "{:?}",
            picture.caption()
        );
        let mut drawn = picture.cells("chosen");
        drawn.sort();
        chosen.sort();
        assert_eq!(drawn, chosen, "case {case}");
        assert_eq!(
            picture.count("free"),
            game.permitted() as usize,
            "case {case}"
        );
        assert_eq!(
            picture.count("forbidden"),
            (rows * cols - game.permitted()) as usize - chosen.len(),
            "case {case}"
        );
        for cell in picture.cells("free") {
            let (r, c) = cell.split_once(',').unwrap();
            assert!(
                game.is_permitted(r.parse().unwrap(), c.parse().unwrap()),
                "{cell}"
            );
        }
    }
}

#[test]
fn pictures_are_deterministic_and_output_files_match() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        vec!["havannah", "--case", "6"],
        vec!["sequence", "--case", "3"],
        vec!["grid", "--case", "8"],
    ] {
        let input = data(&format!("{}.in", args[0]));
        let mut full = args.clone();
        full.push(&input);
        let first = render(&full, "");
        assert_eq!(first, render(&full, ""));
        let file = dir.path().join(format!("{}.svg", args[0]));
        let file = file.to_str().unwrap();
        full.extend(["-o", file]);
        assert!(render(&full, "").is_empty());
        assert_eq!(fs::read_to_string(file).unwrap(), first);
        // Standard input gives the same picture.
        let piped = render(&args, &fs::read_to_string(&input).unwrap());
        assert_eq!(piped, first);
    }
}

#[test]
fn bad_input_says_where_and_what() {
    let hav = data("havannah.in");
    // A missing file.
    let e = fails(&["grid", "no/such/file.in"], "", 1);
    assert!(e.contains("no/such/file.in"), "{e}");
    // A case beyond the input.
    let e = fails(&["havannah", "--case", "8", &hav], "", 1);
    assert!(
        e.contains("there is no case 8: the input has 7 cases"),
        "{e}"
    );
    let e = fails(&["sequence", "--case", "4", &data("sequence.in")], "", 1);
    assert!(
        e.contains("there is no case 4: the input has 3 cases"),
        "{e}"
    );
    // A malformed token, an illegal move: the judge's own message, line and column.
    let e = fails(&["havannah", "--case", "1"], "1\n3 2\n1 1\n1 x\n", 1);
    assert!(e.starts_with("error: <stdin>:4:3: dataset 1: "), "{e}");
    assert!(e.contains("found `x`"), "{e}");
    let e = fails(&["havannah", "--case", "1"], "1\n3 2\n1 1\n1 1\n", 1);
    assert!(e.starts_with("error: <stdin>:4:"), "{e}");
    let e = fails(&["sequence"], "3 3 4\n1 1\n1 1\n1 1\n1 1\n0 0 0\n", 1);
    assert!(e.contains("dataset 1: move 4"), "{e}");
    let e = fails(&["grid", "--case", "2"], "2 2 0\n2 2 1\n3 1\n", 1);
    assert!(e.starts_with("error: <stdin>:3:1: dataset 2: "), "{e}");
    // A board too large to draw.
    let e = fails(&["havannah", "--case", "1"], "1\n61 1\n1 1\n", 1);
    assert!(
        e.contains("case 1: a board of side 61 is too large to draw"),
        "{e}"
    );
    // GTP: an illegal move, an unknown command, genmove, a bad size, a swap not allowed.
    let e = fails(&["havannah"], "boardsize 4\nplay w d4\nplay b d4\n", 1);
    assert!(e.starts_with("error: <stdin>:3: illegal move d4"), "{e}");
    let e = fails(&["havannah"], "boardsize 4\n\nfrobnicate\n", 1);
    assert_eq!(e, "error: <stdin>:3: unknown command: frobnicate\n");
    let e = fails(&["havannah"], "7 genmove b\n", 1);
    assert!(
        e.starts_with("error: <stdin>:1: genmove cannot be replayed"),
        "{e}"
    );
    let e = fails(&["havannah"], "boardsize 40\n", 1);
    assert!(
        e.starts_with("error: <stdin>:1: unacceptable size 40"),
        "{e}"
    );
    let e = fails(&["havannah"], "play w a1\nswap\n", 1);
    assert!(e.contains("<stdin>:2: swap is allowed only"), "{e}");
    assert!(e.contains("(--swap turns the swap rule on)"), "{e}");
    // A bare list: the line, column and move number of a bad cell.
    let e = fails(&["havannah", "--side", "4"], "d4 c3\n e5  zz9\n", 1);
    assert!(
        e.starts_with("error: <stdin>:2:6: move 4 (zz9): invalid cell zz9"),
        "{e}"
    );
    let e = fails(&["havannah", "--side", "4"], "d4 d4\n", 1);
    assert!(
        e.starts_with("error: <stdin>:1:4: move 2 (d4): cell (4, 4) is already occupied"),
        "{e}"
    );
    // Flags that do not go together, and an unknown game: usage errors.
    let e = fails(
        &["sequence", "--ring", "code-jam", &data("sequence.in")],
        "",
        2,
    );
    assert!(e.contains("for `render havannah` only"), "{e}");
    fails(&["havannah", "--case", "1", "--side", "4", &hav], "", 2);
    fails(
        &["havannah", "--case", "1", "--ring", "official", &hav],
        "",
        2,
    );
    fails(&["havannah", "--side", "14"], "", 2);
    fails(&["chess"], "", 2);
    fails(&["grid", "--case", "0", &data("grid.in")], "", 2);
}

/// The examples in docs/render/ are what the README's commands draw today.
#[test]
fn the_committed_examples_are_current() {
    let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/render");
    let gtp = format!("{docs}/havannah.gtp");
    let title = "The problem's example: (3, 4) and (5, 2) played";
    let examples: [(&str, Vec<String>); 3] = [
        ("havannah", vec!["havannah".into(), gtp]),
        (
            "sequence",
            vec![
                "sequence".into(),
                "--case".into(),
                "3".into(),
                data("sequence.in"),
            ],
        ),
        (
            "grid",
            vec![
                "grid".into(),
                "--case".into(),
                "3".into(),
                data("grid.in"),
                "--title".into(),
                title.into(),
            ],
        ),
    ];
    for (name, args) in examples {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let drawn = render(&args, "");
        let committed = fs::read_to_string(format!("{docs}/{name}.svg")).unwrap();
        assert!(
            drawn == committed,
            "docs/render/{name}.svg is out of date: redraw it with the README's command"
        );
    }
    // The Havannah example is the official rule's ring around an opponent stone.
    let picture = Picture::new(fs::read_to_string(format!("{docs}/havannah.svg")).unwrap());
    assert_eq!(picture.caption()[1], "White wins with a ring at move 11");
    assert_eq!(picture.cells("stone black")[..1], ["2,4"]);
    assert!(picture.cells("stone black").contains(&"5,5".to_owned()));
    assert!(!picture.cells("cell win").contains(&"5,5".to_owned()));
}
