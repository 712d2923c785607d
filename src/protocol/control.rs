//! What every session shares, whatever its game: where answers go ([`Output`]), whether the
//! session goes on ([`Flow`]), the one search slot with its stop flag ([`Searching`]), and the
//! handling of the lines every session answers the same way ([`control`]).

use super::command::{Command, parse};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Where answers go: each line is written whole and flushed at once.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Answers written to `writer`.
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(writer)))
    }

    /// Writes one line. A closed output (the other side went away) is not an error here: the
    /// session ends when its input does.
    pub fn line(&self, text: &str) {
        let mut writer = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(writer, "{text}");
        let _ = writer.flush();
    }
}

/// Whether the session goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was read.
    Quit,
}

/// The search slot of a session: at most one search runs, on its own thread, with its stop flag.
#[derive(Default)]
pub(super) struct Searching(Option<(Arc<AtomicBool>, JoinHandle<()>)>);

impl Searching {
    /// Runs `work` on a thread with a new stop flag.
    pub(super) fn start(&mut self, work: impl FnOnce(Arc<AtomicBool>) + Send + 'static) {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        self.0 = Some((stop, std::thread::spawn(move || work(flag))));
    }

    /// Whether a search is still running.
    fn busy(&mut self) -> bool {
        if self.0.as_ref().is_some_and(|(_, t)| t.is_finished()) {
            self.wait();
        }
        self.0.is_some()
    }

    /// Waits until the running search, if any, has answered.
    fn wait(&mut self) {
        if let Some((_, thread)) = self.0.take() {
            let _ = thread.join();
        }
    }

    /// Stops the running search, if any, and waits until it has answered.
    pub(super) fn stop(&mut self) {
        if let Some((stop, thread)) = self.0.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = thread.join();
        }
    }
}

/// Writes an error on one line, whatever the message holds.
pub(super) fn error(out: &Output, message: &str) {
    let flat: Vec<&str> = message.lines().map(str::trim).collect();
    out.line(&format!("error {}", flat.join(" ")));
}

/// What every session does first with a line: reads it; waits for the running search unless the
/// line is `quit`, `isready` or `stop` (so that answers come in the order of the commands); and
/// answers those three, a blank line and a malformed one. `Ok` is a command for the session.
pub(super) fn control(out: &Output, search: &mut Searching, line: &str) -> Result<Command, Flow> {
    let parsed = parse(line);
    if !matches!(
        parsed,
        Ok(Some(Command::Quit | Command::IsReady | Command::Stop))
    ) {
        search.wait();
    }
    match parsed {
        Ok(Some(Command::Quit)) => {
            search.stop();
            Err(Flow::Quit)
        }
        Ok(Some(Command::IsReady)) => {
            out.line("readyok");
            Err(Flow::Continue)
        }
        Ok(Some(Command::Stop)) => {
            if search.busy() {
                search.stop();
            } else {
                out.line("ok");
            }
            Err(Flow::Continue)
        }
        Ok(Some(command)) => Ok(command),
        Ok(None) => Err(Flow::Continue),
        Err(message) => {
            error(out, &message);
            Err(Flow::Continue)
        }
    }
}
