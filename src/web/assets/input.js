// @ts-check
// Placing a building: its shape is turned first (Rotate, Mirror), then the pointer, a tap or
// the keyboard cursor positions it. Mouse: hover shows, click plays. Touch: a tap shows, a
// second tap on the shown building plays; nothing is played by one accidental tap. Keyboard:
// with the board focused the arrows move the cursor; elsewhere (but in a text field) they move
// through the game, as the mouse wheel over the board does. Drawing (shapes.js): a right-click
// or a right-drag, on touch a long-press and a drag.
// @ts-check
import { S, update } from "./state.js";
import { coords, cellName, FILES, pieceOf, cellsOf, sameCells } from "./words.js";
import { cellAt } from "./board.js";
import { colourOf } from "./shapes.js";
import { preview, announceCell } from "./status.js";
import { pending, place, point, nextChoice, clearShapes, toggleShape, setDrawing, step, turn, flip, nextPiece, undo, redo } from "./actions.js";
import { marking } from "./study.js";
import { removeAt } from "./editor.js";
import { open as help } from "./help.js";

/** Whether keys typed at `t` are text (a text field), which the page's keys leave alone. */
const typing = t => t.isContentEditable || t.tagName === "TEXTAREA"
  || (t.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset", "file", "color", "image"].includes(t.type));

/** How long a touch stays still on a cell before it draws (lichess's long-press), in ms. */
const LONG_PRESS = 500;

/** A shape: cells as [file, rank] moved to the corner, written "0,0;0,1;1,1" in a fixed order. */
export function shapeKey(points) {
  const f0 = Math.min(...points.map(p => p[0])), r0 = Math.min(...points.map(p => p[1]));
  return points.map(([f, r]) => [f - f0, r - r0]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).map(p => p.join(",")).join(";");
}
const pointsOf = key => key.split(";").map(p => p.split(",").map(Number));
export const keyOfCells = cells => shapeKey(cells.map(coords));

/** The distinct shapes of a building's placements, in the order first met. */
export function orientations(list) {
  const keys = [];
  for (const p of list) { const k = keyOfCells(p.cells); if (!keys.includes(k)) keys.push(k); }
  return keys;
}

/** The shape turned a quarter clockwise, or mirrored left to right, if the building has it. */
export function turned(key, how, available) {
  const points = pointsOf(key).map(([f, r]) => (how === "rotate" ? [r, -f] : [-f, r]));
  let next = shapeKey(points);
  if (available.includes(next)) return next;
  if (how === "rotate") return key;
  return null; // Light's and Dark's Abbey and Academy are each other's mirror images.
}

/** The cell of a shape that sits under the pointer: the one nearest its middle. */
export function anchor(key) {
  const points = pointsOf(key);
  const w = Math.max(...points.map(p => p[0])), h = Math.max(...points.map(p => p[1]));
  let best = points[0], distance = Infinity;
  for (const p of points) {
    const d = (p[0] - w / 2) ** 2 + (p[1] - h / 2) ** 2;
    if (d < distance - 1e-9) { best = p; distance = d; }
  }
  return best;
}

/** The cells of the shape placed with its anchor on `cell`, moved inside the board if needed. */
export function cellsAt(key, cell) {
  const points = pointsOf(key);
  const [af, ar] = anchor(key);
  const [cf, cr] = coords(cell);
  const w = Math.max(...points.map(p => p[0])), h = Math.max(...points.map(p => p[1]));
  const f0 = Math.max(0, Math.min(9 - w, cf - af));
  const r0 = Math.max(1, Math.min(10 - h, cr - ar));
  return points.map(([f, r]) => cellName(f0 + f, r0 + r));
}

/**
 * What the board shows over the cell: { cells, move } for a legal placement (the moves on the
 * same cells, several when a capture may be declined), { cells, reason } for a refused one.
 */
export function shownAt(cell) {
  if (!cell || !S.chosen || S.chosen === "pass" || !S.placements || !S.orientation) return null;
  const cells = cellsAt(S.orientation, cell);
  const p = S.placements.list.find(q => sameCells(q.cells, cells));
  if (!p) return { cells, reason: "it would leave the board" };
  if (!p.legal) return { cells, reason: p.reason };
  if (S.editor) return { cells };
  const moves = S.view.moves.moves.filter(m => pieceOf(m) === S.chosen && sameCells(cellsOf(m), cells));
  if (!moves.length) return { cells, reason: "this placement is not among the legal moves" };
  return { cells, moves, move: moves[S.choice % moves.length] };
}

/**
 * Wires the board's pointer and the page's keys to the actions (actions.js). What a gesture
 * holds while it lasts (the last pointer's kind, a long-press waiting, the wheel's remainder)
 * stays in this function's closure: it is the gesture's, not the page's state.
 */
export function attach() {
  const board = document.getElementById("board");
  let lastPointer = "mouse";
  board.addEventListener("pointermove", e => {
    if (e.pointerType !== "mouse" || S.drawing) return;
    const svg = board.querySelector("svg");
    if (!svg) return;
    const now = cellAt(svg, e.clientX, e.clientY);
    if (now !== S.cell || S.armed) point(now);
  });
  board.addEventListener("pointerdown", e => { lastPointer = e.pointerType || "mouse"; });
  board.addEventListener("click", e => {
    const svg = board.querySelector("svg");
    // A click while a move is pending (the second of a double click) is dropped: it neither
    // plays nor chooses a cell.
    if (!svg || pending()) return;
    const at = cellAt(svg, e.clientX, e.clientY);
    if (!at) return;
    const touch = (e.pointerType || lastPointer) !== "mouse";
    // The second click of a mouse double click is dropped even when the move's answer came
    // before it (a quick machine): the first click played on that spot, so this one could only
    // be refused there. (A quick second tap is how touch plays the shown building: kept.)
    if (!touch && e.detail > 1) return;
    // A study's "owned" question: a click or a tap marks the cell (no preview to confirm).
    if (marking()) { update({ cell: at }); place(); return; }
    if (!touch) {
      // A click that places nothing clears the position's shapes (lichess's click).
      const placing = shownAt(at);
      if (!S.editor && !(placing && placing.move)) clearShapes();
      update({ cell: at }); place(); return;
    }
    // A tap: the first shows the building there, a tap on the shown building plays it.
    const shown = shownAt(S.cell);
    if (S.armed && shown && shown.cells.includes(at)) { place(); return; }
    if (S.editor && removeAt(at)) return;
    // A tap where the building cannot go (as a click) clears the position's shapes.
    const there = shownAt(at);
    if (!S.editor && !(there && there.move)) clearShapes();
    point(at, { armed: true });
  });
  // Drawing with the mouse: the right button pressed on a cell starts a shape there, its
  // release over a cell ends it (on the same cell: a circle); the colour is the keys' at the
  // press. The board's context menu never opens.
  board.addEventListener("contextmenu", e => e.preventDefault());
  const cellOf = e => { const svg = board.querySelector("svg"); return svg ? cellAt(svg, e.clientX, e.clientY) : null; };
  board.addEventListener("pointerdown", e => {
    if (e.pointerType !== "mouse" || e.button !== 2 || S.editor || pending()) return;
    const from = cellOf(e);
    if (!from) return;
    e.preventDefault();
    board.setPointerCapture(e.pointerId);
    setDrawing({ from, to: from, colour: colourOf(e), pointer: e.pointerId });
  });
  board.addEventListener("pointermove", e => {
    if (!S.drawing || S.drawing.pointer !== e.pointerId) return;
    const to = cellOf(e);
    if (to !== S.drawing.to) setDrawing({ ...S.drawing, to });
  });
  const endDrawing = commit => {
    const drawn = S.drawing;
    setDrawing(null);
    if (commit && drawn && drawn.to) toggleShape({ from: drawn.from, to: drawn.to, colour: drawn.colour });
  };
  board.addEventListener("pointerup", e => { if (S.drawing && S.drawing.pointer === e.pointerId) endDrawing(true); });
  board.addEventListener("pointercancel", e => { if (S.drawing && S.drawing.pointer === e.pointerId) endDrawing(false); });
  // Drawing by touch: a finger held still on a cell for a moment starts a shape (the page does
  // not scroll while it draws), a drag takes it to another cell, lifting the finger ends it;
  // the tap it would have been is not made.
  let press = null;
  board.addEventListener("touchstart", e => {
    if (press) { clearTimeout(press.timer); press = null; }
    if (e.touches.length !== 1 || S.editor) return;
    const t = e.touches[0];
    const from = cellOf(t);
    if (!from) return;
    press = { x: t.clientX, y: t.clientY, timer: setTimeout(() => {
      if (!press || pending()) return;
      press.drawing = true;
      setDrawing({ from, to: from, colour: "green", pointer: "touch" });
    }, LONG_PRESS) };
  }, { passive: true });
  board.addEventListener("touchmove", e => {
    if (!press) return;
    const t = e.touches[0];
    if (!press.drawing) {
      // Moved before the moment was up: a scroll or a swipe, not a drawing.
      if (Math.hypot(t.clientX - press.x, t.clientY - press.y) > 10) { clearTimeout(press.timer); press = null; }
      return;
    }
    e.preventDefault();
    const to = cellOf(t);
    if (S.drawing && to !== S.drawing.to) setDrawing({ ...S.drawing, to });
  }, { passive: false });
  board.addEventListener("touchend", e => {
    if (!press) return;
    clearTimeout(press.timer);
    const drew = press.drawing;
    press = null;
    if (!drew) return;
    e.preventDefault(); // no tap after the drawing
    endDrawing(true);
  }, { passive: false });
  board.addEventListener("touchcancel", () => {
    if (!press) return;
    clearTimeout(press.timer);
    if (press.drawing) endDrawing(false);
    press = null;
  });
  // The wheel over the board steps through the game (lichess's): down a move on, up a move
  // back. A trackpad's small steps add up to one move per 100 pixels.
  let wheeled = 0;
  board.addEventListener("wheel", e => {
    if (S.editor || !(S.game.moves.length || S.game.root.children.length)) return;
    e.preventDefault();
    const delta = e.deltaY * (e.deltaMode === 1 ? 40 : e.deltaMode === 2 ? 800 : 1);
    if (Math.sign(delta) !== Math.sign(wheeled)) wheeled = 0;
    wheeled += delta;
    while (Math.abs(wheeled) >= 100) {
      step(wheeled > 0 ? "ArrowRight" : "ArrowLeft", false);
      wheeled -= Math.sign(wheeled) * 100;
    }
  }, { passive: false });
  // The pointer left the board: the preview goes with it (mouseleave does not come when the
  // board was redrawn under a still pointer).
  document.addEventListener("pointermove", e => {
    if (e.pointerType === "mouse" && S.cell && !S.armed && !(/** @type {Element} */ (e.target)).closest("#board")) { update({ cell: null }); preview(); }
  });

  document.addEventListener("keydown", e => {
    const t = /** @type {HTMLElement} */ (e.target);
    // Text fields keep their keys; so does a select but for Left and Right, which step through
    // the game there too (a select would change its value with them).
    if (typing(t) || e.ctrlKey || e.metaKey || e.altKey) return;
    if (t.tagName === "SELECT" && e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    if (document.querySelector("dialog[open]")) return;
    const onBoard = t === board || board.contains(t);
    const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    const vertical = e.key === "ArrowUp" || e.key === "ArrowDown";
    if (!onBoard && (arrows[e.key] || e.key === "Home" || e.key === "End") && (!vertical || e.shiftKey)) {
      // Off the board Left, Right, Home and End move through the game (lichess's keys) and
      // Shift+Up, Shift+Down switch variations; Up and Down still scroll the page.
      e.preventDefault();
      step(e.key, e.shiftKey);
      return;
    }
    if (arrows[e.key]) {
      if (!onBoard) return; // Up and Down scroll the page
      e.preventDefault();
      const [df, dr] = arrows[e.key];
      const [f, r] = S.cell ? coords(S.cell) : [4, 5];
      point(S.cell ? FILES[Math.min(9, Math.max(0, f + df))] + Math.min(10, Math.max(1, r + dr)) : "e5");
      announceCell(S.cell);
    } else if (e.key === "r" || e.key === "R") { turn("rotate"); }
    else if (e.key === "m" || e.key === "M" || e.key === "f" || e.key === "F") { turn("mirror"); }
    else if (e.key === "v" || e.key === "V") { flip(); } // Flip board (lichess's F; F mirrors here)
    else if (e.key === "c" || e.key === "C") { nextChoice(); }
    else if ((e.key === "Enter" || e.key === " ") && onBoard) { e.preventDefault(); place(); }
    else if (e.key === "Escape") { update({ cell: null, armed: false }); preview(); }
    else if (e.key === "[" || e.key === "]") { nextPiece(e.key === "]" ? 1 : -1); }
    else if (e.key === "?") { help(); }
    else if (e.key === "Backspace" && !S.editor) {
      e.preventDefault();
      if (e.shiftKey) redo(); else undo();
    }
  });
}
