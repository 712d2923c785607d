//! `cathedral sheet DIR [-o sheet.html]`: a printable worksheet of the puzzles in a directory, to
//! a file or to standard output.

use super::shared::exit::{Exit, Failure};
use super::shared::output::{emit, is_stdout, write_document};
use super::shared::output::{refuse_input_as_output, refuse_overwrite};
use super::shared::puzzle_dir::puzzle_files;
use cathedral::analysis::words::count;
use cathedral::present::sheet_html;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct SheetArgs {
    /// Directory of puzzle files.
    pub dir: PathBuf,
    /// The HTML file to write (standard output without it, or with `-`).
    #[arg(short, long, value_name = "OUT.html")]
    pub output: Option<PathBuf>,
    /// The worksheet's heading.
    #[arg(long)]
    pub title: Option<String>,
    /// Overwrite the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &SheetArgs) -> miette::Result<()> {
    let dir = &args.dir;
    let output = args
        .output
        .as_deref()
        .filter(|_| !is_stdout(args.output.as_deref()));
    if let Some(output) = output
        && output.exists()
        && !args.force
    {
        return Err(refuse_overwrite(output));
    }
    let files = puzzle_files(dir)?;
    if let Some(output) = output {
        let inputs: Vec<PathBuf> = files.iter().map(|(name, _)| dir.join(name)).collect();
        refuse_input_as_output(
            &inputs.iter().map(PathBuf::as_path).collect::<Vec<_>>(),
            output,
        )?;
    }
    if files.is_empty() {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} holds no puzzle files (position files with a `puzzle:` block)",
                dir.display()
            ),
        )
        .help("`cathedral generate --count 10 -o DIR` makes some")
        .into());
    }
    let title = args.title.as_deref().map_or_else(
        || {
            format!(
                "Cathedral puzzles: {}",
                dir.file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            )
        },
        str::to_string,
    );
    write_document(output, &sheet_html(&title, &files), args.force)?;
    match output {
        Some(output) => emit(&format!(
            "Wrote {} ({}, answers on the last page)\n",
            output.display(),
            count(files.len() as i64, "puzzle")
        )),
        None => Ok(()),
    }
}
