//! The play server's socket messages (`cathedral::play::ClientMessage`): any bytes are read or
//! refused in words, and an action that is read is decided on a Cathedral game without a panic.

#![no_main]

use cathedral::play::{ClientMessage, GameSpec, GameState, TwoPlayer};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match ClientMessage::parse(text) {
        Err(words) => assert!(!words.is_empty()),
        Ok(ClientMessage::Act { action, .. }) => {
            let variant = TwoPlayer::<cathedral::Position>::new("cathedral", "classic", true);
            let spec = GameSpec {
                variant: "cathedral".into(),
                rules: "classic".into(),
                time: "5+3".parse().unwrap(),
                rated: false,
            };
            let game = GameState::new(&variant, spec, 0).unwrap();
            for seat in 0..3 {
                let _ = game.decide(seat, &action, 1_000);
            }
        }
        Ok(_) => {}
    }
});
