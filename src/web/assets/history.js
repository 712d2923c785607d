// The move list in words ("Dark Castle b2-d3", the notation on hover), each move's value and
// mark, the record's metadata and comments, and the result once the game is over, on the board
// and at the end of the list.
import { S, allMoves } from "./state.js";
import { moveWords, nths, valueText, Side } from "./words.js";

const $ = id => document.getElementById(id);

/** A move in words, under the display theme (the mover's nth building of the kind for World names). */
export function words(move, index = null) {
  if (index === null) {
    const moves = [...S.game.moves, move];
    return moveWords(move, S.theme, null, nths(moves)[moves.length - 1]);
  }
  return moveWords(move, S.theme, null, nths(allMoves())[index]);
}

/** The key of the game after the first `count` moves of the list. */
const keyAfter = (moves, count) => JSON.stringify([S.game.rules, S.game.start, moves.slice(0, count)]);

/** The value of the position after move `ply` (1-based) from Light's view, if anything judged it. */
export function valueAfter(moves, ply) {
  const judged = S.judged[ply];
  if (judged) {
    const light = judged.mover === "light" ? judged.after_value : -judged.after_value;
    return { value: light, exact: judged.after_judgement === "exact" };
  }
  return S.values[keyAfter(moves, ply)] || null;
}

/** The result of a finished game in words. */
export function resultText(position) {
  const l = position.light.unplaced_squares, d = position.dark.unplaced_squares;
  const squares = `unplaced squares: Light ${l}, Dark ${d}`;
  if (!position.winner) return `A draw: ${squares}.`;
  const margin = Math.abs(l - d);
  return `${Side(position.winner)} wins by ${margin} square${margin === 1 ? "" : "s"}: ${squares}.`;
}

export function render(ctx) {
  const list = $("history");
  const moves = allMoves();
  const order = nths(moves);
  const signature = JSON.stringify([moves, S.game.moves.length, S.judged.map(j => j && [j.mark, j.loss]), S.theme,
    moves.map((_, i) => valueAfter(moves, i + 1)), S.view && S.view.position.game_over, S.editor !== null]);
  if (list.dataset.signature !== signature) {
    list.dataset.signature = signature;
    list.innerHTML = "";
    if (!S.editor) {
      moves.forEach((move, i) => {
        const item = document.createElement("li");
        item.tabIndex = 0;
        item.title = move;
        item.dataset.move = move;
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = `${i + 1}.`;
        item.append(num, moveWords(move, S.theme, null, order[i]));
        const judged = S.judged[i + 1];
        if (judged && judged.mark) {
          item.append(Object.assign(document.createElement("span"), { className: "mark", textContent: { inaccuracy: "?!", mistake: "?", blunder: "??" }[judged.mark], title: judged.mark }));
        }
        const value = valueAfter(moves, i + 1);
        if (value) {
          const span = Object.assign(document.createElement("span"), { className: "value" + (value.exact ? " exact" : ""), textContent: valueText(value.value, value.exact) });
          span.title = `${value.exact ? "Exact" : "Estimated"} value after this move, for Light` + (judged && judged.loss > 0.05 ? `; it gave up ${judged.loss.toFixed(1)} squares (best was ${judged.before.best})` : "");
          item.append(span);
        }
        if (S.game.comments[i]) item.append(Object.assign(document.createElement("span"), { className: "comment-flag", textContent: "\u270e", title: S.game.comments[i] }));
        if (i >= S.game.moves.length) item.classList.add("future");
        if (i === S.game.moves.length - 1) { item.classList.add("current"); item.setAttribute("aria-current", "step"); }
        item.onclick = () => ctx.jump(i + 1);
        item.onkeydown = e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ctx.jump(i + 1); } };
        list.appendChild(item);
      });
      const position = S.view && S.view.position;
      if (position && position.game_over && S.game.future.length === 0) {
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
  const comment = S.game.comments[S.game.moves.length - 1];
  $("comment").textContent = comment ? `Comment: ${comment}` : "";
  const banner = $("banner");
  const position = S.view && S.view.position;
  if (position && position.game_over && !S.editor) {
    banner.hidden = false;
    banner.textContent = `Game over. ${resultText(position)}`;
  } else banner.hidden = true;
}

export function init() {}
