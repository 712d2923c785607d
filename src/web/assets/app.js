// The page's entry: the actions a player takes (pick, turn, place, undo, open, share) and
// `render`, which draws every view from the state (state.js) after each change.
import { LADDER } from "./ladder.js";
import { S, request, gameKey, playMove, goTo, undo as takeBack, allMoves, newGameState, randomSeed, encodeGame, decodeGame, atEnd, nodeAt, lineOf, treeSize, switchVariation, promote, deleteHere } from "./state.js";
import { api, onUnreachable, UNREACHABLE } from "./api.js";
import { IN_BROWSER, ENGINE_WHERE, tableMb, setTableMb } from "./local.js";
import { pieceOf, playerOf, kindName, buildingName, Side, SIZE, KINDS, failure, count as counted } from "./words.js";
import { boardSvg, relabel, drawMarks, drawGhosts, drawPreview, drawTerritory, drawStudy, describe, cellWords } from "./board.js";
import { attach, orientations, turned, shownAt } from "./input.js";
import { drawShapes, toggle as toggleShapeIn } from "./shapes.js";
import * as analysis from "./analysis.js";
import * as book from "./book.js";
import * as history from "./history.js";
import * as trainer from "./trainer.js";
import * as study from "./study.js";
import * as editor from "./editor.js";
import * as help from "./help.js";
import * as teach from "./teach.js";

const $ = id => document.getElementById(id);

// ---- Words under the hand ------------------------------------------------------------------

/** Says `text` in the status line; `ofCell` texts describe the cell under the pointer and go with it. */
export function say(text, refused = false, ofCell = false, move = "") {
  S.message = { text, refused, ofCell };
  const hint = text ? "" : hintText();
  $("status").textContent = text || hint;
  $("status").className = refused ? "refused" : hint ? "hint" : "";
  // The move shown under the pointer, in the notation, for tools and tests: the words are the
  // player's.
  $("status").dataset.move = move;
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

// ---- The position --------------------------------------------------------------------------

let asking = 0;
/** Asks the server for the position the game (or the editor) has reached, then draws it. */
export async function refresh() {
  const ticket = ++asking;
  const key = S.editor ? "editor:" + editor.file() : gameKey();
  let view;
  try {
    view = await api("/api/position", S.editor ? { start: editor.file(), moves: [] } : request());
  } catch (e) {
    if (ticket !== asking) return;
    if (!S.editor && e.refusedMove) { dropFrom(e.refusedMove, e.message); return refresh(); }
    if (!e.unreachable) say(e.message, true);
    return;
  }
  if (ticket !== asking) return;
  if (S.viewKey !== key) { S.placements = null; S.choice = 0; }
  S.view = view;
  S.viewKey = key;
  if (!S.editor) save();
  if (!S.message.text) say("");
  if (!S.editor) analysis.clearStalePanels();
  render();
  // The chosen building's placements in the new position (its shapes in the hand with them).
  if (S.chosen) {
    const before = S.placements;
    await loadPlacements();
    if (ticket === asking && S.placements !== before) render();
  }
  // The game moved on while the placements came (a click on the move list, say): the newer
  // refresh owns the page, and nothing below may act on this view for another node.
  if (ticket !== asking || (!S.editor && key !== gameKey())) return;
  preview();
  if (!S.editor && forcedPass()) return;
  if (!S.editor) {
    analysis.onPosition(ctx);
    book.onPosition(ctx);
    enginePlays();
  } else book.hide();
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
  if (refused) { parent.children = parent.children.filter(c => c !== refused); parent.last = 0; }
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
let waitingForServer = false;
async function waitForServer() {
  if (waitingForServer) return;
  waitingForServer = true;
  say(UNREACHABLE, true);
  for (let seconds = 1; ; seconds = Math.min(seconds * 2, 8)) {
    await new Promise(resolve => setTimeout(resolve, seconds * 1000));
    try { await api("/api/health"); break; } catch (_) { /* still gone */ }
  }
  waitingForServer = false;
  if (S.message.text === UNREACHABLE) say("");
  S.placements = null;
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

// A screen reader hears what changed, not the whole board again: the move that led to the
// position shown, with its claims and captures. The whole board stays in the board's description.
let announced = null;
function announceMove() {
  if (S.editor || announced === S.viewKey) return;
  announced = S.viewKey;
  const view = S.view;
  const move = S.game.moves[S.game.moves.length - 1];
  if (!view.last_move || !move || S.viewKey !== gameKey()) { $("announce").textContent = ""; return; }
  const report = view.last_move.report || { claims: [] };
  const claimed = report.claims.reduce((n, c) => n + c.cells.length, 0);
  const captured = report.claims.filter(c => c.captured).map(c => (c.captured.player === "light" || c.captured.player === "dark"
    ? `${Side(c.captured.player)}'s ${kindName(S.theme, c.captured.piece, c.captured.player)}` : "the Cathedral"));
  $("announce").textContent = `Move ${S.game.moves.length}: ${history.words(move, S.game.moves.length - 1)}` +
    (claimed ? `, claims ${claimed} square${claimed === 1 ? "" : "s"}` : "") +
    (captured.length ? `, captures ${captured.join(" and ")}` : "") + "." + (view.position.game_over ? " The game is over." : ` ${Side(view.position.to_move)} to move.`);
}

/** Says what is on a cell (the keyboard cursor's): for a screen reader. */
function announceCell(cell) {
  if (S.view && cell) $("announce").textContent = cellWords(S.view, cell, S.theme);
}

/** Draws every view from the state. */
export function render() {
  const view = S.view;
  if (!view) return;
  const key = S.viewKey;
  const holder = $("board");
  if (holder.dataset.key !== key || holder.dataset.theme !== S.theme) {
    holder.innerHTML = "";
    const board = boardSvg(view.svg, S.theme);
    relabel(board, view.position, S.theme);
    holder.appendChild(board);
    holder.dataset.key = key;
    holder.dataset.theme = S.theme;
  }
  const svg = holder.querySelector("svg");
  const current = !S.editor && key === gameKey();
  const covered = new Set([...view.position.cathedral.cells, ...["light", "dark"].flatMap(o => view.position[o].buildings.flatMap(b => b.cells))]);
  drawTerritory(svg, S.showTerritory && current && S.territory && S.territory.key === key ? S.territory.cells : null, covered);
  drawMarks(svg, current && view.last_move ? view.last_move.report : null, S.theme);
  const ghosts = S.hovered ? [S.hovered] : $("show-line").checked && current && S.line && S.line.key === key ? S.line.moves : null;
  const studied = current ? study.drawn() : null;
  drawGhosts(svg, ghosts || (studied && studied.ghost ? [studied.ghost] : null), S.theme);
  drawStudy(svg, studied);
  drawShapeLayer();
  drawPreview(svg, S.cell, study.marking() ? null : shownAt(S.cell), S.armed);
  $("board-text").textContent = describe(view, S.theme);
  announceMove();
  $("explain").textContent = S.editor ? "" : view.last_move ? view.last_move.text : "(no move yet)";
  showHand();
  history.render(ctx);
  keepJudgements();
  teach.show(ctx);
  analysis.renderEval(ctx);
  analysis.renderPlot(ctx);
  $("welcome").hidden = !!S.editor || !!S.puzzle || !!S.study || !!S.game.start || S.welcomed || treeSize() > 0;
  study.showBox();
  $("undo").disabled = S.editor || S.game.moves.length === 0;
  $("redo").disabled = S.editor || atEnd();
  const shown = shownAt(S.cell);
  $("place").disabled = !shown || !!shown.reason;
  $("rotate").disabled = $("mirror").disabled = !S.chosen || S.chosen === "pass";
}

// ---- Shapes drawn on the board (shapes.js) ---------------------------------------------------

/** The node whose position the board shows: its shapes are drawn, and drawing adds to them. */
const shownNode = () => nodeAt(S.game.moves) || S.game.root;

/** The shapes layer alone: the study's and the node's shapes, and the one being drawn. */
function drawShapeLayer() {
  const svg = $("board").querySelector("svg");
  if (!svg || !S.view) return;
  const current = !S.editor && S.viewKey === gameKey();
  const studied = current ? study.drawn() : null;
  drawShapes(svg, { study: (studied && studied.shapes) || [], node: current ? shownNode().shapes : [], drawing: current ? S.drawing : null });
}

/** The shape drawn on the node shown, or taken off it when it was there already (as lichess does). */
function toggleShape(shape) {
  if (S.editor || pending()) return;
  const node = shownNode();
  node.shapes = toggleShapeIn(node.shapes, shape);
  S.dirty = true;
  save();
  drawShapeLayer();
}

/** A left click that placed nothing: the node's shapes go (as on lichess). */
function clearShapes() {
  const node = shownNode();
  if (S.editor || pending() || !node.shapes.length) return;
  node.shapes = [];
  S.dirty = true;
  save();
  drawShapeLayer();
}

// ---- The hand -------------------------------------------------------------------------------

function silhouette(key) {
  const points = key.split(";").map(p => p.split(",").map(Number));
  const w = Math.max(...points.map(p => p[0])) + 1, h = Math.max(...points.map(p => p[1])) + 1;
  const u = 10;
  const cells = points.map(([f, r]) => `<rect x="${f * u + 1}" y="${(h - 1 - r) * u + 1}" width="${u - 1}" height="${u - 1}"/>`).join("");
  return `<svg viewBox="0 0 ${w * u + 2} ${h * u + 2}" width="${w * u + 2}" height="${h * u + 2}" aria-hidden="true" fill="currentColor">${cells}</svg>`;
}

// The shapes of the pieces as they start (before any placement is fetched), for the silhouettes.
const START_SHAPES = {
  tavern: "0,0", stable: "0,0;0,1", inn: "0,0;0,1;1,1", bridge: "0,0;0,1;0,2", square: "0,0;0,1;1,0;1,1",
  manor: "0,1;1,0;1,1;2,1", abbey: "0,0;0,1;1,1;1,2", infirmary: "0,1;1,0;1,1;1,2;2,1", castle: "0,0;0,1;1,0;2,0;2,1",
  tower: "0,0;1,0;1,1;2,1;2,2", academy: "0,1;1,0;1,1;1,2;2,2", cathedral: "0,2;1,0;1,1;1,2;1,3;2,2",
};

function showHand() {
  const hand = $("hand");
  const view = S.view;
  let kinds = [];
  const owner = S.editor ? $("edit-owner").value : view.position.to_move;
  if (S.editor) {
    kinds = KINDS.map(k => [k, ""]);
  } else if (!view.position.game_over && !study.answeredByForm()) {
    const held = view.position[owner].hand;
    kinds = Object.keys(held).filter(k => held[k] > 0).map(k => [k, view.moves.per_piece[k] || 0, held[k]]);
    if (view.position.cathedral.status === "to-place" && owner === "light") kinds = [["cathedral", view.moves.per_piece.cathedral || 0, 1]];
    if (view.moves.per_piece.pass) kinds.push(["pass", 1, 1]);
  }
  // The editor's Cathedral is picked with its own button, beside the hand: it stays chosen.
  const editorCathedral = S.editor && S.chosen === "cathedral";
  $("edit-cathedral").setAttribute("aria-pressed", String(!!editorCathedral));
  if (!editorCathedral && !kinds.some(([k]) => k === S.chosen)) {
    const first = kinds.find(([, n]) => n !== 0) || kinds[0];
    S.chosen = first ? first[0] : null;
    S.orientation = null;
    S.placements = null;
  }
  // The chosen building's shape is shown (data-shape) once its placements here are known: only
  // then can the board place it, and tools and tests wait for that, not for the click.
  const ready = !!(S.placements && S.placements.key === S.viewKey && S.placements.piece === S.chosen);
  // (put away while a study's question is answered beside the board)
  hand.hidden = !S.editor && !kinds.length && !!study.answeredByForm();
  const signature = JSON.stringify([kinds, S.chosen, S.orientation, S.theme, owner, ready]);
  if (hand.dataset.signature === signature) return;
  hand.dataset.signature = signature;
  hand.innerHTML = "";
  for (const [kind, count, held] of kinds) {
    const button = document.createElement("button");
    const shape = kind === S.chosen && S.orientation ? S.orientation : START_SHAPES[kind];
    // The World edition names each of a player's two Taverns, Stables and Inns: the hand shows
    // the next one's name, the title both.
    const name = kind === "pass" ? "Pass" : buildingName(S.theme, kind, kind === "cathedral" ? null : owner, held === 1 && ["tavern", "stable", "inn"].includes(kind) ? 1 : 0);
    button.title = kind === "pass" ? "" : kindName(S.theme, kind, kind === "cathedral" ? null : owner);
    button.innerHTML = (shape ? silhouette(shape) : "") + `<span class="name"></span>` + (count === "" ? "" : ` <span class="count"></span>`);
    button.querySelector(".name").textContent = name + (held > 1 ? ` \u00d7${held}` : "");
    if (count !== "") button.querySelector(".count").textContent = `(${count})`;
    const squares = SIZE[kind] ? `, ${SIZE[kind]} square${SIZE[kind] > 1 ? "s" : ""}` : "";
    // The visible words first, so that the accessible name contains them (what is heard is
    // what is seen), then the squares and the placements in words.
    button.append(Object.assign(document.createElement("span"), { className: "visually-hidden", textContent: kind === "pass" ? "" : `${squares}${count === "" ? "" : ` legal placement${count === 1 ? "" : "s"}`}` }));
    button.setAttribute("aria-pressed", String(kind === S.chosen));
    if (count === 0) button.title += ": no legal placement; point at a cell to see why";
    if (kind === "pass") button.title = "Pass: you have no legal placement";
    button.className = (kind === S.chosen ? "chosen" : "") + (count === 0 ? " none" : "");
    button.dataset.kind = kind;
    if (kind === S.chosen && S.orientation && ready) button.dataset.shape = S.orientation;
    button.onclick = () => choose(kind);
    hand.appendChild(button);
  }
  const other = S.editor || view.position.game_over ? null : owner === "light" ? "dark" : "light";
  $("other-hand").textContent = other ? `${Side(other)} holds ${Object.entries(view.position[other].hand).filter(([, n]) => n > 0).map(([k, n]) => kindName(S.theme, k, other) + (n > 1 ? ` \u00d7${n}` : "")).join(", ") || "nothing"}; ${counted(view.position[other].unplaced_squares, "square")} unplaced.` : "";
}

async function loadPlacements() {
  if (!S.chosen || S.chosen === "pass" || !S.view) return;
  const owner = S.editor ? (S.chosen === "cathedral" ? "light" : $("edit-owner").value) : null;
  const key = S.viewKey;
  if (S.placements && S.placements.key === key && S.placements.piece === S.chosen && S.placements.owner === owner) return;
  const extra = { piece: S.chosen };
  if (owner) extra.owner = owner;
  const body = S.editor ? Object.assign({ start: editor.file(), moves: [] }, extra) : request(extra);
  try {
    const answer = await api("/api/placements", body);
    if (S.viewKey !== key) return;
    S.placements = { key, piece: S.chosen, owner, list: answer.placements };
    const shapes = orientations(answer.placements.filter(p => p.legal).concat(answer.placements));
    if (!S.orientation || !shapes.includes(S.orientation)) S.orientation = shapes[0];
    S.shapes = shapes;
  } catch (e) { if (!e.unreachable) say(e.message, true); }
}

export async function choose(kind) {
  if (kind === "pass" && !S.editor) {
    const pass = S.view.moves.moves.find(m => pieceOf(m) === "pass");
    if (pass) play(pass.includes(":pass") && !playerOf(pass) ? `${S.view.position.to_move}:pass` : pass);
    return;
  }
  if (S.chosen !== kind) { S.orientation = null; S.choice = 0; }
  S.chosen = kind;
  S.placements = null;
  render();
  await loadPlacements();
  render();
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
  S.orientation = next;
  S.choice = 0;
  render();
  preview();
}

export function nextPiece(step) {
  const order = [...$("hand").children].map(b => b.dataset.kind).filter(k => k !== "pass");
  if (!order.length) return;
  choose(order[(order.indexOf(S.chosen) + step + order.length) % order.length]);
}

// ---- The placement under the pointer ----------------------------------------------------------

export function preview() {
  const svg = $("board").querySelector("svg");
  if (!svg || !S.view) return;
  const shown = shownAt(S.cell);
  drawPreview(svg, S.cell, shown, S.armed);
  $("place").disabled = !shown || !!shown.reason;
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
 * Whether a move is pending: the board shows a position the game has left (its answer has not
 * come yet). Board input waits for it, so that a double click never plays twice.
 */
export const pending = () => !S.editor && S.viewKey !== gameKey();

export function place() {
  if (pending()) return;
  // An "owned" question of a study: the board marks cells instead of placing.
  if (study.marking()) { study.mark(ctx, S.cell); return; }
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
  if (trainer.takesAnswer()) { trainer.answer(ctx, text); return; }
  if (study.takesAnswer()) { study.answer(ctx, text); return; }
  // In the middle of a game a new move opens a variation: the game's own moves are kept.
  const here = nodeAt(S.game.moves);
  const branches = here && here.children.length > 0 && !here.children.some(c => c.move === text);
  playMove(text);
  // The building just placed is under the pointer: say nothing of it until the pointer moves.
  S.cell = null; S.armed = false; S.choice = 0;
  say("");
  if (branches) say(`${history.words(text)} opens a variation: the game's moves are kept (the move list shows both).`);
  teach.judge(ctx, text); // before refresh: the engine waits for the judgement
  refresh();
}

/** Takes back exactly one move (the teaching mode's "take the move back"). */
export function undoOne() {
  if (S.editor || !S.game.moves.length) return;
  analysis.cancelEngine();
  teach.cancel();
  goTo(S.game.moves.slice(0, -1));
  S.cell = null; S.armed = false;
  refresh();
}

export function undo() {
  if (S.editor || !S.game.moves.length) return;
  analysis.cancelEngine();
  teach.cancel();
  trainer.onUndo();
  takeBack();
  S.cell = null; S.armed = false;
  refresh();
}
/**
 * Plays the next move of the line again; against the engine, its answer too (as Undo took back
 * both), so that the player is to move again, never left to move for the engine.
 */
export function redo() {
  if (S.editor || atEnd()) return;
  const line = allMoves();
  let count = S.game.moves.length + 1;
  if (S.engineSide && !S.puzzle) while (count < line.length && playerOf(line[count]) === S.engineSide) count++;
  jump(count);
}
/** Goes to the moment after `count` moves of the line shown. */
export function jump(count) { if (!S.editor) goToPath(allMoves().slice(0, Math.max(0, count))); }
/** Goes to the node at the end of `path` (a move of the list, a variation). */
export function goToPath(path) {
  if (S.editor) return;
  analysis.cancelEngine();
  teach.cancel();
  goTo(path);
  S.cell = null; S.armed = false;
  refresh();
}

// The engine plays its side: only when the game is at its end (no moves taken back that the
// player did not discard) and after the player's move or the player's choice of sides, never
// right after Undo. A late answer for a position that is no longer current is dropped.
async function enginePlays() {
  const side = S.engineSide;
  const view = S.view;
  if (!side || S.editor || S.puzzle || !S.autoplay || !atEnd() || !view || view.position.game_over || view.position.to_move !== side) return;
  if (teach.holding()) return; // the player reads the lesson first; Play on resumes
  const key = gameKey();
  const move = await analysis.engineReply(ctx, key);
  if (move && key === gameKey() && S.engineSide === side) {
    playMove(move, { byPlayer: false });
    // The engine plays on while it is still its turn (under Lehmann-Woods Light's Cathedral is
    // followed by its first building); the next view decides.
    S.autoplay = true;
    S.cell = null;
    refresh();
  }
}

/**
 * Engine move when the engine's side is to move at the end of the game and the engine waits (a
 * game just opened, a record stepped to its end, a move taken back): it plays its move. Returns
 * whether the press was taken (false: Engine move shows the engine's suggestion, as elsewhere).
 */
function letEngineMove() {
  const view = S.view;
  if (!S.engineSide || S.editor || S.puzzle || !view || view.position.game_over || view.position.to_move !== S.engineSide) return false;
  if (!atEnd() || teach.holding() || trainer.takesAnswer() || study.takesAnswer()) return false;
  // A move pending: input waits (the view decides once it is drawn).
  if (pending()) return true;
  if (S.autoplay && analysis.engineThinking()) return true;
  S.autoplay = true;
  save();
  say("");
  enginePlays();
  return true;
}

// ---- New games, files, links ------------------------------------------------------------------

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
  newAddress = true;
  analysis.reset(ctx);
  trainer.leave(ctx);
  if (!keepStudy) study.leave();
  S.game = game;
  S.engineSeed = randomSeed();
  if (meta) S.game.meta = meta;
  S.values = {};
  S.line = null;
  S.candidates = null;
  S.territory = null;
  S.dirty = false;
  S.cell = null; S.armed = false;
  S.autoplay = autoplay;
  S.lesson = null;
  S.lessons = [];
  S.welcomed = false;
  teach.cancel();
  if (!keepRecord) { S.record = null; $("games-label").hidden = true; }
  $("rules").value = game.rules || "classic";
  say("");
}

function openGame(i) {
  const g = S.record.games[i];
  startGame(newGameState({ rules: g.rules || "classic", start: g.start, moves: g.moves, comments: g.comments || [], marks: g.marks || [], shapes: g.shapes || [], startShapes: g.start_shapes || [], variations: g.variations || [] }), { keepRecord: true,
    meta: g.meta || { light: g.light, dark: g.dark, event: g.event } });
  S.autoplay = false;
  $("games").value = String(i);
  refresh().then(() => say(`Game ${i + 1} of ${S.record.games.length}, ${counted(g.moves.length, "move")}: Redo or a click on a move steps through it.`));
}

/** A text that cannot be opened is said in the status line (a file); the paste dialog says it itself. */
const sayFailure = f => { if (!f.unreachable) say(f.text, true); };

async function openFile(file) {
  return openText(file.name, await file.text());
}

/**
 * Opens a game record, a position file or a link to a game (from a file or pasted): the record's
 * games in the Game list, the position as a new game, the link's game at its move.
 */
async function openText(name, text, report = sayFailure) {
  if (/^study:/m.test(text)) return study.openText(ctx, name, text, report);
  const studyLink = /#((?:study|studyz|studytext)=\S*)/.exec(text.trim());
  if (studyLink) return study.openLink(ctx, studyLink[1], { report });
  const link = /#(?:rules|start)=\S*/.exec(text.trim());
  if (link && !/^moves:/m.test(text)) {
    let g;
    try { g = decodeGame(link[0]); } catch (e) { report({ text: `${name}: ${e.message}.`, line: null, column: null }); return false; }
    if (!mayDiscard("Opening the link")) return false;
    startGame({ rules: g.rules, start: g.start, root: g.root, moves: [], meta: g.meta });
    goTo(g.path);
    refresh();
    return true;
  }
  try {
    if (/^moves:/m.test(text)) {
      const record = await api("/api/record/read", { text });
      if (!mayDiscard("Opening " + name)) return false;
      S.record = record;
      const games = $("games");
      games.innerHTML = "";
      record.games.forEach((g, i) => {
        const option = document.createElement("option");
        option.value = i;
        option.textContent = `${i + 1}${g.light || g.dark ? `: ${g.light || "?"} - ${g.dark || "?"}` : ""}`;
        games.appendChild(option);
      });
      $("games-label").hidden = record.games.length < 2;
      openGame(0);
    } else {
      await api("/api/position", { start: text, moves: [] });
      if (!mayDiscard("Opening " + name)) return false;
      startGame(newGameState({ start: text }));
      refresh();
    }
    return true;
  } catch (e) {
    report(e.unreachable ? { text: e.message, unreachable: true, line: null, column: null } : failure(name, e.message));
    return false;
  }
}

function download(text, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "application/yaml" }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// The game is kept in the address (a reload restores it, a link shares it) and in the browser.
// A game that replaces another (New game, Open, other rules) gets an address of its own, so
// that Back brings the last one back; moves within a game only change the current address.
let newAddress = false;
// The address as the page last wrote or read it. One that differs was changed under the page
// (Back, Forward, a link typed in) and its hashchange has not been handled yet: the page writes
// nothing over it, for that event brings the state the address names. (Written over, the entry
// the browser went back to was lost: an answer arriving between Back and its event put the
// study's chapter where the game had been.)
let addressSeen = location.hash;

function save() {
  if (location.hash !== addressSeen) return;
  // A study open: the address names it at its chapter (the moves tried there are not kept).
  const fragment = study.link() || encodeGame();
  if (location.hash.slice(1) !== fragment) {
    if (newAddress && location.hash.length > 1) window.history.pushState(null, "", "#" + fragment);
    else window.history.replaceState(null, "", "#" + fragment);
    addressSeen = location.hash;
  }
  newAddress = false;
  try {
    localStorage.setItem("cathedral-game", fragment);
    // Whether the autosaved game has moves not saved to a file: after a reload the page still
    // asks before discarding it. A puzzle's moves (an answer, its refutation, the solution
    // played out) are the trainer's, not a game of the player's: never unsaved.
    localStorage.setItem("cathedral-game-unsaved", S.dirty && !S.puzzle ? "1" : "");
    // Whether the engine may move in it by itself: a reload plays on against the engine, and a
    // game opened, where the engine waits for Engine move, still waits after a reload.
    localStorage.setItem("cathedral-game-autoplay", S.autoplay ? "1" : "");
  } catch (_) { /* private mode: the address still has it */ }
  keepJudgements();
}

// The values and the analysis's marks of the move list are kept in the browser with the game, each
// by the moves that reach its position, so that a reload shows them at the same moves again.
const JUDGED = "cathedral-game-judged";
let judgementsKept = null;
function keepJudgements() {
  const game = S.game;
  // (by the moves alone: the rules and the start, a whole position file, are written once)
  const position = key => { try { return JSON.parse(key); } catch (_) { return []; } };
  const values = Object.entries(S.values).map(([key, value]) => [position(key), value])
    .filter(([[r, s, moves]]) => r === game.rules && s === game.start && Array.isArray(moves)).map(([[, , moves], value]) => [moves, value]);
  const judged = [];
  const walk = (node, path) => {
    for (const child of node.children) {
      const p = [...path, child.move];
      const j = child.judged;
      if (j) judged.push([p, { mover: j.mover, after_value: j.after_value, after_judgement: j.after_judgement, mark: j.mark || null, loss: j.loss, before: { best: j.before ? j.before.best : null } }]);
      walk(child, p);
    }
  };
  walk(game.root, []);
  const text = JSON.stringify({ rules: game.rules, start: game.start, values, judged });
  if (text === judgementsKept) return;
  judgementsKept = text;
  try { localStorage.setItem(JUDGED, text); } catch (_) { /* not kept */ }
}

/** The kept values and marks of the game's positions (the same rules and start), after a reload. */
function restoreJudgements() {
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(JUDGED) || "null"); } catch (_) { kept = null; }
  if (!kept || kept.rules !== S.game.rules || kept.start !== S.game.start) return;
  for (const [moves, value] of kept.values || []) {
    const key = JSON.stringify([S.game.rules, S.game.start, moves]);
    if (!S.values[key]) S.values[key] = value;
  }
  for (const [path, judged] of kept.judged || []) {
    const node = path.length ? nodeAt(path) : null;
    if (node && !node.judged) node.judged = judged;
  }
}

function restore() {
  const fragment = location.hash.length > 1 ? location.hash.slice(1) : localStorage.getItem("cathedral-game");
  if (!fragment) return false;
  // A puzzle's link: the trainer opens it once the puzzles are listed.
  if (/^puzzle=/.test(fragment)) return false;
  // A study's link: opened once the course is listed.
  if (study.isStudyLink(fragment)) return false;
  try {
    const g = decodeGame(fragment);
    S.game = { rules: g.rules, start: g.start, root: g.root, moves: [], meta: g.meta };
    // The autosaved game keeps its unsaved moves unsaved; a link someone shared has none.
    let stored = null, unsaved = false, autoplay = false;
    try {
      stored = localStorage.getItem("cathedral-game");
      unsaved = localStorage.getItem("cathedral-game-unsaved") === "1";
      autoplay = localStorage.getItem("cathedral-game-autoplay") === "1";
    } catch (_) { /* private mode */ }
    S.dirty = unsaved && stored === fragment;
    goTo(g.path);
    restoreJudgements();
    // A reload in the middle of a game against the engine: it plays on if it is its turn at the
    // end of the game (never over moves that were taken back). A link opened (one this browser
    // did not keep, or Back to another game) never starts the engine: it waits for Engine move.
    S.autoplay = atEnd() && stored === fragment && autoplay;
    $("rules").value = g.rules;
    return true;
  } catch (e) {
    say(`The link's game could not be read: ${e.message}. A new game starts.`, true);
    return false;
  }
}

async function share() {
  const url = `${location.origin}${location.pathname}#${trainer.puzzleLink() || study.link() || encodeGame()}`;
  $("link-box").hidden = false;
  $("link").value = url;
  $("link").select();
  try {
    await navigator.clipboard.writeText(url);
    $("link-said").textContent = "Copied.";
  } catch (_) {
    $("link-said").textContent = "Select the link and copy it.";
  }
}

/**
 * A pasted text that cannot be read: the dialog stays open with it, says why, and selects the
 * line the error names (scrolled into view), so that it can be mended there.
 */
function pasteFailed(f) {
  const box = $("paste-text");
  const lines = box.value.split("\n");
  const line = f.line && f.line <= lines.length ? f.line : null;
  $("paste-said").textContent = f.text.replace(/\.?$/, ".") + (line ? ` Line ${line} is selected above.` : "");
  $("paste-said").className = "refused";
  if (!$("paste-dialog").open) return;
  box.focus();
  if (!line) return;
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  box.setSelectionRange(start, start + lines[line - 1].length);
  const height = parseFloat(getComputedStyle(box).lineHeight) || 18;
  box.scrollTop = Math.max(0, (line - 2) * height);
}

// ---- Wiring ---------------------------------------------------------------------------------

/**
 * A key that moves through the game (lichess's keys): Left and Right a move back and on, Home
 * to the start, End to the end of the line shown, Shift+Up and Shift+Down to the other
 * variations at this move.
 */
function step(key, shift) {
  if (S.editor) return;
  if (shift && (key === "ArrowUp" || key === "ArrowDown")) {
    if (switchVariation(key === "ArrowDown" ? 1 : -1)) { analysis.cancelEngine(); teach.cancel(); S.cell = null; S.armed = false; refresh(); }
    else say("There is no other variation at this move.");
    return;
  }
  const count = { ArrowLeft: S.game.moves.length - 1, ArrowRight: S.game.moves.length + 1, Home: 0, End: allMoves().length }[key];
  if (count === undefined || count < 0 || count > allMoves().length || count === S.game.moves.length) return;
  jump(count);
}

/** A comment or a glyph changed: kept in the address and counted as unsaved. */
function annotated() {
  S.dirty = true;
  save();
  history.render(ctx);
}

const ctx = { say, refresh, render, preview, place, play, pending, undo, undoOne, redo, jump, goToPath, step, annotated, announceCell, choose, turn, nextPiece, startGame, mayDiscard, loadPlacements, letEngineMove,
  drawShapeLayer, toggleShape, clearShapes, flip,
  resume: () => enginePlays(),
  marking: () => study.marking(),
  // (`replace`: the address itself brought the change, so no new entry of the history)
  saveAddress: (replace = false) => { if (replace) newAddress = false; save(); },
  help: () => help.open(), editorRemoveAt: at => editor.removeAt(at) };

function wire() {
  attach(ctx);
  $("rotate").onclick = () => turn("rotate");
  $("mirror").onclick = () => turn("mirror");
  $("place").onclick = () => place();
  $("undo").onclick = () => undo();
  $("redo").onclick = () => redo();
  // The first screen's two ways in; either choice (or a first move) puts the question away.
  $("welcome-play").onclick = () => {
    S.welcomed = true;
    S.engineSide = "dark";
    $("opponent").value = "dark";
    saveSettings();
    S.autoplay = true;
    say(`You play Light against the engine (level ${S.level}, ${LADDER[S.level - 1].name}; change it beside "Engine plays").`);
    render();
    // The first screen's buttons are gone: the keyboard goes on from the board, not the page's top.
    $("board").focus();
    enginePlays();
  };
  $("welcome-analyse").onclick = () => {
    S.welcomed = true;
    S.engineSide = "";
    $("opponent").value = "";
    saveSettings();
    say("You play both sides: Solve, Engine move and Analyse game judge the position.");
    render();
    $("board").focus();
  };
  $("flip").onclick = flip;
  $("promote").onclick = () => { if (promote()) { say("This line is now the main line."); save(); render(); } };
  $("delete-move").onclick = () => {
    const count = (function size(n) { return n ? 1 + n.children.reduce((a, c) => a + size(c), 0) : 0; })(nodeAt(S.game.moves));
    if (count > 1 && !window.confirm(`Delete this move and the ${count - 1} move${count === 2 ? "" : "s"} after it (variations included)?`)) return;
    analysis.cancelEngine();
    teach.cancel();
    if (deleteHere()) { say(count > 1 ? `${count} moves deleted.` : "The move is deleted."); refresh(); }
  };
  $("rules").onchange = e => {
    if (!mayDiscard("Changing the rules")) { e.target.value = S.game.rules; return; }
    startGame(newGameState({ rules: e.target.value }), { autoplay: true });
    refresh();
  };
  $("new").onclick = () => {
    if (!mayDiscard("A new game")) return;
    startGame(newGameState({ rules: $("rules").value }), { autoplay: true });
    refresh();
  };
  for (const rung of LADDER.slice().reverse()) {
    const option = document.createElement("option");
    option.value = String(rung.level);
    option.textContent = `${rung.level} · ${rung.name}`;
    option.title = `${rung.summary} (${rung.elo >= 0 ? "+" : "−"}${Math.abs(rung.elo)} Elo over the greedy player)`;
    $("level").appendChild(option);
  }
  $("level").value = String(S.level);
  $("level").onchange = e => { S.level = parseInt(e.target.value, 10); };
  $("opponent").onchange = e => { S.engineSide = e.target.value; S.autoplay = true; enginePlays(); };
  $("open").onclick = () => $("file").click();
  // The text pasted stays in the box until it opens: one that cannot be read keeps the dialog
  // open with the error and its line selected, and is still there when the dialog is opened again.
  $("paste").onclick = () => $("paste-dialog").showModal();
  $("paste-text").addEventListener("input", () => { $("paste-said").textContent = ""; $("paste-said").className = ""; });
  $("paste-open").onclick = async e => {
    e.preventDefault();
    const text = $("paste-text").value;
    if (!text.trim()) { $("paste-said").textContent = "Paste a game record, a position file or a link first."; return; }
    if ($("paste-open").disabled) return;
    let failed = null;
    $("paste-said").textContent = "Opening...";
    $("paste-said").className = "";
    $("paste-open").disabled = true;
    let opened = false;
    try { opened = await openText("The pasted text", text, f => { failed = f; }); } finally { $("paste-open").disabled = false; }
    if (failed) { pasteFailed(failed); return; }
    $("paste-said").textContent = "";
    if (opened) $("paste-text").value = "";
    if ($("paste-dialog").open) $("paste-dialog").close();
  };
  $("file").onchange = async () => {
    const file = $("file").files[0];
    $("file").value = "";
    if (file) await openFile(file);
  };
  $("games").onchange = e => {
    const i = parseInt(e.target.value, 10);
    if (!mayDiscard("Another game of the record")) { e.target.value = String(S.record.games.indexOf(S.record.games[i])); return; }
    openGame(i);
  };
  $("save").onclick = async () => {
    // The whole tree (the main line and every variation), with the record's metadata, comments
    // and marks.
    const extra = lineOf(S.game.root);
    if (S.game.root.shapes.length) extra.start_shapes = S.game.root.shapes;
    if (S.game.meta && Object.values(S.game.meta).some(Boolean)) extra.meta = S.game.meta;
    try { download((await api("/api/record/write", request(extra))).text, "game.yaml"); S.dirty = false; save(); } catch (e) { say(e.message, true); }
  };
  $("savepos").onclick = () => { if (S.view) download(S.view.position_file, "position.yaml"); };
  $("share").onclick = share;
  $("theme").onchange = e => {
    S.theme = e.target.value;
    document.body.dataset.theme = S.theme;
    render();
    preview();
  };
  window.addEventListener("hashchange", () => {
    addressSeen = location.hash;
    newAddress = false; // the address brought this state: it is no new entry
    const fragment = location.hash.slice(1);
    if (fragment === (study.link() || encodeGame())) return;
    // Back to a study's chapter (or a study's link typed in): the study opens there.
    if (study.isStudyLink(fragment)) { study.openLink(ctx, fragment, { replace: true }); return; }
    // Back to a game from a study: the study goes with the game it showed.
    if (restore()) { study.leave(); analysis.reset(ctx); refresh(); }
  });
}

// The player's settings (the engine's side and level, the switches, the display) are kept in
// the browser; the game itself is in the address.
const SETTINGS = "cathedral-settings";
/** Flip board (its button, the V key): the board seen from the other side. */
function flip() { S.flipped = !S.flipped; flipBoard(); saveSettings(); history.render(ctx); }
function flipBoard() {
  $("board").classList.toggle("flipped", S.flipped);
  $("flip").setAttribute("aria-pressed", String(S.flipped));
}
function saveSettings() {
  const settings = { flipped: S.flipped, engineSide: S.engineSide, level: S.level, theme: S.theme, evaluate: $("evaluate").checked, territory: $("show-territory").checked, line: $("show-line").checked, teach: $("teach").checked, teachThreshold: $("teach-threshold").value, autoNext: $("auto-next").checked };
  try { localStorage.setItem(SETTINGS, JSON.stringify(settings)); } catch (_) { /* not kept */ }
}
function loadSettings() {
  let settings = {};
  try { settings = JSON.parse(localStorage.getItem(SETTINGS) || "{}") || {}; } catch (_) { settings = {}; }
  if (["", "light", "dark"].includes(settings.engineSide)) { S.engineSide = settings.engineSide; $("opponent").value = settings.engineSide; }
  if (Number.isInteger(settings.level) && settings.level >= 1 && settings.level <= 10) { S.level = settings.level; $("level").value = String(settings.level); }
  if (settings.theme === "world" || settings.theme === "classic") { S.theme = settings.theme; $("theme").value = settings.theme; document.body.dataset.theme = settings.theme; }
  if (typeof settings.evaluate === "boolean") $("evaluate").checked = settings.evaluate;
  if (typeof settings.flipped === "boolean") { S.flipped = settings.flipped; flipBoard(); }
  if (typeof settings.territory === "boolean") { $("show-territory").checked = settings.territory; S.showTerritory = settings.territory; }
  if (typeof settings.line === "boolean") $("show-line").checked = settings.line;
  if (typeof settings.teach === "boolean") $("teach").checked = settings.teach;
  if (["1", "2", "3", "5", "8"].includes(settings.teachThreshold)) $("teach-threshold").value = settings.teachThreshold;
  if (typeof settings.autoNext === "boolean") $("auto-next").checked = settings.autoNext;
}

function start() {
  onUnreachable(() => waitForServer());
  $("engine-where").textContent = `The engine and the solver run in ${ENGINE_WHERE}${IN_BROWSER ? ": everything works offline once the page has loaded" : ""}.`;
  // The static site keeps its files for offline use (sw.js, written by `cathedral site`).
  if (IN_BROWSER && "serviceWorker" in navigator) navigator.serviceWorker.register(new URL("../sw.js", import.meta.url)).catch(() => {});
  if (IN_BROWSER) {
    $("table-mb-label").hidden = false;
    $("table-mb").value = String(tableMb());
    $("table-mb").addEventListener("change", () => setTableMb(parseInt($("table-mb").value, 10)));
  }
  wire();
  loadSettings();
  for (const id of ["opponent", "level", "theme", "evaluate", "show-territory", "show-line", "teach", "teach-threshold", "auto-next"]) $(id).addEventListener("change", saveSettings);
  analysis.init(ctx);
  history.init(ctx);
  trainer.init(ctx);
  study.init(ctx);
  editor.init(ctx);
  help.init(ctx);
  teach.init(ctx);
  restore();
  refresh();
}

start();
