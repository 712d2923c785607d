//! The commands every game shares, as data and text: what `show`, `moves`, `play`, `perft`,
//! `solve`, `render` and (for a game without Cathedral's ranked report) `bestmove` compute once
//! a front end has read its arguments.

use super::game::{Loaded, Playable, SvgRequest, TextStyle};
use crate::boardgame::Instant;
use crate::boardgame::{Progress, Solution, SolveOptions};
use crate::present::table::{new_table, right_align};
use serde::Serialize;
use std::collections::BTreeMap;

/// Example moves shown per group in the `moves` table.
const EXAMPLES: usize = 3;

/// `show`: the position drawn as text under its title, or as pretty JSON.
pub fn show<G: Playable>(loaded: &Loaded<G>, json: bool, style: TextStyle) -> String {
    if json {
        return pretty(&loaded.position.view(loaded.title.clone()));
    }
    let mut out = String::new();
    if let Some(title) = &loaded.title {
        out.push_str(&format!("{title}\n\n"));
    }
    out.push_str(&loaded.position.draw_text(style));
    out
}

/// The moves of one group (one piece, one kind of move, or the pass).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveGroup {
    /// The group's name (`tavern`, `stack`), or `pass`.
    pub name: String,
    /// The moves, in generation order.
    pub moves: Vec<String>,
}

/// Every legal move of a position. The serialised fields are `moves --json`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MovesReport {
    /// The side to move.
    pub to_move: serde_json::Value,
    /// The number of legal moves.
    pub total: usize,
    /// Number of moves per group.
    pub per_piece: BTreeMap<String, usize>,
    /// Every legal move in canonical notation, group by group.
    pub moves: Vec<String>,
    /// The side to move as a title (`Light`, `Player 1`).
    #[serde(skip)]
    pub to_move_title: String,
    /// The moves grouped, in the game's order of groups.
    #[serde(skip)]
    pub groups: Vec<MoveGroup>,
    /// What the game says before the list (the game is over, a row to answer).
    #[serde(skip)]
    pub notes: Vec<String>,
    /// What a group is (`piece`).
    #[serde(skip)]
    pub group_heading: &'static str,
}

impl MovesReport {
    /// The legal moves of `position`.
    ///
    /// ```
    /// use cathedral::frontend::MovesReport;
    /// use cathedral::{Position, Rules};
    ///
    /// let report = MovesReport::of(&Position::new(Rules::CLASSIC));
    /// assert_eq!(report.groups.len(), 1); // only the Cathedral can be placed first
    /// assert_eq!(report.total, report.per_piece["cathedral"]);
    /// ```
    pub fn of<G: Playable>(position: &G) -> MovesReport {
        let mut groups: Vec<(usize, MoveGroup)> = Vec::new();
        let legal = position.legal_moves();
        for &mv in &legal {
            let (rank, name) = position.move_group(mv);
            let text = position.move_text(mv);
            match groups.iter_mut().find(|(_, g)| g.name == name) {
                Some((_, group)) => group.moves.push(text),
                None => groups.push((
                    rank,
                    MoveGroup {
                        name,
                        moves: vec![text],
                    },
                )),
            }
        }
        groups.sort_by_key(|(rank, _)| *rank);
        let groups: Vec<MoveGroup> = groups.into_iter().map(|(_, g)| g).collect();
        let (to_move, to_move_title) = position.side_to_move();
        MovesReport {
            to_move,
            total: legal.len(),
            per_piece: groups
                .iter()
                .map(|g| (g.name.clone(), g.moves.len()))
                .collect(),
            moves: groups.iter().flat_map(|g| g.moves.clone()).collect(),
            to_move_title,
            groups,
            notes: position.moves_notes(),
            group_heading: G::MOVE_GROUP,
        }
    }

    /// `moves` as text: a table of groups with a few examples each, or (`all`) every move.
    pub fn text(&self, all: bool, style: TextStyle) -> String {
        let mut out = String::new();
        for note in &self.notes {
            out.push_str(&format!("{note}\n"));
        }
        if all {
            for group in &self.groups {
                out.push_str(&format!("{} ({}):\n", group.name, group.moves.len()));
                for text in &group.moves {
                    out.push_str(&format!("  {text}\n"));
                }
            }
        } else if !self.groups.is_empty() {
            let mut table = new_table(style);
            table.set_header([self.group_heading, "moves", "examples"]);
            for group in &self.groups {
                let mut examples = group
                    .moves
                    .iter()
                    .take(EXAMPLES)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("  ");
                if group.moves.len() > EXAMPLES {
                    examples.push_str("  ...");
                }
                table.add_row(vec![
                    group.name.clone(),
                    group.moves.len().to_string(),
                    examples,
                ]);
            }
            right_align(&mut table, &[1]);
            out.push_str(&format!("{table}\n"));
        }
        out.push_str(&format!(
            "{} to move: {} in total\n",
            self.to_move_title,
            crate::present::words::count(self.total as i64, "legal move")
        ));
        out
    }
}

/// A move that could not be played, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} (`{text}`) cannot be played: {why}")]
pub struct PlayError {
    /// The move's place in the list, from 1.
    pub number: usize,
    /// The move as given.
    pub text: String,
    /// Why not, in the game's words.
    pub why: String,
}

/// Moves played from a position: each move's explanation and the position at the end.
pub struct Played<G: Playable> {
    /// The moves played, in order.
    pub moves: Vec<G::Move>,
    /// What each move did.
    pub explanations: Vec<G::Explanation>,
    /// The position after the last move.
    pub end: G,
}

/// `play --json`: every move explained, and the final position.
#[derive(Serialize)]
pub struct PlayedJson<M, V> {
    /// Each move's explanation.
    pub moves: Vec<M>,
    /// The position after the last move.
    #[serde(rename = "final")]
    pub final_: V,
}

impl<G: Playable> Played<G> {
    /// The JSON `play --json` prints.
    pub fn json(&self) -> String {
        pretty(&PlayedJson {
            moves: self.explanations.iter().map(G::explanation_view).collect(),
            final_: self.end.view(None),
        })
    }
}

/// `play`: plays the moves given as text from `start`, in order, calling `each` with each move's
/// number (from 1) and explanation as it is played; stops at the first move that cannot be
/// played.
pub fn play<G: Playable>(
    start: G,
    moves: &[String],
    mut each: impl FnMut(usize, &G::Explanation),
) -> Result<Played<G>, PlayError> {
    let mut position = start;
    let mut played = Played {
        moves: Vec::new(),
        explanations: Vec::new(),
        end: start,
    };
    for (index, text) in moves.iter().enumerate() {
        let mv = position.parse_move(text).map_err(|why| PlayError {
            number: index + 1,
            text: text.clone(),
            why: why.to_string(),
        })?;
        let explanation = position.explain(mv);
        each(index + 1, &explanation);
        position = G::after(&explanation);
        played.moves.push(mv);
        played.explanations.push(explanation);
    }
    played.end = position;
    Ok(played)
}

/// One root move's count.
#[derive(Clone, Debug, Serialize)]
pub struct Divided {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// The sequences below it.
    pub count: u64,
}

/// What `perft --json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct PerftReport {
    /// The length of the move sequences counted.
    pub depth: u32,
    /// How many there are.
    pub count: u64,
    /// With `divide`: the count below each root move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<Vec<Divided>>,
    /// How long the count took.
    pub seconds: f64,
    /// Moves counted per second.
    pub moves_per_second: f64,
}

impl PerftReport {
    /// The report as text (`time` is the elapsed time in words).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for d in self.divide.iter().flatten() {
            out.push_str(&format!("{}: {}\n", d.mv, d.count));
        }
        out.push_str(&format!(
            "perft({}) = {}\ntime: {}, {} moves/s\n",
            self.depth,
            self.count,
            crate::present::words::time_text(std::time::Duration::from_secs_f64(self.seconds)),
            crate::present::words::rate_text(self.moves_per_second)
        ));
        out
    }
}

/// `perft`: the number of move sequences of length `depth`, and (`divide`) below each root move.
pub fn perft<G: Playable>(position: &G, depth: u32, divide: bool) -> PerftReport {
    let start = Instant::now();
    let (count, divided) = if divide && depth > 0 {
        let divided: Vec<Divided> = crate::boardgame::divide(position, depth)
            .into_iter()
            .map(|(mv, count)| Divided {
                mv: position.move_text(mv),
                count,
            })
            .collect();
        (divided.iter().map(|d| d.count).sum(), Some(divided))
    } else {
        (crate::boardgame::perft(position, depth), None)
    };
    let elapsed = start.elapsed();
    PerftReport {
        depth,
        count,
        divide: divided,
        seconds: elapsed.as_secs_f64(),
        moves_per_second: count as f64 / elapsed.as_secs_f64().max(1e-9),
    }
}

/// `solve`: solves `position` exactly with the game's options on top of `options`, reporting
/// progress, and returns the game's report with the solver's figures. An unsolvable position
/// (the game says why) is an error.
pub fn solve<G: Playable>(
    position: &G,
    options: &SolveOptions,
    progress: &(dyn Fn(&Progress) + Sync),
) -> Result<(G::SolveReport, Solution<G::Move>), String> {
    if let Some(why) = position.unsolvable() {
        return Err(why);
    }
    let options = position.solve_options(options.clone());
    let solution = position.solve_exactly(&options, progress);
    Ok((position.solve_report(&solution, options.wdl), solution))
}

/// The text `solve` prints for one position.
pub fn solve_text<G: Playable>(
    loaded: &Loaded<G>,
    report: &G::SolveReport,
    solution: &Solution<G::Move>,
    all: bool,
    value_only: bool,
    style: TextStyle,
) -> String {
    G::solve_text(
        report,
        &solution.stats,
        loaded.title.as_deref(),
        all,
        value_only,
        style,
    )
}

/// `render`: the SVG diagram of the position, with `highlight` (a move in the game's notation)
/// outlined; the error says why the move cannot be played here.
pub fn render<G: Playable>(
    position: &G,
    highlight: Option<&str>,
    caption: Option<String>,
    hands: bool,
) -> Result<String, String> {
    let highlight = match highlight {
        Some(text) => Some(
            position
                .parse_move(text)
                .map_err(|why| format!("`{text}` cannot be played here: {why}"))?,
        ),
        None => None,
    };
    Ok(position.draw_svg(&SvgRequest {
        highlight,
        caption,
        hands,
    }))
}

/// Pretty JSON and a newline, as every `--json` prints.
fn pretty(value: &impl Serialize) -> String {
    // Serialising plain data (strings, numbers, lists, maps with string keys) cannot fail.
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    text
}

/// The engine's decision as data, for a game without Cathedral's ranked report: what
/// `bestmove --json` prints for it and what the Python module's `bestmove` returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EngineReport {
    /// The move chosen in the game's notation; `None` when the game is over.
    pub best_move: Option<String>,
    /// The value in the game's words (`+1`); empty when the game is over.
    pub value: String,
    /// `exact` (proven) or `estimate`.
    pub judgement: &'static str,
    /// Depth searched.
    pub depth: u32,
    /// Nodes searched, where the engine counts them.
    pub nodes: Option<u64>,
    /// The expected line, the move first, in the protocol's notation.
    pub line: Vec<String>,
    /// The side to move, the depth and the value in a sentence.
    pub verdict: String,
}

/// `bestmove` for any game: the engine's choice ([`Playable::engine_choice`]) as data.
pub fn bestmove<G: Playable>(position: &G, request: &super::EngineRequest) -> EngineReport {
    let choice = position.engine_choice(request, &mut |_| {});
    let judgement = if choice.exact { "exact" } else { "estimate" };
    let Some(best) = choice.best else {
        return EngineReport {
            best_move: None,
            value: String::new(),
            judgement,
            depth: choice.depth,
            nodes: choice.nodes,
            line: Vec::new(),
            verdict: "the game is over".to_string(),
        };
    };
    EngineReport {
        best_move: Some(position.move_text(best)),
        value: choice.value.clone(),
        judgement,
        depth: choice.depth,
        nodes: choice.nodes,
        line: position.line_text(&choice.pv),
        verdict: format!(
            "{} to move; depth {}: {}",
            position.side_to_move().1,
            choice.depth,
            choice.verdict
        ),
    }
}
