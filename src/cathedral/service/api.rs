//! The requests of the service and its errors: every error is a 4xx or 5xx status with a
//! message in the domain's words (`{"error": "..."}` on the wire).

use crate::draw::svg::{SvgOptions, render_svg};
use crate::explain::{MoveReport, explain_move};
use crate::frontend::MovesReport;
use crate::legality::parse_move;
use crate::view::PositionView;
use crate::{Position, Rules};
use serde::{Deserialize, Serialize};

/// How the answer when every search slot is taken ends (it alone is worth trying again soon).
pub(crate) const BUSY_END: &str = "the most this server runs at once: try again when one ends";

/// A failed request: its HTTP status and what is wrong, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    status: u16,
    message: String,
    /// The number (from 1) of the request's move that cannot be played, when that is what is
    /// wrong: the page then shows the game up to the move before it.
    refused_move: Option<usize>,
}

impl ApiError {
    /// An error with its status and message in the domain's words.
    pub fn new(status: u16, message: String) -> ApiError {
        ApiError {
            status,
            message,
            refused_move: None,
        }
    }

    /// The HTTP status: 400 to 599.
    pub fn status(&self) -> u16 {
        self.status
    }

    /// What is wrong, in words.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Whether it is worth trying again in a second: every search slot was taken.
    pub fn is_busy(&self) -> bool {
        self.status == 503 && self.message.ends_with(BUSY_END)
    }

    /// The error as the service writes it: `{"error": "...", "refused_move": N}`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(n) = self.refused_move {
            body["refused_move"] = n.into();
        }
        body
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.message, self.status)
    }
}

impl std::error::Error for ApiError {}

pub(crate) fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(400, message.into())
}

/// What an endpoint expects as its body, to say so when it gets something else.
pub(crate) struct Expected {
    /// "a game".
    pub what: &'static str,
    /// A body of that shape.
    pub example: &'static str,
}

/// The body of the game endpoints.
pub(crate) const GAME: Expected = Expected {
    what: "a game",
    example: r#"{"rules": "classic", "moves": ["light:cathedral:e5,f4,f5,f6,f7,g5"]}"#,
};

/// The body of `/api/record/read`.
pub(crate) const RECORD_TEXT: Expected = Expected {
    what: "a game record's text",
    example: r#"{"text": "<a game record's text>"}"#,
};

/// The body of `/api/puzzles/NAME/answer`.
pub(crate) const ANSWER: Expected = Expected {
    what: "an answer",
    example: r#"{"move": "<a move in the notation>"}"#,
};

/// Reads a request's body as `T`: a JSON object of the shape `expected` says, or a 4xx saying
/// what was expected (a body that is not JSON or not an object, an unknown or missing field, a
/// wrong type).
pub(crate) fn read<T: serde::de::DeserializeOwned>(
    body: &[u8],
    expected: &Expected,
) -> Result<T, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        // serde's position stays out; say what the body must be.
        let detail = e.to_string();
        let detail = detail.split(" at line").next().unwrap_or("");
        bad(format!(
            "the body is not {}: expected JSON like {} ({detail})",
            expected.what, expected.example
        ))
    })?;
    read_value(value, expected)
}

/// As [`read`], from a JSON value.
pub(crate) fn read_value<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    expected: &Expected,
) -> Result<T, ApiError> {
    if !value.is_object() {
        return Err(ApiError::new(
            422,
            format!(
                "the body must be a JSON object: {} like {}",
                expected.what, expected.example
            ),
        ));
    }
    serde_json::from_value(value).map_err(|e| {
        ApiError::new(
            422,
            format!(
                "the body is not {}: expected JSON like {} ({e})",
                expected.what, expected.example
            ),
        )
    })
}

/// The answer for a body larger than `limit` bytes.
pub fn too_large(limit: usize) -> ApiError {
    let message = if limit >= super::MAX_RECORD {
        format!(
            "the file is too large to open here (more than {} MiB)",
            limit / (1024 * 1024)
        )
    } else {
        format!("the request is larger than {} KiB", limit / 1024)
    };
    ApiError::new(413, message)
}

/// A game in a request: the rules, an optional start position (a position file's text) and the
/// moves played from it.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameRequest {
    #[serde(default)]
    pub(crate) rules: Option<String>,
    #[serde(default)]
    pub(crate) start: Option<String>,
    #[serde(default)]
    pub(crate) moves: Vec<String>,
    /// For `solve`, `bestmove` and `analyse`: milliseconds to think, 1 or more (more than the
    /// server's longest search time is capped to it).
    #[serde(default)]
    pub(crate) time_ms: Option<i64>,
    /// For `bestmove`: 1 to 10, a level of the engine's ladder.
    #[serde(default)]
    pub(crate) level: Option<i64>,
    /// For `bestmove`: seeds the choices of the levels below 10 (their noise and slips), any
    /// whole number from 0 to 2^53; the page sends a new one for each game so that games
    /// differ. Absent: 0.
    #[serde(default)]
    pub(crate) seed: Option<i64>,
    /// For `bestmove`: how many of the best moves to rank with their values, 1 to 20.
    #[serde(default)]
    pub(crate) candidates: Option<i64>,
    /// For `bestmove`: a move whose value is wanted too, from the same search as the best move
    /// (so the two compare like for like): the page's teaching mode measures the player's move
    /// this way.
    #[serde(default)]
    pub(crate) also: Option<String>,
    /// For `analyse`: nodes per position, 1 to 2,000,000.
    #[serde(default)]
    pub(crate) nodes_per_move: Option<i64>,
    /// For `placements`: the building whose placements are asked for.
    #[serde(default)]
    pub(crate) piece: Option<String>,
    /// For `placements`: `light` or `dark` to ask for every placement of that player's building
    /// that fits on free cells, whoever is to move (the editor); absent: the side to move's,
    /// each legal or refused with the reason.
    #[serde(default)]
    pub(crate) owner: Option<String>,
    /// For `record/write`: the record's metadata (event, site, date, round, players, comment).
    #[serde(default)]
    pub(crate) meta: Option<RecordMeta>,
    /// For `record/write`: a comment per move (null for none), in the order of `moves`.
    #[serde(default)]
    pub(crate) comments: Vec<Option<String>>,
    /// For `record/write`: a mark per move (`"!?"` or its word; null for none), in the order of
    /// `moves`.
    #[serde(default)]
    pub(crate) marks: Vec<Option<String>>,
    /// For `record/write`: the shapes drawn on each move's position (`["e4", "red:e4-g7"]`),
    /// in the order of `moves`.
    #[serde(default)]
    pub(crate) shapes: Vec<Vec<String>>,
    /// For `record/write`: the shapes drawn on the start position.
    #[serde(default)]
    pub(crate) start_shapes: Vec<String>,
    /// For `record/write`: the variations to the moves, as `record/read` gives them.
    #[serde(default)]
    pub(crate) variations: Vec<VariationRequest>,
}

/// A variation to a move of a game (or of another variation), as `record/read` gives it and
/// `record/write` takes it back.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct VariationRequest {
    /// The number (from 1, counted from the start of the game) of the move of the enclosing
    /// line this variation is an alternative to; its first move has this number too.
    pub(crate) ply: usize,
    /// Its moves, played from the position before that move.
    pub(crate) moves: Vec<String>,
    /// A comment per move (null for none).
    #[serde(default)]
    pub(crate) comments: Vec<Option<String>>,
    /// A mark per move (null for none).
    #[serde(default)]
    pub(crate) marks: Vec<Option<String>>,
    /// The shapes drawn on each move's position.
    #[serde(default)]
    pub(crate) shapes: Vec<Vec<String>>,
    /// Variations to its own moves, with their plies counted from the start of the game.
    #[serde(default)]
    pub(crate) variations: Vec<VariationRequest>,
}

/// A record's metadata, as `record/read` gives it and `record/write` takes it back.
#[derive(Deserialize, Serialize, Default, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordMeta {
    #[serde(default)]
    event: Option<String>,
    #[serde(default)]
    site: Option<String>,
    #[serde(default)]
    date: Option<String>,
    #[serde(default)]
    round: Option<String>,
    #[serde(default)]
    light: Option<String>,
    #[serde(default)]
    dark: Option<String>,
    /// A comment on the whole game.
    #[serde(default)]
    comment: Option<String>,
}

impl RecordMeta {
    /// The metadata of `record`.
    pub(crate) fn of(record: &crate::file::GameRecord) -> RecordMeta {
        RecordMeta {
            event: record.event.clone(),
            site: record.site.clone(),
            date: record.date.clone(),
            round: record.round.clone(),
            light: record.light.clone(),
            dark: record.dark.clone(),
            comment: record.comment.clone(),
        }
    }

    /// Writes this metadata into `record`, replacing what it held.
    pub(crate) fn write_into(self, record: &mut crate::file::GameRecord) {
        record.event = self.event;
        record.site = self.site;
        record.date = self.date;
        record.round = self.round;
        record.light = self.light;
        record.dark = self.dark;
        record.comment = self.comment;
    }
}

/// The position a request's game reaches, and the position before its last move with that move.
pub(crate) fn replay(
    game: &GameRequest,
) -> Result<(Position, Option<(Position, crate::Move)>), ApiError> {
    let record = record_of(game)?;
    let positions = record.positions();
    let end = positions[positions.len() - 1];
    let last = record
        .moves
        .last()
        .map(|recorded| (positions[positions.len() - 2], recorded.mv));
    Ok((end, last))
}

/// `value` (a request's `name`, `default` when absent) if it lies in `range`, or a 400 naming
/// the range.
pub(crate) fn in_range(
    name: &str,
    value: Option<i64>,
    default: u64,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, ApiError> {
    let Some(value) = value else {
        return Ok(default);
    };
    match u64::try_from(value) {
        Ok(v) if range.contains(&v) => Ok(v),
        _ => Err(bad(format!(
            "{name} {value} is out of range: expected {} to {}",
            range.start(),
            range.end()
        ))),
    }
}

/// The answer for a path that is no endpoint.
pub fn not_found() -> ApiError {
    ApiError::new(
        404,
        "no such page: the API is /api/health, /api/position, /api/placements, /api/solve, /api/solve/live, /api/bestmove, /api/book, /api/analyse, /api/analyse/live, /api/territory, /api/record/read, /api/record/write, /api/puzzles (with /api/puzzles/from-game and /api/puzzles/answer) and /api/rating; the page is / (docs/web.md)".into(),
    )
}

#[derive(Serialize)]
pub(crate) struct PositionResponse {
    position: PositionView,
    moves: MovesReport,
    /// What the last move of the request did, in words and as data.
    last_move: Option<LastMove>,
    svg: String,
    /// The position as a position file's text, to save or to start an edit from.
    position_file: String,
}

#[derive(Serialize)]
struct LastMove {
    text: String,
    report: MoveReport,
}

/// The position a game reaches: the board as SVG, its legal moves, what the last move did.
pub(crate) fn position(body: &[u8]) -> Result<serde_json::Value, ApiError> {
    let game: GameRequest = read(body, &GAME)?;
    let (position, last) = replay(&game)?;
    let last_move = last.map(|(before, mv)| {
        let report = explain_move(&before, mv);
        LastMove {
            text: report.to_string(),
            report,
        }
    });
    let highlight = last
        .and_then(|(_, mv)| mv.placement())
        .map(|id| crate::table().get(id).mask)
        .unwrap_or_default();
    super::to_json(&PositionResponse {
        position: PositionView::of(&position),
        moves: MovesReport::of(&position),
        last_move,
        svg: render_svg(
            &position,
            &SvgOptions {
                highlight,
                caption: None,
                hands: true,
            },
        ),
        position_file: crate::file::to_yaml(&crate::file::PositionFile::from_position(position)),
    })
}

/// A request's game as a game record: every move checked, the first that cannot be played
/// reported with its number and the reason.
pub(crate) fn record_of(game: &GameRequest) -> Result<crate::file::GameRecord, ApiError> {
    if game.moves.len() > 400 {
        return Err(bad(
            "a game has at most a few dozen moves; this request has more than 400",
        ));
    }
    let start = match (&game.start, &game.rules) {
        (Some(_), Some(_)) => {
            return Err(bad(
                "give the rules once: in the start position, or as `rules` for the empty board",
            ));
        }
        (Some(text), None) => Some(
            crate::file::parse_str("start", text)
                .map_err(|e| bad(e.to_string().lines().next().unwrap_or("").to_string()))?
                .position,
        ),
        (None, _) => None,
    };
    let rules = match (&start, &game.rules) {
        (Some(position), _) => position.rules(),
        (None, Some(name)) => name
            .parse()
            .map_err(|e: crate::rules::RulesError| bad(e.to_string()))?,
        (None, None) => Rules::CLASSIC,
    };
    let mut position = start.unwrap_or_else(|| Position::new(rules));
    let mut moves = Vec::new();
    for (i, text) in game.moves.iter().enumerate() {
        let mv = parse_move(&position, text).map_err(|e| ApiError {
            refused_move: Some(i + 1),
            ..bad(format!("move {} (`{text}`) cannot be played: {e}", i + 1))
        })?;
        position.play(mv);
        moves.push(crate::file::RecordedMove::new(mv));
    }
    Ok(crate::file::GameRecord {
        rules,
        start,
        moves,
        ..Default::default()
    })
}
