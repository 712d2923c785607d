//! From the YAML document to a validated [`Position`], with a located error for each mistake.

use super::diagram;
use super::located::{Errors, Located, Place, RawBuilding};
use super::schema::{RawCathedral, RawFile, RawHandEntry, RawRules, RawSide};
use crate::cathedral::bitboard::Bitboard;
use crate::cathedral::cell::Cell;
use crate::cathedral::piece::{Hand, Piece};
use crate::cathedral::placement::table;
use crate::cathedral::player::Player;
use crate::cathedral::position::{CathedralStatus, Position, Side};
use crate::cathedral::rules::{CathedralTiming, Rules};
use crate::files::FileError;

/// The cells of a list, each located at its own token.
pub(super) fn parse_cells(
    errors: &Errors,
    cells: &[Located<String>],
) -> Result<Bitboard, FileError> {
    let mut set = Bitboard::EMPTY;
    for text in cells {
        let cell: Cell =
            text.value
                .parse()
                .map_err(|e: crate::cathedral::cell::ParseCellError| {
                    errors.at(text.place, format!("{e} (the board is a1..j10)"))
                })?;
        if set.contains(cell) {
            return Err(errors.at(text.place, format!("cell {cell} is listed twice")));
        }
        set.insert(cell);
    }
    Ok(set)
}

fn parse_piece(errors: &Errors, place: Place, name: &str) -> Result<Piece, FileError> {
    name.parse()
        .map_err(|e: crate::cathedral::piece::ParsePieceError| errors.at(place, e.to_string()))
}

pub(super) fn parse_rules(
    errors: &Errors,
    raw: &Option<Located<RawRules>>,
) -> Result<Rules, FileError> {
    let Some(raw) = raw else {
        return Ok(Rules::CLASSIC);
    };
    let bad = |place: Place| {
        move |e: crate::cathedral::rules::RulesError| errors.at(place, e.to_string())
    };
    match &raw.value {
        RawRules::Preset(name) => name.parse().map_err(bad(raw.place)),
        RawRules::Options(options) => {
            let super::schema::RawRuleOptions {
                capture,
                pass,
                first_move,
                cathedral,
                claims,
            } = options.as_ref();
            let mut rules = Rules::CLASSIC;
            if let Some(capture) = capture {
                rules.capture = capture.value.parse().map_err(bad(capture.place))?;
            }
            if let Some(pass) = pass {
                rules.pass = pass.value.parse().map_err(bad(pass.place))?;
            }
            if let Some(first_move) = first_move {
                rules.first_move = first_move.value.parse().map_err(bad(first_move.place))?;
            }
            if let Some(cathedral) = cathedral {
                rules.cathedral = cathedral.value.parse().map_err(bad(cathedral.place))?;
            }
            if let Some(claims) = claims {
                rules.claims = claims.value.parse().map_err(bad(claims.place))?;
            }
            Ok(rules)
        }
    }
}

fn side_buildings(
    errors: &Errors,
    player: Player,
    side: &RawSide,
    out: &mut Vec<RawBuilding>,
) -> Result<(), FileError> {
    for item in &side.buildings {
        let place = item.piece.place;
        let piece = parse_piece(errors, place, &item.piece.value)?;
        if piece == Piece::Cathedral {
            return Err(errors.at(
                place,
                format!("the Cathedral belongs to no player: write it as a top-level `cathedral: [...]`, not among {player}'s buildings"),
            ));
        }
        out.push(RawBuilding {
            owner: Some(player),
            piece,
            cells: parse_cells(errors, &item.cells)?,
            place,
        });
    }
    Ok(())
}

/// Checks one building's shape against the placement table.
fn check_shape(errors: &Errors, building: &RawBuilding) -> Result<(), FileError> {
    if table()
        .find(building.owner, building.piece, building.cells)
        .is_some()
    {
        return Ok(());
    }
    if building.cells.is_empty() {
        let size = building.piece.size();
        return Err(errors.at(
            building.place,
            format!(
                "{} is given no cells: expected its {size} square{}, like `[c3{}]`",
                building.label(),
                if size == 1 { "" } else { "s" },
                if size == 1 { "" } else { ", ..." }
            ),
        ));
    }
    let drawing = building
        .piece
        .drawing(building.owner.unwrap_or(Player::Light))
        .join(" / ");
    let mut message = format!(
        "{} at {} does not have its shape: expected {} square{} forming, in some rotation, {} (drawn with rank 10 on top)",
        building.label(),
        building.cells,
        building.piece.size(),
        if building.piece.size() == 1 { "" } else { "s" },
        drawing
    );
    if let Some(owner) = building.owner
        && table()
            .find(Some(owner.opponent()), building.piece, building.cells)
            .is_some()
    {
        message.push_str(&format!(
            "; these cells form {}'s {}, its mirror image, and pieces may be rotated but never reflected",
            owner.opponent(),
            building.piece.title()
        ));
    }
    Err(errors.at(building.place, message))
}

/// Reads a position file's fields into a position, step by step, each step refusing what it
/// finds wrong in the order a reader checks a file: the rules, the buildings and their shapes,
/// the Cathedral, the hands, whose turn it is, the territory, and no capture left pending.
pub(super) fn to_position(errors: &Errors, raw: &RawFile) -> Result<Position, FileError> {
    let rules = parse_rules(errors, &raw.rules)?;
    let buildings = gather_buildings(errors, raw)?;
    let placed = check_buildings(errors, &buildings)?;
    let census = Census::of(&buildings, &rules);
    let cathedral_status = cathedral_status(errors, raw, &census, placed.cathedral)?;
    let sides = read_sides(errors, raw, &buildings, placed.on_board)?;
    let (to_move, passes) = side_to_move(errors, raw, &census, cathedral_status)?;
    let cathedral = placed.cathedral.unwrap_or_default();
    let mut position =
        Position::from_parts(sides, cathedral, cathedral_status, to_move, passes, rules);
    read_territory(errors, raw, &mut position)?;
    check_no_pending_capture(errors, &position)?;
    Ok(position)
}

/// A side's fields, or none.
fn raw_side(raw: &RawFile, player: Player) -> Option<&RawSide> {
    match player {
        Player::Light => raw.light.as_ref(),
        Player::Dark => raw.dark.as_ref(),
    }
}

/// Every building the file places: the Cathedral's cells, each side's list, then the diagram's.
fn gather_buildings(errors: &Errors, raw: &RawFile) -> Result<Vec<RawBuilding>, FileError> {
    let mut buildings = Vec::new();
    if let Some(cathedral) = &raw.cathedral
        && let RawCathedral::Cells(cells) = &cathedral.value
    {
        buildings.push(RawBuilding {
            owner: None,
            piece: Piece::Cathedral,
            cells: parse_cells(errors, cells)?,
            place: cathedral.place,
        });
    }
    let empty = RawSide::default();
    for player in Player::BOTH {
        let side = raw_side(raw, player).unwrap_or(&empty);
        side_buildings(errors, player, side, &mut buildings)?;
    }
    if let Some(board) = &raw.board {
        diagram::read(errors, board, raw.legend.as_ref(), &mut buildings)?;
    } else if let Some(legend) = &raw.legend
        && let Some((_, first)) = legend.iter().next()
    {
        return Err(errors.at(first.place, "`legend:` is given without a `board:` diagram"));
    }
    Ok(buildings)
}

/// What the buildings on the board add up to, once each has its shape and none overlaps.
struct Placed {
    /// Each side's buildings on the board, by kind.
    on_board: [Hand; 2],
    /// The Cathedral's cells, if it is on the board.
    cathedral: Option<Bitboard>,
}

/// Shapes, overlaps, and no more of a kind than a set holds.
fn check_buildings(errors: &Errors, buildings: &[RawBuilding]) -> Result<Placed, FileError> {
    let mut occupied = Bitboard::EMPTY;
    let mut on_board = [Hand::EMPTY; 2];
    let mut cathedral_cells: Option<Bitboard> = None;
    for (i, building) in buildings.iter().enumerate() {
        check_shape(errors, building)?;
        let overlap = building.cells & occupied;
        if overlap.any() {
            let other = buildings[..i]
                .iter()
                .find(|b| b.cells.intersects(overlap))
                .map(RawBuilding::label)
                .unwrap_or_default();
            return Err(errors.at(
                building.place,
                format!("{} overlaps {} at {}", building.label(), other, overlap),
            ));
        }
        occupied |= building.cells;
        match building.owner {
            None => {
                if cathedral_cells.is_some() {
                    return Err(errors.at(building.place, "there is only one Cathedral"));
                }
                cathedral_cells = Some(building.cells);
            }
            Some(player) => {
                let count = &mut on_board[player.index()];
                count.add(building.piece);
                if count.count(building.piece) > building.piece.set_count() {
                    return Err(errors.at(
                        building.place,
                        format!(
                            "{} has {} {}s on the board, but a set holds only {}",
                            player,
                            count.count(building.piece),
                            building.piece.title(),
                            building.piece.set_count()
                        ),
                    ));
                }
            }
        }
    }
    Ok(Placed {
        on_board,
        cathedral: cathedral_cells,
    })
}

/// Who has buildings on the board, under which Cathedral rule: what the Cathedral's state and
/// the side to move may be.
struct Census {
    /// Any player's building is on the board.
    player_buildings: bool,
    /// Dark's buildings on the board.
    dark_buildings: usize,
    /// The rules' `cathedral: after-first-move`: Dark's first building comes before it.
    after_first_move: bool,
    /// The buildings on the board may all have come before the Cathedral (Dark's first, under
    /// `after-first-move`).
    before_cathedral_ok: bool,
}

impl Census {
    fn of(buildings: &[RawBuilding], rules: &Rules) -> Census {
        let light_buildings = buildings.iter().any(|b| b.owner == Some(Player::Light));
        let dark_buildings = buildings
            .iter()
            .filter(|b| b.owner == Some(Player::Dark))
            .count();
        let after_first_move = rules.cathedral == CathedralTiming::AfterFirstMove;
        Census {
            player_buildings: buildings.iter().any(|b| b.owner.is_some()),
            dark_buildings,
            after_first_move,
            before_cathedral_ok: after_first_move && !light_buildings && dark_buildings <= 1,
        }
    }
}

/// The Cathedral's state: on the board, to place or gone, as written or as the buildings imply.
fn cathedral_status(
    errors: &Errors,
    raw: &RawFile,
    census: &Census,
    cathedral_cells: Option<Bitboard>,
) -> Result<CathedralStatus, FileError> {
    let cathedral_status = match (&raw.cathedral, cathedral_cells) {
        (_, Some(_)) => CathedralStatus::OnBoard,
        (Some(spanned), None) => match &spanned.value {
            RawCathedral::Status(word) if word == "to-place" => CathedralStatus::ToPlace,
            RawCathedral::Status(word) if word == "gone" => CathedralStatus::Gone,
            RawCathedral::Status(word) => {
                return Err(errors.at(
                    spanned.place,
                    format!("`{word}` is not a Cathedral state: expected its cells like `[e4, e5, d6, e6, f6, e7]`, `to-place` or `gone`"),
                ));
            }
            RawCathedral::Cells(_) => CathedralStatus::OnBoard,
        },
        (None, None) if !census.player_buildings || census.before_cathedral_ok => {
            CathedralStatus::ToPlace
        }
        (None, None) => {
            return Err(errors.at(
                (None, None),
                "`cathedral:` is missing: give its cells, or `gone` if it was captured (buildings are on the board, so it is no longer to place)",
            ));
        }
    };
    if cathedral_status == CathedralStatus::ToPlace
        && census.player_buildings
        && !census.before_cathedral_ok
    {
        let place = raw
            .cathedral
            .as_ref()
            .map(|c| c.place)
            .unwrap_or((None, None));
        let message = if census.after_first_move {
            "under `cathedral: after-first-move` only Dark's first building comes before the Cathedral, so it cannot still be `to-place` with these buildings on the board"
        } else {
            "the Cathedral is placed before any building, so it cannot still be `to-place` with buildings on the board"
        };
        return Err(errors.at(place, message));
    }
    Ok(cathedral_status)
}

/// Each side's hand (as written, or the set less what is on the board), buildings and first move.
fn read_sides(
    errors: &Errors,
    raw: &RawFile,
    buildings: &[RawBuilding],
    on_board: [Hand; 2],
) -> Result<[Side; 2], FileError> {
    let mut sides = [Side::NEW; 2];
    for player in Player::BOTH {
        let raw_side = raw_side(raw, player);
        let placed = on_board[player.index()];
        let hand = match raw_side.and_then(|s| s.hand.as_ref()) {
            None => {
                let mut hand = Hand::FULL;
                for piece in Piece::PLAYER_KINDS {
                    hand.0[piece.index()] -= placed.count(piece);
                }
                hand
            }
            Some(spanned) => read_hand(errors, player, &spanned.value, placed)?,
        };
        let side = &mut sides[player.index()];
        side.hand = hand;
        for building in buildings.iter().filter(|b| b.owner == Some(player)) {
            let slot = Position::slots_of(building.piece)
                .find(|&s| side.buildings[s].is_empty())
                .ok_or_else(|| errors.at(building.place, "too many buildings of this kind"))?;
            side.buildings[slot] = building.cells;
            side.occupied |= building.cells;
        }
        side.first_move_made = raw_side
            .and_then(|s| s.first_move_made)
            .unwrap_or(placed.buildings() > 0 || hand.buildings() + placed.buildings() < 14);
    }
    Ok(sides)
}

/// A hand as the file lists it, checked against the set and what is on the board.
fn read_hand(
    errors: &Errors,
    player: Player,
    entries: &[RawHandEntry],
    placed: Hand,
) -> Result<Hand, FileError> {
    let mut hand = Hand::EMPTY;
    let mut listed = Hand::EMPTY;
    for entry in entries {
        let place = entry.piece.place;
        let piece = parse_piece(errors, place, &entry.piece.value)?;
        let count = entry.count.value;
        if piece == Piece::Cathedral {
            return Err(errors.at(
                place,
                "the Cathedral is in no player's hand: use `cathedral: to-place`",
            ));
        }
        if listed.count(piece) > 0 {
            return Err(errors.at(
                place,
                format!("the {} is listed twice in {player}'s hand", piece.title()),
            ));
        }
        listed.add(piece);
        if u64::from(count) + u64::from(placed.count(piece)) > u64::from(piece.set_count()) {
            return Err(errors.at(
                entry.count.place,
                format!(
                    "{player} would have {} {}s ({count} in hand, {} on the board), but a set holds only {}",
                    u64::from(count) + u64::from(placed.count(piece)),
                    piece.title(),
                    placed.count(piece),
                    piece.set_count()
                ),
            ));
        }
        hand.0[piece.index()] = count as u8;
    }
    Ok(hand)
}

/// Whose turn it is, as written or as the board implies, and the passes in a row before it.
fn side_to_move(
    errors: &Errors,
    raw: &RawFile,
    census: &Census,
    cathedral_status: CathedralStatus,
) -> Result<(Player, u8), FileError> {
    let to_move = match &raw.to_move {
        Some(spanned) => spanned
            .value
            .parse::<Player>()
            .map_err(|e| errors.at(spanned.place, e.to_string()))?,
        None if cathedral_status == CathedralStatus::ToPlace => {
            if census.after_first_move && census.dark_buildings == 0 {
                Player::Dark
            } else {
                Player::Light
            }
        }
        None if !census.player_buildings => Player::Dark,
        None => {
            return Err(errors.at(
                (None, None),
                "`to_move:` is missing: say whose turn it is, `light` or `dark`",
            ));
        }
    };
    if cathedral_status == CathedralStatus::ToPlace
        && to_move != Player::Light
        && !census.after_first_move
    {
        let place = raw
            .to_move
            .as_ref()
            .map(|t| t.place)
            .unwrap_or((None, None));
        return Err(errors.at(
            place,
            "while the Cathedral is to place it is Light's turn: Light places it",
        ));
    }
    // Read as 0, 1 or 2 (`schema.rs`).
    let passes = raw.passes.as_ref().map_or(0, |p| p.value);
    // Under `after-first-move` a pass (voluntary passing) is the only way the turn can differ.
    let expected = if census.dark_buildings == 0 {
        Player::Dark
    } else {
        Player::Light
    };
    if cathedral_status == CathedralStatus::ToPlace
        && census.after_first_move
        && to_move != expected
        && passes == 0
    {
        let place = raw
            .to_move
            .as_ref()
            .map(|t| t.place)
            .unwrap_or((None, None));
        let message = if expected == Player::Dark {
            "under `cathedral: after-first-move` Dark makes the first move, before the Cathedral is placed"
        } else {
            "under `cathedral: after-first-move` Light places the Cathedral right after Dark's first move"
        };
        return Err(errors.at(place, message));
    }
    Ok((to_move, passes))
}

/// Each side's territory: as written (empty cells only, no cell of both), or derived from the
/// buildings by the claiming rule.
fn read_territory(
    errors: &Errors,
    raw: &RawFile,
    position: &mut Position,
) -> Result<(), FileError> {
    let derived = derived_territory(position);
    for player in Player::BOTH {
        let territory = match raw_side(raw, player).and_then(|s| s.territory.as_ref()) {
            Some(spanned) => {
                let cells = parse_cells(errors, &spanned.value)?;
                let covered = cells & position.occupied();
                if covered.any() {
                    return Err(errors.at(
                        first_cell_in(&spanned.value, covered).unwrap_or(spanned.place),
                        format!("territory is made of empty cells, but {covered} is covered by a building"),
                    ));
                }
                cells
            }
            None => derived[player.index()],
        };
        position.set_territory(player, territory);
    }
    let both = position.side(Player::Light).territory & position.side(Player::Dark).territory;
    if both.any() {
        let place = raw
            .dark
            .as_ref()
            .and_then(|s| s.territory.as_ref())
            .or(raw.light.as_ref().and_then(|s| s.territory.as_ref()))
            .map(|t| first_cell_in(&t.value, both).unwrap_or(t.place))
            .unwrap_or((None, None));
        return Err(errors.at(
            place,
            format!("{both} is given as territory of both players"),
        ));
    }
    Ok(())
}

/// Where the first cell of `cells` that is in `wanted` was written.
fn first_cell_in(cells: &[Located<String>], wanted: Bitboard) -> Option<Place> {
    cells
        .iter()
        .find(|c| {
            c.value
                .parse::<Cell>()
                .is_ok_and(|cell| wanted.contains(cell))
        })
        .map(|c| c.place)
}

/// For each player who has made a first move: every region of cells not covered by its buildings
/// that holds no other building. None while the Cathedral is to place: the only building move
/// before it (Dark's first, under `cathedral: after-first-move`) never claims.
pub fn derived_territory(position: &Position) -> [Bitboard; 2] {
    let mut territory = [Bitboard::EMPTY; 2];
    if position.cathedral_to_place() {
        return territory;
    }
    for player in Player::BOTH {
        let side = position.side(player);
        if !side.first_move_made {
            continue;
        }
        let foreign = position.side(player.opponent()).occupied | position.cathedral();
        for region in (!side.occupied).components8() {
            if !region.intersects(foreign) {
                territory[player.index()] |= region;
            }
        }
    }
    territory
}

/// The player who moved last has had all its regions evaluated: none may still hold exactly one
/// other building (it would have been captured), unless its only move so far was its first.
/// Under `claims: at-once` only the regions a move closes are evaluated, so a lone building may
/// stand in a region closed earlier (by a first move), and nothing is checked.
fn check_no_pending_capture(errors: &Errors, position: &Position) -> Result<(), FileError> {
    if position.rules().capture == crate::cathedral::rules::Capture::Optional
        || position.rules().claims == crate::cathedral::rules::Claims::AtOnce
        || position.cathedral_to_place()
    {
        return Ok(());
    }
    let last = position.to_move().opponent();
    let side = position.side(last);
    let on_board = side.buildings.iter().filter(|b| b.any()).count();
    if !side.first_move_made || on_board < 2 {
        return Ok(());
    }
    for region in (!side.occupied).components8() {
        let inside: Vec<_> = position
            .buildings()
            .filter(|b| b.owner != Some(last) && b.cells.intersects(region))
            .collect();
        if let [building] = inside.as_slice() {
            return Err(errors.at(
                (None, None),
                format!(
                    "{building} stands alone in a region walled in by {last} ({region}); {last} moved last, so the rules would already have captured it. Remove it, open the wall, or give the side to move"
                ),
            ));
        }
    }
    Ok(())
}
