//! The buildings: names, sizes, how many each player owns, and their shapes.

use crate::cathedral::player::Player;
use std::fmt;
use std::str::FromStr;

/// A kind of building. The first eleven belong to both players; the Cathedral is neutral.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Piece {
    /// One square; two in each set.
    Tavern = 0,
    /// Two squares in a line; two in each set.
    Stable = 1,
    /// Three squares in an L; two in each set.
    Inn = 2,
    /// Three squares in a line.
    Bridge = 3,
    /// Four squares in a 2x2 block.
    Square = 4,
    /// Four squares in a T.
    Manor = 5,
    /// Four squares in a zigzag, mirrored between Light and Dark.
    Abbey = 6,
    /// Five squares in a plus sign.
    Infirmary = 7,
    /// Five squares in a U.
    Castle = 8,
    /// Five squares in a staircase.
    Tower = 9,
    /// Five squares in an F shape, mirrored between Light and Dark.
    Academy = 10,
    /// The neutral six-square cross that Light places first; it belongs to neither player.
    Cathedral = 11,
}

/// Number of building kinds a player owns (every kind but the Cathedral).
pub const PLAYER_PIECES: usize = 11;

/// Buildings in one player's full set, counting duplicates.
pub const BUILDINGS_PER_PLAYER: usize = 14;

/// Squares in one player's full set.
pub const SQUARES_PER_PLAYER: u32 = 47;

impl Piece {
    /// The eleven kinds a player owns, smallest first.
    pub const PLAYER_KINDS: [Piece; PLAYER_PIECES] = {
        let mut kinds = [Piece::Tavern; PLAYER_PIECES];
        let mut i = 0;
        while i < PLAYER_PIECES {
            kinds[i] = Piece::ALL[i];
            i += 1;
        }
        kinds
    };

    /// Every kind including the Cathedral.
    pub const ALL: [Piece; 12] = [
        Piece::Tavern,
        Piece::Stable,
        Piece::Inn,
        Piece::Bridge,
        Piece::Square,
        Piece::Manor,
        Piece::Abbey,
        Piece::Infirmary,
        Piece::Castle,
        Piece::Tower,
        Piece::Academy,
        Piece::Cathedral,
    ];

    /// Position in [`Piece::ALL`], for indexing per-kind arrays such as a [`Hand`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind at `index` in [`Piece::ALL`]; panics if `index` is 12 or more.
    #[inline]
    pub const fn from_index(index: usize) -> Piece {
        Piece::ALL[index]
    }

    /// Squares the building covers.
    #[inline]
    pub const fn size(self) -> u32 {
        match self {
            Piece::Tavern => 1,
            Piece::Stable => 2,
            Piece::Inn | Piece::Bridge => 3,
            Piece::Square | Piece::Manor | Piece::Abbey => 4,
            Piece::Infirmary | Piece::Castle | Piece::Tower | Piece::Academy => 5,
            Piece::Cathedral => 6,
        }
    }

    /// How many of this building a player's set holds (the Cathedral: one in the game).
    #[inline]
    pub const fn set_count(self) -> u8 {
        match self {
            Piece::Tavern | Piece::Stable | Piece::Inn => 2,
            _ => 1,
        }
    }

    /// Lower-case name used in files and notation.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Tavern => "tavern",
            Piece::Stable => "stable",
            Piece::Inn => "inn",
            Piece::Bridge => "bridge",
            Piece::Square => "square",
            Piece::Manor => "manor",
            Piece::Abbey => "abbey",
            Piece::Infirmary => "infirmary",
            Piece::Castle => "castle",
            Piece::Tower => "tower",
            Piece::Academy => "academy",
            Piece::Cathedral => "cathedral",
        }
    }

    /// Capitalised name for prose.
    pub const fn title(self) -> &'static str {
        match self {
            Piece::Tavern => "Tavern",
            Piece::Stable => "Stable",
            Piece::Inn => "Inn",
            Piece::Bridge => "Bridge",
            Piece::Square => "Square",
            Piece::Manor => "Manor",
            Piece::Abbey => "Abbey",
            Piece::Infirmary => "Infirmary",
            Piece::Castle => "Castle",
            Piece::Tower => "Tower",
            Piece::Academy => "Academy",
            Piece::Cathedral => "Cathedral",
        }
    }

    /// Two-letter code used on the board diagram.
    pub const fn code(self) -> &'static str {
        match self {
            Piece::Tavern => "Tv",
            Piece::Stable => "St",
            Piece::Inn => "In",
            Piece::Bridge => "Br",
            Piece::Square => "Sq",
            Piece::Manor => "Mn",
            Piece::Abbey => "Ab",
            Piece::Infirmary => "If",
            Piece::Castle => "Cs",
            Piece::Tower => "Tw",
            Piece::Academy => "Ac",
            Piece::Cathedral => "CA",
        }
    }

    /// The shape as drawn with rank 10 at the top, `#` for a covered square. The Abbey and the
    /// Academy are mirror images between the colours; `owner` is ignored for the other pieces.
    pub const fn drawing(self, owner: Player) -> &'static [&'static str] {
        match (self, owner) {
            (Piece::Tavern, _) => &["#"],
            (Piece::Stable, _) => &["##"],
            (Piece::Inn, _) => &["##", "#."],
            (Piece::Bridge, _) => &["###"],
            (Piece::Square, _) => &["##", "##"],
            (Piece::Manor, _) => &["###", ".#."],
            (Piece::Abbey, Player::Dark) => &["##.", ".##"],
            (Piece::Abbey, Player::Light) => &[".##", "##."],
            (Piece::Infirmary, _) => &[".#.", "###", ".#."],
            (Piece::Castle, _) => &["#.#", "###"],
            (Piece::Tower, _) => &["#..", "##.", ".##"],
            (Piece::Academy, Player::Dark) => &[".##", "##.", ".#."],
            (Piece::Academy, Player::Light) => &["##.", ".##", ".#."],
            (Piece::Cathedral, _) => &[".#.", "###", ".#.", ".#."],
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a building: expected one of tavern, stable, inn, bridge, square, manor, abbey, \
     infirmary, castle, tower, academy, cathedral"
)]
pub struct ParsePieceError(pub String);

impl FromStr for Piece {
    type Err = ParsePieceError;
    fn from_str(s: &str) -> Result<Piece, ParsePieceError> {
        let lower = s.trim().to_ascii_lowercase();
        Piece::ALL
            .into_iter()
            .find(|p| p.name() == lower)
            .ok_or_else(|| ParsePieceError(s.to_string()))
    }
}

impl serde::Serialize for Piece {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Piece {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Piece, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// How many of each of the eleven kinds a player holds, indexed by [`Piece::index`].
///
/// ```
/// use cathedral::{Hand, Piece, SQUARES_PER_PLAYER};
///
/// let mut hand = Hand::FULL;
/// assert_eq!((hand.buildings(), hand.squares()), (14, SQUARES_PER_PLAYER));
/// hand.remove(Piece::Tavern);
/// assert_eq!(hand.count(Piece::Tavern), 1);
/// assert_eq!(hand.squares(), SQUARES_PER_PLAYER - Piece::Tavern.size());
/// assert_eq!(Piece::Cathedral.size(), 6);
/// assert!(Hand::EMPTY.is_empty());
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Hand(pub(crate) [u8; PLAYER_PIECES]);

impl Hand {
    /// No buildings at all.
    pub const EMPTY: Hand = Hand([0; PLAYER_PIECES]);

    /// The full set: two Taverns, two Stables, two Inns, one of each other building.
    pub const FULL: Hand = Hand([2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1]);

    /// How many of `piece` the hand holds.
    #[inline]
    pub const fn count(&self, piece: Piece) -> u8 {
        self.0[piece.index()]
    }

    /// Puts one more `piece` in the hand, as when a captured building returns to its owner.
    #[inline]
    pub fn add(&mut self, piece: Piece) {
        self.0[piece.index()] += 1;
    }

    /// Takes one `piece` out of the hand, as when it is placed; panics if none is held.
    #[inline]
    pub fn remove(&mut self, piece: Piece) {
        self.0[piece.index()] -= 1;
    }

    /// Squares of the buildings in hand: the player's score (lower is better).
    pub fn squares(&self) -> u32 {
        Piece::PLAYER_KINDS
            .iter()
            .map(|p| p.size() * self.count(*p) as u32)
            .sum()
    }

    /// Number of buildings in hand, counting duplicates.
    pub fn buildings(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    /// Whether every building has been placed.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Kinds held at least once, smallest first.
    pub fn kinds(&self) -> impl Iterator<Item = Piece> + '_ {
        Piece::PLAYER_KINDS
            .into_iter()
            .filter(|p| self.count(*p) > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_set_is_fourteen_buildings_of_47_squares() {
        assert_eq!(Hand::FULL.buildings() as usize, BUILDINGS_PER_PLAYER);
        assert_eq!(Hand::FULL.squares(), SQUARES_PER_PLAYER);
        for piece in Piece::PLAYER_KINDS {
            assert_eq!(Hand::FULL.count(piece), piece.set_count());
        }
    }

    #[test]
    fn drawings_match_sizes() {
        for piece in Piece::ALL {
            for player in Player::BOTH {
                let squares: usize = piece
                    .drawing(player)
                    .iter()
                    .map(|row| row.bytes().filter(|&b| b == b'#').count())
                    .sum();
                assert_eq!(squares as u32, piece.size(), "{piece}");
            }
        }
    }

    #[test]
    fn names_parse() {
        for piece in Piece::ALL {
            assert_eq!(piece.name().parse::<Piece>(), Ok(piece));
        }
        assert!("church".parse::<Piece>().is_err());
    }
}
