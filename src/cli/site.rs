//! `cathedral site -o DIR`: the board as a static site with the engine and solver in the
//! browser (src/web/site.rs writes it). Builds the WebAssembly service with cargo unless `--wasm`
//! gives one, then prints every file's size, raw and gzip, against the first visit's budget.

use super::ColorArg;
use super::shared::exit::{Exit, Failure};
use super::shared::output::{emit_text, new_table, right_align, style_for};
use crate::web::site::{SiteFile, check_output, write_site};
use std::path::{Path, PathBuf};

/// The first visit's budget: every file of the site, gzip-compressed (docs/performance.md).
const FIRST_VISIT_BUDGET: usize = 3 * 1024 * 1024;

#[derive(clap::Args, Debug)]
pub struct SiteArgs {
    /// The folder to write the site into (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// The WebAssembly build of the library to ship, instead of building it with cargo
    /// (`CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128" cargo rustc
    /// --lib --profile site --no-default-features --target wasm32-unknown-unknown --crate-type
    /// cdylib`).
    #[arg(long, value_name = "FILE")]
    pub wasm: Option<PathBuf>,
    /// Write into a folder that holds other files (they are left alone; the site's own files
    /// are replaced).
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub color: ColorArg,
}

pub fn run(args: &SiteArgs) -> miette::Result<()> {
    // Refused before a minute of building, not after.
    check_output(&args.output, args.force).map_err(|message| Failure::new(Exit::Input, message))?;
    let wasm_path = match &args.wasm {
        Some(path) => path.clone(),
        None => build_wasm()?,
    };
    let wasm = std::fs::read(&wasm_path).map_err(|e| {
        Failure::new(
            Exit::Input,
            format!("{} cannot be read: {e}", wasm_path.display()),
        )
    })?;
    if !wasm.starts_with(b"\0asm") {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} is not a WebAssembly module (it does not start with \\0asm)",
                wasm_path.display()
            ),
        )
        .into());
    }
    let files = write_site(&args.output, &wasm, args.force)
        .map_err(|message| Failure::new(Exit::Failure, message))?;
    emit_text(&report(&args.output, &files, args.color))
}

/// The table of the site's files and the totals.
fn report(dir: &Path, files: &[SiteFile], color: ColorArg) -> String {
    let mut table = new_table(style_for(color));
    table.set_header(["file", "bytes", "gzip"]);
    for file in files {
        table.add_row([file.name.clone(), kib(file.bytes), kib(file.gzip)]);
    }
    let bytes: usize = files.iter().map(|f| f.bytes).sum();
    let gzip: usize = files.iter().map(|f| f.gzip).sum();
    table.add_row(["all".to_string(), kib(bytes), kib(gzip)]);
    right_align(&mut table, &[1, 2]);
    let verdict = if gzip <= FIRST_VISIT_BUDGET {
        "within"
    } else {
        "OVER"
    };
    format!(
        "Wrote the site to {}\n{table}\nFirst visit: {} gzip, {verdict} the budget of {}.\nServe it with any static file server, for example:\n  python3 -m http.server -d {}\n",
        dir.display(),
        kib(gzip),
        kib(FIRST_VISIT_BUDGET),
        dir.display()
    )
}

fn kib(bytes: usize) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

/// Builds the WebAssembly service from this checkout with cargo; returns the `.wasm`'s path.
fn build_wasm() -> miette::Result<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml");
    if !manifest.is_file() {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} is gone, so the WebAssembly build cannot be made here: build it where the source is, or pass --wasm FILE",
                manifest.display()
            ),
        )
        .into());
    }
    eprintln!("Building the WebAssembly service with cargo (about a minute the first time)...");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = std::process::Command::new(cargo)
        // WebAssembly's 128-bit SIMD (every current browser has it): the engine searches about
        // 1.3x faster with it (docs/performance.md, "The engine in the browser").
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
            "-C target-feature=+simd128",
        )
        .args([
            "rustc",
            "--lib",
            "--profile",
            "site",
            "--no-default-features",
        ])
        .args([
            "--target",
            "wasm32-unknown-unknown",
            "--crate-type",
            "cdylib",
        ])
        .args([
            "--message-format",
            "json-render-diagnostics",
            "--manifest-path",
        ])
        .arg(&manifest)
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| {
            Failure::new(
                Exit::Failure,
                format!("cargo could not be started ({e}): install Rust, or pass --wasm FILE"),
            )
        })?;
    let wasm = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact")
        .flat_map(|message| message["filenames"].as_array().cloned().unwrap_or_default())
        .filter_map(|name| name.as_str().map(PathBuf::from))
        .find(|name| name.extension().is_some_and(|e| e == "wasm"));
    match wasm {
        Some(path) if output.status.success() => Ok(path),
        _ => Err(Failure::new(
            Exit::Failure,
            "the WebAssembly build failed (above); if the target is missing: rustup target add wasm32-unknown-unknown",
        )
        .into()),
    }
}
