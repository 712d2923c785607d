//! The search options shared by `solve` and `bench`, time limits, the Ctrl-C stop flag and the
//! progress spinner.

use super::limits;
use cathedral::boardgame::{Method, Progress, SolveOptions};
use cathedral::present::words::progress_text;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The table a solve starts with, in MiB, before it proves large enough for `--tt-mb`.
const INITIAL_TABLE_MIB: usize = 4;

/// The search options shared by `solve` and `bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Worker threads (0 = all cores), at most 64.
    #[arg(long, default_value = "0", value_name = "N", value_parser = limits::threads)]
    pub threads: usize,
    /// Transposition table memory in MiB (1 to 65536).
    #[arg(long, default_value = "256", value_name = "N", value_parser = limits::table_mib)]
    pub tt_mb: usize,
    /// Only win, draw or loss (values -1, 0, +1): faster.
    #[arg(long)]
    pub wdl: bool,
    /// Stop after this long and print what is proven: seconds, or 500ms, 30s, 2m, 1h.
    #[arg(long, value_name = "SECS", value_parser = limits::seconds)]
    pub time_limit: Option<Duration>,
    /// The search: `alpha-beta` (null-window probes), `proof-number` (proof-number search, deep
    /// along forcing lines), or `auto`: proof-number search on Corintho, alpha-beta on Cathedral
    /// (docs/solver.md, "Which method").
    #[arg(long, value_enum, default_value_t, value_name = "METHOD")]
    pub method: MethodArg,
}

/// `--method`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MethodArg {
    #[default]
    Auto,
    AlphaBeta,
    ProofNumber,
}

impl SearchArgs {
    /// Solver options with `stop` as the stop flag.
    pub fn options(&self, stop: Arc<AtomicBool>) -> SolveOptions {
        SolveOptions {
            threads: self.threads,
            tt_mb: self.tt_mb,
            // Small solves never touch more than this; larger ones move to --tt-mb.
            initial_tt_mb: Some(INITIAL_TABLE_MIB),
            wdl: self.wdl,
            time_limit: self.time_limit,
            stop,
            method: match self.method {
                MethodArg::Auto => Method::Auto,
                MethodArg::AlphaBeta => Method::AlphaBeta,
                MethodArg::ProofNumber => Method::ProofNumbers,
            },
            ..SolveOptions::default()
        }
    }
}

/// A stop flag that Ctrl-C sets; a second Ctrl-C quits at once.
pub fn ctrl_c_flag() -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    // Only fails if a handler is installed already; then Ctrl-C simply ends the process.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    stop
}

/// A spinner on standard error that appears once a solve has run for a second, on a terminal
/// only.
pub struct Spinner {
    bar: ProgressBar,
    shown: AtomicBool,
    enabled: bool,
}

impl Spinner {
    /// A hidden spinner whose line will start with `prefix`.
    pub fn new(prefix: &str) -> Spinner {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix}{msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_prefix(prefix.to_string());
        Spinner {
            bar,
            shown: AtomicBool::new(false),
            enabled: super::output::show_progress(),
        }
    }

    /// Changes the text before the progress (for a command that runs several solves).
    pub fn set_prefix(&self, prefix: &'static str) {
        self.bar.set_prefix(prefix);
    }

    /// Shows the solve's progress (after its first second).
    pub fn update(&self, progress: &Progress) {
        if !self.enabled || progress.elapsed < Duration::from_secs(1) {
            return;
        }
        if !self.shown.swap(true, Ordering::Relaxed) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.bar.enable_steady_tick(Duration::from_millis(120));
        }
        self.bar
            .set_message(format!("{} (Ctrl-C stops)", progress_text(progress)));
    }

    /// Clears the spinner's line.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
