//! Explains what a move did: the regions it claimed, the buildings it captured, and the regions
//! next to it that it did not claim, with the rule that stopped each one.
//!
//! Not on the search's hot path: this replays one move with a [`ClaimLog`] and then studies the
//! regions around it.

use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::cell::Cell;
use crate::cathedral::moves::Move;
use crate::cathedral::notation::format_move_with_player;
use crate::cathedral::piece::Piece;
use crate::cathedral::placement::table;
use crate::cathedral::player::Player;
use crate::cathedral::position::{Building, ClaimLog, Position};
use crate::cathedral::rules::Claims;
use serde::Serialize;
use std::fmt;

/// A side of the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Edge {
    /// Rank 10.
    North,
    /// File `j`.
    East,
    /// Rank 1.
    South,
    /// File `a`.
    West,
}

impl Edge {
    /// The four edges, clockwise from north.
    pub const ALL: [Edge; 4] = [Edge::North, Edge::East, Edge::South, Edge::West];

    /// The edge's row or column of cells.
    pub fn cells(self) -> Bitboard {
        match self {
            Edge::North => Bitboard::NORTH_EDGE,
            Edge::East => Bitboard::EAST_EDGE,
            Edge::South => Bitboard::SOUTH_EDGE,
            Edge::West => Bitboard::WEST_EDGE,
        }
    }

    /// Lower-case name used in JSON and prose: `north`, `east`, `south`, `west`.
    pub fn name(self) -> &'static str {
        match self {
            Edge::North => "north",
            Edge::East => "east",
            Edge::South => "south",
            Edge::West => "west",
        }
    }
}

/// A region the move claimed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Claim {
    /// Every cell of the region, now the mover's territory (the captured building's cells too).
    pub cells: Bitboard,
    /// Number of cells in the region.
    pub size: u32,
    /// The mover's buildings that wall the region in.
    pub walls: Vec<Building>,
    /// Board edges that close the region.
    pub edges: Vec<Edge>,
    /// The building that stood alone in the region and was removed.
    pub captured: Option<Building>,
    /// Cells that were the opponent's territory and are now the mover's.
    pub taken_territory: Bitboard,
}

/// Why a region next to the move was not claimed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "kebab-case")]
pub enum NearMissReason {
    /// The wall leaks where two of the mover's cells touch only at a corner.
    DiagonalContact {
        /// The two wall cells that touch only at a corner.
        corner: [Cell; 2],
    },
    /// The region holds two or more buildings that are not the mover's.
    SeveralBuildings {
        /// The buildings in the region that are not the mover's.
        buildings: Vec<Building>,
    },
    /// Only the Cathedral closes the region, and the Cathedral is never a wall.
    CathedralWall,
    /// The region is enclosed, but a player's first move never claims.
    FirstMove {
        /// When the region can still be claimed (rules option `claims`).
        stays_open_until: StaysOpenUntil,
    },
    /// The region held one building alone and the mover chose not to capture it.
    Spared {
        /// The building the mover chose not to capture.
        building: Building,
        /// When the capture can come again (rules option `claims`).
        stays_open_until: StaysOpenUntil,
    },
}

/// Until when an enclosed region that a move did not claim stays open (`docs/rules.md`, 4.7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StaysOpenUntil {
    /// `claims: standing`: the mover's next building move evaluates it, wherever it is placed.
    NextMove,
    /// `claims: at-once`: only a later building of the mover placed in the region closes it again.
    ClosedAgain,
}

impl StaysOpenUntil {
    /// The reading the rules of `position` follow.
    pub fn under(position: &Position) -> StaysOpenUntil {
        match position.rules().claims {
            Claims::Standing => StaysOpenUntil::NextMove,
            Claims::AtOnce => StaysOpenUntil::ClosedAgain,
        }
    }
}

impl NearMissReason {
    /// The kebab-case name used in JSON and rule cases: `diagonal-contact`...
    pub fn code(&self) -> &'static str {
        match self {
            NearMissReason::DiagonalContact { .. } => "diagonal-contact",
            NearMissReason::SeveralBuildings { .. } => "several-buildings",
            NearMissReason::CathedralWall => "cathedral-wall",
            NearMissReason::FirstMove { .. } => "first-move",
            NearMissReason::Spared { .. } => "spared",
        }
    }
}

/// A region next to the move that was not claimed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NearMiss {
    /// The cells that would have been claimed.
    pub cells: Bitboard,
    /// The player who moved (the one who may claim the region later); left out of JSON.
    #[serde(skip)]
    pub mover: Player,
    /// Why the region was not claimed; flattened into the near miss in JSON.
    #[serde(flatten)]
    pub reason: NearMissReason,
}

/// Everything a move did.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReport {
    /// The player who made the move.
    pub mover: Player,
    /// Canonical notation with the mover's prefix.
    pub notation: String,
    /// The building placed; `None` for a pass.
    pub placed: Option<Building>,
    /// Whether this was the mover's first building move (which never claims).
    pub first_move: bool,
    /// Whether the building went into the mover's own territory (a waiting move).
    pub in_own_territory: bool,
    /// The regions the move claimed, in order.
    pub claims: Vec<Claim>,
    /// Regions next to the move that it did not claim, each with the rule that stopped it.
    pub near_misses: Vec<NearMiss>,
    /// The position after the move; left out of JSON.
    #[serde(skip)]
    pub after: Position,
}

impl MoveReport {
    /// The buildings the move captured.
    pub fn captures(&self) -> impl Iterator<Item = &Building> {
        self.claims.iter().filter_map(|c| c.captured.as_ref())
    }
}

/// Plays `mv` (which must be legal) from `before` and explains it.
///
/// ```
/// use cathedral::explain::explain_move;
/// use cathedral::legality::parse_move;
/// use std::path::Path;
///
/// let file = cathedral::file::load(Path::new("puzzles/rules/07-capture-of-a-lone-building.yaml"))?;
/// let mv = parse_move(&file.position, "dark:bridge:c1,c2,c3").expect("a legal move");
/// let report = explain_move(&file.position, mv);
/// assert_eq!(report.claims[0].size, 4);
/// assert_eq!(report.captures().next().map(|b| b.label()), Some("Light Tavern".to_string()));
/// assert!(report.to_string().contains("captures Light Tavern (a1)"));
/// # Ok::<(), cathedral::file::FileError>(())
/// ```
pub fn explain_move(before: &Position, mv: Move) -> MoveReport {
    let mover = before.to_move();
    let notation = format_move_with_player(before, mv);
    let mut after = *before;
    let mut log = ClaimLog::default();
    after.play_with(mv, &mut log);
    let Some(id) = mv.placement() else {
        return MoveReport {
            mover,
            notation,
            placed: None,
            first_move: false,
            in_own_territory: false,
            claims: Vec::new(),
            near_misses: Vec::new(),
            after,
        };
    };
    let placement = table().get(id);
    let placed = Building {
        owner: placement.owner,
        piece: placement.piece,
        cells: placement.mask,
    };
    if placement.piece == Piece::Cathedral {
        return MoveReport {
            mover: Player::Light,
            notation,
            placed: Some(placed),
            first_move: false,
            in_own_territory: false,
            claims: Vec::new(),
            near_misses: Vec::new(),
            after,
        };
    }
    let first_move = !before.side(mover).first_move_made;
    let opponent_territory = before.side(mover.opponent()).territory;
    let claims = log
        .claims
        .iter()
        .map(|&(cells, captured)| Claim {
            cells,
            size: cells.count(),
            walls: walls_of(&after, mover, cells),
            edges: Edge::ALL
                .into_iter()
                .filter(|e| e.cells().intersects(cells))
                .collect(),
            captured,
            taken_territory: cells & opponent_territory,
        })
        .collect();
    let mut near_misses: Vec<NearMiss> = log
        .spared
        .iter()
        .map(|&(cells, building)| NearMiss {
            cells,
            mover,
            reason: NearMissReason::Spared {
                building,
                stays_open_until: StaysOpenUntil::under(before),
            },
        })
        .collect();
    near_misses.extend(near_misses_of(&after, mover, placement.mask, first_move));
    MoveReport {
        mover,
        notation,
        placed: Some(placed),
        first_move,
        in_own_territory: placement.mask.is_subset(before.side(mover).territory),
        claims,
        near_misses,
        after,
    }
}

/// The mover's buildings touching `region` (orthogonally or at a corner).
fn walls_of(position: &Position, mover: Player, region: Bitboard) -> Vec<Building> {
    let around = region.dilate8();
    position
        .buildings()
        .filter(|b| b.owner == Some(mover) && b.cells.intersects(around))
        .collect()
}

/// Buildings in `region` that are not `mover`'s.
fn foreign_in(position: &Position, mover: Player, region: Bitboard) -> Vec<Building> {
    position
        .buildings()
        .filter(|b| b.owner != Some(mover) && b.cells.intersects(region))
        .collect()
}

/// Regions next to the move that were not claimed, with the reason. The open board (the largest
/// region) is reported only for what a leaking corner or the Cathedral kept from being cut off.
fn near_misses_of(
    after: &Position,
    mover: Player,
    placed: Bitboard,
    first_move: bool,
) -> Vec<NearMiss> {
    let open = !after.side(mover).occupied;
    let territory = after.side(mover).territory;
    let regions: Vec<Bitboard> = open.components8().collect();
    let largest = regions
        .iter()
        .copied()
        .max_by_key(|r| r.count())
        .unwrap_or_default();
    let near = placed.dilate8();
    let mut misses = Vec::new();
    for &region in &regions {
        if !region.intersects(near) || region.is_subset(territory) {
            continue;
        }
        let foreign = foreign_in(after, mover, region);
        let is_open_board = region == largest;
        if !is_open_board {
            if foreign.len() >= 2 {
                misses.push(NearMiss {
                    cells: region,
                    mover,
                    reason: NearMissReason::SeveralBuildings { buildings: foreign },
                });
                // A pocket with several buildings may still hide a smaller near miss inside.
            } else if first_move {
                misses.push(NearMiss {
                    cells: region,
                    mover,
                    reason: NearMissReason::FirstMove {
                        stays_open_until: StaysOpenUntil::under(after),
                    },
                });
                continue;
            } else {
                // Held one building alone and was not claimed: a spared capture, reported already.
                continue;
            }
        }
        misses.extend(diagonal_leaks(after, mover, region, near, first_move));
        misses.extend(cathedral_walls(after, mover, region, near, first_move));
    }
    misses
}

/// The parts of a split region that would be cut off (all but the largest) and claimable: next to
/// the move and holding at most one building that is not the mover's.
fn claimable_cut_offs(
    after: &Position,
    mover: Player,
    parts: Vec<Bitboard>,
    near: Bitboard,
) -> Vec<Bitboard> {
    if parts.len() < 2 {
        return Vec::new();
    }
    let largest = parts
        .iter()
        .copied()
        .max_by_key(|r| r.count())
        .unwrap_or_default();
    parts
        .into_iter()
        .filter(|&part| part != largest && part.intersects(near))
        .filter(|&part| foreign_in(after, mover, part).len() <= 1)
        .collect()
}

/// Parts of `region` that orthogonal connectivity would cut off, and that would then be claimable.
fn diagonal_leaks(
    after: &Position,
    mover: Player,
    region: Bitboard,
    near: Bitboard,
    first_move: bool,
) -> Vec<NearMiss> {
    if first_move {
        return Vec::new();
    }
    let walls = after.side(mover).occupied;
    claimable_cut_offs(after, mover, region.components4().collect(), near)
        .into_iter()
        .filter_map(|part| {
            corner_contact(part, region - part, walls).map(|corner| NearMiss {
                cells: part,
                mover,
                reason: NearMissReason::DiagonalContact { corner },
            })
        })
        .collect()
}

/// Two wall cells that touch only at a corner, between a cell of `inside` and a cell of `outside`.
fn corner_contact(inside: Bitboard, outside: Bitboard, walls: Bitboard) -> Option<[Cell; 2]> {
    for cell in inside.cells() {
        let (file, rank) = (cell.file() as i8, cell.rank() as i8);
        for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let at = |f: i8, r: i8| -> Option<Cell> {
                if (0..10).contains(&f) && (0..10).contains(&r) {
                    Cell::new(f as u8, r as u8)
                } else {
                    None
                }
            };
            let (Some(diagonal), Some(a), Some(b)) = (
                at(file + df, rank + dr),
                at(file + df, rank),
                at(file, rank + dr),
            ) else {
                continue;
            };
            if outside.contains(diagonal) && walls.contains(a) && walls.contains(b) {
                let mut pair = [a, b];
                pair.sort_by_key(|c| (c.file(), c.rank()));
                return Some(pair);
            }
        }
    }
    None
}

/// Parts of `region` that the Cathedral would cut off if it were a wall, and that would then be
/// claimable.
fn cathedral_walls(
    after: &Position,
    mover: Player,
    region: Bitboard,
    near: Bitboard,
    first_move: bool,
) -> Vec<NearMiss> {
    let cathedral = after.cathedral();
    if first_move || !cathedral.intersects(region) {
        return Vec::new();
    }
    claimable_cut_offs(
        after,
        mover,
        (region - cathedral).components8().collect(),
        near,
    )
    .into_iter()
    .map(|part| NearMiss {
        cells: part,
        mover,
        reason: NearMissReason::CathedralWall,
    })
    .collect()
}

fn list_buildings(buildings: &[Building]) -> String {
    let names: Vec<String> = buildings.iter().map(|b| b.to_string()).collect();
    join_words(&names)
}

fn join_words(words: &[String]) -> String {
    match words {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {}", init.join(", "), last),
    }
}

impl fmt::Display for Claim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut closers: Vec<String> = self.walls.iter().map(|b| b.to_string()).collect();
        match self.edges.as_slice() {
            [] => {}
            [edge] => closers.push(format!("the {} edge", edge.name())),
            edges => {
                let names: Vec<String> = edges.iter().map(|e| e.name().to_string()).collect();
                closers.push(format!("the {} edges", join_words(&names)));
            }
        }
        write!(
            f,
            "claims {} square{} ({}), walled in by {}",
            self.size,
            if self.size == 1 { "" } else { "s" },
            self.cells,
            join_words(&closers)
        )?;
        if let Some(captured) = &self.captured {
            match captured.owner {
                Some(owner) => write!(
                    f,
                    "; captures {captured}: it stood alone in the region, so it is removed and returns to {owner}'s hand"
                )?,
                None => write!(
                    f,
                    "; captures the Cathedral ({}): it stood alone in the region, so it leaves the game for good",
                    captured.cells
                )?,
            }
        }
        if self.taken_territory.any() {
            write!(
                f,
                "; takes over the opponent's territory at {}",
                self.taken_territory
            )?;
        }
        Ok(())
    }
}

impl fmt::Display for NearMiss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.cells.count();
        write!(
            f,
            "no claim of {} square{} ({}): ",
            size,
            if size == 1 { "" } else { "s" },
            self.cells
        )?;
        match &self.reason {
            NearMissReason::DiagonalContact { corner } => write!(
                f,
                "the wall leaks where {} and {} touch only at a corner (a diagonal contact does not seal a wall)",
                corner[0], corner[1]
            ),
            NearMissReason::SeveralBuildings { buildings } => write!(
                f,
                "it holds {} buildings ({}); a region is claimed only if it holds at most one",
                buildings.len(),
                list_buildings(buildings)
            ),
            NearMissReason::CathedralWall => f.write_str(
                "only the Cathedral closes it off, and the Cathedral is never part of a wall",
            ),
            NearMissReason::FirstMove {
                stays_open_until: StaysOpenUntil::NextMove,
            } => f.write_str(
                "a player's first move never claims; the region is claimed at the player's next move if it is still enclosed",
            ),
            NearMissReason::FirstMove {
                stays_open_until: StaysOpenUntil::ClosedAgain,
            } => write!(
                f,
                "a player's first move never claims, and under claims: at-once a region is claimed only by a move that closes it: it stays open to both players, until a later building of {}'s placed inside it closes what is left of it",
                self.mover
            ),
            NearMissReason::Spared {
                building,
                stays_open_until: StaysOpenUntil::NextMove,
            } => write!(
                f,
                "{building} stood alone in it, and the capture was declined; it stays open: {}'s next building move, wherever it is placed, captures it if it still stands alone, unless {} declines again",
                self.mover, self.mover
            ),
            NearMissReason::Spared {
                building,
                stays_open_until: StaysOpenUntil::ClosedAgain,
            } => write!(
                f,
                "{building} stood alone in it, and the capture was declined; under claims: at-once it stays open to both players, until a later building of {}'s placed inside it closes what is left of it",
                self.mover
            ),
        }
    }
}

impl fmt::Display for MoveReport {
    /// One line for the move, then one indented line per claim and near miss.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.placed {
            None => write!(f, "{} passes", self.mover)?,
            Some(b) => write!(
                f,
                "{} places {} ({} square{})",
                self.mover,
                b,
                b.cells.count(),
                if b.cells.count() == 1 { "" } else { "s" }
            )?,
        }
        if self.first_move {
            f.write_str(", its first building move")?;
        }
        if self.in_own_territory {
            f.write_str(", inside its own territory")?;
        }
        for claim in &self.claims {
            write!(f, "\n  {claim}")?;
        }
        for miss in &self.near_misses {
            write!(f, "\n  {miss}")?;
        }
        Ok(())
    }
}
