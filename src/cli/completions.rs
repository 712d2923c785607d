//! `cathedral completions SHELL` and `cathedral man`: shell completion scripts and the manual
//! page, generated from the same argument definitions as `--help`.

use super::Cli;
use super::shared::output::emit;
use clap::CommandFactory;

#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    pub shell: clap_complete::Shell,
}

#[derive(clap::Args, Debug)]
pub struct ManArgs {}

pub fn completions(args: &CompletionsArgs) -> miette::Result<()> {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "cathedral", &mut script);
    emit(&String::from_utf8_lossy(&script))
}

pub fn man(_args: &ManArgs) -> miette::Result<()> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut page)
        .map_err(|e| miette::miette!("cannot write the manual page: {e}"))?;
    emit(&String::from_utf8_lossy(&page))
}
