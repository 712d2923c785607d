//! What a client sends on the play server's socket (`docs/play.md`, "The socket"), read from its
//! text: every message is one of these or refused in words, never a panic, whatever the bytes.

use super::game::Action;
use super::server::ChallengeRequest;
use serde::Deserialize;

/// The largest message read, in bytes.
pub const MAX_MESSAGE: usize = 16 * 1024;

/// A client's message. `reference` is the client's own number, sent back with the answer.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    /// Send the game's view now and after every change.
    Watch {
        /// The game.
        game: String,
        /// The client's number for it.
        #[serde(rename = "ref")]
        reference: Option<u64>,
    },
    /// No more views of the game.
    Unwatch {
        /// The game.
        game: String,
        /// The client's number for it.
        #[serde(rename = "ref")]
        reference: Option<u64>,
    },
    /// An action in a game.
    Act {
        /// The game.
        game: String,
        /// What to do.
        action: Action,
        /// The client's number for it.
        #[serde(rename = "ref")]
        reference: Option<u64>,
    },
    /// The open challenges this player may accept (and their own).
    Challenges {
        /// The client's number for it.
        #[serde(rename = "ref")]
        reference: Option<u64>,
    },
    /// A new challenge, as `POST /play/api/challenges` takes it.
    Challenge {
        /// The challenge.
        request: ChallengeRequest,
        /// The client's number for it.
        #[serde(rename = "ref")]
        reference: Option<u64>,
    },
    /// Accept, decline or cancel a challenge.
    Answer {
        /// The challenge.
        challenge: String,
        /// `accept`, `decline` or `cancel`.
        verb: String,
        /// The client's number for it.
        #[serde(rename = "ref")]
        reference: Option<u64>,
    },
    /// Is the server there?
    Ping {
        /// The client's number for it.
        #[serde(rename = "ref")]
        reference: Option<u64>,
    },
}

impl ClientMessage {
    /// Reads one message, or says why it is not one.
    ///
    /// ```
    /// use cathedral::play::ClientMessage;
    /// assert!(matches!(ClientMessage::parse(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping { .. })));
    /// assert!(ClientMessage::parse(r#"{"type":"teleport"}"#).is_err());
    /// ```
    pub fn parse(text: &str) -> Result<ClientMessage, String> {
        if text.len() > MAX_MESSAGE {
            return Err(format!("a message is at most {} KiB", MAX_MESSAGE / 1024));
        }
        serde_json::from_str(text).map_err(|e| format!("not a message of the play socket: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::toy::Nim;
    use crate::play::{GameSpec, GameState};
    use proptest::prelude::*;

    const SEEDS: [&str; 4] = [
        r#"{"type":"act","game":"g","action":{"action":"move","text":"1","ply":0},"ref":3}"#,
        r#"{"type":"watch","game":"abc"}"#,
        r#"{"type":"challenge","request":{"game":"nim","time":"5+3","to":"x"}}"#,
        r#"{"type":"act","game":"g","action":{"action":"claim_win","away_ms":99}}"#,
    ];

    proptest! {
        /// Any text, and any damage to a good message, is read or refused: never a panic; an
        /// action that is read is decided on a game without a panic either.
        #[test]
        fn no_text_panics_the_reader_or_the_game(seed in 0..SEEDS.len(), cut in 0usize..120, byte in any::<u8>(), at in 0usize..120, noise in ".{0,40}") {
            let mut bytes = SEEDS[seed].as_bytes().to_vec();
            if at < bytes.len() { bytes[at] = byte; }
            bytes.truncate(cut.max(1));
            let damaged = String::from_utf8_lossy(&bytes).to_string();
            for text in [damaged, noise.clone(), format!("{}{noise}", SEEDS[seed])] {
                if let Ok(ClientMessage::Act { action, .. }) = ClientMessage::parse(&text) {
                    let spec = GameSpec { variant: "nim".into(), rules: "plain".into(), time: "1+0".parse().unwrap(), rated: false };
                    let game = GameState::new(&Nim, spec, 0).unwrap();
                    let _ = game.decide(0, &action, 10);
                    let _ = game.decide(1, &action, 10);
                }
            }
        }
    }

    #[test]
    fn good_messages_are_read_and_unknown_fields_refused() {
        for seed in SEEDS {
            assert!(ClientMessage::parse(seed).is_ok(), "{seed}");
        }
        assert!(ClientMessage::parse(r#"{"type":"ping","extra":1}"#).is_err());
        assert!(
            ClientMessage::parse(&"x".repeat(MAX_MESSAGE + 1))
                .unwrap_err()
                .contains("KiB")
        );
    }
}
