//! Certificates: a proven result of a two-player Corintho position written out as a strategy
//! that a plain program can check with nothing but the rules (`examples/corintho_verify.rs`).
//!
//! The format is text, one item per line:
//!
//! ```text
//! corintho certificate 1
//! start: C@b2 K@c3            # the moves from the two-player start (default rules)
//! claim: player 1 wins        # or: player 2 wins, player 1 does not lose, ...
//! C@d3                        # the strategy, in the order below
//! ...
//! ```
//!
//! The strategy is read in one walk over the game from the start, depth first, moves in the
//! order the rules list them (`CorinthoPosition::legal_moves`): where the claiming player is to
//! move in a position not met before in the walk, the next line is the move played there; where
//! the other player is to move, every move is followed in turn and nothing is read. A position
//! met before (the same position reached by another order of moves) was checked already and
//! reads nothing. A finished game must have the claimed result; the certificate is accepted
//! when the walk ends exactly at its last line. Comments start with `#`.

use super::folded::Folded;
use super::moves::CorinthoMove;
use super::position::{CorinthoPosition, Outcome};
use crate::boardgame::ProofSearch;
use std::collections::HashSet;
use std::io::Write;

/// What a player claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The player (0-based) wins.
    Wins(u8),
    /// The player (0-based) wins or draws.
    DoesNotLose(u8),
}

impl Claim {
    fn player(self) -> u8 {
        match self {
            Claim::Wins(p) | Claim::DoesNotLose(p) => p,
        }
    }

    /// The value the claiming player must reach (win +1, draw 0).
    fn target(self) -> i32 {
        match self {
            Claim::Wins(_) => 1,
            Claim::DoesNotLose(_) => 0,
        }
    }

    /// The header line's words.
    pub fn words(self) -> String {
        match self {
            Claim::Wins(p) => format!("player {} wins", p + 1),
            Claim::DoesNotLose(p) => format!("player {} does not lose", p + 1),
        }
    }
}

/// What writing a certificate found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Written {
    /// Moves written: one per position of the claiming player.
    pub moves: u64,
    /// Positions the walk met (both players', each once).
    pub positions: u64,
}

/// Writes the certificate that `claim` holds in the position after `line` from the start of
/// `start`'s rules, using (and extending) the proofs of `search` on the folded positions. The
/// claim must be proven already ([`ProofSearch::at_least`] answered it); an error says where
/// the walk found no proven move (the search was stopped) or the claim false.
pub fn write_certificate(
    start: &CorinthoPosition,
    line: &[CorinthoMove],
    claim: Claim,
    search: &mut ProofSearch,
    out: &mut dyn Write,
) -> Result<Written, String> {
    let mut position = *start;
    for &mv in line {
        position.check(mv).map_err(|why| format!("{mv}: {why}"))?;
        position.play(mv);
    }
    let io = |e: std::io::Error| format!("cannot write the certificate: {e}");
    writeln!(out, "corintho certificate 1").map_err(io)?;
    let moves: Vec<String> = line.iter().map(ToString::to_string).collect();
    writeln!(out, "start: {}", moves.join(" ")).map_err(io)?;
    writeln!(out, "claim: {}", claim.words()).map_err(io)?;
    let mut walk = Walk {
        claim,
        search,
        seen: HashSet::new(),
        out,
        written: Written::default(),
    };
    walk.visit(&position)?;
    Ok(walk.written)
}

struct Walk<'a> {
    claim: Claim,
    search: &'a mut ProofSearch,
    seen: HashSet<CorinthoPosition>,
    out: &'a mut dyn Write,
    written: Written,
}

impl Walk<'_> {
    fn visit(&mut self, position: &CorinthoPosition) -> Result<(), String> {
        if !self.seen.insert(*position) {
            return Ok(());
        }
        self.written.positions += 1;
        match position.outcome() {
            Outcome::Ongoing => {}
            Outcome::Won(p) if p == self.claim.player() => return Ok(()),
            Outcome::Drawn if matches!(self.claim, Claim::DoesNotLose(_)) => return Ok(()),
            _ => {
                return Err(format!(
                    "the walk reached a game the claim loses: {position:?}"
                ));
            }
        }
        let moves = position.legal_moves();
        if position.to_move() == self.claim.player() {
            let mv = self.proving_move(position, &moves)?;
            writeln!(self.out, "{mv}").map_err(|e| format!("cannot write: {e}"))?;
            self.written.moves += 1;
            let mut child = *position;
            child.play(mv);
            self.visit(&child)
        } else {
            for mv in moves {
                let mut child = *position;
                child.play(mv);
                self.visit(&child)?;
            }
            Ok(())
        }
    }

    /// A move of the claiming player that keeps the claim: one the proof table already shows,
    /// else the position proven again (the table may have lost its entries) and asked once more.
    fn proving_move(
        &mut self,
        position: &CorinthoPosition,
        moves: &[CorinthoMove],
    ) -> Result<CorinthoMove, String> {
        // After the claiming player's move the opponent is to move: the claim holds there when
        // the opponent's "at least 1 - target?" is answered no.
        let question = 1 - self.claim.target();
        let keeps = |search: &ProofSearch, mv: CorinthoMove| {
            let mut child = *position;
            child.play(mv);
            let done = match child.outcome() {
                Outcome::Ongoing => None,
                Outcome::Won(p) => Some(p == self.claim.player()),
                Outcome::Drawn => Some(matches!(self.claim, Claim::DoesNotLose(_))),
            };
            done.or_else(|| search.known(&Folded::new(child), question).map(|yes| !yes))
        };
        if let Some(&mv) = moves
            .iter()
            .find(|&&mv| keeps(self.search, mv) == Some(true))
        {
            return Ok(mv);
        }
        if self
            .search
            .at_least(&Folded::new(*position), self.claim.target())
            != Some(true)
        {
            return Err(format!(
                "not proven here (stopped, or the claim is false): {position:?}"
            ));
        }
        for &mv in moves {
            if keeps(self.search, mv) == Some(true) {
                return Ok(mv);
            }
            let mut child = *position;
            child.play(mv);
            if child.outcome() == Outcome::Ongoing
                && self.search.at_least(&Folded::new(child), question) == Some(false)
            {
                return Ok(mv);
            }
        }
        Err(format!("no proven move found: {position:?}"))
    }
}
