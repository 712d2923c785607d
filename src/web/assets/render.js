// @ts-check
// `render`: every view drawn from the state (state.js), once for however many changes came
// before it (the state's `update` asks for it: at the next frame, or at the end of an input
// event's task). It reads the state and writes the page, never the state: the
// board and its layers, the hand, the status line, the move list, the panels beside the board.
// Each part is drawn again only when what it shows has changed (a signature or a key kept on its
// element), so that a frame of pointer moves costs the preview, not the whole page. While a move
// is pending (the game has left the position the board shows, whose answer is on its way) a
// frame draws the status line only: the board, the hand and the move list wait for the
// position and are drawn with it (`renderNow` when it comes), so that they always show one node.
import { S, gameKey, atEnd, treeSize, current as currentNode } from "./state.js";
import { kindName, buildingName, Side, SIZE, KINDS, count as counted } from "./words.js";
import { boardSvg, relabel, drawMarks, drawGhosts, drawPreview, drawTerritory, drawStudy, describe } from "./board.js";
import { shownAt } from "./input.js";
import { drawShapes } from "./shapes.js";
import { announcement } from "./status.js";
import { choose, pending } from "./actions.js";
import { keepJudgements } from "./address.js";
import * as analysis from "./analysis.js";
import * as history from "./history.js";
import * as study from "./study.js";
import * as teach from "./teach.js";
import * as online from "./online.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

/** Sets an element's text only when it differs: an unchanged text is not written again each frame. */
function setText(element, text) {
  if (element.textContent !== text) element.textContent = text;
}

/** Draws every view from the state; `now`: asked for at once (renderNow), not at a frame. */
export function render(now = true) {
  const view = S.view;
  document.body.dataset.theme = S.theme;
  document.body.classList.toggle("editing", !!S.editor);
  $("board").classList.toggle("flipped", S.flipped);
  $("flip").setAttribute("aria-pressed", String(S.flipped));
  showStatus();
  online.render();
  if (!view || (!now && pending())) return;
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
  drawShapes(svg, { study: (studied && studied.shapes) || [], node: current ? currentNode().shapes : [], drawing: current ? S.drawing : null });
  const shown = shownAt(S.cell);
  drawPreview(svg, S.cell, study.marking() ? null : shown, S.armed);
  setText($("board-text"), describe(view, S.theme));
  announceMove();
  setText($("explain"), S.editor ? "" : view.last_move ? view.last_move.text : "(no move yet)");
  showHand();
  history.render();
  keepJudgements();
  teach.show();
  analysis.renderEval();
  analysis.renderPlot();
  $("welcome").hidden = !!S.editor || !!S.puzzle || !!S.study || !!S.game.start || S.welcomed || treeSize() > 0;
  study.showBox();
  $("undo").disabled = S.editor || S.game.moves.length === 0 || online.live();
  $("redo").disabled = S.editor || atEnd() || online.live();
  $("place").disabled = !shown || !!shown.reason;
  $("rotate").disabled = $("mirror").disabled = !S.chosen || S.chosen === "pass";
}

/** The status line: the message said last, or the hint of the moment it was said. */
function showStatus() {
  const m = S.message;
  const status = $("status");
  setText(status, m.text || m.hint);
  status.className = m.refused ? "refused" : m.hint && !m.text ? "hint" : "";
  // The move shown under the pointer, in the notation, for tools and tests: the words are the
  // player's.
  status.dataset.move = m.move;
}

// A screen reader hears what changed, not the whole board again: the move that led to the
// position shown, said once for each position (the live region speaks when it is written).
function announceMove() {
  const box = $("announce");
  if (S.editor || box.dataset.key === S.viewKey) return;
  box.dataset.key = S.viewKey;
  box.textContent = announcement();
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

/** Whose hand is shown: the editor's owner, or the side to move. */
export const handOwner = () => (S.editor ? $("edit-owner").value : S.view.position.to_move);

/**
 * The buildings the hand shows, in order: [kind, legal placements, held] (the editor's: every
 * kind, no count). Empty while the game is over or a study's question is answered beside the board.
 * @returns {[string, number|string, number?][]}
 */
export function handKinds() {
  const view = S.view;
  if (!view) return [];
  if (S.editor) return KINDS.map(k => [k, ""]);
  if (view.position.game_over || study.answeredByForm()) return [];
  const owner = handOwner();
  const held = view.position[owner].hand;
  /** @type {[string, number|string, number?][]} */
  let kinds = Object.keys(held).filter(k => held[k] > 0).map(k => [k, view.moves.per_piece[k] || 0, held[k]]);
  if (view.position.cathedral.status === "to-place" && owner === "light") kinds = [["cathedral", view.moves.per_piece.cathedral || 0, 1]];
  if (view.moves.per_piece.pass) kinds.push(["pass", 1, 1]);
  return kinds;
}

function showHand() {
  const hand = $("hand");
  const view = S.view;
  const kinds = handKinds();
  const owner = handOwner();
  // The editor's Cathedral is picked with its own button, beside the hand: it stays chosen.
  const editorCathedral = S.editor && S.chosen === "cathedral";
  $("edit-cathedral").setAttribute("aria-pressed", String(!!editorCathedral));
  // The chosen building's shape is shown (data-shape) once its placements here are known: only
  // then can the board place it, and tools and tests wait for that, not for the click.
  const ready = !!(S.placements && S.placements.key === S.viewKey && S.placements.piece === S.chosen);
  // (put away while a study's question is answered beside the board)
  hand.hidden = !S.editor && !kinds.length && !!study.answeredByForm();
  const signature = JSON.stringify([kinds, S.chosen, S.orientation, S.theme, owner, ready]);
  if (hand.dataset.signature !== signature) {
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
  }
  const other = S.editor || view.position.game_over ? null : owner === "light" ? "dark" : "light";
  setText($("other-hand"), other ? `${Side(other)} holds ${Object.entries(view.position[other].hand).filter(([, n]) => n > 0).map(([k, n]) => kindName(S.theme, k, other) + (n > 1 ? ` \u00d7${n}` : "")).join(", ") || "nothing"}; ${counted(view.position[other].unplaced_squares, "square")} unplaced.` : "");
}
