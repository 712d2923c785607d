// @ts-check
// What a player does, as changes of the state: pick and turn a building, place it, play, undo
// and redo, move through the game, let the engine move, start a game; and `refresh`, which asks
// the server for the position the game has reached. Each change goes through `update`
// (state.js), which draws the page once at the next frame. Every answer that comes back is
// checked against the state it was asked for (a ticket, the game's key) and dropped if the page
// has moved on; a move is pending until its position comes, and input waits meanwhile.
import { S, update, renderNow, request, gameKey, playMove, goTo, undo as takeBack, allMoves, randomSeed, atEnd, nodeAt, current, treeSize, switchVariation, promote, deleteHere, newGameState } from "./state.js";
import { api, UNREACHABLE } from "./api.js";
import { LADDER } from "./ladder.js";
import { pieceOf, playerOf, Side } from "./words.js";
import { orientations, turned, shownAt } from "./input.js";
import { toggle as toggleShapeIn } from "./shapes.js";
import { say, preview } from "./status.js";
import { handKinds } from "./render.js";
import { save, saveSettings } from "./address.js";
import * as analysis from "./analysis.js";
import * as book from "./book.js";
import * as history from "./history.js";
import * as trainer from "./trainer.js";
import * as study from "./study.js";
import * as editor from "./editor.js";
import * as teach from "./teach.js";
import * as online from "./online.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

// ---- The position --------------------------------------------------------------------------

/** Asks the server for the position the game (or the editor) has reached, then draws it. */
export async function refresh() {
  const ticket = S.asking + 1;
  update({ asking: ticket });
  const key = S.editor ? "editor:" + editor.file() : gameKey();
  let view;
  try {
    view = await api("/api/position", S.editor ? { start: editor.file(), moves: [] } : request());
  } catch (e) {
    if (ticket !== S.asking) return;
    if (!S.editor && e.refusedMove) { dropFrom(e.refusedMove, e.message); return refresh(); }
    if (!e.unreachable) say(e.message, true);
    return;
  }
  if (ticket !== S.asking) return;
  update(s => {
    if (s.viewKey !== key) { s.placements = null; s.choice = 0; }
    s.view = view;
    s.viewKey = key;
  });
  chooseInHand();
  if (!S.editor) save();
  if (!S.message.text) say("");
  if (!S.editor) analysis.clearStalePanels();
  // Drawn at once: what the state says the board shows (`viewKey`, which `pending` and the
  // page's tools read) is what the board shows, from the moment the view is kept.
  renderNow();
  // The chosen building's placements in the new position (its shapes in the hand with them).
  if (S.chosen) await loadPlacements();
  // The game moved on while the placements came (a click on the move list, say): the newer
  // refresh owns the page, and nothing below may act on this view for another node.
  if (ticket !== S.asking || (!S.editor && key !== gameKey())) return;
  preview();
  if (!S.editor && forcedPass()) return;
  if (!S.editor) {
    analysis.onPosition();
    book.onPosition();
    enginePlays();
  } else book.hide();
}

/**
 * The building chosen in the hand is one the hand shows (the editor's Cathedral, picked beside
 * it, stays chosen); otherwise the first with a legal placement is chosen.
 */
function chooseInHand() {
  if (!S.view) return;
  const kinds = handKinds();
  const editorCathedral = S.editor && S.chosen === "cathedral";
  if (editorCathedral || kinds.some(([k]) => k === S.chosen)) return;
  const first = kinds.find(([, n]) => n !== 0) || kinds[0];
  update({ chosen: first ? first[0] : null, orientation: null, placements: null });
}

/**
 * Move `n` (from 1) of the game cannot be played (a damaged link or autosave): the game keeps
 * the moves before it, and the page says which move was refused and why.
 */
function dropFrom(n, message) {
  const path = S.game.moves.slice();
  const all = allMoves();
  const parent = nodeAt(path.slice(0, n - 1));
  const refused = parent && parent.children.find(c => c.move === path[n - 1]);
  // Everything from the refused move on goes (it cannot be played, so nothing after it can).
  if (refused) update(() => { parent.children = parent.children.filter(c => c !== refused); parent.last = 0; });
  goTo(path.slice(0, n - 1));
  // The server's reason, without the move written again in the notation.
  const why = (message.split("cannot be played: ")[1] || message).replace(/^`[^`]*`: /, "");
  const after = all.length - n;
  const left = after === 0 ? "that move was left out" : after === 1 ? "that move and the one after it were left out" : `that move and the ${after} after it were left out`;
  const shown = n === 1 ? "The game is shown from its start" : `The game is shown up to move ${n - 1}`;
  say(`Move ${n} of this game (${history.words(all[n - 1])}) cannot be played: ${why}. ${shown}; ${left}.`, true);
}

// The server went away: the page says so once, asks `/api/health` every few seconds until it
// answers, then clears the message and asks again for what the current state needs (the
// position, the chosen building's placements), so that nothing picked meanwhile is stuck.
export async function waitForServer() {
  if (S.waitingForServer) return;
  update({ waitingForServer: true });
  say(UNREACHABLE, true);
  for (let seconds = 1; ; seconds = Math.min(seconds * 2, 8)) {
    await new Promise(resolve => setTimeout(resolve, seconds * 1000));
    try { await api("/api/health"); break; } catch (_) { /* still gone */ }
  }
  update({ waitingForServer: false });
  if (S.message.text === UNREACHABLE) say("");
  update({ placements: null });
  refresh();
}

/**
 * The side to move has no legal placement: its forced pass is played for it and said, so that
 * nobody clicks Pass turn after turn. Only right after a move at the end of the game (never when
 * a game or a position is opened, stepped through or taken back), and not for the engine's side,
 * which plays its own. Whether the move was forced is the server's word: the pass is the only
 * legal move.
 */
function forcedPass() {
  const view = S.view;
  const p = view.position;
  if (S.puzzle || !S.autoplay || !S.game.moves.length || !atEnd() || p.game_over) return false;
  if (S.engineSide === p.to_move || teach.holding()) return false;
  const moves = view.moves.moves;
  if (moves.length !== 1 || pieceOf(moves[0]) !== "pass") return false;
  playMove(`${p.to_move}:pass`, { byPlayer: false });
  say(`${Side(p.to_move)} has no legal placement, so ${Side(p.to_move)} passes (played for them).`);
  refresh();
  return true;
}

// ---- Shapes drawn on the board (shapes.js) ---------------------------------------------------

/** The shape drawn on the node shown, or taken off it when it was there already (as lichess does). */
export function toggleShape(shape) {
  if (S.editor || pending()) return;
  const node = current();
  update(() => { node.shapes = toggleShapeIn(node.shapes, shape); return { dirty: true }; });
  save();
}

/** A left click that placed nothing: the node's shapes go (as on lichess). */
export function clearShapes() {
  const node = current();
  if (S.editor || pending() || !node.shapes.length) return;
  update(() => { node.shapes = []; return { dirty: true }; });
  save();
}

/** The shape being drawn (a right-drag, a long-press), or none. */
export function setDrawing(shape) { update({ drawing: shape }); }

// ---- The hand -------------------------------------------------------------------------------

/** Asks for the chosen building's placements in the position shown, unless they are known. */
export async function loadPlacements() {
  if (!S.chosen || S.chosen === "pass" || !S.view) return;
  const owner = S.editor ? (S.chosen === "cathedral" ? "light" : $("edit-owner").value) : null;
  const key = S.viewKey;
  if (S.placements && S.placements.key === key && S.placements.piece === S.chosen && S.placements.owner === owner) return;
  /** @type {{ piece: string, owner?: string }} */
  const extra = { piece: S.chosen };
  if (owner) extra.owner = owner;
  const body = S.editor ? Object.assign({ start: editor.file(), moves: [] }, extra) : request(extra);
  try {
    const answer = await api("/api/placements", body);
    if (S.viewKey !== key) return;
    const shapes = orientations(answer.placements.filter(p => p.legal).concat(answer.placements));
    update(s => ({
      placements: { key, piece: s.chosen, owner, list: answer.placements },
      orientation: !s.orientation || !shapes.includes(s.orientation) ? shapes[0] : s.orientation,
      shapes,
    }));
  } catch (e) { if (!e.unreachable) say(e.message, true); }
}

/** Picks a building of the hand (Pass plays the pass). */
export async function choose(kind) {
  if (kind === "pass" && !S.editor) {
    const pass = S.view.moves.moves.find(m => pieceOf(m) === "pass");
    if (pass) play(pass.includes(":pass") && !playerOf(pass) ? `${S.view.position.to_move}:pass` : pass);
    return;
  }
  update(s => ({ ...(s.chosen !== kind ? { orientation: null, choice: 0 } : {}), chosen: kind, placements: null }));
  // Drawn at once: the hand's sign that the building's placements are known (its shape on the
  // chosen button, which tools and tests wait for) goes in the same task as the placements.
  renderNow();
  await loadPlacements();
  preview();
}

/** Rotate or mirror the chosen building's shape. */
export function turn(how) {
  if (!S.orientation || !S.shapes) return;
  const next = turned(S.orientation, how, S.shapes);
  if (next === null) {
    say(`This ${S.chosen} has no mirror image in its owner's set: Light's and Dark's are each other's mirror images.`, true);
    return;
  }
  update({ orientation: next, choice: 0 });
  preview();
}

/** The next (`step` 1) or the previous (-1) building of the hand. */
export function nextPiece(step) {
  const order = handKinds().map(([k]) => k).filter(k => k !== "pass");
  if (!order.length) return;
  choose(order[(order.indexOf(S.chosen) + step + order.length) % order.length]);
}

// ---- The placement under the pointer ----------------------------------------------------------

/** The cell under the pointer, the cursor or a tap; `armed`: a touch preview waiting for its tap. */
export function point(cell, { armed = false, choice = 0 } = {}) {
  update({ cell, armed, choice });
  preview();
}

/** The next of several moves on the same cells (C: capture or spare). */
export function nextChoice() {
  update(s => ({ choice: s.choice + 1 }));
  preview();
}

/**
 * Whether a move is pending: the board shows a position the game has left (its answer has not
 * come yet). Board input waits for it, so that a double click never plays twice.
 */
export const pending = () => (!S.editor && S.viewKey !== gameKey()) || Boolean(S.online && S.online.sent);

/** Places the building shown under the pointer (or marks the cell, or removes a building in the editor). */
export function place() {
  if (pending()) return;
  // An "owned" question of a study: the board marks cells instead of placing.
  if (study.marking()) { study.mark(S.cell); return; }
  if (S.editor && S.cell && editor.removeAt(S.cell)) return;
  const shown = shownAt(S.cell);
  if (!shown) return;
  if (shown.reason) { say(`Refused: ${shown.reason}`, true, true); return; }
  if (S.editor) { editor.add(shown.cells); return; }
  play(shown.move);
}

// ---- Moving through the game ----------------------------------------------------------------

/** Plays a move of the player's (or of a line they clicked). */
export function play(move) {
  if (!move || !S.view || pending()) return;
  const text = playerOf(move) ? move : `${S.view.position.to_move}:${move}`;
  // A game on the play server: the move goes to the server, and the board follows its answer.
  if (online.takesMove()) { online.send(text); update({ cell: null, armed: false, choice: 0 }); return; }
  if (trainer.takesAnswer()) { trainer.answer(text); return; }
  if (study.takesAnswer()) { study.answer(text); return; }
  // In the middle of a game a new move opens a variation: the game's own moves are kept.
  const here = nodeAt(S.game.moves);
  const branches = here && here.children.length > 0 && !here.children.some(c => c.move === text);
  playMove(text);
  // The building just placed is under the pointer: say nothing of it until the pointer moves.
  update({ cell: null, armed: false, choice: 0 });
  say("");
  if (branches) say(`${history.words(text)} opens a variation: the game's moves are kept (the move list shows both).`);
  teach.judge(text); // before refresh: the engine waits for the judgement
  refresh();
}

/** Takes back exactly one move (the teaching mode's "take the move back"). */
export function undoOne() {
  if (online.live()) return; // a game between players stays at its last move while it runs
  if (S.editor || !S.game.moves.length) return;
  analysis.cancelEngine();
  teach.cancel();
  goTo(S.game.moves.slice(0, -1));
  update({ cell: null, armed: false });
  refresh();
}

/** Undo: the last move back (against the engine, its move and the player's). */
export function undo() {
  if (online.live()) return; // a game between players stays at its last move while it runs
  if (S.editor || !S.game.moves.length) return;
  analysis.cancelEngine();
  teach.cancel();
  trainer.onUndo();
  takeBack();
  update({ cell: null, armed: false });
  refresh();
}

/**
 * Plays the next move of the line again; against the engine, its answer too (as Undo took back
 * both), so that the player is to move again, never left to move for the engine.
 */
export function redo() {
  if (online.live()) return; // a game between players stays at its last move while it runs
  if (S.editor || atEnd()) return;
  const line = allMoves();
  let count = S.game.moves.length + 1;
  if (S.engineSide && !S.puzzle) while (count < line.length && playerOf(line[count]) === S.engineSide) count++;
  jump(count);
}

/** Goes to the moment after `count` moves of the line shown. */
export function jump(count) { if (!S.editor && !online.live()) goToPath(allMoves().slice(0, Math.max(0, count))); }

/** Goes to the node at the end of `path` (a move of the list, a variation). */
export function goToPath(path) {
  if (online.live()) return;
  if (S.editor) return;
  analysis.cancelEngine();
  teach.cancel();
  goTo(path);
  update({ cell: null, armed: false });
  refresh();
}

/**
 * A key that moves through the game (lichess's keys): Left and Right a move back and on, Home
 * to the start, End to the end of the line shown, Shift+Up and Shift+Down to the other
 * variations at this move.
 */
export function step(key, shift) {
  if (S.editor) return;
  if (shift && (key === "ArrowUp" || key === "ArrowDown")) {
    if (switchVariation(key === "ArrowDown" ? 1 : -1)) { analysis.cancelEngine(); teach.cancel(); update({ cell: null, armed: false }); refresh(); }
    else say("There is no other variation at this move.");
    return;
  }
  const count = { ArrowLeft: S.game.moves.length - 1, ArrowRight: S.game.moves.length + 1, Home: 0, End: allMoves().length }[key];
  if (count === undefined || count < 0 || count > allMoves().length || count === S.game.moves.length) return;
  jump(count);
}

/** Make main line: the line through the current move becomes the main line. */
export function makeMainLine() {
  if (promote()) { say("This line is now the main line."); save(); }
}

/** Deletes the current move and everything after it (asked first when more than one goes). */
export function deleteMove() {
  const count = (function size(n) { return n ? 1 + n.children.reduce((a, c) => a + size(c), 0) : 0; })(nodeAt(S.game.moves));
  if (count > 1 && !window.confirm(`Delete this move and the ${count - 1} move${count === 2 ? "" : "s"} after it (variations included)?`)) return;
  analysis.cancelEngine();
  teach.cancel();
  if (deleteHere()) { say(count > 1 ? `${count} moves deleted.` : "The move is deleted."); refresh(); }
}

/** A comment or a glyph of the current move changed (`change` makes it): kept in the address and counted as unsaved. */
export function annotate(change) {
  update(() => { change(); return { dirty: true }; });
  save();
}

// ---- The engine's side ----------------------------------------------------------------------

// The engine plays its side: only when the game is at its end (no moves taken back that the
// player did not discard) and after the player's move or the player's choice of sides, never
// right after Undo. A late answer for a position that is no longer current is dropped.
export async function enginePlays() {
  const side = S.engineSide;
  const view = S.view;
  if (online.live()) return; // no engine in a game between players
  if (!side || S.editor || S.puzzle || !S.autoplay || !atEnd() || !view || view.position.game_over || view.position.to_move !== side) return;
  if (teach.holding()) return; // the player reads the lesson first; Play on resumes
  const key = gameKey();
  const move = await analysis.engineReply(key);
  if (move && key === gameKey() && S.engineSide === side) {
    playMove(move, { byPlayer: false });
    // The engine plays on while it is still its turn (under Lehmann-Woods Light's Cathedral is
    // followed by its first building); the next view decides.
    update({ autoplay: true, cell: null });
    refresh();
  }
}

/**
 * Engine move when the engine's side is to move at the end of the game and the engine waits (a
 * game just opened, a record stepped to its end, a move taken back): it plays its move. Returns
 * whether the press was taken (false: Engine move shows the engine's suggestion, as elsewhere).
 */
export function letEngineMove() {
  const view = S.view;
  if (online.live()) return true; // taken, and nothing done: no engine help in a running game
  if (!S.engineSide || S.editor || S.puzzle || !view || view.position.game_over || view.position.to_move !== S.engineSide) return false;
  if (!atEnd() || teach.holding() || trainer.takesAnswer() || study.takesAnswer()) return false;
  // A move pending: input waits (the view decides once it is drawn).
  if (pending()) return true;
  if (S.autoplay && analysis.engineThinking()) return true;
  update({ autoplay: true });
  save();
  say("");
  enginePlays();
  return true;
}

/** The engine plays `side` ("" for nobody), from now on. */
export function setEngineSide(side) {
  update({ engineSide: side, autoplay: true });
  enginePlays();
}

/** The engine's level (1 to 10) for the moves to come. */
export function setLevel(level) { update({ level }); }

/**
 * The first screen's answer: play Light against the engine ("dark"), or both sides (""). Either
 * puts the question away.
 */
export function welcome(side) {
  update({ welcomed: true, engineSide: side });
  $("opponent").value = side;
  saveSettings();
  if (side) {
    update({ autoplay: true });
    say(`You play Light against the engine (level ${S.level}, ${LADDER[S.level - 1].name}; change it beside "Engine plays").`);
  } else say("You play both sides: Solve, Engine move and Analyse game judge the position.");
  // The first screen's buttons are gone: the keyboard goes on from the board, not the page's top.
  $("board").focus();
  if (side) enginePlays();
}

// ---- The display ------------------------------------------------------------------------------

/** Flip board (its button, the V key): the board seen from the other side. */
export function flip() {
  update(s => ({ flipped: !s.flipped }));
  saveSettings();
}

/** The display theme ("classic" or "world"). */
export function setTheme(theme) {
  update({ theme });
  preview();
}

/** Territory view switched on or off. */
export function showTerritory(on) { update({ showTerritory: on }); }

// ---- New games --------------------------------------------------------------------------------

/** Whether the current game may be replaced (asks when it has moves not saved). */
export function mayDiscard(what) {
  const size = treeSize();
  if (!S.dirty || !size || S.puzzle || S.study) return true;
  return window.confirm(`${what} discards the current game of ${size} move${size === 1 ? "" : "s"}, which is not saved. Go on?`);
}

/**
 * Starts a game: every panel of the last one goes. The engine moves in it by itself only with
 * `autoplay` (New game, other rules): a game opened (a file, a record, a link, a study's
 * chapter, a position set up) waits for Engine move.
 */
export function startGame(game, { meta = null, keepRecord = false, keepStudy = false, autoplay = false } = {}) {
  update(s => ({ address: { ...s.address, fresh: true } }));
  analysis.reset();
  trainer.leave();
  if (!keepStudy) study.leave();
  if (meta) game.meta = meta;
  update({
    game, engineSeed: randomSeed(), values: {}, line: null, candidates: null, territory: null, dirty: false,
    cell: null, armed: false, autoplay, lesson: null, lessons: [], welcomed: false,
  });
  teach.cancel();
  if (!keepRecord) { update({ record: null }); $("games-label").hidden = true; }
  $("rules").value = game.rules || "classic";
  say("");
}

/** New game (its button, or other rules): the engine plays its side in it by itself. */
export function newGame(rules) {
  startGame(newGameState({ rules }), { autoplay: true });
  refresh();
}
