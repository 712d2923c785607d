// The opening explorer: the opening book's moves in the position on the board, with the games of
// the opening study behind each, their mean result and their worst (docs/opening.md). The numbers
// come from engine self-play at a fixed budget: estimates, and the panel says so.
import { S, request, gameKey } from "./state.js";
import { api } from "./api.js";
import { moveLink } from "./analysis.js";

const $ = id => document.getElementById(id);
/** Moves listed before "Show all". */
const FIRST = 8;

let call = null;
let expanded = false;
let shownKey = null;

const signed = (x, digits) => (x > 0 ? "+" : x < 0 ? "\u2212" : "") + Math.abs(x).toFixed(digits);

/** Hides the panel (the position editor has no book). */
export function hide() {
  if (call) call.abort();
  $("book-box").hidden = true;
}

/** After each new position: asks the book, shows its moves or hides the panel. */
export async function onPosition(ctx) {
  const key = gameKey();
  if (call) call.abort();
  const controller = new AbortController();
  call = controller;
  try {
    const r = await api("/api/book", request({}), { signal: controller.signal, retries: 3 });
    if (key !== gameKey()) return;
    if (shownKey !== key) expanded = false;
    shownKey = key;
    show(ctx, r, key);
  } catch (e) {
    if (e.name !== "AbortError" && key === gameKey()) { $("book-box").hidden = false; $("book").textContent = `The opening book could not be read: ${e.message}`; }
  } finally { if (call === controller) call = null; }
}

/**
 * A book move as a row names it: the building and every cell (`Castle d9,d10,e9,f9,f10`). The
 * mover is in the caption; the cells are all written because two placements of one building
 * can share their corners (the Castle's turns do).
 */
function rowText(move) {
  const parts = move.split(":");
  const cells = parts.pop();
  const kind = parts.pop() || "";
  // A line may break after any comma (a zero-width space), never inside a cell.
  return `${kind.charAt(0).toUpperCase()}${kind.slice(1)} ${cells.replace(/,/g, ",\u200b")}`;
}

function show(ctx, r, key) {
  const box = $("book");
  const panel = $("book-box");
  box.innerHTML = "";
  if (!r.in_book || S.editor) { panel.hidden = true; return; }
  panel.hidden = false;
  const mover = r.mover === "light" ? "Light" : "Dark";
  const table = document.createElement("table");
  const caption = table.createCaption();
  caption.className = "note";
  caption.textContent = `${mover}'s ${r.moves.length} move${r.moves.length === 1 ? "" : "s"} in the opening study (engine self-play, ${r.nodes_per_move.toLocaleString("en")} nodes a move). Result: the mean final margin in squares over the games through the move, for Light (+ is good for Light, as every number on this page); worst: after the best answer found. Estimates, not proven. Point at a move to see it; choose it to play it.`;
  const head = table.createTHead().insertRow();
  for (const h of ["move", "games", "result for Light", "worst for Light"]) head.appendChild(Object.assign(document.createElement("th"), { textContent: h, scope: "col" }));
  const body = table.createTBody();
  const list = expanded ? r.moves : r.moves.slice(0, FIRST);
  for (const m of list) {
    const row = body.insertRow();
    const link = moveLink(ctx, row, m.move, rowText(m.move), key);
    if (m.move === r.choice) link.append(" (book move)");
    row.insertCell().append(link);
    row.insertCell().textContent = String(m.games);
    const forLight = v => (r.mover === "light" ? v : -v);
    row.insertCell().textContent = `~\u2009${signed(forLight(m.margin), 2)}`;
    row.insertCell().textContent = signed(forLight(m.worst), 0);
  }
  box.append(table);
  if (r.moves.length > FIRST) {
    const more = Object.assign(document.createElement("button"), {
      textContent: expanded ? `Show the first ${FIRST}` : `Show all ${r.moves.length} moves`,
    });
    more.onclick = () => { expanded = !expanded; show(ctx, r, key); };
    box.append(more);
  }
}
