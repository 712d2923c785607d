// @ts-check
// The move list in words ("Dark Castle b2-d3", the notation on hover): the game tree, its main
// line with each variation after the move it is an alternative to (as PGN writes them), each
// move a button that goes there, with its value, its analysis mark, its annotation glyph and its
// comment; the record's metadata, the comment and glyph of the current move (editable), and the
// result once the game is over, on the board and at the end of the list.
import { S, allMoves, nodeAt } from "./state.js";
import { moveWords, nths, valueText, Side } from "./words.js";
import { goToPath, annotate } from "./actions.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));

/** The annotation glyphs, as game records write them, with their meaning. */
export const GLYPHS = { "!": "good move", "?": "mistake", "!!": "brilliant move", "??": "blunder", "!?": "interesting move", "?!": "dubious move" };

/** A move in words, under the display theme (the mover's nth building of the kind for World names). */
export function words(move, index = null) {
  if (index === null) {
    const moves = [...S.game.moves, move];
    return moveWords(move, S.theme, null, nths(moves)[moves.length - 1]);
  }
  return moveWords(move, S.theme, null, nths(allMoves())[index]);
}

/** The moves of a line from the current position in words (each the mover's nth building of its kind). */
export function lineWords(line) {
  const all = [...S.game.moves, ...line];
  const order = nths(all);
  return line.map((move, i) => moveWords(move, S.theme, null, order[S.game.moves.length + i]));
}

/** The key of the game after the moves of `path`. */
const keyOf = path => JSON.stringify([S.game.rules, S.game.start, path]);

/** The value of the position after the moves of `path`, from Light's view, if anything judged it. */
export function valueAt(path, node = nodeAt(path)) {
  const judged = node && node.judged;
  if (judged) {
    const light = judged.mover === "light" ? judged.after_value : -judged.after_value;
    return { value: light, exact: judged.after_judgement === "exact" };
  }
  return S.values[keyOf(path)] || null;
}

/** The result of a finished game in words. */
export function resultText(position) {
  const l = position.light.unplaced_squares, d = position.dark.unplaced_squares;
  const squares = `unplaced squares: Light ${l}, Dark ${d}`;
  if (!position.winner) return `A draw: ${squares}.`;
  const margin = Math.abs(l - d);
  return `${Side(position.winner)} wins by ${margin} square${margin === 1 ? "" : "s"}: ${squares}.`;
}

const ANALYSIS_MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** One move of the tree as an item of the list: a button that goes there. */
function item(node, path, line, order) {
  const li = document.createElement("li");
  const ply = path.length;
  const onLine = path.every((m, i) => line[i] === m);
  const here = S.game.moves.length;
  li.className = "move" + (!onLine ? " aside" : ply > here ? " future" : "") + (onLine && ply === here ? " current" : "");
  li.title = node.move;
  li.dataset.move = node.move;
  li.dataset.ply = String(ply);
  const button = document.createElement("button");
  button.type = "button";
  if (onLine && ply === here) button.setAttribute("aria-current", "step");
  const said = moveWords(node.move, S.theme, null, order);
  button.append(Object.assign(document.createElement("span"), { className: "num", textContent: `${ply}.` }), said);
  if (node.mark) button.append(Object.assign(document.createElement("span"), { className: "glyph", textContent: node.mark, title: GLYPHS[node.mark] || node.mark }));
  const judged = node.judged;
  if (judged && judged.mark) button.append(Object.assign(document.createElement("span"), { className: "mark", textContent: ANALYSIS_MARKS[judged.mark], title: `the analysis: ${judged.mark}` }));
  const value = valueAt(path, node);
  if (value) {
    const span = Object.assign(document.createElement("span"), { className: "value" + (value.exact ? " exact" : ""), textContent: valueText(value.value, value.exact) });
    span.title = `${value.exact ? "Exact" : "Estimated"} value after this move, for Light` + (judged && judged.loss > 0.05 ? `; it gave up ${judged.loss.toFixed(1)} squares (best was ${judged.before.best})` : "");
    button.append(span);
  }
  if (node.comment) button.append(Object.assign(document.createElement("span"), { className: "comment-flag", textContent: "\u270e", title: node.comment }));
  button.onclick = () => goToPath(path);
  li.append(button);
  return li;
}

/**
 * The line below `node` (reached by `path`) into `list`: each main move, then its alternatives
 * as nested lists, each with its own line.
 */
function renderLine(list, node, path, line, moves) {
  for (let at = node, p = path; at.children.length;) {
    const [main, ...others] = at.children;
    const mainPath = [...p, main.move];
    list.append(item(main, mainPath, line, nths([...moves, ...mainPath])[mainPath.length - 1]));
    if (others.length) {
      const holder = Object.assign(document.createElement("li"), { className: "variations" });
      for (const other of others) {
        const sub = Object.assign(document.createElement("ol"), { className: "variation" });
        sub.setAttribute("aria-label", `Variation at move ${mainPath.length}`);
        const otherPath = [...p, other.move];
        sub.append(item(other, otherPath, line, nths(otherPath)[otherPath.length - 1]));
        renderLine(sub, other, otherPath, line, []);
        holder.append(sub);
      }
      list.append(holder);
    }
    at = main;
    p = mainPath;
  }
}

/** The tree's shape and everything shown of it, for redrawing the list only when it changed. */
function signatureOf(node, path) {
  return node.children.map(c => {
    const p = [...path, c.move];
    const v = valueAt(p, c);
    return [c.move, c.comment, c.mark, c.judged && [c.judged.mark, c.judged.loss], v && [v.value, v.exact], signatureOf(c, p)];
  });
}

/** The move list and the current move's words and buttons (render draws them from the state). */
export function render() {
  const list = $("history");
  const line = allMoves();
  const signature = JSON.stringify([signatureOf(S.game.root, []), line, S.game.moves.length, S.theme,
    S.view && S.view.position.game_over, S.editor !== null]);
  if (list.dataset.signature !== signature) {
    list.dataset.signature = signature;
    list.innerHTML = "";
    if (!S.editor) {
      renderLine(list, S.game.root, [], line, []);
      const position = S.view && S.view.position;
      const last = nodeAt(S.game.moves);
      if (position && position.game_over && last && !last.children.length) {
        const end = Object.assign(document.createElement("li"), { className: "result", textContent: resultText(position) });
        list.appendChild(end);
      }
    }
    // Follow the current move inside the list only: the page itself must not jump.
    const current = list.querySelector("li.current");
    if (current) {
      if (list.scrollWidth > list.clientWidth + 1) {
        const left = current.offsetLeft - list.offsetLeft;
        if (left < list.scrollLeft || left + current.offsetWidth > list.scrollLeft + list.clientWidth) list.scrollLeft = left - list.clientWidth / 2;
      } else {
        const top = current.offsetTop - list.offsetTop;
        if (top < list.scrollTop || top + current.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 2;
      }
    }
  }
  // The metadata of a record, the comment of the current move, the result on the board.
  const meta = S.game.meta || {};
  const people = meta.light || meta.dark ? `${meta.light || "?"} (Light) \u2013 ${meta.dark || "?"} (Dark)` : "";
  $("meta").textContent = [meta.event, meta.round, people, meta.site, meta.date, meta.comment].filter(Boolean).join(" \u00b7 ");
  // The current move's comment and glyph, shown and editable (the start of the game has none).
  const node = nodeAt(S.game.moves);
  const annotated = node && S.game.moves.length > 0;
  $("comment").textContent = annotated && node.comment ? `Comment: ${node.comment}` : "";
  $("annotate").hidden = !annotated || !!S.editor || !!S.puzzle;
  if (annotated) {
    if ($("mark").value !== node.mark) $("mark").value = node.mark || "";
    if (document.activeElement !== $("comment-text") && $("comment-text").value !== node.comment) $("comment-text").value = node.comment || "";
  }
  const onVariation = S.game.moves.length > 0 && (() => {
    let at = S.game.root;
    for (const move of S.game.moves) { if (at.children[0].move !== move) return true; at = at.children[0]; }
    return false;
  })();
  $("promote").disabled = !!S.editor || !onVariation;
  $("delete-move").disabled = !!S.editor || !S.game.moves.length || !!S.puzzle;
  $("flip").setAttribute("aria-pressed", String(S.flipped));
  const banner = $("banner");
  const position = S.view && S.view.position;
  if (position && position.game_over && !S.editor) {
    banner.hidden = false;
    banner.textContent = `Game over. ${resultText(position)}`;
  } else banner.hidden = true;
}

export function init() {
  const node = () => (S.game.moves.length ? nodeAt(S.game.moves) : null);
  $("mark").onchange = e => { const n = node(); if (n) annotate(() => { n.mark = e.target.value; }); };
  $("comment-text").oninput = e => { const n = node(); if (n) annotate(() => { n.comment = e.target.value.trim() ? e.target.value : ""; }); };
}
