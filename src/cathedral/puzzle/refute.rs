//! `cathedral puzzles refute`: each puzzle's most tempting wrong move, solved exactly
//! ([`super::wrong_try`]), stored in its `puzzle:` block as `tempting:` with its value and
//! refutation, the rest of the file as written.

use crate::cathedral::file::to_yaml;
use crate::cathedral::file::{PositionFile, PuzzleTempting};
use serde::Serialize;

/// The text of the puzzle file `text` (which loads as `file`) with `tempting` stored in its
/// `puzzle:` block, every other line as written: the block's `tempting:` lines are replaced, or
/// added before `near_best:`/`glicko:` (which `cathedral puzzles rate` keeps last) or at the
/// end of the block, as the canonical writer would write them. A file whose block cannot be
/// found that way (written by hand in flow style) is written whole in the canonical form.
pub fn with_tempting(
    text: &str,
    file: &PositionFile,
    tempting: &PuzzleTempting,
) -> Result<String, String> {
    let mut updated = file.clone();
    let puzzle = updated
        .puzzle
        .as_mut()
        .ok_or_else(|| "not a puzzle: no `puzzle:` block".to_string())?;
    puzzle.tempting = Some(tempting.clone());
    let loads_as = |t: &str| {
        crate::cathedral::file::parse_str("refuted", t)
            .ok()
            .is_some_and(|f| f == updated)
    };
    match splice(text, tempting) {
        Some(t) if loads_as(&t) => Ok(t),
        _ => {
            let whole = to_yaml(&updated);
            if loads_as(&whole) {
                Ok(whole)
            } else {
                Err("the refuted file would not load back".into())
            }
        }
    }
}

/// The block's lines as the canonical writer writes them, indented for the `puzzle:` block.
fn block_lines(tempting: &PuzzleTempting) -> String {
    #[derive(Serialize)]
    struct Fields<'a> {
        tempting: &'a PuzzleTempting,
    }
    let yaml = serde_saphyr::to_string(&Fields { tempting }).unwrap_or_default();
    yaml.lines().map(|l| format!("  {l}\n")).collect()
}

fn splice(text: &str, tempting: &PuzzleTempting) -> Option<String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let start = lines.iter().position(|l| l.trim_end() == "puzzle:")?;
    // The block: the lines after `puzzle:` that are indented, blank or comments.
    let mut end = start + 1;
    while end < lines.len() && (lines[end].starts_with(' ') || lines[end].trim().is_empty()) {
        end += 1;
    }
    // Blank lines at the block's end stay after it.
    while end > start + 1 && lines[end - 1].trim().is_empty() {
        end -= 1;
    }
    let mut kept: Vec<&str> = Vec::new();
    let mut insert_at = None;
    let mut skipping = false;
    for l in &lines[start + 1..end] {
        let content = l.trim_start_matches(' ');
        let indent = l.len() - content.len();
        if indent == 2 && !content.starts_with('-') {
            skipping = content.starts_with("tempting:");
            if insert_at.is_none()
                && (content.starts_with("near_best:") || content.starts_with("glicko:"))
            {
                insert_at = Some(kept.len());
            }
        }
        if !skipping {
            kept.push(l);
        }
    }
    let insert_at = insert_at.unwrap_or(kept.len());
    let mut out = String::with_capacity(text.len() + 400);
    lines[..=start].iter().for_each(|l| out.push_str(l));
    for (i, l) in kept.iter().enumerate() {
        if i == insert_at {
            out.push_str(&block_lines(tempting));
        }
        out.push_str(l);
        if i + 1 == kept.len() && !l.ends_with('\n') {
            out.push('\n');
        }
    }
    if insert_at == kept.len() {
        out.push_str(&block_lines(tempting));
    }
    lines[end..].iter().for_each(|l| out.push_str(l));
    Some(out)
}
