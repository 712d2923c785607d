//! The search options shared by `solve` and `bench`, time limits, the Ctrl-C stop flag and the
//! progress spinner.

use cathedral::analysis::words::progress_text;
use cathedral::boardgame::{Progress, SolveOptions};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use miette::miette;
use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The search options shared by `solve` and `bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Worker threads (0 = all cores).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub threads: usize,
    /// Transposition table memory in MiB.
    #[arg(long, default_value_t = 256, value_name = "N")]
    pub tt_mb: usize,
    /// Only win, draw or loss (values -1, 0, +1): faster.
    #[arg(long)]
    pub wdl: bool,
    /// Stop after this many seconds and print what is proven.
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
}

impl SearchArgs {
    /// Solver options with `stop` as the stop flag.
    pub fn options(&self, stop: Arc<AtomicBool>) -> miette::Result<SolveOptions> {
        let time_limit = match self.time_limit {
            None => None,
            Some(secs) => Some(time_limit(secs, ZeroSeconds::Allowed)?),
        };
        Ok(SolveOptions {
            threads: self.threads,
            tt_mb: self.tt_mb,
            wdl: self.wdl,
            time_limit,
            stop,
            ..SolveOptions::default()
        })
    }
}

/// Whether a time limit of 0 seconds makes sense: for a whole solve that reports what it proved
/// by then, yes; for a limit per solve that must finish, no.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZeroSeconds {
    /// 0 stops at once and reports what is proven.
    Allowed,
    /// Only limits above 0.
    Refused,
}

/// The `--time-limit` option's `secs` as a duration, checked.
pub fn time_limit(secs: f64, zero: ZeroSeconds) -> miette::Result<Duration> {
    let (valid, expected) = match zero {
        ZeroSeconds::Allowed => (secs >= 0.0, "a number of seconds, 0 or more"),
        ZeroSeconds::Refused => (secs > 0.0, "a number of seconds above 0"),
    };
    if secs.is_finite() && valid {
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(miette!(
            "--time-limit {secs} is not a duration: expected {expected}"
        ))
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
            enabled: std::io::stderr().is_terminal(),
        }
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
