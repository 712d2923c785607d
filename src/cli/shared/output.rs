//! Writing to standard output: choosing the drawing style and printing text or JSON.

use crate::cli::{ColorArg, ColorWhen};
use anstream::ColorChoice;
use cathedral::draw::terminal::RenderStyle;
pub use cathedral::present::table::{keep_whole, new_table, right_align};
use miette::{IntoDiagnostic, WrapErr, miette};
use std::io::{ErrorKind, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// Unicode and colours for a terminal, plain ASCII for pipes and files; `NO_COLOR` drops the
/// colours but keeps the box drawing; `--color always|never` overrides the detection.
pub fn style_for(color: ColorArg) -> RenderStyle {
    match color.when {
        ColorWhen::Always => RenderStyle::FANCY,
        ColorWhen::Never => RenderStyle::PLAIN,
        ColorWhen::Auto => RenderStyle {
            unicode: std::io::stdout().is_terminal(),
            color: anstream::AutoStream::choice(&std::io::stdout()) != ColorChoice::Never,
        },
    }
}

static QUIET: AtomicBool = AtomicBool::new(false);

/// Turns progress displays off (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A progress bar over a match's `pairs` on standard error, hidden where progress is not shown
/// ([`show_progress`]).
pub fn pairs_bar(pairs: usize) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let bar = ProgressBar::with_draw_target(Some(pairs as u64), ProgressDrawTarget::hidden());
    if show_progress() {
        bar.set_draw_target(ProgressDrawTarget::stderr());
    }
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} pairs [{elapsed}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Whether progress may be shown on standard error: a terminal, and no `--quiet`.
pub fn show_progress() -> bool {
    !QUIET.load(Ordering::Relaxed) && std::io::stderr().is_terminal()
}

/// Prints `text` as is. A closed pipe (`cathedral moves --all | head`) is not an error.
pub fn emit(text: &str) -> miette::Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        result => result
            .into_diagnostic()
            .wrap_err("cannot write to standard output"),
    }
}

/// Prints `value` as pretty JSON followed by a newline.
pub fn emit_json(value: &impl serde::Serialize) -> miette::Result<()> {
    let mut text = serde_json::to_string_pretty(value)
        .into_diagnostic()
        .wrap_err("cannot write JSON")?;
    text.push('\n');
    emit(&text)
}

/// The error for an output file that exists already, without `--force`.
pub fn refuse_overwrite(path: &std::path::Path) -> miette::Report {
    miette!(
        help = "pass --force to overwrite it",
        "{} already exists; not overwriting it",
        path.display()
    )
}

/// The `solution:` block as YAML text, ready to paste at the end of a position file.
pub fn solution_block(solution: &cathedral::file::StoredSolution) -> miette::Result<String> {
    cathedral::file::solution_yaml(solution).map_err(|e| miette!("cannot write YAML: {e}"))
}

/// Refuses to write `output` when it is one of the `inputs` (even with `--force`: the command
/// would destroy what it reads).
pub fn refuse_input_as_output(
    inputs: &[&std::path::Path],
    output: &std::path::Path,
) -> miette::Result<()> {
    let Ok(target) = output.canonicalize() else {
        // A file that does not exist yet is no input.
        return Ok(());
    };
    if inputs
        .iter()
        .any(|input| input.canonicalize().is_ok_and(|i| i == target))
    {
        return Err(miette!(
            help = "choose another output file",
            "{} is also the input: not writing over it",
            output.display()
        ));
    }
    Ok(())
}

/// Whether `output` means standard output: no `-o`, or `-o -`.
pub fn is_stdout(output: Option<&std::path::Path>) -> bool {
    output.is_none_or(|path| path.as_os_str() == "-")
}

/// Writes a document (an SVG, a worksheet) to `output`: a file, written whole or not at all and
/// never over an existing one unless `force`; or standard output when `is_stdout(output)`.
pub fn write_document(
    output: Option<&std::path::Path>,
    contents: &str,
    force: bool,
) -> miette::Result<()> {
    match output {
        Some(path) if !is_stdout(output) => {
            cathedral::file::write_atomically(path, contents.as_bytes(), force)
                .map_err(super::input::FileDiagnostic::from)?;
            Ok(())
        }
        _ => emit(contents),
    }
}

/// The width of the terminal standard output is, if it is one: text for a pipe or a file is
/// never wrapped. With [`error_width`], the one place the command line asks how wide its output
/// may be (clap asks for `--help` itself, comfy-table for tables).
pub fn terminal_width() -> Option<usize> {
    terminal_size::terminal_size_of(std::io::stdout())
        .map(|(terminal_size::Width(w), _)| usize::from(w))
}

/// The width of the terminal standard error is, if it is one: error reports are wrapped to it
/// (`main.rs`), and never in a pipe or a log, where a wrapped line would break `grep`.
pub fn error_width() -> Option<usize> {
    terminal_size::terminal_size_of(std::io::stderr())
        .map(|(terminal_size::Width(w), _)| usize::from(w))
}

/// `text` wrapped between words to the terminal's width, each line after the first indented by
/// `rest` (moves and cell lists are never cut); unchanged when standard output is no terminal.
pub fn wrap_for_terminal(text: &str, first: &str, rest: &str) -> String {
    match terminal_width() {
        Some(width) => cathedral::present::wrap::paragraph(text, first, rest, width),
        None => format!("{first}{text}"),
    }
}

/// `text` for a reader: on a terminal, every line too long for it wrapped between words with a
/// hanging indent (drawings and tables kept whole, see `cathedral::present::wrap::lines`);
/// for a pipe or a file, unchanged, one line per item.
pub fn for_terminal(text: &str) -> String {
    match terminal_width() {
        Some(width) => cathedral::present::wrap::lines(text, width),
        None => text.to_string(),
    }
}

/// Prints text meant for a reader (not JSON, YAML or a document): wrapped at words on a
/// terminal ([`for_terminal`]), as is otherwise.
pub fn emit_text(text: &str) -> miette::Result<()> {
    emit(&for_terminal(text))
}
