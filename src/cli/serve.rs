//! `cathedral serve`: the web board and its JSON API on 127.0.0.1 (docs in src/web/).

use super::shared::exit::{Exit, Failure};
use super::shared::limits;
use super::shared::puzzle_dir::some_puzzle_files;
use crate::web::{ServeOptions, serve};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value = "8080")]
    pub port: u16,
    /// At most this many solves or engine searches at once (1 to 64).
    #[arg(long, default_value = "2", value_name = "N", value_parser = searches)]
    pub max_searches: usize,
    /// The longest a solve or engine search may take: seconds, or 500ms, 2m.
    #[arg(long, default_value = "30", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub max_search_time: std::time::Duration,
    /// The trainer's puzzles: the puzzle files of this folder instead of the shipped collection
    /// (read once at start; nothing else is read).
    #[arg(long, value_name = "DIR")]
    pub puzzles: Option<std::path::PathBuf>,
    /// Serve the page's files (HTML, CSS, ES modules) from this folder, read at each request,
    /// instead of the copy built into the binary: for working on the page without rebuilding.
    #[arg(long, value_name = "DIR")]
    pub assets: Option<std::path::PathBuf>,
    /// Open the board in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
}

fn searches(text: &str) -> Result<usize, String> {
    let n = limits::threads(text)?;
    if n == 0 {
        return Err("0 searches would refuse every one: expected 1 to 64".into());
    }
    Ok(n)
}

pub fn run(args: &ServeArgs) -> miette::Result<()> {
    let open = args.open;
    let puzzles = match &args.puzzles {
        Some(dir) => {
            let files = some_puzzle_files(dir)?;
            Some(
                files
                    .into_iter()
                    .map(|(name, file)| {
                        let name = name
                            .trim_end_matches(".yaml")
                            .trim_end_matches(".yml")
                            .to_string();
                        (name, cathedral::file::to_yaml(&file))
                    })
                    .collect(),
            )
        }
        None => None,
    };
    if let Some(dir) = &args.assets
        && !dir.join("index.html").is_file()
    {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "{} holds no index.html: expected a copy of src/web/assets",
                dir.display()
            ),
        )
        .into());
    }
    let options = ServeOptions {
        assets: args.assets.clone(),
        puzzles,
        port: args.port,
        max_searches: args.max_searches,
        max_search_ms: args.max_search_time.as_millis().min(u128::from(u64::MAX)) as u64,
    };
    serve(options, |address| {
        // The address goes to standard output so that scripts and tests can read the port. A
        // reader that went away (a closed pipe) is no reason to stop serving: errors are ignored
        // rather than panicking as `println!` would.
        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "Serving the Cathedral board at http://{address}/");
            let _ = writeln!(
                out,
                "Only this computer can reach it (bound to 127.0.0.1). Ctrl-C stops."
            );
            let _ = out.flush();
        }
        if open {
            // A browser that cannot be started is no reason to stop serving: say so.
            if let Err(e) = std::process::Command::new("xdg-open")
                .arg(format!("http://{address}/"))
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
            {
                eprintln!("Could not open a browser ({e}): open the address above yourself.");
            }
        }
    })
    .map_err(|e| miette::miette!("cannot serve on 127.0.0.1:{}: {e}", args.port))
}
