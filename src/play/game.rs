//! A game between players as the server keeps it: its settings, and the events that happened
//! to it, each stamped with the server's time. The game's state is a function of those events
//! ([`GameState::replay`]), so what is stored is all there is; an action a player asks for is
//! checked against that state ([`GameState::decide`]) and becomes new events, or a refusal that
//! changes nothing.

use super::clock::TimeControl;
use super::variant::{Board, Variant};
use serde::{Deserialize, Serialize};

/// What a game is played under: the game, its rules, its clock and whether it counts for the
/// rating.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSpec {
    /// The game's name (`cathedral`, `corintho`).
    pub variant: String,
    /// The rules, as the game reads them (`classic`).
    pub rules: String,
    /// The clock.
    pub time: TimeControl,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
}

/// Something that happened in a game. The seat is the player it happened for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    /// A move, as the game writes it.
    Move {
        /// The move as the game writes it.
        text: String,
    },
    /// The seat resigned.
    Resign,
    /// The seat offered a draw.
    OfferDraw,
    /// The seat accepted the standing offer: the game is drawn.
    AcceptDraw,
    /// The seat declined the standing offer.
    DeclineDraw,
    /// The seat aborted the game before it had really begun.
    Abort,
    /// The seat to move ran out of time (stamped when the server saw it).
    Timeout,
    /// The seat claimed the win: its opponent left a live game and did not come back.
    ClaimWin,
    /// The server started again: the turn's time counts from here (docs/play.md, "Clocks").
    Resume,
}

/// One stored event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Its place in the game, from 0: stored under (game, seq), so that two servers cannot both
    /// add the same event.
    pub seq: u64,
    /// The seat it was for (`None`: the server's own, `Resume`).
    pub seat: Option<usize>,
    /// What happened.
    pub kind: EventKind,
    /// When, in milliseconds since the Unix epoch.
    pub at_ms: u64,
}

/// What a player asks for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Play `text`, the move `ply` of the game (the number of moves before it): a move sent
    /// twice, or for a position that has changed, is refused.
    Move {
        /// The move, in the game's notation.
        text: String,
        /// The moves played before it, as the sender saw the game.
        ply: usize,
    },
    /// Resign the game.
    Resign,
    /// Offer a draw (or accept the opponent's standing offer).
    OfferDraw,
    /// Accept the standing draw offer.
    AcceptDraw,
    /// Decline it.
    DeclineDraw,
    /// Abort before each player's first move.
    Abort,
    /// Claim the win of a live game whose opponent has been away for at least
    /// [`ABSENCE_CLAIM_MS`] (the front end says how long; the server checks it).
    ClaimWin {
        /// How long the opponent has been away, as the front end saw it.
        away_ms: u64,
    },
}

/// How long an opponent must have been away from a live game before the win can be claimed.
pub const ABSENCE_CLAIM_MS: u64 = 60_000;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "seat", rename_all = "snake_case")]
pub enum EndReason {
    /// Over by the rules: the scores decide.
    Finished,
    /// The seat resigned.
    Resigned(usize),
    /// The seat ran out of time.
    Time(usize),
    /// The seat left a live game and its opponent claimed the win.
    Left(usize),
    /// Drawn by agreement.
    Agreed,
    /// The seat aborted it: no result.
    Aborted(usize),
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// Why it ended.
    pub reason: EndReason,
    /// Each seat's score (lower is better); `None` for an aborted game.
    pub scores: Option<Vec<u32>>,
    /// The winning seat, `None` for a draw or an aborted game.
    pub winner: Option<usize>,
}

/// A move as played, with the time it was stamped and what its player had left after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedMove {
    /// The seat that moved.
    pub seat: usize,
    /// The move as the game writes it.
    pub text: String,
    /// When (milliseconds since the Unix epoch).
    pub at_ms: u64,
    /// The time its player had left after it.
    pub left_ms: u64,
}

/// Why an action changes nothing, in words a player understands.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// You are not playing in this game.
    #[error("you are not playing in this game")]
    NotPlaying,
    /// It is not your turn.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The move is not legal here, and why.
    #[error("that move is not legal here: {0}")]
    Illegal(String),
    /// The game moved on since the sender saw it (a move sent twice, or late).
    #[error(
        "the game has moved on: this move was sent for move {sent}, and {now} moves are played; reload the game"
    )]
    Stale {
        /// The ply the move was sent for.
        sent: usize,
        /// The moves played now.
        now: usize,
    },
    /// This game cannot be drawn by agreement.
    #[error("this game cannot be drawn by agreement")]
    NoDraws,
    /// There is no draw offer to answer.
    #[error("there is no draw offer to answer")]
    NoOffer,
    /// You cannot answer your own draw offer.
    #[error("you cannot answer your own draw offer")]
    OwnOffer,
    /// You have already offered a draw.
    #[error("you have already offered a draw")]
    AlreadyOffered,
    /// A game can be aborted only before each player's first move.
    #[error("a game can be aborted only before each player's first move")]
    TooLateToAbort,
    /// No win to claim: not a live game, or the opponent not away long enough.
    #[error("the win can be claimed only in a live game whose opponent has been away {}s", ABSENCE_CLAIM_MS / 1000)]
    NoClaim,
}

/// A game's state: its board and clocks after its events.
pub struct GameState {
    spec: GameSpec,
    board: Box<dyn Board>,
    can_draw: bool,
    start_ms: u64,
    events: u64,
    moves: Vec<PlayedMove>,
    clocks: Vec<u64>,
    turn_started_ms: u64,
    offer: Option<usize>,
    ending: Option<Ending>,
}

/// A stored event the rules cannot replay: the record is damaged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("event {seq} of the stored game cannot be replayed: {reason}")]
pub struct Corrupt {
    /// The event that cannot be replayed.
    pub seq: u64,
    /// Why, in the game's words.
    pub reason: String,
}

impl GameState {
    /// A game of `spec` started at `start_ms`, with no event yet.
    pub fn new(variant: &dyn Variant, spec: GameSpec, start_ms: u64) -> Result<GameState, String> {
        let board = variant.start(&spec.rules)?;
        let clocks = vec![spec.time.start_ms(); board.seats()];
        Ok(GameState {
            can_draw: variant.can_draw(),
            board,
            spec,
            start_ms,
            events: 0,
            moves: Vec::new(),
            clocks,
            turn_started_ms: start_ms,
            offer: None,
            ending: None,
        })
    }

    /// The state after `events`, in order from 0.
    pub fn replay(
        variant: &dyn Variant,
        spec: GameSpec,
        start_ms: u64,
        events: &[Event],
    ) -> Result<GameState, Corrupt> {
        let mut state =
            GameState::new(variant, spec, start_ms).map_err(|reason| Corrupt { seq: 0, reason })?;
        for event in events {
            state.apply(event).map_err(|reason| Corrupt {
                seq: event.seq,
                reason,
            })?;
        }
        Ok(state)
    }

    /// Adds one event: the only way the state changes.
    fn apply(&mut self, event: &Event) -> Result<(), String> {
        if event.seq != self.events {
            return Err(format!("expected event {}", self.events));
        }
        if self.ending.is_some() {
            return Err("the game was already over".into());
        }
        let seat = event.seat;
        // A stored seat is checked like everything else read back: a damaged record is refused
        // at its event, never an index out of range.
        if seat.is_some_and(|s| s >= self.board.seats()) {
            return Err(format!(
                "the event names seat {seat:?} of {}",
                self.board.seats()
            ));
        }
        let need_seat = || seat.ok_or_else(|| "the event names no seat".to_string());
        match &event.kind {
            EventKind::Move { text } => {
                let mover = self.board.to_move().ok_or("the game was over")?;
                if seat != Some(mover) {
                    return Err(format!("seat {mover} was to move"));
                }
                let spent = event.at_ms.saturating_sub(self.turn_started_ms);
                let written = self.board.play(text)?;
                self.clocks[mover] = self.spec.time.after_move(self.clocks[mover], spent);
                self.turn_started_ms = event.at_ms;
                self.moves.push(PlayedMove {
                    seat: mover,
                    text: written,
                    at_ms: event.at_ms,
                    left_ms: self.clocks[mover],
                });
                // An offer stands until its opponent's next move has been answered by a move.
                if self.offer.is_some_and(|offerer| offerer != mover) {
                    self.offer = None;
                }
                if let Some(scores) = self.board.scores() {
                    let winner = sole_lowest(&scores);
                    self.ending = Some(Ending {
                        reason: EndReason::Finished,
                        scores: Some(scores),
                        winner,
                    });
                }
            }
            EventKind::Resign => self.forfeit(need_seat()?, EndReason::Resigned),
            EventKind::Timeout => self.forfeit(need_seat()?, EndReason::Time),
            EventKind::ClaimWin => {
                let claimant = need_seat()?;
                let away = self.board.to_move().ok_or("the game was over")?;
                if away == claimant {
                    return Err("the claimant was to move".into());
                }
                self.forfeit(away, EndReason::Left);
            }
            EventKind::OfferDraw => self.offer = Some(need_seat()?),
            EventKind::DeclineDraw => self.offer = None,
            EventKind::AcceptDraw => {
                self.offer = None;
                self.ending = Some(Ending {
                    reason: EndReason::Agreed,
                    scores: Some(vec![0; self.board.seats()]),
                    winner: None,
                });
            }
            EventKind::Abort => {
                self.ending = Some(Ending {
                    reason: EndReason::Aborted(need_seat()?),
                    scores: None,
                    winner: None,
                })
            }
            EventKind::Resume => self.turn_started_ms = event.at_ms,
        }
        self.events += 1;
        Ok(())
    }

    /// The seat `loser` loses: it scores the game's forfeit, its opponents 0.
    fn forfeit(&mut self, loser: usize, reason: fn(usize) -> EndReason) {
        let mut scores = vec![0; self.board.seats()];
        scores[loser] = self.board.forfeit_score();
        let winner = (self.board.seats() == 2).then_some(1 - loser);
        self.ending = Some(Ending {
            reason: reason(loser),
            scores: Some(scores),
            winner,
        });
    }

    /// The events `action` by `seat` at `now_ms` adds, or why it changes nothing. A game whose
    /// mover's time is up is over: call [`GameState::timeout`] first.
    pub fn decide(&self, seat: usize, action: &Action, now_ms: u64) -> Result<Vec<Event>, Refusal> {
        if seat >= self.board.seats() {
            return Err(Refusal::NotPlaying);
        }
        if self.ending.is_some() {
            return Err(Refusal::Over);
        }
        let event = |kind| Event {
            seq: self.events,
            seat: Some(seat),
            kind,
            at_ms: now_ms,
        };
        let kind = match action {
            Action::Move { text, ply } => {
                if *ply != self.moves.len() {
                    return Err(Refusal::Stale {
                        sent: *ply,
                        now: self.moves.len(),
                    });
                }
                if self.board.to_move() != Some(seat) {
                    return Err(Refusal::NotYourTurn);
                }
                return self.moves_from(seat, text, now_ms);
            }
            Action::Resign => EventKind::Resign,
            Action::OfferDraw if !self.can_draw => return Err(Refusal::NoDraws),
            Action::OfferDraw if self.offer == Some(seat) => return Err(Refusal::AlreadyOffered),
            // Offering while the opponent's offer stands is accepting it.
            Action::OfferDraw if self.offer.is_some() => EventKind::AcceptDraw,
            Action::OfferDraw => EventKind::OfferDraw,
            Action::AcceptDraw | Action::DeclineDraw if self.offer.is_none() => {
                return Err(Refusal::NoOffer);
            }
            Action::AcceptDraw | Action::DeclineDraw if self.offer == Some(seat) => {
                return Err(Refusal::OwnOffer);
            }
            Action::AcceptDraw => EventKind::AcceptDraw,
            Action::DeclineDraw => EventKind::DeclineDraw,
            Action::Abort if !self.may_abort(seat) => return Err(Refusal::TooLateToAbort),
            Action::Abort => EventKind::Abort,
            Action::ClaimWin { away_ms } => {
                let opponent_to_move = self.board.to_move().is_some_and(|s| s != seat);
                if !self.spec.time.is_live() || !opponent_to_move || *away_ms < ABSENCE_CLAIM_MS {
                    return Err(Refusal::NoClaim);
                }
                EventKind::ClaimWin
            }
        };
        Ok(vec![event(kind)])
    }

    /// The move `text` for `seat`, then any forced passes after it, as events (checked by
    /// playing them on a copy of the board).
    fn moves_from(&self, seat: usize, text: &str, now_ms: u64) -> Result<Vec<Event>, Refusal> {
        let mut board = self.board.copy();
        let written = board.play(text).map_err(Refusal::Illegal)?;
        let mut events = vec![Event {
            seq: self.events,
            seat: Some(seat),
            kind: EventKind::Move { text: written },
            at_ms: now_ms,
        }];
        while let (Some(pass), Some(mover)) = (board.forced_pass(), board.to_move()) {
            if board.play(&pass).is_err() || events.len() > 2 * board.seats() {
                break;
            }
            events.push(Event {
                seq: self.events + events.len() as u64,
                seat: Some(mover),
                kind: EventKind::Move { text: pass },
                at_ms: now_ms,
            });
        }
        Ok(events)
    }

    /// Whether `seat` may still abort: before each seat's first move.
    pub fn may_abort(&self, seat: usize) -> bool {
        self.ending.is_none()
            && seat < self.board.seats()
            && self.moves.iter().filter(|m| m.seat == seat).count() == 0
    }

    /// The timeout event when the seat to move has no time left at `now_ms`.
    pub fn timeout(&self, now_ms: u64) -> Option<Event> {
        let mover = self.board.to_move()?;
        if self.ending.is_some() || now_ms < self.flag_at_ms()? {
            return None;
        }
        Some(Event {
            seq: self.events,
            seat: Some(mover),
            kind: EventKind::Timeout,
            at_ms: now_ms,
        })
    }

    /// When the mover's time runs out, if the game is in play.
    pub fn flag_at_ms(&self) -> Option<u64> {
        let mover = self.board.to_move()?;
        if self.ending.is_some() {
            return None;
        }
        let limit = self.spec.time.turn_limit_ms(self.clocks[mover]);
        Some(self.turn_started_ms.saturating_add(limit))
    }

    /// Each seat's time left at `now_ms` (the mover's running down).
    pub fn clocks_at(&self, now_ms: u64) -> Vec<u64> {
        let mut clocks = self.clocks.clone();
        if let (None, Some(mover), Some(flag)) =
            (&self.ending, self.board.to_move(), self.flag_at_ms())
        {
            clocks[mover] = flag.saturating_sub(now_ms.max(self.turn_started_ms));
            if !self.spec.time.is_live() {
                clocks[mover] = clocks[mover].min(self.spec.time.start_ms());
            }
        }
        clocks
    }

    /// The settings.
    pub fn spec(&self) -> &GameSpec {
        &self.spec
    }

    /// The moves played.
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// The number of events so far: the next one's `seq`.
    pub fn events(&self) -> u64 {
        self.events
    }

    /// The seat to move, `None` once over.
    pub fn to_move(&self) -> Option<usize> {
        if self.ending.is_some() {
            None
        } else {
            self.board.to_move()
        }
    }

    /// The seat whose draw offer stands.
    pub fn offer(&self) -> Option<usize> {
        self.offer
    }

    /// How it ended, once over.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// The number of seats.
    pub fn seats(&self) -> usize {
        self.board.seats()
    }

    /// The start time.
    pub fn start_ms(&self) -> u64 {
        self.start_ms
    }

    /// The game as its record file (see [`Board::record`]).
    pub fn record(&self, names: &[String], round: String, comment: String) -> String {
        self.board.record(names, round, comment)
    }

    /// What the score counts and its unit.
    pub fn score_words(&self) -> (&'static str, &'static str) {
        self.board.score_words()
    }
}

/// The seat with the lowest score if it is the only one.
fn sole_lowest(scores: &[u32]) -> Option<usize> {
    let lowest = *scores.iter().min()?;
    let mut seats = scores.iter().enumerate().filter(|(_, s)| **s == lowest);
    let (seat, _) = seats.next()?;
    seats.next().is_none().then_some(seat)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::toy::Nim;

    fn spec(rules: &str, time: &str) -> GameSpec {
        GameSpec {
            variant: "nim".into(),
            rules: rules.into(),
            time: time.parse().unwrap(),
            rated: false,
        }
    }

    /// Decides `action` for `seat` at `at` and applies its events; the refusal if any.
    fn act(state: &mut GameState, seat: usize, action: Action, at: u64) -> Result<(), Refusal> {
        for event in state.decide(seat, &action, at)? {
            state.apply(&event).unwrap();
        }
        Ok(())
    }

    fn mv(text: &str, ply: usize) -> Action {
        Action::Move {
            text: text.into(),
            ply,
        }
    }

    #[test]
    fn moves_are_checked_and_the_scores_decide() {
        let mut game = GameState::new(&Nim, spec("plain", "1+0"), 0).unwrap();
        assert_eq!(act(&mut game, 1, mv("1", 0), 10), Err(Refusal::NotYourTurn));
        assert!(matches!(
            act(&mut game, 0, mv("3", 0), 10),
            Err(Refusal::Illegal(_))
        ));
        assert_eq!(act(&mut game, 2, mv("1", 0), 10), Err(Refusal::NotPlaying));
        assert_eq!(game.events(), 0, "a refusal changes nothing");
        for (ply, take) in ["2", "2", "2", "1"].iter().enumerate() {
            act(&mut game, ply % 2, mv(take, ply), 100 * ply as u64).unwrap();
        }
        let ending = game.ending().unwrap();
        assert_eq!(ending.reason, EndReason::Finished);
        assert_eq!(
            (ending.scores.clone(), ending.winner),
            (Some(vec![1, 0]), Some(1))
        );
        assert_eq!(act(&mut game, 0, Action::Resign, 500), Err(Refusal::Over));
    }

    #[test]
    fn a_move_sent_twice_or_late_is_refused() {
        let mut game = GameState::new(&Nim, spec("plain", "1+0"), 0).unwrap();
        act(&mut game, 0, mv("1", 0), 5).unwrap();
        assert_eq!(
            act(&mut game, 0, mv("1", 0), 6),
            Err(Refusal::Stale { sent: 0, now: 1 })
        );
        assert_eq!(game.moves().len(), 1);
    }

    #[test]
    fn the_clock_runs_for_the_mover_and_flags() {
        // 1 minute + 2 seconds: seat 0 spends 10 s, gains 2.
        let mut game = GameState::new(&Nim, spec("plain", "1+2"), 1_000).unwrap();
        act(&mut game, 0, mv("1", 0), 11_000).unwrap();
        assert_eq!(game.clocks_at(11_000), vec![52_000, 60_000]);
        assert_eq!(game.clocks_at(41_000), vec![52_000, 30_000]);
        assert_eq!(game.flag_at_ms(), Some(71_000));
        assert!(game.timeout(70_999).is_none());
        let flag = game.timeout(71_000).unwrap();
        assert_eq!((flag.seat, &flag.kind), (Some(1), &EventKind::Timeout));
        game.apply(&flag).unwrap();
        let ending = game.ending().unwrap();
        assert_eq!(ending.reason, EndReason::Time(1));
        assert_eq!(
            (ending.scores.clone(), ending.winner),
            (Some(vec![0, 7]), Some(0))
        );
    }

    #[test]
    fn a_resume_restarts_the_turn_without_its_time_so_far() {
        let mut game = GameState::new(&Nim, spec("plain", "1+0"), 0).unwrap();
        let resume = Event {
            seq: 0,
            seat: None,
            kind: EventKind::Resume,
            at_ms: 50_000,
        };
        game.apply(&resume).unwrap();
        assert_eq!(game.flag_at_ms(), Some(110_000));
    }

    #[test]
    fn draws_resignations_aborts_and_claims_follow_their_rules() {
        let mut game = GameState::new(&Nim, spec("plain", "5+0"), 0).unwrap();
        assert_eq!(
            act(&mut game, 1, Action::AcceptDraw, 1),
            Err(Refusal::NoOffer)
        );
        act(&mut game, 0, Action::OfferDraw, 1).unwrap();
        assert_eq!(
            act(&mut game, 0, Action::OfferDraw, 2),
            Err(Refusal::AlreadyOffered)
        );
        assert_eq!(
            act(&mut game, 0, Action::AcceptDraw, 2),
            Err(Refusal::OwnOffer)
        );
        act(&mut game, 1, Action::DeclineDraw, 3).unwrap();
        assert_eq!(game.offer(), None);
        act(&mut game, 0, mv("1", 0), 4).unwrap();
        assert!(game.may_abort(1) && !game.may_abort(0));
        assert_eq!(
            act(&mut game, 0, Action::Abort, 5),
            Err(Refusal::TooLateToAbort)
        );
        assert_eq!(
            act(&mut game, 0, Action::ClaimWin { away_ms: 120_000 }, 5),
            Ok(()),
            "seat 1 is to move and away"
        );
        assert_eq!(game.ending().unwrap().reason, EndReason::Left(1));

        let mut drawn = GameState::new(&Nim, spec("plain", "5+0"), 0).unwrap();
        act(&mut drawn, 1, Action::OfferDraw, 1).unwrap();
        // An offer while the other's stands accepts it.
        act(&mut drawn, 0, Action::OfferDraw, 2).unwrap();
        assert_eq!(drawn.ending().unwrap().reason, EndReason::Agreed);
        assert_eq!(drawn.ending().unwrap().winner, None);

        let mut short = GameState::new(&Nim, spec("plain", "5+0"), 0).unwrap();
        assert_eq!(
            act(&mut short, 0, Action::ClaimWin { away_ms: 1_000 }, 1),
            Err(Refusal::NoClaim)
        );
        act(&mut short, 1, Action::Resign, 1).unwrap();
        assert_eq!(short.ending().unwrap().winner, Some(0));
    }

    #[test]
    fn a_forced_pass_is_played_with_the_move_before_it() {
        let mut game = GameState::new(&Nim, spec("pass", "1d"), 0).unwrap();
        for (ply, take) in ["2", "2", "2"].iter().enumerate() {
            act(&mut game, ply % 2, mv(take, ply), 1).unwrap();
        }
        // Seat 1 faces one stone and must pass: the server played it with seat 0's move.
        assert_eq!(game.moves().last().unwrap().text, "pass");
        assert_eq!(game.moves().len(), 4);
        assert_eq!(game.to_move(), Some(0));
    }

    #[test]
    fn a_damaged_record_is_refused_at_its_event() {
        let events = vec![
            Event {
                seq: 0,
                seat: Some(0),
                kind: EventKind::Move { text: "2".into() },
                at_ms: 1,
            },
            Event {
                seq: 1,
                seat: Some(0),
                kind: EventKind::Move { text: "2".into() },
                at_ms: 2,
            },
        ];
        let error = GameState::replay(&Nim, spec("plain", "1+0"), 0, &events)
            .err()
            .unwrap();
        assert_eq!(error.seq, 1);
        // A seat the game does not have.
        let by_nobody = [Event {
            seq: 0,
            seat: Some(7),
            kind: EventKind::Resign,
            at_ms: 1,
        }];
        assert!(GameState::replay(&Nim, spec("plain", "1+0"), 0, &by_nobody).is_err());
    }
}
