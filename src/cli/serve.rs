//! `cathedral serve`: the web board and its JSON API, on 127.0.0.1 unless `--bind` says
//! otherwise (docs in src/web/); `cathedral health`: whether a running server answers.

use super::shared::exit::{Exit, Failure};
use super::shared::limits;
use super::shared::puzzle_dir::some_puzzle_files;
use crate::web::{ServeOptions, serve};

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The port (0: any free port).
    #[arg(long, default_value = "8080")]
    pub port: u16,
    /// The address to listen on: 127.0.0.1, this computer only; 0.0.0.0 (or ::) for every
    /// network it is on, as in a container (there are no accounts: anyone who reaches the port
    /// can use the board and its searches).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: std::net::IpAddr,
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
    /// Also serve the play server at /play: people and bots play each other, with accounts,
    /// clocks, matches and ratings (docs/play.md), kept in --database.
    #[arg(long)]
    pub play: bool,
    /// The play server's database: a SQLite file (created if missing, one file to back up) or
    /// a PostgreSQL URL (postgres://USER@HOST/DB) that several servers can share.
    #[arg(
        long,
        value_name = "FILE|URL",
        default_value = "cathedral-play.sqlite",
        requires = "play"
    )]
    pub database: String,
}

#[derive(clap::Args, Debug)]
pub struct HealthArgs {
    /// The server's port.
    #[arg(long, default_value = "8080")]
    pub port: u16,
    /// The server's address.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub host: std::net::IpAddr,
    /// How long to wait for its answer: seconds, or 500ms.
    #[arg(long, default_value = "5", value_name = "SECS", value_parser = limits::positive_seconds)]
    pub timeout: std::time::Duration,
}

/// Asks the server at the address for `/api/health` over plain HTTP (std's socket: no client
/// library for one request), and says what it answered.
pub fn health(args: &HealthArgs) -> miette::Result<()> {
    use std::io::{Read, Write};
    let address = std::net::SocketAddr::from((args.host, args.port));
    let unhealthy = |why: String| {
        Failure::new(
            Exit::Failure,
            format!("no healthy server at http://{address}/: {why}"),
        )
    };
    let mut stream = std::net::TcpStream::connect_timeout(&address, args.timeout)
        .map_err(|e| unhealthy(e.to_string()))?;
    let _ = stream.set_read_timeout(Some(args.timeout));
    let _ = stream.set_write_timeout(Some(args.timeout));
    write!(
        stream,
        "GET /api/health HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| unhealthy(e.to_string()))?;
    let mut answer = String::new();
    stream
        .take(1 << 16)
        .read_to_string(&mut answer)
        .map_err(|e| unhealthy(e.to_string()))?;
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.lines().next().unwrap_or_default();
    if status.split_whitespace().nth(1) != Some("200") {
        return Err(unhealthy(format!("it answered `{status}`")).into());
    }
    let report: serde_json::Value = serde_json::from_str(body.trim())
        .map_err(|e| unhealthy(format!("its answer is not the health report ({e})")))?;
    if report["ok"] != serde_json::Value::Bool(true) {
        return Err(unhealthy(format!("it says {report}")).into());
    }
    let version = report["version"].as_str().unwrap_or("?");
    let commit = report["commit"].as_str().unwrap_or("?");
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "ok: cathedral {version} (commit {commit}) at http://{address}/"
    );
    Ok(())
}

/// A database as `--database` names it: a URL as it is, a file as a SQLite URL.
fn database_url(database: &str) -> String {
    if database.contains("://") || database.starts_with("sqlite:") {
        database.to_string()
    } else {
        format!("sqlite://{database}")
    }
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
        bind: args.bind,
        port: args.port,
        max_searches: args.max_searches,
        max_search_ms: args.max_search_time.as_millis().min(u128::from(u64::MAX)) as u64,
        play: args.play.then(|| database_url(&args.database)),
    };
    let play = options.play.clone();
    serve(options, |address| {
        // The address goes to standard output so that scripts and tests can read the port. A
        // reader that went away (a closed pipe) is no reason to stop serving: errors are ignored
        // rather than panicking as `println!` would.
        {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "Serving the Cathedral board at http://{address}/");
            let reach = if address.ip().is_loopback() {
                format!(
                    "Only this computer can reach it (bound to {}).",
                    address.ip()
                )
            } else {
                format!(
                    "Every network this computer is on can reach it (bound to {}).",
                    address.ip()
                )
            };
            if let Some(database) = &play {
                let _ = writeln!(
                    out,
                    "Play people and bots at http://{address}/play (games kept in {database})."
                );
            }
            let _ = writeln!(out, "{reach} Ctrl-C stops.");
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
    .map_err(|e| {
        miette::miette!(
            "cannot serve on {}: {e}",
            std::net::SocketAddr::from((args.bind, args.port))
        )
    })
}
