//! How often the two readings of Corintho's answer to a row decide a claim differently
//! (docs/corintho.md, "Answering a row"): claims in random two-player games (played under
//! `answer: new_row`, which allows every move the default allows) that no move modifies (the
//! claimant has won under the default, the sheet's reading) while a new row elsewhere would
//! answer them (`new_row`). A measurement, seeded and deterministic:
//!
//!     cargo run --release --features tools --example corintho_readings

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a tool run by hand: a failure should stop it with what went wrong"
)]

use cathedral::boardgame::Rng;
use cathedral::corintho::{Answer, CorinthoPosition, CorinthoRules};

fn main() {
    let mut rng = Rng::new(29);
    let (mut claims, mut differ) = (0u32, 0u32);
    for _ in 0..20_000 {
        let mut rules = CorinthoRules::for_players(2).unwrap();
        rules.answer = Answer::NewRow;
        let mut position = CorinthoPosition::new(rules);
        loop {
            let moves = position.legal_moves();
            if position.claimant().is_some() {
                claims += 1;
                let mut sheet = rules;
                sheet.answer = Answer::Modify;
                let modifying = moves.iter().any(|&mv| {
                    let mut child = position;
                    child.play(mv);
                    sheet.answers(position.rows(), child.rows())
                });
                if !moves.is_empty() && !modifying {
                    differ += 1;
                }
            }
            if moves.is_empty() {
                break;
            }
            position.play(moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    println!(
        "{differ} of {claims} claims ({:.1} %) won at once by the sheet's reading, answered by a new row under new_row",
        100.0 * f64::from(differ) / f64::from(claims)
    );
}
