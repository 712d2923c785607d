// @ts-check
// The position editor: buildings set down freely on free cells, removed with a click, the side
// to move, the Cathedral's state and the rules chosen; every change is checked by the server
// as a position file (docs/file-format.md), and one that makes no valid position is refused
// with the reason.
import { S, update, newGameState } from "./state.js";
import { api } from "./api.js";
import { buildingName, Side, other, pieceOf } from "./words.js";
import { say } from "./status.js";
import { refresh, choose, mayDiscard, startGame } from "./actions.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

/** The edited position as a position file's text. */
export function file() {
  const e = S.editor;
  const cells = list => `[${list.join(", ")}]`;
  const status = $("edit-cathedral-status").value;
  const lines = [`rules: ${$("edit-rules").value}`, `to_move: ${$("edit-to-move").value}`];
  lines.push(`cathedral: ${status === "board" ? cells(e.cathedral || []) : status}`);
  for (const owner of ["light", "dark"]) {
    const own = e.buildings.filter(b => b.owner === owner);
    lines.push(`${owner}:`, own.length ? "  buildings:" : "  buildings: []");
    for (const b of own) lines.push(`  - ${b.piece}: ${cells(b.cells)}`);
  }
  return lines.join("\n") + "\n";
}

/** The building on a cell, in words ("Dark's Square on h8"). */
export function buildingAt(at) {
  const p = S.view.position;
  if (p.cathedral.cells.includes(at)) return `the ${buildingName(S.theme, "cathedral")} on ${at}`;
  for (const owner of ["light", "dark"]) {
    const b = p[owner].buildings.find(x => x.cells.includes(at));
    if (b) return `${Side(owner)}'s ${buildingName(S.theme, b.piece, owner)} on ${at}`;
  }
  return null;
}

/**
 * What a position being built means for play, said as it is built: a side owning most of the
 * board (a captured Cathedral and one Castle can make 90 squares one side's territory), or the
 * side to move with nothing to place but a pass.
 */
function territoryWarning(view) {
  const p = view.position;
  const notes = [];
  for (const owner of ["light", "dark"]) {
    const size = p[owner].territory_size;
    if (size >= 30) notes.push(`${Side(owner)} owns ${size} squares of territory, where ${Side(other(owner))} may not build`);
  }
  const moves = view.moves ? view.moves.moves : [];
  if (!p.game_over && moves.length === 1 && pieceOf(moves[0]) === "pass") notes.push(`${Side(p.to_move)} has no legal placement and can only pass`);
  if (p.game_over) notes.push("no one can place a building: the game is over in this position");
  return notes.length ? `Note: ${notes.join("; ")}.` : "";
}

/**
 * The server's reason in the editor's words: the position file's `to-place` and `gone` are the
 * Cathedral menu's "to place" and "captured", and no word of the file's is quoted as code.
 */
function editorWords(text) {
  return text.replace(/use `cathedral: to-place`/g, 'choose Cathedral "to place"')
    .replace(/`(cathedral: )?to-place`/g, '"to place"').replace(/`(cathedral: )?gone`/g, '"captured"')
    .replace(/`on-board`/g, '"on the board"').replace(/`([^`]*)`/g, "$1");
}

async function check(before) {
  try {
    const view = await api("/api/position", { start: file(), moves: [] });
    await refresh();
    const warning = territoryWarning(view);
    if (warning) say(warning);
    return true;
  } catch (e) {
    update(s => { Object.assign(s.editor, before); });
    await refresh();
    // Said after the board is drawn again, so that the pointer's preview does not cover it.
    const toPlace = $("edit-cathedral-status").value === "to-place";
    const hint = toPlace && /Cathedral/.test(e.message) ? " Set the Cathedral down first (the Cathedral button), or choose \"captured\" if it is off the board." : "";
    const why = editorWords(e.message.replace(/^start:\d+:\d+: /, ""));
    say(`Refused: ${why}.${hint}`.replace(/\.\./g, "."), true);
    return false;
  }
}

const snapshot = () => ({ buildings: S.editor.buildings.slice(), cathedral: S.editor.cathedral });

export function add(cells) {
  const before = snapshot();
  const cathedral = S.chosen === "cathedral";
  update(s => {
    if (cathedral) s.editor.cathedral = cells;
    else s.editor.buildings.push({ owner: $("edit-owner").value, piece: s.chosen, cells });
    return { armed: false };
  });
  if (cathedral) $("edit-cathedral-status").value = "board";
  check(before);
}

/** Removes the building on `at`, if there is one; says whether it did. */
export function removeAt(at) {
  if (!S.editor) return false;
  const before = snapshot();
  const i = S.editor.buildings.findIndex(b => b.cells.includes(at));
  if (i >= 0) update(s => { s.editor.buildings.splice(i, 1); });
  else if (S.editor.cathedral && S.editor.cathedral.includes(at)) { update(s => { s.editor.cathedral = null; }); $("edit-cathedral-status").value = "gone"; }
  else return false;
  update({ armed: false });
  check(before);
  return true;
}

function open() {
  const p = S.view.position;
  /** @type {import("./state.js").Editor} */
  const editor = { buildings: [], cathedral: p.cathedral.cells.length ? p.cathedral.cells : null, saved: { game: S.game, puzzle: S.puzzle } };
  for (const owner of ["light", "dark"]) for (const b of p[owner].buildings) editor.buildings.push({ owner, piece: b.piece, cells: b.cells });
  $("edit-to-move").value = p.to_move;
  $("edit-cathedral-status").value = p.cathedral.status === "on-board" ? "board" : p.cathedral.status;
  $("edit-rules").value = p.rules.preset || "classic";
  // (render marks the page as editing: body.editing)
  update({ editor, chosen: null, cell: null });
  refresh();
}

function close() {
  update({ editor: null });
}

export function init() {
  $("edit").onclick = open;
  $("edit-cathedral").onclick = () => choose("cathedral");
  $("edit-owner").onchange = () => { update({ placements: null }); refresh(); };
  for (const id of ["edit-to-move", "edit-cathedral-status", "edit-rules"]) $(id).onchange = () => check(snapshot());
  $("edit-clear").onclick = () => {
    update(s => { s.editor.buildings = []; s.editor.cathedral = null; });
    $("edit-cathedral-status").value = "to-place"; $("edit-to-move").value = "light";
    refresh();
  };
  $("edit-cancel").onclick = () => { update(s => ({ game: s.editor.saved.game })); close(); refresh(); };
  $("edit-done").onclick = async () => {
    const start = file();
    try {
      await api("/api/position", { start, moves: [] });
      if (!mayDiscard("Playing on from the edited position")) return;
      close();
      startGame(newGameState({ rules: $("edit-rules").value, start }));
      refresh();
    } catch (e) { say(e.message, true); }
  };
}
