//! Exit statuses: each kind of outcome has its own, so scripts can tell them apart. The table is
//! in the README; `tests/exit_codes.rs` checks every one.

use miette::Diagnostic;

/// Why the program ends with a non-zero status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 1: something else failed (a file could not be written, a stored value is wrong).
    Failure = 1,
    /// 2: the command line is wrong (clap uses 2 for its own errors too).
    Usage = 2,
    /// 3: an input cannot be used: a position file that does not load, a move that cannot be
    /// played, a directory without the files asked for.
    Input = 3,
    /// 4: a solve stopped (time limit) before it proved the value.
    Unproven = 4,
    /// 5: `check`: the move is not the answer.
    WrongAnswer = 5,
    /// 130: stopped by Ctrl-C; what was found is printed first.
    Interrupted = 130,
}

/// An error that ends the program with a chosen status. An empty message prints nothing (the
/// output already said it).
#[derive(Debug, thiserror::Error, Diagnostic)]
#[error("{message}")]
pub struct Failure {
    /// The exit status.
    pub exit: Exit,
    message: String,
    #[help]
    help: Option<String>,
}

impl Failure {
    /// A failure with `exit` status and `message`.
    pub fn new(exit: Exit, message: impl Into<String>) -> Failure {
        Failure {
            exit,
            message: message.into(),
            help: None,
        }
    }

    /// The same with a hint on what to do.
    pub fn help(mut self, help: impl Into<String>) -> Failure {
        self.help = Some(help.into());
        self
    }

    /// Whether the message is empty: nothing to print.
    pub fn is_silent(&self) -> bool {
        self.message.is_empty()
    }
}

/// The status for an error report: a [`Failure`]'s own, 3 for a position file that does not
/// load, 1 for anything else.
pub fn status_of(report: &miette::Report) -> u8 {
    if let Some(failure) = report.downcast_ref::<Failure>() {
        failure.exit as u8
    } else if report
        .downcast_ref::<super::input::FileDiagnostic>()
        .is_some()
    {
        Exit::Input as u8
    } else {
        Exit::Failure as u8
    }
}
