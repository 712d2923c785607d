//! Tables for the terminal (comfy-table): the same look in every command.

use super::RenderStyle;

/// A comfy-table in the output style: box drawing on a terminal, ASCII otherwise.
pub fn new_table(style: RenderStyle) -> comfy_table::Table {
    let mut table = comfy_table::Table::new();
    table
        .load_preset(if style.unicode {
            comfy_table::presets::UTF8_FULL
        } else {
            comfy_table::presets::ASCII_FULL
        })
        .set_content_arrangement(comfy_table::ContentArrangement::Dynamic);
    table
}

/// Keeps `column` at least as wide as its widest cell, so that a narrow terminal wraps the other
/// columns instead of cutting a move like `castle:c3,c4,d3,e3,e4` in the middle.
pub fn keep_whole(table: &mut comfy_table::Table, column: usize) {
    let widest = table
        .column_cells_iter(column)
        .flatten()
        .flat_map(|cell| cell.content().lines().map(|l| l.chars().count()).max())
        .max()
        .unwrap_or(0);
    if let Some(column) = table.column_mut(column) {
        column.set_constraint(comfy_table::ColumnConstraint::LowerBoundary(
            // The width counts the cell padding, one space on each side.
            comfy_table::Width::Fixed(widest as u16 + 2),
        ));
    }
}

/// Right-aligns the given columns of `table` (numbers).
pub fn right_align(table: &mut comfy_table::Table, columns: &[usize]) {
    for &c in columns {
        if let Some(column) = table.column_mut(c) {
            column.set_cell_alignment(comfy_table::CellAlignment::Right);
        }
    }
}
