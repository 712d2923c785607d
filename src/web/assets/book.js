// @ts-check
// The opening explorer: the opening book's moves in the position on the board, with the games of
// the opening study behind each, their mean result and their worst (docs/opening.md). The numbers
// come from engine self-play at a fixed budget: estimates, and the panel says so.
import { S, update, request, gameKey } from "./state.js";
import { api } from "./api.js";
import { moveLink } from "./analysis.js";
import { moveWords, nths, cellsOf, coords, cellName, pieceOf, count } from "./words.js";
import { live as onlineLive } from "./online.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));
/** Moves listed before "Show all". */
const FIRST = 8;

// The request in flight, whether every move is listed, and the position listed are state
// (`S.book`, state.js), changed through `update`.
/** @param {Partial<typeof S.book>} fields */
const set = fields => update(s => ({ book: { ...s.book, ...fields } }));

const signed = (x, digits) => (x > 0 ? "+" : x < 0 ? "\u2212" : "") + Math.abs(x).toFixed(digits);

/** Hides the panel (the position editor has no book). */
export function hide() {
  if (S.book.call) S.book.call.abort();
  $("book-box").hidden = true;
}

/** After each new position: asks the book, shows its moves or hides the panel. */
export async function onPosition() {
  if (onlineLive()) { hide(); return; } // no book in a running game between players
  const key = gameKey();
  if (S.book.call) S.book.call.abort();
  const controller = new AbortController();
  set({ call: controller });
  try {
    const r = await api("/api/book", request({}), { signal: controller.signal, retries: 3 });
    if (key !== gameKey()) return;
    if (S.book.shownKey !== key) set({ expanded: false });
    set({ shownKey: key });
    show(r, key);
  } catch (e) {
    if (e.name !== "AbortError" && key === gameKey()) { $("book-box").hidden = false; $("book").textContent = `The opening book could not be read: ${e.message}`; }
  } finally { if (S.book.call === controller) set({ call: null }); }
}

/** A book move as a row names it: the building and its squares (`Castle d9-f9, d10, f10`); the mover is in the caption. */
function rowText(move) {
  const all = [...S.game.moves, move];
  return moveWords(move, S.theme, null, nths(all)[all.length - 1], false);
}

/** The move turned a quarter of the board `times` times (the book's rotations, src/cathedral/book.rs). */
function turnedBy(move, times) {
  let cells = cellsOf(move).map(coords).map(([f, r]) => [f, r - 1]);
  for (let i = 0; i < times; i++) cells = cells.map(([x, y]) => [y, 9 - x]);
  return cells.map(([x, y]) => cellName(x, y + 1)).sort().join(",");
}

/**
 * The book's moves, one row for each placement and its turns of the board: a position the
 * four turns keep (the start) lists each placement in every turn, with the same numbers, for
 * the study played one of them. Only moves with the same numbers go together.
 */
function groups(moves) {
  const rows = [];
  const seen = new Map();
  for (const m of moves) {
    const stats = `${pieceOf(m.move)}:${m.games}:${m.margin}:${m.worst}`;
    const turns = [0, 1, 2, 3].map(t => `${stats}:${turnedBy(m.move, t)}`);
    const row = turns.map(t => seen.get(t)).find(Boolean);
    if (row) { row.turns.push(m.move); continue; }
    const fresh = { first: m, turns: [m.move] };
    seen.set(turns[0], fresh);
    rows.push(fresh);
  }
  return rows;
}

function show(r, key) {
  const box = $("book");
  const panel = $("book-box");
  box.innerHTML = "";
  if (!r.in_book || S.editor) { panel.hidden = true; return; }
  panel.hidden = false;
  const mover = r.mover === "light" ? "Light" : "Dark";
  const rows = groups(r.moves);
  // The book's own move leads its row.
  for (const row of rows) if (row.turns.includes(r.choice)) row.first = r.moves.find(m => m.move === r.choice);
  const turned = rows.length < r.moves.length;
  const table = document.createElement("table");
  const caption = table.createCaption();
  caption.className = "note";
  caption.textContent = `${mover}'s ${count(rows.length, "move")} in the opening study (engine self-play, ${r.nodes_per_move.toLocaleString("en")} nodes a move)` +
    (turned ? `; turns: a placement turned a quarter or half of the board is as good here, so the ${r.moves.length} placements share ${rows.length} rows` : "") +
    `. Result: the mean final margin in squares over the games through the move, for Light (+ is good for Light, as every number on this page); worst: after the best answer found. Estimates, not proven. Point at a move to see it; choose it to play it.`;
  const head = table.createTHead().insertRow();
  for (const h of ["move", ...(turned ? ["turns"] : []), "games", "result for Light", "worst for Light"]) head.appendChild(Object.assign(document.createElement("th"), { textContent: h, scope: "col" }));
  const body = table.createTBody();
  const list = S.book.expanded ? rows : rows.slice(0, FIRST);
  for (const { first: m, turns } of list) {
    const row = body.insertRow();
    const link = moveLink(row, m.move, rowText(m.move), key);
    // A line breaks between the squares, never inside a run ("a3-d3").
    const parts = link.textContent.split(", ");
    link.textContent = "";
    parts.forEach((part, i) => link.append(Object.assign(document.createElement("span"), { className: "nowrap", textContent: part + (i < parts.length - 1 ? "," : "") }), i < parts.length - 1 ? " " : ""));
    if (m.move === r.choice) link.append(" (book move)");
    row.insertCell().append(link);
    if (turned) {
      const cell = row.insertCell();
      cell.className = "number";
      cell.textContent = String(turns.length);
      cell.title = turns.length > 1 ? `${turns.length} placements, each the others turned, with the same numbers` : "no other turn of the board gives another placement";
    }
    const forLight = v => (r.mover === "light" ? v : -v);
    for (const text of [String(m.games), `~\u2009${signed(forLight(m.margin), 2)}`, signed(forLight(m.worst), 0)]) Object.assign(row.insertCell(), { className: "number", textContent: text });
  }
  box.append(table);
  if (rows.length > FIRST) {
    const more = Object.assign(document.createElement("button"), {
      textContent: S.book.expanded ? `Show the first ${FIRST}` : `Show all ${rows.length} moves`,
    });
    more.onclick = () => { set({ expanded: !S.book.expanded }); show(r, key); };
    box.append(more);
  }
}
