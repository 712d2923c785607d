//! The puzzle trainer's API: the shipped teaching puzzles (embedded at build time) one at a time,
//! and the verdict on an answer, solved exactly as `cathedral check` does.

use super::AppState;
use super::api::{ApiError, bad, search, search_time, unreadable};
use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use cathedral::explain::MoveReport;
use cathedral::legality::parse_move;
use cathedral::puzzle::{AnalyseOptions, check};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

include!(concat!(env!("OUT_DIR"), "/teaching.rs"));

/// One puzzle of the list.
#[derive(Serialize)]
pub(crate) struct PuzzleSummary {
    name: String,
    title: Option<String>,
    question: String,
    themes: Vec<String>,
    difficulty: String,
}

/// One puzzle to solve: its position file's text (the page sends it back as the game's start).
#[derive(Serialize)]
pub(crate) struct PuzzleView {
    #[serde(flatten)]
    summary: PuzzleSummary,
    start: String,
}

fn load(name: &str) -> Result<(cathedral::file::PositionFile, &'static str), ApiError> {
    let (_, text) = TEACHING.iter().find(|(n, _)| *n == name).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            format!("there is no puzzle `{name}`"),
        )
    })?;
    let file = cathedral::file::parse_str(name, text).map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the shipped puzzle does not load: {e}"),
        )
    })?;
    Ok((file, text))
}

fn summary(name: &str, file: &cathedral::file::PositionFile) -> PuzzleSummary {
    let puzzle = file.puzzle.as_ref();
    PuzzleSummary {
        name: name.to_string(),
        title: file.meta.title.clone(),
        question: puzzle.map_or_else(String::new, |p| p.question.clone()),
        themes: puzzle.map_or_else(Vec::new, |p| p.themes.clone()),
        difficulty: puzzle.map_or_else(String::new, |p| p.difficulty.clone()),
    }
}

pub(crate) async fn list() -> Result<Json<Vec<PuzzleSummary>>, ApiError> {
    TEACHING
        .iter()
        .map(|(name, _)| load(name).map(|(file, _)| summary(name, &file)))
        .collect::<Result<Vec<_>, _>>()
        .map(Json)
}

pub(crate) async fn one(Path(name): Path<String>) -> Result<Json<PuzzleView>, ApiError> {
    let (file, text) = load(&name)?;
    Ok(Json(PuzzleView {
        summary: summary(&name, &file),
        start: text.to_string(),
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Answer {
    #[serde(rename = "move")]
    mv: String,
}

/// The verdict on an answer.
#[derive(Serialize)]
pub(crate) struct Verdict {
    correct: bool,
    /// Squares the answer gives away against the best move (0 when right).
    loss: i32,
    /// The exact value with best play, and after the answer, from the mover's view.
    best_value: i32,
    played_value: i32,
    /// The best move and the answer, explained.
    best: String,
    played: String,
    /// Best play after the answer (the opponent first), each move explained.
    reply_line: Vec<String>,
}

fn words(report: &MoveReport) -> String {
    report.to_string()
}

pub(crate) async fn answer(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
    body: Result<Json<Answer>, JsonRejection>,
) -> Result<Json<Verdict>, ApiError> {
    let Json(answer) = body.map_err(unreadable)?;
    let (file, _) = load(&name)?;
    let position = file.position;
    let mv = parse_move(&position, &answer.mv)
        .map_err(|e| bad(format!("`{}` cannot be played here: {e}", answer.mv)))?;
    let time = search_time(&state, None);
    let report = search(&state, move |stop| {
        check(
            &position,
            mv,
            &AnalyseOptions {
                time_limit: time,
                stop,
                threads: 1,
                ..AnalyseOptions::default()
            },
        )
    })
    .await?
    .ok_or_else(|| {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "the answer could not be checked in the time allowed".into(),
        )
    })?;
    Ok(Json(Verdict {
        correct: report.is_correct(),
        loss: report.loss(),
        best_value: report.best_value,
        played_value: report.played_value,
        best: words(&report.best),
        played: words(&report.played),
        reply_line: report.reply_line.iter().map(words).collect(),
    }))
}
