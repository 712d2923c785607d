//! The common commands on Corintho positions (`--game corintho`, or a file with
//! `game: corintho`): show, moves, play, perft, solve, render.

use super::GameName;
use super::shared::exit::{Exit, Failure};
use super::shared::input::FileDiagnostic;
use super::shared::output::{emit, emit_json, refuse_input_as_output, refuse_overwrite};
use super::shared::output::{is_stdout, write_document};
use super::shared::search::{SearchArgs, Spinner, ctrl_c_flag};
use cathedral::analysis::words::{rate_text, stats_text, time_text};
use cathedral::boardgame::{SolveOptions, divide, perft, solve};
use cathedral::corintho::explain::{explain, player_name};
use cathedral::corintho::file::{CorinthoFile, is_corintho, load, to_yaml};
use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Outcome, draw};
use std::io::Read;
use std::path::Path;
use std::sync::atomic::Ordering;

/// Whether a command works on Corintho: `--game corintho`, or (without `--game`) a FILE that
/// declares `game: corintho`.
pub fn selected(game: Option<GameName>, file: Option<&Path>) -> bool {
    match game {
        Some(GameName::Corintho) => true,
        Some(GameName::Cathedral) => false,
        None => file
            .filter(|f| f.as_os_str() != "-" && f.is_file())
            .and_then(|f| {
                // At most the first MiB: an endless device or a huge file is never read whole
                // here (the Cathedral loader refuses it in words).
                let mut head = Vec::new();
                std::fs::File::open(f)
                    .ok()?
                    .take(1 << 20)
                    .read_to_end(&mut head)
                    .ok()?;
                Some(String::from_utf8_lossy(&head).into_owned())
            })
            .is_some_and(|text| is_corintho(&text)),
    }
}

/// The file's position, or the start of a two-player game without one.
fn load_or_start(file: Option<&Path>) -> miette::Result<CorinthoFile> {
    match file {
        Some(path) => Ok(load(path).map_err(FileDiagnostic::from)?),
        None => Ok(CorinthoFile {
            position: CorinthoPosition::new(CorinthoRules::for_players(2).expect("2 players")),
            title: Some("Corintho, two players: the start".to_string()),
            case: None,
        }),
    }
}

fn parse_move(
    position: &CorinthoPosition,
    text: &str,
    index: usize,
) -> miette::Result<CorinthoMove> {
    let fail = |why: String| {
        Failure::new(
            Exit::Input,
            format!("move {} (`{text}`) cannot be played: {why}", index + 1),
        )
    };
    let mv = CorinthoMove::parse(text).map_err(fail)?;
    position.check(mv).map_err(fail)?;
    Ok(mv)
}

/// `show`.
pub fn show(file: Option<&Path>, json: bool) -> miette::Result<()> {
    let file = load_or_start(file)?;
    if json {
        return emit_json(&serde_json::json!({
            "game": "corintho",
            "title": file.title,
            "yaml": to_yaml(&file.position, None),
            "moves": file.position.legal_moves().iter().map(ToString::to_string).collect::<Vec<_>>(),
        }));
    }
    let mut out = String::new();
    if let Some(title) = &file.title {
        out.push_str(&format!("{title}\n\n"));
    }
    out.push_str(&draw::text(&file.position));
    emit(&out)
}

/// `moves`.
pub fn moves(file: Option<&Path>, json: bool) -> miette::Result<()> {
    let position = load_or_start(file)?.position;
    let moves = position.legal_moves();
    let texts: Vec<String> = moves.iter().map(ToString::to_string).collect();
    if json {
        return emit_json(&texts);
    }
    let mut out = String::new();
    if moves.is_empty() {
        out.push_str(&format!(
            "The game is over: {}.\n",
            match position.outcome() {
                Outcome::Won(p) => format!("{} wins", player_name(p)),
                _ => "drawn".to_string(),
            }
        ));
    }
    if let Some(c) = position.claimant() {
        out.push_str(&format!(
            "Only the moves that modify the row of {} (a move that leaves it standing loses at once):\n",
            player_name(c)
        ));
    }
    let places: Vec<&String> = texts.iter().filter(|t| t.contains('@')).collect();
    let stacks: Vec<&String> = texts.iter().filter(|t| t.contains('-')).collect();
    for (name, group) in [("place", places), ("stack", stacks)] {
        if group.is_empty() {
            continue;
        }
        out.push_str(&format!("{name} ({}):\n", group.len()));
        let items: Vec<&str> = group.iter().map(|s| s.as_str()).collect();
        for chunk in items.chunks(10) {
            out.push_str(&format!("  {}\n", chunk.join("  ")));
        }
    }
    if texts.iter().any(|t| t == "pass") {
        out.push_str("pass: no other legal move\n");
    }
    emit(&out)
}

/// `play`: FILE (or the start, when the first argument is a move) then moves.
pub fn play(
    file: &Path,
    moves: &[String],
    output: Option<&Path>,
    force: bool,
    json: bool,
) -> miette::Result<()> {
    let mut texts: Vec<String> = moves.to_vec();
    // FILE is a file when it exists or is named like one; otherwise the first move.
    let as_file = file.exists() || file.extension().is_some_and(|e| e == "yaml" || e == "yml");
    let start = if as_file {
        load_or_start(Some(file))?
    } else {
        texts.insert(0, file.to_string_lossy().into_owned());
        load_or_start(None)?
    };
    if texts.is_empty() {
        return Err(Failure::new(
            Exit::Usage,
            "give the moves to play after the position file, like `C@b1 a2-a1`",
        )
        .into());
    }
    if let Some(out) = output {
        if as_file {
            refuse_input_as_output(&[file], out)?;
        }
        if out.exists() && !force {
            return Err(refuse_overwrite(out));
        }
    }
    let mut position = start.position;
    let mut out = String::new();
    let mut explained = Vec::new();
    for (index, text) in texts.iter().enumerate() {
        let mv = parse_move(&position, text, index)?;
        let words = explain(&position, mv);
        let first = format!("{}. {mv}: ", index + 1);
        let text = textwrap::fill(
            &words.join(" "),
            textwrap::Options::new(78)
                .initial_indent(&first)
                .subsequent_indent("   "),
        );
        out.push_str(&format!("{text}\n"));
        explained.push(serde_json::json!({"move": mv.to_string(), "explanation": words}));
        position.play(mv);
    }
    if let Some(path) = output {
        cathedral::file::write_atomically(path, to_yaml(&position, None).as_bytes(), force)
            .map_err(FileDiagnostic::from)?;
    }
    if json {
        return emit_json(&serde_json::json!({
            "moves": explained,
            "final": to_yaml(&position, None),
        }));
    }
    out.push('\n');
    out.push_str(&draw::text(&position));
    emit(&out)
}

/// `perft`: with `json`, the same report as Cathedral's (`depth`, `count`, `divide`,
/// `seconds`, `moves_per_second`).
pub fn perft_command(
    file: Option<&Path>,
    depth: u32,
    by_move: bool,
    json: bool,
) -> miette::Result<()> {
    let position = load_or_start(file)?.position;
    let start = std::time::Instant::now();
    let divided: Option<Vec<(String, u64)>> = (by_move && depth > 0).then(|| {
        divide(&position, depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect()
    });
    let count = match &divided {
        Some(d) => d.iter().map(|(_, n)| n).sum(),
        None => perft(&position, depth),
    };
    let elapsed = start.elapsed();
    let rate = count as f64 / elapsed.as_secs_f64().max(1e-9);
    if json {
        let mut report = serde_json::json!({
            "game": "corintho",
            "depth": depth,
            "count": count,
            "seconds": elapsed.as_secs_f64(),
            "moves_per_second": rate,
        });
        if let Some(d) = &divided {
            report["divide"] = d
                .iter()
                .map(|(mv, n)| serde_json::json!({"move": mv, "count": n}))
                .collect();
        }
        return emit_json(&report);
    }
    let mut out = String::new();
    for (mv, n) in divided.iter().flatten() {
        out.push_str(&format!("{mv}: {n}\n"));
    }
    out.push_str(&format!(
        "perft({depth}) = {count}\ntime: {}, {} moves/s\n",
        time_text(elapsed),
        rate_text(rate)
    ));
    emit(&out)
}

/// `solve`: win, draw or loss for the side to move (two players), a best line, the root moves.
pub fn solve_command(
    file: Option<&Path>,
    search: &SearchArgs,
    value_only: bool,
    json: bool,
) -> miette::Result<()> {
    let loaded = load_or_start(file)?;
    let position = loaded.position;
    if position.rules().players != 2 {
        return Err(Failure::new(
            Exit::Input,
            format!(
                "the exact solver plays two-player games; this position has {} players (`bestmove --game corintho` has a paranoid engine for them)",
                position.rules().players
            ),
        )
        .into());
    }
    let stop = ctrl_c_flag();
    let options = SolveOptions {
        root_values: !value_only,
        wdl: true,
        ..search.options(stop.clone())
    };
    let spinner = Spinner::new("solving: ");
    let solution = solve(&position, &options, &|p| spinner.update(p));
    spinner.finish();
    let mover = player_name(position.to_move());
    let value_words = |v: i32| match v {
        1 => "win",
        0 => "draw",
        _ => "loss",
    };
    let line: Vec<String> = solution.best_line.iter().map(ToString::to_string).collect();
    if json {
        return emit_json(&serde_json::json!({
            "game": "corintho",
            "to_move": position.to_move() + 1,
            "lower": solution.lower,
            "upper": solution.upper,
            "value": solution.value(),
            "complete": solution.complete,
            "best_line": line,
            "root_moves": solution.root_moves.iter().map(|r| serde_json::json!({
                "move": r.mv.to_string(), "lower": r.lower, "upper": r.upper})).collect::<Vec<_>>(),
            "nodes": solution.stats.nodes,
            "seconds": solution.stats.elapsed.as_secs_f64(),
            "threads": solution.stats.threads,
        }));
    }
    let mut out = String::new();
    if let Some(title) = &loaded.title {
        out.push_str(&format!("{title}\n"));
    }
    match solution.value() {
        Some(v) => out.push_str(&format!(
            "Value: {} for {mover} (the side to move; {v} of -1, 0, +1), proven\n",
            value_words(v)
        )),
        None => out.push_str(&format!(
            "Not proven: the value for {mover} is between {} and {}\n",
            solution.lower, solution.upper
        )),
    }
    if !line.is_empty() {
        let text = format!("Best line ({} plies): {}", line.len(), line.join(" "));
        out.push_str(&format!(
            "{}\n",
            textwrap::fill(&text, textwrap::Options::new(78).subsequent_indent("  "))
        ));
        let mut end = position;
        for mv in &solution.best_line {
            end.play(*mv);
        }
        if let Outcome::Won(p) = end.outcome() {
            out.push_str(&format!("  ends with {} winning\n", player_name(p)));
        }
    }
    if !solution.root_moves.is_empty() {
        for v in [1, 0, -1] {
            let moves: Vec<String> = solution
                .root_moves
                .iter()
                .filter(|r| r.is_exact() && r.lower == v)
                .map(|r| r.mv.to_string())
                .collect();
            if !moves.is_empty() {
                out.push_str(&format!("{:<5} ({:>2}): ", value_words(v), moves.len()));
                out.push_str(&textwrap::fill(&moves.join(" "), 64).replace('\n', "\n            "));
                out.push('\n');
            }
        }
    }
    out.push_str(&format!(
        "{}\n",
        textwrap::fill(&stats_text(&solution.stats), 78)
    ));
    emit(&out)?;
    if !solution.is_exact() {
        let exit = if stop.load(Ordering::Relaxed) {
            Exit::Interrupted
        } else {
            Exit::Unproven
        };
        return Err(Failure::new(exit, "").into());
    }
    Ok(())
}

/// `render`.
pub fn render(
    file: &Path,
    output: Option<&Path>,
    caption: Option<&str>,
    force: bool,
) -> miette::Result<()> {
    let loaded = load(file).map_err(FileDiagnostic::from)?;
    let output = output.filter(|_| !is_stdout(output));
    if let Some(output) = output {
        refuse_input_as_output(&[file], output)?;
        if output.exists() && !force {
            return Err(refuse_overwrite(output));
        }
    }
    let caption = caption.map(str::to_string).or(loaded.title);
    write_document(
        output,
        &draw::svg(&loaded.position, caption.as_deref()),
        force,
    )
}

/// `bestmove`: the paranoid engine's move (any number of players; estimating, not exact).
pub fn bestmove(file: &Path, depth: u32, json: bool) -> miette::Result<()> {
    let position = load(file).map_err(FileDiagnostic::from)?.position;
    let Some((mv, value)) = cathedral::corintho::engine::best_move(&position, depth) else {
        if json {
            return emit_json(&serde_json::json!({
                "best_move": null, "depth": depth, "verdict": "the game is over"}));
        }
        return emit("The game is over: there is no move to make.\n");
    };
    let verdict = match value {
        v if v > 9000 => "a forced win found".to_string(),
        v if v < -9000 => "every move loses against the other players together".to_string(),
        v => format!("estimate {v:+} (threat lines), not exact"),
    };
    if json {
        return emit_json(&serde_json::json!({
            "best_move": mv.to_string(), "value": value, "depth": depth, "verdict": verdict}));
    }
    emit(&format!(
        "Best move: {mv}\nPlayer {} to move; paranoid search, depth {depth}: {verdict}\n",
        position.to_move() + 1
    ))
}
