//! Drawing a position: plain text for the terminal (at most 60 columns) and an SVG diagram.

use super::board::{LINES, Level, Square};
use super::explain::{player_name, row_words};
use super::moves::CorinthoMove;
use super::position::{CorinthoPosition, Outcome};

fn supply_words(counts: [u8; 3]) -> String {
    Level::ALL
        .iter()
        .map(|l| format!("{}{}", l.letter(), counts[*l as usize]))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The position as text: the board (rank 4 on top; `*` marks a locked stack), supplies, rows
/// and the state of the game.
///
/// ```
/// use cathedral::corintho::{CorinthoPosition, CorinthoRules};
/// use cathedral::corintho::draw::text;
/// let start = CorinthoPosition::new(CorinthoRules::for_players(2).unwrap());
/// assert!(text(&start).contains("Player 1 to move"));
/// ```
#[expect(
    clippy::expect_used,
    reason = "files and ranks run over 0..4, the board"
)]
pub fn text(position: &CorinthoPosition) -> String {
    let board = position.board();
    let locked = position.locked();
    let mut out = String::from("     a    b    c    d\n");
    for rank in (0..4).rev() {
        out.push_str(&format!("{}  ", rank + 1));
        for file in 0..4 {
            let sq = Square::at(file, rank).expect("on the board");
            let mark = if locked.contains(&sq) { "*" } else { "" };
            out.push_str(&format!(" {:<4}", format!("{}{mark}", board.get(sq))));
        }
        out.push_str(&format!(" {}\n", rank + 1));
    }
    out.push_str("     a    b    c    d\n\n");
    out.push_str(&format!("Corintho, {}\n", position.rules()));
    for p in 0..position.rules().players {
        out.push_str(&format!(
            "Player {}: {}\n",
            p + 1,
            supply_words(position.supply(p))
        ));
    }
    if position.rules().players == 3 {
        out.push_str(&format!(
            "Shared extras: {}\n",
            supply_words(position.shared())
        ));
    }
    if !locked.is_empty() {
        let names: Vec<String> = locked.iter().map(Square::to_string).collect();
        out.push_str(&format!(
            "Locked (moved last, building code 5): {}\n",
            names.join(" ")
        ));
    }
    for line in (0..LINES.len()).filter(|i| position.rows() >> i & 1 != 0) {
        out.push_str(&format!("Row: {}\n", row_words(position, line)));
    }
    match position.outcome() {
        Outcome::Won(p) => out.push_str(&format!("Game over: {} wins.\n", player_name(p))),
        Outcome::Drawn => out.push_str("Game over: drawn, no player can move.\n"),
        Outcome::Ongoing => {
            out.push_str(&format!("Player {} to move", position.to_move() + 1));
            if let Some(c) = position.claimant() {
                out.push_str(&format!(": must modify the row of {}", player_name(c)));
            }
            out.push_str(".\n");
        }
    }
    out
}

const CELL: f64 = 90.0;
const MARGIN: f64 = 30.0;

/// The position as an SVG diagram: each platform seen from the side with its stack (base wide
/// and low, column tall, capital wide on top), rows underlined in red, locked stacks dashed.
pub fn svg(position: &CorinthoPosition, caption: Option<&str>) -> String {
    svg_with(position, caption, None, true)
}

/// [`svg`], with the platforms of `highlight` (a placement's, or a stacking move's two) outlined
/// in blue, and without the supplies under the board unless `supplies`.
#[expect(
    clippy::expect_used,
    reason = "every line of LINES names squares 0..16"
)]
pub fn svg_with(
    position: &CorinthoPosition,
    caption: Option<&str>,
    highlight: Option<CorinthoMove>,
    supplies: bool,
) -> String {
    let board = position.board();
    let width = 2.0 * MARGIN + 4.0 * CELL;
    let height = 2.0 * MARGIN + 4.0 * CELL + 60.0;
    let mut s = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">
<rect width="{width}" height="{height}" fill="#f4efe6"/>
"##
    );
    let locked = position.locked();
    for sq in Square::all() {
        let x = MARGIN + sq.file() as f64 * CELL;
        let y = MARGIN + (3 - sq.rank()) as f64 * CELL;
        let dash = if locked.contains(&sq) {
            r##" stroke-dasharray="6 4" stroke="#b03020" stroke-width="3""##
        } else {
            r##" stroke="#8a7a60" stroke-width="1.5""##
        };
        s.push_str(&format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="8" fill="#d8c9a8"{dash}/>
"##,
            x + 4.0,
            y + 4.0,
            CELL - 8.0,
            CELL - 8.0
        ));
        if !board.get(sq).is_empty() {
            s.push_str(&format!(
                r##"<text x="{:.1}" y="{:.1}" font-size="12" fill="#5a4a30">{}</text>
"##,
                x + 10.0,
                y + 20.0,
                board.get(sq)
            ));
        }
        // The stack, bottom up, centred, from the platform's lower edge.
        let mut floor = y + CELL - 14.0;
        let cx = x + CELL / 2.0;
        for level in board.get(sq).levels() {
            let (w, h, fill) = match level {
                Level::Base => (56.0, 14.0, "#6b4f2a"),
                Level::Column => (26.0, 34.0, "#e8e2d4"),
                Level::Capital => (48.0, 12.0, "#c9a227"),
            };
            floor -= h;
            s.push_str(&format!(
                r##"<rect x="{:.1}" y="{floor:.1}" width="{w:.1}" height="{h:.1}" fill="{fill}" stroke="#333" stroke-width="1.2"/>
"##,
                cx - w / 2.0
            ));
        }
    }
    let outlined: Vec<Square> = match highlight {
        Some(CorinthoMove::Place { to, .. }) => vec![to],
        Some(CorinthoMove::Stack { from, to }) => vec![from, to],
        Some(CorinthoMove::Pass) | None => Vec::new(),
    };
    for sq in outlined {
        s.push_str(&format!(
            r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="10" fill="none" stroke="#1f5fbf" stroke-width="5"/>
"##,
            MARGIN + sq.file() as f64 * CELL + 2.0,
            MARGIN + (3 - sq.rank()) as f64 * CELL + 2.0,
            CELL - 4.0,
            CELL - 4.0
        ));
    }
    for i in 0..4u8 {
        let file = (b'a' + i) as char;
        s.push_str(&format!(
            r##"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#555">{file}</text>
<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#555">{}</text>
"##,
            MARGIN + (i as f64 + 0.5) * CELL,
            MARGIN + 4.0 * CELL + 18.0,
            MARGIN / 2.0,
            MARGIN + (3.5 - i as f64) * CELL + 5.0,
            i + 1
        ));
    }
    for line in (0..LINES.len()).filter(|i| position.rows() >> i & 1 != 0) {
        let [a, _, c] = LINES[line].map(|q| Square::new(q as usize).expect("square"));
        let centre = |q: Square| {
            (
                MARGIN + (q.file() as f64 + 0.5) * CELL,
                MARGIN + (3.5 - q.rank() as f64) * CELL,
            )
        };
        let ((x1, y1), (x2, y2)) = (centre(a), centre(c));
        s.push_str(&format!(
            r##"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="#c02020" stroke-width="5" stroke-opacity="0.6" stroke-linecap="round"/>
"##
        ));
    }
    let status = match position.outcome() {
        Outcome::Won(p) => format!("{} wins", capital_first(&player_name(p))),
        Outcome::Drawn => "Drawn".to_string(),
        Outcome::Ongoing => format!("Player {} to move", position.to_move() + 1),
    };
    let mut words = vec![status];
    if supplies {
        words.extend(
            (0..position.rules().players)
                .map(|p| format!("P{}: {}", p + 1, supply_words(position.supply(p)))),
        );
    }
    s.push_str(&format!(
        r##"<text x="{MARGIN}" y="{:.1}" font-size="14" fill="#222">{}</text>
"##,
        MARGIN + 4.0 * CELL + 40.0,
        escape(&words.join(" · "))
    ));
    if let Some(caption) = caption {
        s.push_str(&format!(
            r##"<text x="{MARGIN}" y="{:.1}" font-size="14" fill="#222">{}</text>
"##,
            MARGIN + 4.0 * CELL + 60.0,
            escape(caption)
        ));
    }
    s.push_str("</svg>\n");
    s
}

fn capital_first(text: &str) -> String {
    let mut c = text.chars();
    c.next()
        .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
        .unwrap_or_default()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
