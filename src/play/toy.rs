//! A toy game for the play layer's tests, so that they name no real game: Nim with `STONES`
//! stones, two players taking one or two (`1`, `2`) in turn; whoever takes the last wins. A
//! player facing one stone under the `pass` rules passes once instead (a forced pass).

use super::variant::{Board, Variant};

pub const STONES: u32 = 7;

pub struct Nim;

#[derive(Clone)]
struct Heap {
    left: u32,
    to_move: usize,
    last_taker: usize,
    passes: bool,
    passed: bool,
}

impl Variant for Nim {
    fn name(&self) -> &'static str {
        "nim"
    }
    fn default_rules(&self) -> &'static str {
        "plain"
    }
    fn start(&self, rules: &str) -> Result<Box<dyn Board>, String> {
        let passes = match rules {
            "plain" => false,
            "pass" => true,
            other => return Err(format!("no rules `{other}`: `plain` or `pass`")),
        };
        Ok(Box::new(Heap {
            left: STONES,
            to_move: 0,
            last_taker: 0,
            passes,
            passed: false,
        }))
    }
    fn can_draw(&self) -> bool {
        true
    }
}

impl Board for Heap {
    fn copy(&self) -> Box<dyn Board> {
        Box::new(self.clone())
    }
    fn seats(&self) -> usize {
        2
    }
    fn to_move(&self) -> Option<usize> {
        (self.left > 0).then_some(self.to_move)
    }
    fn play(&mut self, text: &str) -> Result<String, String> {
        if self.left == 0 {
            return Err("the game is over".into());
        }
        if text == "pass" {
            if self.forced_pass().is_none() {
                return Err("you may pass only facing one stone, once".into());
            }
            self.passed = true;
        } else {
            let take: u32 = text
                .parse()
                .map_err(|_| format!("`{text}` is not 1 or 2"))?;
            if self.forced_pass().is_some() {
                return Err("you must pass".into());
            }
            if !(1..=2).contains(&take) || take > self.left {
                return Err(format!("you cannot take {take} of {}", self.left));
            }
            self.left -= take;
            self.last_taker = self.to_move;
        }
        self.to_move = 1 - self.to_move;
        Ok(text.to_string())
    }
    fn forced_pass(&self) -> Option<String> {
        (self.passes && self.left == 1 && !self.passed).then(|| "pass".to_string())
    }
    fn scores(&self) -> Option<Vec<u32>> {
        (self.left == 0).then(|| {
            let mut scores = vec![1, 1];
            scores[self.last_taker] = 0;
            scores
        })
    }
    fn forfeit_score(&self) -> u32 {
        STONES
    }
    fn rules_text(&self) -> String {
        if self.passes { "pass" } else { "plain" }.into()
    }
    fn score_words(&self) -> (&'static str, &'static str) {
        ("stones", "stones")
    }
    fn record(&self, names: &[String], round: String, comment: String) -> String {
        format!(
            "{} v {}, {round}: {} stones left; {comment}\n",
            names[0], names[1], self.left
        )
    }
}
