//! What the play layer needs of a game: a board it can start from a few words of rules, play
//! moves on by their text, and score once it is over. The server names no game: the front end
//! hands it the games it offers as [`Variant`]s, and every move a player sends is checked by the
//! game's own rules engine here before anything is stored.

use crate::arena::MatchGame;
use std::sync::Arc;

/// A game the server offers (Cathedral, Corintho): it starts boards from a rules text.
pub trait Variant: Send + Sync {
    /// The game's name, as `--game` spells it (`cathedral`).
    fn name(&self) -> &'static str;
    /// The rules a game is played under when a challenge names none (`classic`).
    fn default_rules(&self) -> &'static str;
    /// A board at the start of a game under `rules`, or what was expected, in words.
    fn start(&self, rules: &str) -> Result<Box<dyn Board>, String>;
    /// Whether two players may agree a draw (a game whose scores can be equal).
    fn can_draw(&self) -> bool;
}

/// One game being played: a position that takes moves by their text.
pub trait Board: Send + Sync {
    /// A copy, to try a move on.
    fn copy(&self) -> Box<dyn Board>;
    /// The number of seats (players), the first mover's seat 0.
    fn seats(&self) -> usize;
    /// The seat to move, or `None` once the game is over.
    fn to_move(&self) -> Option<usize>;
    /// Plays the move written `text` for the seat to move: the move as the game writes it, or
    /// why it is not legal here, in the game's words.
    fn play(&mut self, text: &str) -> Result<String, String>;
    /// The only legal move when it is a pass (the server plays it at once), else `None`.
    fn forced_pass(&self) -> Option<String>;
    /// Each seat's score once the game is over by the rules; lower is better.
    fn scores(&self) -> Option<Vec<u32>>;
    /// The score of a seat that loses by resigning or on time (its opponents score 0).
    fn forfeit_score(&self) -> u32;
    /// The rules in a few words (`classic`), as a record names them.
    fn rules_text(&self) -> String;
    /// What the score counts and its unit (`unplaced`, `squares`), for the result's words.
    fn score_words(&self) -> (&'static str, &'static str);
    /// The game so far as the game's record file (`docs/records.md`): the players' `names` by
    /// seat, the `round` and a `comment` (the clock and the result, in words).
    fn record(&self, names: &[String], round: String, comment: String) -> String;
}

/// The games a server offers, by name.
#[derive(Clone, Default)]
pub struct Offered {
    variants: Vec<Arc<dyn Variant>>,
}

impl Offered {
    /// No game yet.
    pub fn new() -> Offered {
        Offered::default()
    }

    /// Offers `variant` too.
    pub fn with(mut self, variant: impl Variant + 'static) -> Offered {
        self.variants.push(Arc::new(variant));
        self
    }

    /// The game called `name`, or what is offered.
    pub fn get(&self, name: &str) -> Result<&dyn Variant, String> {
        self.variants
            .iter()
            .find(|v| v.name() == name)
            .map(|v| v.as_ref())
            .ok_or_else(|| {
                let names: Vec<_> = self
                    .variants
                    .iter()
                    .map(|v| format!("`{}`", v.name()))
                    .collect();
                format!("no game `{name}` is played here: {}", names.join(" or "))
            })
    }

    /// The names of the games offered.
    pub fn names(&self) -> Vec<&'static str> {
        self.variants.iter().map(|v| v.name()).collect()
    }
}

/// Any two-player game of the match runner ([`MatchGame`]) as a [`Variant`].
pub struct TwoPlayer<G> {
    name: &'static str,
    default_rules: &'static str,
    can_draw: bool,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G> TwoPlayer<G> {
    /// The game `name`, `default_rules` when a challenge names none; `can_draw` when its scores
    /// can be equal.
    pub const fn new(name: &'static str, default_rules: &'static str, can_draw: bool) -> Self {
        TwoPlayer {
            name,
            default_rules,
            can_draw,
            _game: std::marker::PhantomData,
        }
    }
}

impl<G: MatchGame + 'static> Variant for TwoPlayer<G> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn default_rules(&self) -> &'static str {
        self.default_rules
    }

    fn start(&self, rules: &str) -> Result<Box<dyn Board>, String> {
        let rules = G::match_rules(rules)?;
        Ok(Box::new(TwoPlayerBoard {
            position: G::start_under(rules),
            rules,
            moves: Vec::new(),
        }))
    }

    fn can_draw(&self) -> bool {
        self.can_draw
    }
}

struct TwoPlayerBoard<G: MatchGame> {
    position: G,
    rules: G::Rules,
    moves: Vec<G::Move>,
}

impl<G: MatchGame + 'static> Board for TwoPlayerBoard<G> {
    fn copy(&self) -> Box<dyn Board> {
        Box::new(TwoPlayerBoard {
            position: self.position,
            rules: self.rules,
            moves: self.moves.clone(),
        })
    }

    fn seats(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<usize> {
        (!self.position.is_over()).then(|| self.position.seat_to_move())
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        if self.position.is_over() {
            return Err("the game is over".into());
        }
        let mv = self.position.parse_move(text).map_err(|e| e.to_string())?;
        let written = self.position.move_text(mv);
        self.position.play(mv);
        self.moves.push(mv);
        Ok(written)
    }

    fn forced_pass(&self) -> Option<String> {
        if self.position.is_over() {
            return None;
        }
        match self.position.legal_moves().as_slice() {
            // Both games write a pass as the word `pass` (docs/notation.md, docs/corintho.md).
            [only] => Some(self.position.move_text(*only)).filter(|text| text == "pass"),
            _ => None,
        }
    }

    fn scores(&self) -> Option<Vec<u32>> {
        self.position
            .is_over()
            .then(|| self.position.final_scores().to_vec())
    }

    fn forfeit_score(&self) -> u32 {
        G::FORFEIT_SCORE
    }

    fn rules_text(&self) -> String {
        G::rules_text(self.rules)
    }

    fn score_words(&self) -> (&'static str, &'static str) {
        (G::SCORE_NOUN, G::UNIT[1])
    }

    fn record(&self, names: &[String], round: String, comment: String) -> String {
        let name = |seat: usize| names.get(seat).map_or("?", String::as_str);
        let record = G::match_record(self.rules, &self.moves, [name(0), name(1)], round, comment);
        G::records_text(&[record])
    }
}
