// @ts-check
// The page's words under the board: the status line (a message, or a hint of what to do next),
// the words for the placement under the pointer, and what a screen reader hears of a move or a
// cell. They are state (`S.message`), said through `update` and drawn by `render`.
import { S, update, gameKey, atEnd } from "./state.js";
import { kindName, Side } from "./words.js";
import { cellWords } from "./board.js";
import { shownAt } from "./input.js";
import * as editor from "./editor.js";
import * as history from "./history.js";
import * as study from "./study.js";
import * as teach from "./teach.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

/**
 * Says `text` in the status line; `ofCell` texts describe the cell under the pointer and go with
 * it; `move` is the move they describe, in the notation. Nothing said: the hint of the moment.
 */
export function say(text, refused = false, ofCell = false, move = "") {
  update({ message: { text, refused, ofCell, move, hint: text ? "" : hintText() } });
}

/** What to do next, in a few words, when nothing else is said. */
function hintText() {
  const view = S.view;
  if (!view || S.viewKey === null) return "";
  const point = window.matchMedia("(pointer: coarse)").matches ? "tap the board" : "point at the board";
  if (S.editor) return `Pick a building, turn it (R, M), ${point} and place it on free cells.`;
  const p = view.position;
  // A question of a study answered beside the board: nothing to place meanwhile.
  const form = study.answeredByForm();
  if (form === "legal") return "Answer with the tick-boxes under the question, then Check (pointing at a move shows it on the board).";
  if (form === "result") return "Answer with the result under the question, then Check.";
  if (form === "owned") return `Mark the cells on the board (${point === "tap the board" ? "a tap" : "a click"} marks a cell, again unmarks it), then Check.`;
  if (p.game_over) return "";
  if (S.puzzle && !S.puzzle.answered) return `Your answer: pick a building, turn it (R, M), ${point}.`;
  if (teach.holding()) return "Teaching: read what the move gave up, then take it back or play on.";
  if (S.engineSide === p.to_move && atEnd()) {
    // A game opened (a file, a record stepped to its end, a link) never starts the engine: the
    // line says how to let it move.
    if (S.autoplay || S.puzzle) return "The engine's turn.";
    return `Engine plays ${Side(p.to_move)}: press Engine move to let it move, or place ${Side(p.to_move)}'s building yourself.`;
  }
  // Stepped back to the engine's turn (a move of the list, a key): its move follows in the game.
  if (S.engineSide === p.to_move && !S.puzzle) return `Engine plays ${Side(p.to_move)}: Redo plays its move again; a building of ${Side(p.to_move)}'s placed here opens a variation.`;
  const lehmannWoods = p.rules.cathedral === "after-first-move";
  if (p.cathedral.status === "to-place" && p.to_move === "light")
    return lehmannWoods ? `Light places the Cathedral, then its own first building: turn it (R) and ${point}.`
      : `Light places the Cathedral first: turn it (R) and ${point}.`;
  if (p.cathedral.status === "to-place") return `Dark moves first; Light then places the Cathedral along with its first building. Pick a building, ${point}.`;
  if (lehmannWoods && p.to_move === "light" && !p.light.first_move_made && p.cathedral.status === "on-board")
    return `Light's turn goes on after the Cathedral: pick its first building, turn it (R, M), ${point}.`;
  return `${Side(p.to_move)} to move: pick a building, turn it (R, M), ${point}.`;
}

/** Says what the placement under the pointer (or the cursor) would do; render draws it. */
export function preview() {
  if (!S.view) return;
  const shown = shownAt(S.cell);
  if (!S.cell) { if (S.message.ofCell) say(""); return; }
  if (S.editor) {
    const standing = editor.buildingAt(S.cell);
    if (standing) { say(`${S.armed ? "Tap" : "Click"} to remove ${standing}.`, false, true); return; }
  }
  if (!shown) return;
  if (shown.reason) { say(`Refused: ${shown.reason}`, true, true); return; }
  const how = S.armed ? "tap it again or press Place" : "click or Enter to place";
  if (S.editor) { say(`${S.chosen}:${shown.cells.join(",")}: ${how}.`, false, true); return; }
  const ways = shown.moves.length > 1 ? ` (C: ${shown.moves.length} ways, ${shown.move.includes("/spare:") ? "sparing" : "capturing"} now)` : "";
  say(`${history.words(shown.move)}: ${how}${ways}.`, false, true, shown.move);
}

/**
 * The move that led to the position shown, with its claims and captures, for a screen reader
 * (the whole board stays in the board's description); empty at the start.
 */
export function announcement() {
  const view = S.view;
  const move = S.game.moves[S.game.moves.length - 1];
  if (!view.last_move || !move || S.viewKey !== gameKey()) return "";
  const report = view.last_move.report || { claims: [] };
  const claimed = report.claims.reduce((n, c) => n + c.cells.length, 0);
  const captured = report.claims.filter(c => c.captured).map(c => (c.captured.player === "light" || c.captured.player === "dark"
    ? `${Side(c.captured.player)}'s ${kindName(S.theme, c.captured.piece, c.captured.player)}` : "the Cathedral"));
  return `Move ${S.game.moves.length}: ${history.words(move, S.game.moves.length - 1)}` +
    (claimed ? `, claims ${claimed} square${claimed === 1 ? "" : "s"}` : "") +
    (captured.length ? `, captures ${captured.join(" and ")}` : "") + "." + (view.position.game_over ? " The game is over." : ` ${Side(view.position.to_move)} to move.`);
}

/**
 * Says what is on a cell (the keyboard cursor's), for a screen reader: written into the live
 * region at the key press, which is when it is to be heard (render writes it only for a move).
 */
export function announceCell(cell) {
  if (S.view && cell) $("announce").textContent = cellWords(S.view, cell, S.theme);
}
