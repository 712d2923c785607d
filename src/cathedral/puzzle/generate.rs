//! Puzzle generation: policy games (or engine games, [`GamePlayers`]) stopped at late positions,
//! each analysed; the good ones kept.
//!
//! Candidate `i` of a run with master seed `s` plays the game seeded `game_seed(s, i)`, so a
//! candidate does not depend on any other. Candidates are analysed in parallel in batches and
//! the results sorted by index: the same seed, rules and version give the same puzzles,
//! whatever the number of threads (as long as no candidate hits the time limit; the node budget
//! is the deterministic limit).

use super::criteria::{AnalyseOptions, Analysis, analyse};
use super::themes::explain_line;
use crate::boardgame::Rng;
use crate::cathedral::engine::{MAX_LEVEL, PlayOptions, choose};
use crate::cathedral::file::Difficulty;
use crate::cathedral::file::Theme;
use crate::cathedral::file::{PositionFile, PuzzleInfo, StoredSolution};
use crate::cathedral::moves::{Move, MoveList};
use crate::cathedral::notation::format_line;
use crate::cathedral::policy::{Policy, effect, play_game};
use crate::cathedral::position::{CathedralStatus, Position};
use crate::cathedral::rules::Rules;
use crate::cathedral::sampler::{ENGINE_OPENING_PLIES, buildings_left, game_seed};
use rayon::prelude::*;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;

/// Who plays the candidate games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GamePlayers {
    /// The sampling policy for both sides (`policy.rs`): fast, varied, weak.
    #[default]
    Policy,
    /// The playing engine for both sides (`engine::choose`, one thread, no exact solve), after
    /// [`ENGINE_OPENING_PLIES`] policy moves that make the games differ. Level `level` (1-10)
    /// searches `nodes >> (10 - level)` nodes per move (at least 1) with its level noise, as the
    /// rating's solvers do; the noise of move `k` is seeded from the game's seed and `k`, so a
    /// game is deterministic.
    Engine {
        /// 1 (weakest) to 10 (full strength).
        level: u8,
        /// Nodes per move at level 10.
        nodes: u64,
    },
}

impl GamePlayers {
    /// `policy`, or `engine level L (N nodes at level 10)`: for a puzzle file's `source`.
    pub fn describe(self) -> String {
        match self {
            GamePlayers::Policy => "policy".to_string(),
            GamePlayers::Engine { level, nodes } => {
                format!("engine level {level} ({nodes} nodes at level 10)")
            }
        }
    }
}

/// What to generate.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// How many puzzles to find.
    pub count: usize,
    /// Keep only puzzles with this theme.
    pub theme: Option<Theme>,
    /// Keep only puzzles of this difficulty.
    pub difficulty: Option<Difficulty>,
    /// The run's master seed: candidate `i` plays the game seeded `game_seed(seed, i)`.
    pub seed: u64,
    /// The rule variant of the candidate games and the puzzles.
    pub rules: Rules,
    /// Who plays the candidate games.
    pub players: GamePlayers,
    /// The criteria and solver budget each candidate is analysed with.
    pub analyse: AnalyseOptions,
    /// Give up after this many candidates.
    pub max_candidates: u64,
    /// Worker threads (0 = all cores).
    pub threads: usize,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            count: 10,
            theme: None,
            difficulty: None,
            seed: 1,
            rules: Rules::CLASSIC,
            players: GamePlayers::Policy,
            analyse: AnalyseOptions::default(),
            max_candidates: 20_000,
            threads: 0,
        }
    }
}

/// A generated puzzle and where it comes from.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The candidate number in the run.
    pub index: u64,
    /// The seed of its candidate game.
    pub game_seed: u64,
    /// Who played that game.
    pub players: GamePlayers,
    /// Moves played from the start of that game.
    pub ply: usize,
    /// The puzzle position and everything found about it.
    pub analysis: Analysis,
}

/// Progress: puzzles found, candidates tried.
#[derive(Clone, Copy, Debug)]
pub struct GenerateProgress {
    /// Puzzles found so far.
    pub found: usize,
    /// Candidates tried so far.
    pub tried: u64,
}

/// Whether `position` offers what `theme` needs: some legal move that captures (capture),
/// captures the Cathedral (cathedral-capture) or claims (claim). Themes without a cheap sign
/// always pass. Used only to choose where a candidate game stops; the theme itself is detected
/// from the solution.
pub fn theme_hint(position: &Position, theme: Option<Theme>) -> bool {
    let test: fn(&Position, Move) -> bool = match theme {
        Some(Theme::Capture) => |p, m| effect(p, m).captured > 0,
        Some(Theme::CathedralCapture) => |p, m| {
            let mut after = *p;
            after.play(m);
            after.cathedral_status() == CathedralStatus::Gone
        },
        Some(Theme::Claim) => |p, m| {
            let e = effect(p, m);
            e.claimed > 0 && e.captured == 0
        },
        _ => return true,
    };
    if position.cathedral_status() != CathedralStatus::OnBoard
        && theme == Some(Theme::CathedralCapture)
    {
        return false;
    }
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    list.iter().any(|&m| !m.is_pass() && test(position, m))
}

/// Plays a candidate game from the start with `players` until `stop` holds or the game ends;
/// every position, the start first.
fn play_candidate_game(
    rules: Rules,
    players: GamePlayers,
    rng: &mut Rng,
    stop: impl Fn(&Position) -> bool,
) -> Vec<Position> {
    let policy = Policy::default();
    match players {
        GamePlayers::Policy => play_game(Position::new(rules), &policy, rng, |p, _| stop(p)),
        GamePlayers::Engine { level, nodes } => {
            let mut positions = play_game(Position::new(rules), &policy, rng, |p, ply| {
                ply >= ENGINE_OPENING_PLIES || stop(p)
            });
            let noise_seed = rng.next_u64();
            let mut position = positions[positions.len() - 1];
            while !stop(&position) && !position.is_game_over() {
                let ply = positions.len() as u64;
                let choice = choose(
                    &position,
                    &PlayOptions {
                        nodes: Some(nodes),
                        time: None,
                        threads: 1,
                        seed: noise_seed ^ ply.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                        level: level.clamp(1, MAX_LEVEL),
                        // The records name this weakening ("nodes at level 10").
                        halving: true,
                        tt_mb: 4,
                        exact: false,
                        ..PlayOptions::default()
                    },
                    &mut |_| {},
                );
                let Some(mv) = choice.best else { break };
                position.play(mv);
                positions.push(position);
            }
            positions
        }
    }
}

/// The late position of candidate game `game_seed`: played by `players` (the policy, or the
/// engine at a level) until at most a target number of buildings is left per player (2-5, drawn
/// per game; `difficulty` shifts the draw; 5-7 for the claim theme) and, with a `theme`, until
/// the side to move has a move that shows the theme ([`theme_hint`]).
pub fn candidate_position(
    rules: Rules,
    players: GamePlayers,
    game_seed: u64,
    difficulty: Option<Difficulty>,
    theme: Option<Theme>,
) -> Option<(Position, usize)> {
    let mut rng = Rng::new(game_seed);
    let targets: &[u32] = match (difficulty, theme) {
        // Claims are rare late in policy games (the policy claims whatever it can at once):
        // stop earlier.
        (_, Some(Theme::Claim)) => &[5, 6, 7],
        (Some(Difficulty::Easy), _) => &[2, 3, 3],
        (Some(Difficulty::Medium), _) => &[3, 4],
        (Some(Difficulty::Hard), _) => &[4, 5],
        (None, _) => &[2, 3, 4, 5],
    };
    let target = targets[rng.below(targets.len() as u64) as usize];
    let positions = play_candidate_game(rules, players, &mut rng, |p| {
        buildings_left(p) <= target && theme_hint(p, theme)
    });
    let ply = positions.len() - 1;
    let last = positions[ply];
    (!last.is_game_over() && last.can_place(last.to_move())).then_some((last, ply))
}

fn wanted(options: &GenerateOptions, analysis: &Analysis) -> bool {
    let theme_ok = options.theme.is_none_or(|t| analysis.themes.contains(&t));
    let level_ok = options.difficulty.is_none_or(|d| analysis.difficulty == d);
    // A puzzle the greedy player solves is kept only as an easy one.
    let greedy_ok = !analysis.greedy_finds_it || analysis.difficulty == Difficulty::Easy;
    theme_ok && level_ok && greedy_ok
}

/// What [`generate_each`] reports as it goes.
#[derive(Debug)]
pub enum GenerateEvent<'a> {
    /// A new puzzle, in candidate order; reported as soon as its batch is analysed.
    Found(&'a Generated),
    /// After every batch of candidates.
    Progress(GenerateProgress),
}

/// How a generation run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenerateSummary {
    /// Puzzles found.
    pub found: usize,
    /// Candidates analysed.
    pub tried: u64,
    /// Whether it stopped early: the stop flag (`AnalyseOptions::stop`) or the caller.
    pub stopped: bool,
}

/// Generates up to `options.count` puzzles, handing each to `on_event` as soon as it is found, in
/// candidate order. Fewer when `max_candidates` run out, the stop flag is set, or `on_event`
/// breaks. A candidate whose solve the stop flag cut short is not solved exactly and so never
/// becomes a puzzle: every reported puzzle is proven.
pub fn generate_each(
    options: &GenerateOptions,
    on_event: &mut dyn FnMut(GenerateEvent<'_>) -> ControlFlow<()>,
) -> GenerateSummary {
    let threads = crate::boardgame::thread_count(options.threads);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok();
    let batch = (4 * threads as u64).max(8);
    let stopped = || options.analyse.stop.load(Ordering::Relaxed);
    let mut found = 0usize;
    let mut seen: HashSet<Position> = HashSet::new();
    let mut next = 0u64;
    while found < options.count && next < options.max_candidates && !stopped() {
        let end = (next + batch).min(options.max_candidates);
        let run = || -> Vec<Option<Generated>> {
            (next..end)
                .into_par_iter()
                .map(|index| {
                    let game_seed = game_seed(options.seed, index);
                    let (position, ply) = candidate_position(
                        options.rules,
                        options.players,
                        game_seed,
                        options.difficulty,
                        options.theme,
                    )?;
                    let analysis = analyse(&position, &options.analyse).ok()?;
                    wanted(options, &analysis).then_some(Generated {
                        index,
                        game_seed,
                        players: options.players,
                        ply,
                        analysis,
                    })
                })
                .collect()
        };
        let results = match &pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        // `collect` keeps the index order.
        for generated in results.into_iter().flatten() {
            if found < options.count && seen.insert(generated.analysis.position) {
                found += 1;
                if on_event(GenerateEvent::Found(&generated)).is_break() {
                    return GenerateSummary {
                        found,
                        tried: end,
                        stopped: true,
                    };
                }
            }
        }
        next = end;
        let progress = GenerateProgress { found, tried: next };
        if on_event(GenerateEvent::Progress(progress)).is_break() {
            return GenerateSummary {
                found,
                tried: next,
                stopped: true,
            };
        }
    }
    GenerateSummary {
        found,
        tried: next,
        stopped: stopped(),
    }
}

/// Generates up to `options.count` puzzles, in candidate order (see [`generate_each`]).
/// `progress` is called after every batch.
pub fn generate(options: &GenerateOptions, progress: &dyn Fn(GenerateProgress)) -> Vec<Generated> {
    let mut found = Vec::new();
    generate_each(options, &mut |event| {
        match event {
            GenerateEvent::Found(generated) => found.push(generated.clone()),
            GenerateEvent::Progress(p) => progress(p),
        }
        ControlFlow::Continue(())
    });
    found
}

/// The puzzle file of a generated puzzle, titled `title`.
pub fn puzzle_file(generated: &Generated, title: String, margin: i32) -> PositionFile {
    let analysis = &generated.analysis;
    let position = analysis.position;
    let line = format_line(&position, &analysis.best_line);
    let explanations = explain_line(&position, &analysis.best_line)
        .iter()
        .map(|r| r.to_string())
        .collect();
    let mut file = PositionFile::from_position(position);
    file.meta.title = Some(title);
    file.meta.tags = vec!["puzzle".to_string()];
    file.meta.source = Some(format!(
        "cathedral generate (cathedral {}): {} game seed {:#018x}, ply {}",
        env!("CARGO_PKG_VERSION"),
        generated.players.describe(),
        generated.game_seed,
        generated.ply
    ));
    file.puzzle = Some(PuzzleInfo {
        question: super::question(position.to_move(), analysis.value),
        themes: analysis
            .themes
            .iter()
            .map(|t| t.name().to_string())
            .collect(),
        difficulty: analysis.difficulty.name().to_string(),
        rating: Some(analysis.features.rating()),
        effort: Some(analysis.features.nodes),
        margin,
        seed: Some(generated.game_seed),
        near_best: None,
        glicko: None,
        game: None,
        tempting: None,
    });
    file.solution = Some(StoredSolution {
        value: analysis.value,
        wdl: false,
        best_move: line.first().cloned(),
        best_line: line,
        nodes: None,
        explanations,
        ..StoredSolution::default()
    });
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Engine games at a level: the same seed gives the same late position, a different one
    /// from the policy game of that seed and from another level's.
    #[test]
    fn engine_candidates_are_deterministic_and_differ_from_policy_games() {
        let engine = |level| GamePlayers::Engine {
            level,
            nodes: 20_000,
        };
        // Some games end before their target; the first of a few seeds that gives a position.
        let (seed, level3) = (0..8)
            .map(|game| game_seed(5, game))
            .find_map(|seed| {
                candidate_position(Rules::CLASSIC, engine(3), seed, None, None).map(|p| (seed, p))
            })
            .expect("a late position in one of eight games");
        let at = |players| candidate_position(Rules::CLASSIC, players, seed, None, None);
        assert_eq!(Some(level3), at(engine(3)));
        assert!(buildings_left(&level3.0) <= 5);
        assert_ne!(Some(level3), at(GamePlayers::Policy));
        assert_ne!(Some(level3), at(engine(5)));
    }

    /// A run on engine games is the same with one thread or two, and says who played.
    #[test]
    fn engine_runs_are_reproducible_by_seed() {
        let options = |threads| GenerateOptions {
            count: 2,
            seed: 9,
            players: GamePlayers::Engine {
                level: 3,
                nodes: 20_000,
            },
            analyse: AnalyseOptions {
                max_nodes: 300_000,
                time_limit: std::time::Duration::from_secs(60),
                ..AnalyseOptions::default()
            },
            max_candidates: 400,
            threads,
            ..GenerateOptions::default()
        };
        let key = |found: Vec<Generated>| -> Vec<(u64, Position)> {
            found
                .iter()
                .map(|g| (g.game_seed, g.analysis.position))
                .collect()
        };
        let one = generate(&options(1), &|_| {});
        assert_eq!(one.len(), 2);
        let file = puzzle_file(&one[0], "t".into(), 1);
        assert!(
            file.meta
                .source
                .as_deref()
                .is_some_and(|s| s.contains("engine level 3 (20000 nodes at level 10) game seed")),
            "{:?}",
            file.meta.source
        );
        assert_eq!(key(one), key(generate(&options(2), &|_| {})));
    }
}
