//! The page's files: HTML, CSS, plain ES modules and the icon of `src/web/assets/`, embedded at
//! build time (build.rs) and served as they are. No build step, nothing fetched at run time.
//! `serve --assets DIR` serves them from a folder instead, read at each request, for working on
//! the page without rebuilding.

use super::AppState;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

// The page's files (ASSETS), also written out by `cathedral site`.
include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The media type of a file of the page, by its extension.
fn media_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => "text/plain; charset=utf-8",
    }
}

/// One of the page's files by name: from `--assets DIR` if given, else the embedded copy.
fn file(state: &AppState, name: &str) -> Option<String> {
    // Names are plain file names: no folders, nothing hidden.
    if name.is_empty() || name.starts_with('.') || name.contains(['/', '\\']) {
        return None;
    }
    match &state.options.assets {
        Some(dir) => std::fs::read_to_string(dir.join(name)).ok(),
        None => ASSETS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, text)| (*text).to_string()),
    }
}

/// The page with its version filled in where `index.html` says `@VERSION@` (its footer), for the
/// server and the static site alike.
pub(crate) fn with_version(html: &str) -> String {
    html.replace("@VERSION@", cathedral::LONG_VERSION)
}

/// The embedded copy of one of the page's files.
pub(crate) fn embedded(name: &str) -> Option<&'static str> {
    ASSETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

fn answer(state: &AppState, name: &str) -> Response {
    let file = file(state, name).map(|text| {
        if name == "index.html" {
            with_version(&text)
        } else {
            text
        }
    });
    match file {
        Some(text) => (
            [
                (header::CONTENT_TYPE, media_type(name)),
                // The page changes with the binary: always ask again (it is local and small).
                (header::CACHE_CONTROL, "no-cache"),
            ],
            text,
        )
            .into_response(),
        None => super::api::not_found_page(name),
    }
}

pub(crate) async fn index(State(state): State<Arc<AppState>>) -> Response {
    answer(&state, "index.html")
}

pub(crate) async fn favicon(State(state): State<Arc<AppState>>) -> Response {
    answer(&state, "favicon.svg")
}

pub(crate) async fn asset(
    State(state): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> Response {
    answer(&state, &name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_modules_are_embedded() {
        let names: Vec<&str> = ASSETS.iter().map(|(n, _)| *n).collect();
        assert!(names.contains(&"index.html"), "{names:?}");
        assert!(names.contains(&"favicon.svg"), "{names:?}");
        // Every module the page imports is embedded.
        for (name, text) in ASSETS {
            for line in text
                .lines()
                .filter(|l| l.trim_start().starts_with("import "))
            {
                let Some(from) = line.split(['"', '\'']).nth(1) else {
                    continue;
                };
                let target = from.trim_start_matches("./").trim_start_matches("/assets/");
                assert!(
                    names.contains(&target),
                    "{name} imports {from}, which is not in src/web/assets"
                );
            }
        }
        assert_eq!(media_type("app.js"), "text/javascript; charset=utf-8");
        assert_eq!(media_type("index.html"), "text/html; charset=utf-8");
    }

    /// The level picker's ladder (`ladder.js`) is the engine's (`engine/ladder.rs`): the same
    /// levels, names, words and measured Elo, each on its own line.
    #[test]
    fn the_pickers_ladder_is_the_engines() {
        let text = ASSETS
            .iter()
            .find(|(n, _)| *n == "ladder.js")
            .map(|(_, t)| *t)
            .expect("ladder.js is embedded");
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| l.trim_start().starts_with("{ level:"))
            .collect();
        let ladder = &cathedral::engine::ladder::LADDER;
        assert_eq!(rows.len(), ladder.len(), "{text}");
        for (row, rung) in rows.iter().zip(ladder) {
            let expected = format!(
                "{{ level: {}, name: {:?}, summary: {:?}, elo: {} }},",
                rung.level, rung.name, rung.summary, rung.elo
            );
            assert_eq!(row.trim(), expected, "ladder.js against engine/ladder.rs");
        }
    }
}
