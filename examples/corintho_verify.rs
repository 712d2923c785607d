//! The plain verifier of Corintho certificates (format: `src/corintho/certificate.rs`). It uses
//! only the rules (the position, its legal moves, playing a move, the outcome) and shares no
//! code with the solver: no search, no table, no symmetry, no proof numbers. It walks the game
//! from the start, reading the claiming player's moves from the certificate and following
//! every move of the other player, and accepts only if every game reached ends with the
//! claimed result and the walk ends exactly at the certificate's last line.
//!
//! `cargo run --release --features tools --example corintho_verify -- CERTIFICATE`

use cathedral::corintho::{CorinthoMove, CorinthoPosition, CorinthoRules, Outcome};
use std::collections::HashSet;

/// What a checked certificate says and covers.
#[derive(Debug)]
pub struct Verified {
    pub start: String,
    pub claim: String,
    pub moves_read: usize,
    pub positions: usize,
}

/// Checks a certificate's text; the error says which line or position fails.
pub fn verify(text: &str) -> Result<Verified, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    let mut header = |what: &str| {
        let (n, line) = lines
            .next()
            .ok_or(format!("the certificate ends before its {what}"))?;
        Ok::<_, String>((n, line.to_string()))
    };
    let (_, magic) = header("first line")?;
    if magic != "corintho certificate 1" {
        return Err(format!(
            "line 1: expected `corintho certificate 1`, found `{magic}`"
        ));
    }
    let (n, start) = header("start")?;
    let start_moves = start
        .strip_prefix("start:")
        .ok_or(format!("line {n}: expected `start: MOVES`"))?
        .trim()
        .to_string();
    let (n, claim) = header("claim")?;
    let words = claim
        .strip_prefix("claim:")
        .ok_or(format!("line {n}: expected `claim: player N wins`"))?
        .trim()
        .to_string();
    let (player, draw_enough) = match words.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["player", p, "wins"] => (p.parse::<u8>().ok(), false),
        ["player", p, "does", "not", "lose"] => (p.parse::<u8>().ok(), true),
        _ => (None, false),
    };
    let player = player.filter(|p| (1..=2).contains(p)).ok_or(format!(
        "line {n}: expected `player 1` or `player 2` and `wins` or `does not lose`"
    ))? - 1;
    let rules = CorinthoRules::for_players(2).ok_or("two-player rules")?;
    let mut position = CorinthoPosition::new(rules);
    for text in start_moves.split_whitespace() {
        let mv = CorinthoMove::parse(text).map_err(|e| format!("start: {text}: {e}"))?;
        position
            .check(mv)
            .map_err(|e| format!("start: {text}: {e}"))?;
        position.play(mv);
    }
    let mut walk = Walk {
        lines: &mut lines,
        player,
        draw_enough,
        seen: HashSet::new(),
        moves_read: 0,
    };
    walk.visit(position)?;
    let (moves_read, positions) = (walk.moves_read, walk.seen.len());
    if let Some((n, extra)) = walk.lines.next() {
        return Err(format!(
            "line {n}: `{extra}` is left over after the walk ended"
        ));
    }
    Ok(Verified {
        start: start_moves,
        claim: words,
        moves_read,
        positions,
    })
}

struct Walk<'a, I: Iterator<Item = (usize, &'a str)>> {
    lines: &'a mut I,
    player: u8,
    draw_enough: bool,
    seen: HashSet<CorinthoPosition>,
    moves_read: usize,
}

impl<'a, I: Iterator<Item = (usize, &'a str)>> Walk<'a, I> {
    fn visit(&mut self, position: CorinthoPosition) -> Result<(), String> {
        if !self.seen.insert(position) {
            return Ok(());
        }
        match position.outcome() {
            Outcome::Won(p) if p == self.player => return Ok(()),
            Outcome::Drawn if self.draw_enough => return Ok(()),
            Outcome::Ongoing => {}
            other => return Err(format!("a game ends with {other:?}: {position:?}")),
        }
        let moves = position.legal_moves();
        if moves.is_empty() {
            return Err(format!("no move, yet the game is not over: {position:?}"));
        }
        if position.to_move() == self.player {
            let (n, text) = self.lines.next().ok_or(format!(
                "the certificate ends where a move is needed: {position:?}"
            ))?;
            let mv = CorinthoMove::parse(text).map_err(|e| format!("line {n}: {text}: {e}"))?;
            if !moves.contains(&mv) {
                return Err(format!("line {n}: {text} is not a legal move here"));
            }
            self.moves_read += 1;
            let mut child = position;
            child.play(mv);
            self.visit(child)
        } else {
            for mv in moves {
                let mut child = position;
                child.play(mv);
                self.visit(child)?;
            }
            Ok(())
        }
    }
}

#[allow(dead_code)]
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: corintho_verify CERTIFICATE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    match verify(&text) {
        Ok(v) => println!(
            "accepted: after `{}`, {} ({} moves read, {} positions checked)",
            v.start, v.claim, v.moves_read, v.positions
        ),
        Err(why) => {
            eprintln!("rejected: {why}");
            std::process::exit(1);
        }
    }
}
