//! Colours and glyphs: what each kind of cell looks like in each [`RenderStyle`].

use super::RenderStyle;
use crate::cathedral::player::Player;
use anstyle::{Ansi256Color, AnsiColor, Color, Style};

/// What covers a cell, as far as its look is concerned.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Tint {
    /// A player's building, or the Cathedral (`None`).
    Building(Option<Player>),
    /// Empty cell claimed by a player.
    Territory(Player),
}

fn bg(code: u8) -> Option<Color> {
    Some(Color::Ansi256(Ansi256Color(code)))
}

/// The colour of a tinted cell: pale yellow and blue for the players' buildings, magenta for
/// the Cathedral, paler versions of the players' colours for territory.
pub(super) fn style_of(tint: Tint) -> Style {
    match tint {
        Tint::Building(Some(Player::Light)) => Style::new()
            .bg_color(bg(222))
            .fg_color(Some(AnsiColor::Black.into()))
            .bold(),
        Tint::Building(Some(Player::Dark)) => Style::new()
            .bg_color(bg(25))
            .fg_color(Some(AnsiColor::BrightWhite.into()))
            .bold(),
        Tint::Building(None) => Style::new()
            .bg_color(bg(127))
            .fg_color(Some(AnsiColor::BrightWhite.into()))
            .bold(),
        Tint::Territory(Player::Light) => Style::new().bg_color(bg(230)).fg_color(bg(136)),
        Tint::Territory(Player::Dark) => Style::new().bg_color(bg(153)).fg_color(bg(25)),
    }
}

/// A player's name in its colour (plain without colour).
pub(super) fn player_name(player: Player, style: RenderStyle) -> String {
    paint(style, Some(Tint::Building(Some(player))), player.title())
}

/// `text` in the colour of `tint` when colours are on.
pub(super) fn paint(style: RenderStyle, tint: Option<Tint>, text: &str) -> String {
    match tint {
        Some(tint) if style.color => {
            let s = style_of(tint);
            format!("{}{}{}", s.render(), text, s.render_reset())
        }
        _ => text.to_string(),
    }
}

/// The character repeated over a building's cells when there is no colour to fill them.
pub(super) fn fill_char(style: RenderStyle, owner: Option<Player>) -> char {
    match (style.unicode, owner) {
        (_, _) if style.color => ' ',
        (true, Some(Player::Light)) => '░',
        (true, Some(Player::Dark)) => '▓',
        (true, None) => '▒',
        (false, Some(Player::Light)) => 'L',
        (false, Some(Player::Dark)) => 'D',
        (false, None) => 'C',
    }
}

/// The three characters of a territory cell.
pub(super) fn territory_text(style: RenderStyle, owner: Player) -> &'static str {
    match (style.color, owner) {
        (true, _) => " · ",
        (false, Player::Light) => " l ",
        (false, Player::Dark) => " d ",
    }
}

/// The three characters of an empty, unclaimed cell.
pub(super) fn empty_text(style: RenderStyle) -> &'static str {
    if style.color { "   " } else { " . " }
}

/// One line saying what the cell glyphs mean.
pub(super) fn legend(style: RenderStyle) -> String {
    if style.color {
        format!(
            "Legend: {} {} {} buildings, {} {} territory",
            paint(style, Some(Tint::Building(Some(Player::Light))), " Light "),
            paint(style, Some(Tint::Building(Some(Player::Dark))), " Dark "),
            paint(style, Some(Tint::Building(None)), " Cathedral "),
            paint(style, Some(Tint::Territory(Player::Light)), " · "),
            paint(style, Some(Tint::Territory(Player::Dark)), " · "),
        )
    } else {
        let (l, d, c) = (
            fill_char(style, Some(Player::Light)),
            fill_char(style, Some(Player::Dark)),
            fill_char(style, None),
        );
        format!(
            "Legend: {l} Light, {d} Dark, {c} Cathedral building (one cell shows the owner and the \
             piece code, e.g. {d}Cs = Dark Castle); l/d Light/Dark territory; . empty"
        )
    }
}
