//! The engine protocol: a line-based text protocol on standard input and output, in the spirit
//! of UCI and GTP, so that other programs can drive the engine (`docs/protocol.md`), and the
//! client side that runs such a program as a match contestant.

mod client;
mod command;
mod control;
mod session;

pub use client::ExternalEngine;
pub use control::{Flow, Output};
pub use session::Session;

/// A session of the protocol for one game: it answers lines and stops its search on demand.
pub trait Handler {
    /// Reads and answers one line.
    fn handle(&mut self, line: &str) -> Flow;
    /// Stops the running search, if any, and waits until it has answered.
    fn stop(&mut self);
}

impl<G: cathedral::frontend::Playable> Handler for Session<G> {
    fn handle(&mut self, line: &str) -> Flow {
        Session::handle(self, line)
    }
    fn stop(&mut self) {
        Session::stop(self);
    }
}

use command::MAX_LINE;
use std::io::BufRead;

/// Serves the protocol for game `G`: reads commands from `input` until `quit` or its end,
/// answering to `out`; `hello` names the game when `names_game`. A line longer than
/// [`MAX_LINE`] is refused and skipped.
pub fn serve<G: cathedral::frontend::Playable>(input: impl BufRead, out: Output, names_game: bool) {
    let session = Session::<G>::new(out.clone()).naming_the_game(names_game);
    serve_with(input, out, session);
}

/// Serves the protocol with `session`.
pub fn serve_with(mut input: impl BufRead, out: Output, mut session: impl Handler) {
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        let read = read_line_capped(&mut input, &mut buffer);
        match read {
            Ok(LineRead::End) | Err(_) => break,
            Ok(LineRead::TooLong) => {
                out.line(&format!(
                    "error the line is longer than {MAX_LINE} bytes, the most a command may be"
                ));
                continue;
            }
            Ok(LineRead::Line) => {}
        }
        let Ok(line) = std::str::from_utf8(&buffer) else {
            out.line("error the line is not UTF-8 text");
            continue;
        };
        if session.handle(line) == Flow::Quit {
            return;
        }
    }
    // End of input: the last search still answers, as if `quit` had waited for it.
    session.stop();
}

enum LineRead {
    Line,
    TooLong,
    End,
}

/// Reads one line without its end into `buffer`, never holding more than [`MAX_LINE`] bytes:
/// the rest of a longer line is read and dropped.
fn read_line_capped(input: &mut impl BufRead, buffer: &mut Vec<u8>) -> std::io::Result<LineRead> {
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(if !any {
                LineRead::End
            } else if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
        any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !too_long {
            if buffer.len() + part.len() > MAX_LINE {
                too_long = true;
                buffer.clear();
            } else {
                buffer.extend_from_slice(part);
            }
        }
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            if buffer.last() == Some(&b'\r') {
                buffer.pop();
            }
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}
