//! Headless Chromium and playwright-core for the browser tests (`tests/browser.rs`,
//! `tests/site.rs`): where they are, and what is missing.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Chromium to drive: `CHROMIUM`, or Debian's.
pub fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM").map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// What is missing to run the browser tests from `dir` (tests/browser), if anything.
pub fn missing(dir: &Path) -> Option<String> {
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node is not installed".into());
    }
    if !chromium().exists() {
        return Some(format!(
            "{} is not installed (apt-get install chromium)",
            chromium().display()
        ));
    }
    if !dir.join("node_modules/playwright-core").exists() {
        return Some("playwright-core is not installed (npm ci in tests/browser)".into());
    }
    None
}
