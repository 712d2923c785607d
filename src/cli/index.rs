//! `cathedral index DIR`: the README index of a puzzle directory.

use super::shared::output::emit_text;
use super::shared::output::refuse_overwrite;
use super::shared::puzzle_dir::{is_generated, some_puzzle_files, write_index};
use cathedral::present::words::count;
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct IndexArgs {
    /// Directory of puzzle files.
    pub dir: PathBuf,
    /// Replace a README.md that this command did not write.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: &IndexArgs) -> miette::Result<()> {
    let dir = args.dir.as_path();
    let readme = dir.join("README.md");
    if readme.exists() && !args.force && !is_generated(&readme) {
        return Err(refuse_overwrite(&readme));
    }
    // Nothing is written unless there is something to index.
    some_puzzle_files(dir)?;
    let n = write_index(dir)?;
    emit_text(&format!(
        "Wrote {} ({})\n",
        readme.display(),
        count(n as i64, "puzzle")
    ))
}
