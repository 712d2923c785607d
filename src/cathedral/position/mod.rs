//! A game state and the rules that change it: placing buildings, claiming regions, capturing.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::moves::{Move, MoveList, Spared};
use crate::cathedral::piece::{BUILDINGS_PER_PLAYER, Hand, Piece};
use crate::cathedral::placement::{Owner, Placement, PlacementId, table};
use crate::cathedral::player::Player;
use crate::cathedral::rules::{Capture, CathedralTiming, Claims, FirstMove, Pass, Rules};
use crate::cathedral::zobrist::{self, Key};

// The capture map and the position import each other: the map is the part of move generation
// that works out captures before a move (one idea, split for size); tests/layers.rs names the
// pair.
mod capture_map;
use capture_map::CaptureMap;

/// The piece kind of each building slot. Slots give every building on the board an identity, so
/// two Stables side by side are still two buildings.
pub const SLOT_PIECES: [Piece; BUILDINGS_PER_PLAYER] = {
    let mut slots = [Piece::Tavern; BUILDINGS_PER_PLAYER];
    let (mut slot, mut kind) = (0, 0);
    while kind < Piece::PLAYER_KINDS.len() {
        let mut copy = 0;
        while copy < Hand::FULL.0[kind] {
            slots[slot] = Piece::PLAYER_KINDS[kind];
            slot += 1;
            copy += 1;
        }
        kind += 1;
    }
    slots
};

/// The first slot of each player piece kind (indexed by [`Piece::index`]); a kind's slots are
/// `first..first + set_count`.
const FIRST_SLOT: [usize; Piece::PLAYER_KINDS.len()] = {
    let mut first = [0; Piece::PLAYER_KINDS.len()];
    let mut slot = BUILDINGS_PER_PLAYER;
    while slot > 0 {
        slot -= 1;
        first[SLOT_PIECES[slot] as usize] = slot;
    }
    first
};

#[inline]
const fn first_slot(piece: Piece) -> usize {
    FIRST_SLOT[piece as usize]
}

/// One player's part of the state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Side {
    /// Cells of the building in each slot; empty when that building is not on the board.
    pub buildings: [Bitboard; BUILDINGS_PER_PLAYER],
    /// Union of `buildings`.
    pub occupied: Bitboard,
    /// Empty cells this player has claimed. Never overlaps a building.
    pub territory: Bitboard,
    /// Buildings still to place.
    pub hand: Hand,
    /// Whether the player has made its first building move (which never claims).
    pub first_move_made: bool,
}

impl Side {
    /// A side at the start of a game: nothing on the board, every building in hand.
    pub const NEW: Side = Side {
        buildings: [Bitboard::EMPTY; BUILDINGS_PER_PLAYER],
        occupied: Bitboard::EMPTY,
        territory: Bitboard::EMPTY,
        hand: Hand::FULL,
        first_move_made: false,
    };
}

/// Where the Cathedral is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum CathedralStatus {
    /// Not placed yet: Light places it, on its first turn (before Dark's first move, or after it
    /// under `cathedral: after-first-move`).
    ToPlace,
    /// On the board, covering [`Position::cathedral`].
    OnBoard,
    /// Captured: out of the game for good.
    Gone,
}

/// A building on the board, for reports and files.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Building {
    /// `None` for the Cathedral.
    pub owner: Owner,
    /// The building's piece kind.
    pub piece: Piece,
    /// Cells the building covers.
    pub cells: Bitboard,
}

impl Building {
    /// "Dark Castle", "Cathedral".
    pub fn label(&self) -> String {
        match self.owner {
            Some(player) => format!("{} {}", player.title(), self.piece.title()),
            None => self.piece.title().to_string(),
        }
    }
}

/// `{player: dark, piece: castle, cells: [...]}`; the Cathedral's player is `cathedral`.
impl serde::Serialize for Building {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Building", 3)?;
        s.serialize_field("player", self.owner.map_or("cathedral", Player::name))?;
        s.serialize_field("piece", &self.piece)?;
        s.serialize_field("cells", &self.cells)?;
        s.end()
    }
}

impl std::fmt::Display for Building {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.label(), self.cells)
    }
}

/// Receives what a move claims, for explanations. The search uses `()`, which compiles to nothing.
pub trait ClaimSink {
    /// `region` became the mover's territory; `captured` was alone in it and was removed.
    fn claimed(&mut self, _region: Bitboard, _captured: Option<Building>) {}
    /// `region` held `building` alone, but the mover declined the capture (optional capture).
    fn spared(&mut self, _region: Bitboard, _building: Building) {}
    /// The captured building's [`Spared`] bit (opponent slot, or the Cathedral).
    fn captured_bit(&mut self, _bit: u16) {}
}

impl ClaimSink for () {}

/// What a move did, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClaimLog {
    /// Each region the move claimed, with the building captured in it, if any.
    pub claims: Vec<(Bitboard, Option<Building>)>,
    /// Each region left unclaimed because the mover spared the lone building in it.
    pub spared: Vec<(Bitboard, Building)>,
}

impl ClaimSink for ClaimLog {
    fn claimed(&mut self, region: Bitboard, captured: Option<Building>) {
        self.claims.push((region, captured));
    }
    fn spared(&mut self, region: Bitboard, building: Building) {
        self.spared.push((region, building));
    }
}

/// A complete game state.
///
/// ```
/// use cathedral::{MoveList, Player, Position, Rules};
/// use cathedral::legality::parse_move;
///
/// let mut position = Position::new(Rules::CLASSIC);
/// assert_eq!(position.to_move(), Player::Light);
/// assert!(position.places_cathedral(Player::Light));
/// position.play(parse_move(&position, "cathedral:e4,e5,d6,e6,f6,e7")?);
/// assert_eq!(position.cathedral().count(), 6);
/// assert_eq!(position.to_move(), Player::Dark);
/// // The key is kept up to date move by move: the same as one made afresh.
/// assert_eq!(position.key(), position.recompute_key());
/// assert!(!position.is_game_over() && position.winner().is_none());
/// # Ok::<(), cathedral::legality::MoveError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    sides: [Side; 2],
    cathedral: Bitboard,
    cathedral_status: CathedralStatus,
    to_move: Player,
    /// Passes in a row just before this position.
    passes: u8,
    rules: Rules,
    /// Zobrist key of everything above but the rules, kept up to date by every change.
    key: Key,
}

/// Buildings of one owner inside a region.
enum Inside {
    None,
    One(Building, Option<usize>),
    Several,
}

impl Position {
    /// The start of a game: empty board, Light to place the Cathedral (under
    /// `cathedral: after-first-move`, Dark to make the first move before it).
    pub fn new(rules: Rules) -> Position {
        let first = match rules.cathedral {
            CathedralTiming::First => Player::Light,
            CathedralTiming::AfterFirstMove => Player::Dark,
        };
        Position::from_parts(
            [Side::NEW; 2],
            Bitboard::EMPTY,
            CathedralStatus::ToPlace,
            first,
            0,
            rules,
        )
    }

    /// Builds a position from parts; the caller (the file loader) validates them.
    pub fn from_parts(
        sides: [Side; 2],
        cathedral: Bitboard,
        cathedral_status: CathedralStatus,
        to_move: Player,
        passes: u8,
        rules: Rules,
    ) -> Position {
        let mut position = Position {
            sides,
            cathedral,
            cathedral_status,
            to_move,
            passes,
            rules,
            key: Key::default(),
        };
        position.key = position.recompute_key();
        position
    }

    /// The position's 128-bit Zobrist key (see [`crate::Key`]).
    #[inline]
    pub fn key(&self) -> Key {
        self.key
    }

    /// The key computed from scratch; always equal to [`Position::key`].
    pub fn recompute_key(&self) -> Key {
        let mut key = Key::default();
        for player in Player::BOTH {
            let side = self.side(player);
            for (slot, &cells) in side.buildings.iter().enumerate() {
                key ^= zobrist::building(Some(player), SLOT_PIECES[slot], cells);
            }
            key ^= zobrist::territory(player, side.territory);
            for piece in Piece::PLAYER_KINDS {
                key ^= zobrist::hand(player, piece, side.hand.count(piece));
            }
            if side.first_move_made {
                key ^= zobrist::first_move_made(player);
            }
        }
        key ^= zobrist::building(None, Piece::Cathedral, self.cathedral);
        if self.cathedral_status == CathedralStatus::ToPlace {
            key ^= zobrist::cathedral_to_place();
        }
        if self.to_move == Player::Dark {
            key ^= zobrist::dark_to_move();
        }
        key ^= zobrist::passes(self.passes);
        key
    }

    /// `player`'s part of the state: buildings, territory, hand and first-move flag.
    #[inline]
    pub fn side(&self, player: Player) -> &Side {
        &self.sides[player.index()]
    }

    /// The player whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// The rule variant the game is played under.
    #[inline]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Passes in a row just before this position.
    #[inline]
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// Cells covered by the Cathedral; empty unless it is on the board.
    #[inline]
    pub fn cathedral(&self) -> Bitboard {
        self.cathedral
    }

    /// Where the Cathedral is: still to place, on the board, or captured.
    #[inline]
    pub fn cathedral_status(&self) -> CathedralStatus {
        self.cathedral_status
    }

    /// Every covered cell.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.sides[0].occupied | self.sides[1].occupied | self.cathedral
    }

    /// Squares of `player`'s buildings not on the board: the score, lower is better.
    pub fn unplaced_squares(&self, player: Player) -> u32 {
        self.side(player).hand.squares()
    }

    /// Buildings left per player: the larger of the two hands, counted in buildings (how the
    /// tiers of `docs/solver.md` and the evaluation's phases are measured).
    pub fn buildings_left(&self) -> u32 {
        Player::BOTH
            .iter()
            .map(|&p| self.side(p).hand.buildings())
            .max()
            .unwrap_or(0)
    }

    /// Buildings in both hands together: a move places at most one and a capture gives some
    /// back, so equal positions have the same number.
    pub fn buildings_in_hands(&self) -> u32 {
        Player::BOTH
            .iter()
            .map(|&p| self.side(p).hand.buildings())
            .sum()
    }

    /// Every building on the board: the Cathedral first, then Light's, then Dark's, by slot.
    pub fn buildings(&self) -> impl Iterator<Item = Building> + '_ {
        let cathedral = self.cathedral.any().then_some(Building {
            owner: None,
            piece: Piece::Cathedral,
            cells: self.cathedral,
        });
        cathedral
            .into_iter()
            .chain(Player::BOTH.into_iter().flat_map(move |player| {
                self.side(player)
                    .buildings
                    .iter()
                    .enumerate()
                    .filter(|(_, cells)| cells.any())
                    .map(move |(slot, &cells)| Building {
                        owner: Some(player),
                        piece: SLOT_PIECES[slot],
                        cells,
                    })
            }))
    }

    /// The building covering `cells` (any one of its cells is enough), if any.
    pub fn building_at(&self, cells: Bitboard) -> Option<Building> {
        self.buildings().find(|b| b.cells.intersects(cells))
    }

    /// Cells where `player` may place: empty and not the opponent's territory.
    #[inline]
    pub fn free_for(&self, player: Player) -> Bitboard {
        !(self.occupied() | self.side(player.opponent()).territory)
    }

    /// Whether the Cathedral is still to place: the game is at its start, before Light's
    /// placement of it (under `cathedral: after-first-move`, Dark's first move comes before).
    #[inline]
    pub fn cathedral_to_place(&self) -> bool {
        self.cathedral_status == CathedralStatus::ToPlace
    }

    /// Whether `player`'s placements now are the Cathedral's: Light's while it is to place.
    #[inline]
    pub fn places_cathedral(&self, player: Player) -> bool {
        self.cathedral_to_place() && player == Player::Light
    }

    /// Whether `player` may place nothing until Light has placed the Cathedral: Dark, unless
    /// under `cathedral: after-first-move` it has not made its first move yet.
    #[inline]
    pub fn waits_for_cathedral(&self, player: Player) -> bool {
        // Under Lehmann-Woods, Dark's first building comes before the Cathedral.
        let dark_builds_first = self.rules.cathedral == CathedralTiming::AfterFirstMove
            && !self.side(Player::Dark).first_move_made;
        self.cathedral_to_place() && player == Player::Dark && !dark_builds_first
    }

    /// Whether the player to move keeps the turn after `mv`: Light's placement of the Cathedral
    /// under `cathedral: after-first-move`, which comes along with its first building.
    #[inline]
    pub fn keeps_turn(&self, mv: Move) -> bool {
        self.rules.cathedral == CathedralTiming::AfterFirstMove
            && mv
                .placement()
                .is_some_and(|id| table().get(id).piece == Piece::Cathedral)
    }

    // ----- move generation -------------------------------------------------------------------

    /// Calls `f` with every legal placement of `player`, ignoring whose turn it is. Identical
    /// pieces (the two Taverns...) give each placement once.
    #[inline]
    fn for_each_placement(&self, player: Player, mut f: impl FnMut(PlacementId)) {
        let table = table();
        if self.places_cathedral(player) {
            let free = !self.occupied();
            for orientation in &table.piece(None, Piece::Cathedral).orientations {
                let mut anchors = orientation.anchors(free).0;
                while anchors != 0 {
                    f(orientation.placement_at_bit(anchors.trailing_zeros()));
                    anchors &= anchors - 1;
                }
            }
            return;
        }
        if self.waits_for_cathedral(player) {
            return;
        }
        let side = self.side(player);
        let free = self.free_for(player);
        let check_enclosure =
            !side.first_move_made && self.rules.first_move == FirstMove::NoEnclosure;
        for piece in side.hand.kinds() {
            for orientation in &table.piece(Some(player), piece).orientations {
                let mut anchors = orientation.anchors(free).0;
                while anchors != 0 {
                    let id = orientation.placement_at_bit(anchors.trailing_zeros());
                    anchors &= anchors - 1;
                    if check_enclosure && self.first_move_encloses(player, id) {
                        continue;
                    }
                    f(id);
                }
            }
        }
    }

    /// Under `first_move: no-enclosure`: whether placing `mask` as `player`'s first building
    /// would split the cells it does not cover into two or more regions.
    pub fn first_move_encloses(&self, player: Player, id: PlacementId) -> bool {
        let placement = table().get(id);
        let own = self.side(player).occupied;
        if own.is_empty() {
            return placement.splits_board;
        }
        let open = !(own | placement.mask);
        let seed = open.first_bit();
        Bitboard::fill8(seed, open) != open
    }

    /// Number of distinct legal placements `player` has now (whoever is to move).
    pub fn count_placements(&self, player: Player) -> u32 {
        if self.waits_for_cathedral(player) {
            return 0;
        }
        let check_enclosure = !self.places_cathedral(player)
            && !self.side(player).first_move_made
            && self.rules.first_move == FirstMove::NoEnclosure;
        if check_enclosure {
            let mut n = 0;
            self.for_each_placement(player, |_| n += 1);
            return n;
        }
        let table = table();
        if self.places_cathedral(player) {
            let free = !self.occupied();
            return table
                .piece(None, Piece::Cathedral)
                .orientations
                .iter()
                .map(|o| o.anchors(free).count())
                .sum();
        }
        let free = self.free_for(player);
        let mut n = 0;
        for piece in self.side(player).hand.kinds() {
            for orientation in &table.piece(Some(player), piece).orientations {
                n += orientation.anchors(free).count();
            }
        }
        n
    }

    /// Whether `player` has any legal placement now.
    pub fn can_place(&self, player: Player) -> bool {
        if self.places_cathedral(player) {
            return true;
        }
        if self.waits_for_cathedral(player) {
            return false;
        }
        let check_enclosure =
            !self.side(player).first_move_made && self.rules.first_move == FirstMove::NoEnclosure;
        if check_enclosure {
            let mut any = false;
            self.for_each_placement(player, |_| any = true);
            return any;
        }
        let table = table();
        let free = self.free_for(player);
        self.side(player).hand.kinds().any(|piece| {
            table
                .piece(Some(player), piece)
                .orientations
                .iter()
                .any(|o| o.anchors(free).any())
        })
    }

    /// The player with fewer unplaced squares, `None` for a draw. The winner once the game is
    /// over; before that, who is ahead on the squares placed so far.
    pub fn winner(&self) -> Option<Player> {
        let light = self.unplaced_squares(Player::Light);
        let dark = self.unplaced_squares(Player::Dark);
        match light.cmp(&dark) {
            std::cmp::Ordering::Less => Some(Player::Light),
            std::cmp::Ordering::Greater => Some(Player::Dark),
            std::cmp::Ordering::Equal => None,
        }
    }

    /// Whether the game is over: neither player can place, or (voluntary passing) two passes in a row.
    pub fn is_game_over(&self) -> bool {
        if self.rules.pass == Pass::Voluntary && self.passes >= 2 {
            return true;
        }
        !self.can_place(self.to_move) && !self.can_place(self.to_move.opponent())
    }

    /// Fills `list` with every legal move of the player to move. Empty when the game is over.
    ///
    /// Order: placements by piece kind, orientation and anchor; under optional capture each
    /// placement that captures is followed by its variants sparing each non-empty subset of its
    /// captures (largest [`Spared`] value first); the pass last.
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        if self.rules.pass == Pass::Voluntary && self.passes >= 2 {
            return;
        }
        let captures = match self.rules.capture {
            Capture::Optional => CaptureMap::new(self),
            Capture::Mandatory => None,
        };
        let check_enclosure = !self.places_cathedral(self.to_move)
            && !self.side(self.to_move).first_move_made
            && self.rules.first_move == FirstMove::NoEnclosure;
        if let Some(mut map) = captures {
            self.for_each_placement(self.to_move, |id| {
                list.push(Move::place(id));
                // Every non-empty subset of the captures, in decreasing order.
                let capturable = map.captures(self, id);
                let mut subset = capturable;
                while subset != 0 {
                    list.push(Move::place_sparing(id, Spared(subset)));
                    subset = (subset - 1) & capturable;
                }
            });
        } else if self.cathedral_to_place() || check_enclosure {
            self.for_each_placement(self.to_move, |id| list.push(Move::place(id)));
        } else {
            self.push_plain_placements(list);
        }
        let must_pass = list.is_empty() && self.can_place(self.to_move.opponent());
        if must_pass || (self.rules.pass == Pass::Voluntary && !list.is_empty()) {
            list.push(Move::PASS);
        }
    }

    /// The placements of the side to move when every one is one move (no variant checks): each
    /// orientation's moves are written straight into room at the list's end and counted once,
    /// which keeps the hot loop free of the list's length bookkeeping (an orientation has at
    /// most 100 placements, one per cell).
    fn push_plain_placements(&self, list: &mut MoveList) {
        let table = table();
        let player = self.to_move;
        let free = self.free_for(player);
        for piece in self.side(player).hand.kinds() {
            for orientation in &table.piece(Some(player), piece).orientations {
                let anchors = orientation.anchors(free).0;
                list.append_with::<128>(|room| {
                    let mut n = 0;
                    // Two 64-bit halves: cheaper bit scans than one 128-bit word.
                    for (mut half, base) in [(anchors as u64, 0), ((anchors >> 64) as u64, 64)] {
                        while half != 0 {
                            let bit = base + half.trailing_zeros();
                            room[n & 127] = Move::place(orientation.placement_at_bit(bit));
                            n += 1;
                            half &= half - 1;
                        }
                    }
                    n
                });
            }
        }
    }

    /// Number of legal moves of the player to move (what [`Position::legal_moves`] would list).
    pub fn count_moves(&self) -> u32 {
        if self.rules.pass == Pass::Voluntary && self.passes >= 2 {
            return 0;
        }
        let captures = match self.rules.capture {
            Capture::Optional => CaptureMap::new(self),
            Capture::Mandatory => None,
        };
        let n = match captures {
            // Each placement is one move plus one per non-empty subset of its captures.
            Some(mut map) => {
                // Placements outside the crowded regions make the same captures (`always`): count
                // them in bulk, per orientation, and look at the others one by one.
                // Under `claims: at-once` those in a region holding one building capture it and
                // the others capture nothing: count each lone region apart.
                let table = table();
                let player = self.to_move;
                let free = self.free_for(player);
                let lone_apart = if map.at_once() {
                    map.lone_cells
                } else {
                    Bitboard::EMPTY
                };
                let outside = free - map.crowded_cells - lone_apart;
                let per_outside = 1 << map.captures_outside_crowded(outside).count_ones();
                let mut n = 0;
                for piece in self.side(player).hand.kinds() {
                    for orientation in &table.piece(Some(player), piece).orientations {
                        let mut away = orientation.anchors(outside).0;
                        n += away.count_ones() * per_outside;
                        if map.at_once() {
                            for &(region, _) in map.lone_regions() {
                                let inside = orientation.anchors(free & region).0;
                                n += 2 * inside.count_ones();
                                away |= inside;
                            }
                        }
                        let mut near = orientation.anchors(free).0 & !away;
                        while near != 0 {
                            let id = orientation.placement_at_bit(near.trailing_zeros());
                            near &= near - 1;
                            n += 1 << map.captures(self, id).count_ones();
                        }
                    }
                }
                n
            }
            None => self.count_placements(self.to_move),
        };
        let must_pass = n == 0 && self.can_place(self.to_move.opponent());
        if must_pass || (self.rules.pass == Pass::Voluntary && n > 0) {
            n + 1
        } else {
            n
        }
    }

    /// The [`Spared`] bit naming `building` (an opponent building or the Cathedral).
    pub fn spare_bit(&self, opponent: Player, building: &Building) -> u16 {
        match building.owner {
            None => Spared::CATHEDRAL_BIT,
            Some(_) => self
                .side(opponent)
                .buildings
                .iter()
                .position(|&cells| cells == building.cells)
                .map_or(0, |slot| 1 << slot),
        }
    }

    // ----- making moves ----------------------------------------------------------------------

    /// Plays a legal move. The move must come from [`Position::legal_moves`] (or be checked by
    /// [`crate::legality`]): an illegal one leaves a meaningless state.
    #[inline]
    pub fn play(&mut self, mv: Move) {
        self.play_with(mv, &mut ());
    }

    /// Plays a legal move, reporting its claims and captures to `sink`.
    pub fn play_with(&mut self, mv: Move, sink: &mut impl ClaimSink) {
        let mover = self.to_move;
        // The side to move flips on every move.
        self.key ^= zobrist::dark_to_move() ^ zobrist::passes(self.passes);
        let Some(id) = mv.placement() else {
            self.passes = self.passes.saturating_add(1);
            self.key ^= zobrist::passes(self.passes);
            self.to_move = mover.opponent();
            return;
        };
        self.passes = 0;
        let placement = table().get(id);
        if placement.piece == Piece::Cathedral {
            self.key ^= placement.key ^ zobrist::cathedral_to_place();
            self.cathedral = placement.mask;
            self.cathedral_status = CathedralStatus::OnBoard;
            self.to_move = match self.rules.cathedral {
                CathedralTiming::First => Player::Dark,
                CathedralTiming::AfterFirstMove => {
                    // Light's first building comes in the same turn: the side does not flip.
                    self.key ^= zobrist::dark_to_move();
                    Player::Light
                }
            };
            return;
        }
        self.key ^= self.building_key_change(mover, placement);
        let side = &mut self.sides[mover.index()];
        let first = first_slot(placement.piece);
        let slot = (first..first + placement.piece.set_count() as usize)
            .find(|&s| side.buildings[s].is_empty())
            .unwrap_or(first); // invariant: a piece in hand has a free slot
        side.buildings[slot] = placement.mask;
        side.occupied |= placement.mask;
        side.territory = side.territory - placement.mask;
        side.hand.remove(placement.piece);
        if side.first_move_made {
            self.claim_regions(mover, placement.mask, mv.spared(), sink);
        } else {
            side.first_move_made = true;
        }
        self.to_move = mover.opponent();
    }

    /// How the key changes when `mover` places a building (not the Cathedral) with
    /// `placement`, before any claim: the building, the territory it covers, its hand, its
    /// first move.
    #[inline]
    fn building_key_change(&self, mover: Player, placement: &Placement) -> Key {
        let side = &self.sides[mover.index()];
        let held = side.hand.count(placement.piece);
        let mut change = placement.key
            ^ zobrist::territory(mover, side.territory & placement.mask)
            ^ zobrist::hand(mover, placement.piece, held)
            ^ zobrist::hand(mover, placement.piece, held - 1);
        if !side.first_move_made {
            change ^= zobrist::first_move_made(mover);
        }
        change
    }

    /// The key after the legal move `mv` if it claims nothing, which most moves do not: a
    /// guess, for fetching the search's table entry before the move is played.
    #[inline]
    pub fn key_if_nothing_claimed(&self, mv: Move) -> Key {
        let mut key = self.key ^ zobrist::dark_to_move() ^ zobrist::passes(self.passes);
        match mv.placement() {
            None => key ^= zobrist::passes(self.passes.saturating_add(1)),
            Some(id) => {
                let placement = table().get(id);
                key ^= if placement.piece == Piece::Cathedral {
                    let stays = self.rules.cathedral == CathedralTiming::AfterFirstMove;
                    let turn = if stays {
                        zobrist::dark_to_move()
                    } else {
                        Key::default()
                    };
                    placement.key ^ zobrist::cathedral_to_place() ^ turn
                } else {
                    self.building_key_change(self.to_move, placement)
                };
            }
        }
        key
    }

    /// Claims every region of cells not covered by `mover`'s buildings that holds at most one
    /// other building (an opponent's or the Cathedral), capturing that building. Under
    /// `claims: at-once` only the regions the building just `placed` closes are looked at: the
    /// parts of the region it was placed in, which are exactly the regions it touches, side or
    /// corner (any other region was a region before the move, untouched by it).
    fn claim_regions(
        &mut self,
        mover: Player,
        placed: Bitboard,
        spared: Spared,
        sink: &mut impl ClaimSink,
    ) {
        let opponent = mover.opponent();
        let open = !self.sides[mover.index()].occupied;
        // Regions wholly inside the mover's territory are claimed already; skip them.
        let mut unseen = open - self.sides[mover.index()].territory;
        if self.rules.claims == Claims::AtOnce {
            unseen &= placed.dilate8();
        }
        while unseen.any() {
            let region = Bitboard::fill8(unseen.first_bit(), open);
            unseen = unseen - region;
            match self.buildings_inside(opponent, region) {
                Inside::Several => {}
                Inside::None => {
                    self.take_region(mover, region);
                    sink.claimed(region, None);
                }
                Inside::One(building, slot) => {
                    let declined = match slot {
                        Some(slot) => spared.contains_slot(slot),
                        None => spared.contains_cathedral(),
                    };
                    if declined {
                        sink.spared(region, building);
                        continue;
                    }
                    sink.captured_bit(slot.map_or(Spared::CATHEDRAL_BIT, |slot| 1 << slot));
                    self.key ^= zobrist::building(building.owner, building.piece, building.cells);
                    match slot {
                        Some(slot) => {
                            let side = &mut self.sides[opponent.index()];
                            side.buildings[slot] = Bitboard::EMPTY;
                            side.occupied = side.occupied - building.cells;
                            let held = side.hand.count(building.piece);
                            side.hand.add(building.piece);
                            self.key ^= zobrist::hand(opponent, building.piece, held)
                                ^ zobrist::hand(opponent, building.piece, held + 1);
                        }
                        None => {
                            self.cathedral = Bitboard::EMPTY;
                            self.cathedral_status = CathedralStatus::Gone;
                        }
                    }
                    self.take_region(mover, region);
                    sink.claimed(region, Some(building));
                }
            }
        }
    }

    #[inline]
    fn take_region(&mut self, mover: Player, region: Bitboard) {
        let opponent = mover.opponent();
        let gained = region - self.sides[mover.index()].territory;
        let lost = region & self.sides[opponent.index()].territory;
        self.sides[mover.index()].territory |= region;
        self.sides[opponent.index()].territory = self.sides[opponent.index()].territory - region;
        self.key ^= zobrist::territory(mover, gained) ^ zobrist::territory(opponent, lost);
    }

    /// The opponent buildings and Cathedral inside `region`.
    #[inline]
    fn buildings_inside(&self, opponent: Player, region: Bitboard) -> Inside {
        let side = &self.sides[opponent.index()];
        let cathedral_inside = self.cathedral.intersects(region);
        if !side.occupied.intersects(region) {
            return if cathedral_inside {
                Inside::One(
                    Building {
                        owner: None,
                        piece: Piece::Cathedral,
                        cells: self.cathedral,
                    },
                    None,
                )
            } else {
                Inside::None
            };
        }
        if cathedral_inside {
            return Inside::Several;
        }
        let mut found = None;
        for (slot, &cells) in side.buildings.iter().enumerate() {
            if cells.intersects(region) {
                if found.is_some() {
                    return Inside::Several;
                }
                found = Some(slot);
            }
        }
        match found {
            Some(slot) => Inside::One(
                Building {
                    owner: Some(opponent),
                    piece: SLOT_PIECES[slot],
                    cells: side.buildings[slot],
                },
                Some(slot),
            ),
            None => Inside::None,
        }
    }

    /// The [`Spared`] bit of the one building inside `region` that is not the mover's: `Some(0)`
    /// when there is none, `None` when there are two or more.
    #[inline]
    fn lone_building_bit(&self, opponent: Player, region: Bitboard) -> Option<u16> {
        match self.buildings_inside(opponent, region) {
            Inside::None => Some(0),
            Inside::One(_, slot) => Some(slot.map_or(Spared::CATHEDRAL_BIT, |slot| 1 << slot)),
            Inside::Several => None,
        }
    }

    /// The first slot of `piece` for an owner's buildings.
    pub fn slots_of(piece: Piece) -> std::ops::Range<usize> {
        let first = first_slot(piece);
        first..first + piece.set_count() as usize
    }

    /// Replaces `player`'s territory (file loader: explicit or derived territory).
    pub fn set_territory(&mut self, player: Player, cells: Bitboard) {
        let side = &mut self.sides[player.index()];
        self.key ^= zobrist::territory(player, side.territory) ^ zobrist::territory(player, cells);
        side.territory = cells;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_counts() {
        let start = Position::new(Rules::CLASSIC);
        assert_eq!(start.count_placements(Player::Light), 224);
        assert_eq!(start.count_moves(), 224);
        let mut list = MoveList::new();
        start.legal_moves(&mut list);
        assert_eq!(list.len(), 224);
    }

    /// Records whether a move claimed (or spared) anything.
    #[derive(Default)]
    struct Claims(bool);

    impl ClaimSink for Claims {
        fn claimed(&mut self, _region: Bitboard, _captured: Option<Building>) {
            self.0 = true;
        }
        fn spared(&mut self, _region: Bitboard, _building: Building) {
            self.0 = true;
        }
    }

    /// The guess is the key exactly when the move claims nothing, and with any rules.
    #[test]
    fn key_if_nothing_claimed_is_the_key_unless_something_is_claimed() {
        let mut rng = crate::boardgame::Rng::new(3);
        let mut counts = [[0; 2]; 2];
        let mut list = MoveList::new();
        for game in 0..40 {
            let rules = if game % 2 == 0 {
                Rules::CLASSIC
            } else {
                Rules::default()
            };
            let mut position = Position::new(rules);
            loop {
                position.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                for &mv in list.as_mut_slice().iter() {
                    let mut child = position;
                    let mut claims = Claims::default();
                    child.play_with(mv, &mut claims);
                    let right = position.key_if_nothing_claimed(mv) == child.key();
                    if !claims.0 {
                        assert!(right, "{mv:?}");
                    }
                    counts[claims.0 as usize][right as usize] += 1;
                }
                let moves = list.as_mut_slice();
                position.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        // Most moves claim nothing; a claim always changes the key beyond the guess.
        assert!(
            counts[0][1] > 10 * counts[1][1].max(counts[1][0]),
            "{counts:?}"
        );
        assert_eq!(counts[1][1], 0, "{counts:?}");
    }
}
