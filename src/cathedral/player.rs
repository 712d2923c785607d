//! The two players.

use std::fmt;
use std::str::FromStr;

/// A player. Light places the Cathedral, Dark makes the first building move.
///
/// ```
/// use cathedral::Player;
///
/// assert_eq!(Player::Light.opponent(), Player::Dark);
/// assert_eq!("dark".parse::<Player>()?, Player::Dark);
/// // In files and notation `dark`, in prose `Dark`.
/// assert_eq!((Player::Dark.name(), Player::Dark.to_string().as_str()), ("dark", "Dark"));
/// assert_eq!(Player::BOTH.map(Player::index), [0, 1]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Player {
    /// The player who places the Cathedral at the start of the game.
    Light = 0,
    /// The player who makes the first building move, after the Cathedral is placed.
    Dark = 1,
}

impl Player {
    /// Both players, Light first.
    pub const BOTH: [Player; 2] = [Player::Light, Player::Dark];

    /// `0` for Light, `1` for Dark: for indexing per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        match self {
            Player::Light => Player::Dark,
            Player::Dark => Player::Light,
        }
    }

    /// Lower-case name as used in files and notation: `light`, `dark`.
    pub const fn name(self) -> &'static str {
        match self {
            Player::Light => "light",
            Player::Dark => "dark",
        }
    }

    /// Capitalised name for prose: `Light`, `Dark`.
    pub const fn title(self) -> &'static str {
        match self {
            Player::Light => "Light",
            Player::Dark => "Dark",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a player: expected `light` or `dark`")]
pub struct ParsePlayerError(pub String);

impl FromStr for Player {
    type Err = ParsePlayerError;
    fn from_str(s: &str) -> Result<Player, ParsePlayerError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "light" | "white" => Ok(Player::Light),
            "dark" | "black" => Ok(Player::Dark),
            _ => Err(ParsePlayerError(s.to_string())),
        }
    }
}

impl serde::Serialize for Player {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Player {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Player, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
