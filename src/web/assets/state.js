// The state of the page, in one place: the game (its rules or start, the moves played and the
// moves taken back that Redo plays again, the record's metadata), what the server said of the
// current position, and what the player has chosen. Every view is drawn from it by `render`
// (app.js) after each change; nothing else keeps a copy of the game.
import { playerOf, pieceOf, cellsOf } from "./words.js";

export const S = {
  game: newGameState({ rules: "classic" }),
  view: null,            // /api/position's answer for the current game
  viewKey: null,         // the key of the game that `view` is of
  chosen: null,          // the building picked in the hand
  orientation: null,     // the key of the chosen building's shape (rotate and mirror turn it)
  choice: 0,             // which of several moves on the same cells (capture or spare)
  cell: null,            // the cell under the pointer, the keyboard cursor or the last tap
  armed: false,          // a touch preview waiting for its confirming tap
  placements: null,      // { key, piece, owner, list } from /api/placements
  judged: [],            // per ply (1-based): the analysis of that move
  analysis: null,        // the whole analysis: summaries, plot, complete or not
  values: {},            // game key -> { value (Light's view), exact, source }
  line: null,            // { key, moves, title } the engine's or the solver's line, drawn as ghosts
  candidates: null,      // { key, list } the engine's ranked moves
  hovered: null,         // a candidate move shown on the board
  territory: null,       // { key, cells } from /api/territory
  showTerritory: false,
  engineSide: "",        // "", "light" or "dark": the engine plays that side
  level: 5,
  autoplay: false,       // whether the engine may move now (after the player's move, not after Undo)
  theme: "classic",
  puzzle: null,
  editor: null,
  record: null,          // the games of an opened record file
  dirty: false,          // moves played since the game was opened, loaded or saved
  lesson: null,          // the teaching mode's judgement of the move on the board, if flagged
  lessons: [],           // every move the teaching mode found lost squares, for the summary
  message: { text: "", refused: false, ofCell: false },
};

export function newGameState({ rules = "classic", start = null, moves = [], meta = {}, comments = [] } = {}) {
  // `kept`: how many moves from the start came from a file or a link; a new move that would
  // replace some of them asks first.
  return { rules, start, moves: [], future: moves.slice().reverse(), meta, comments, kept: moves.length };
}

/** How many moves of a file or a link a new move here would replace (0: none). */
export function replaces(move, game = S.game) {
  if (!game.future.length || game.future[game.future.length - 1] === move) return 0;
  return Math.max(0, game.kept - game.moves.length);
}

/** Every move of the game: those played, then those taken back. */
export const allMoves = (game = S.game) => [...game.moves, ...game.future.slice().reverse()];

/** The game as the API takes it, up to the current move. */
export function request(extra = {}, game = S.game) {
  const body = game.start ? { start: game.start, moves: game.moves } : { rules: game.rules, moves: game.moves };
  return Object.assign(body, extra);
}

/** A key for the position the game has reached: equal keys, equal positions. */
export const gameKey = (game = S.game) => JSON.stringify([game.rules, game.start, game.moves]);

/** Whose turn it is after the moves played (from the moves' players; the view confirms it). */
export function toMove() {
  return S.view && S.viewKey === gameKey() ? S.view.position.to_move : null;
}

/**
 * Plays `move` (with its player): the next move of the list when it is the same, else a new
 * move that discards the moves taken back (and their analysis).
 */
export function playMove(move, { byPlayer = true } = {}) {
  const game = S.game;
  if (game.future.length && game.future[game.future.length - 1] === move) game.future.pop();
  else {
    game.future = [];
    game.kept = Math.min(game.kept, game.moves.length);
    S.judged.length = Math.min(S.judged.length, game.moves.length + 1);
    game.comments = game.comments.slice(0, game.moves.length);
    S.dirty = true;
  }
  game.moves.push(move);
  if (byPlayer) S.autoplay = true;
}

/** Goes to the moment after `count` moves, keeping the others to replay. */
export function jumpTo(count) {
  const game = S.game;
  count = Math.max(0, Math.min(count, game.moves.length + game.future.length));
  while (game.moves.length > count) game.future.push(game.moves.pop());
  while (game.moves.length < count && game.future.length) game.moves.push(game.future.pop());
  // Stepping through the moves is not a move: the engine waits for the player's next move (or
  // a choice of sides), even at the end of an opened record, which it never extends.
  S.autoplay = false;
}

/**
 * Takes back the last move; with the engine playing a side, its move and the player's, so that
 * the player is to move again. Returns how many moves were taken back.
 */
export function undo() {
  const game = S.game;
  if (!game.moves.length) return 0;
  let taken = 0;
  const first = game.moves[game.moves.length - 1];
  game.future.push(game.moves.pop());
  taken++;
  if (S.engineSide && !S.puzzle && playerOf(first) === S.engineSide) {
    // The engine's whole turn (under Lehmann-Woods Light's is the Cathedral and a building),
    // then the player's move before it.
    const last = () => game.moves[game.moves.length - 1];
    while (game.moves.length && playerOf(last()) === S.engineSide) { game.future.push(game.moves.pop()); taken++; }
    if (game.moves.length) { game.future.push(game.moves.pop()); taken++; }
  }
  S.autoplay = false;
  return taken;
}

// The game in the address: "#rules=classic&moves=...&ply=N" or "#start=BASE64&moves=...".
// A move is l or d (its player), two letters for the building and its cells run together:
// "dina2b2b3" is dark:inn:a2,b2,b3; "-f4" adds a spared cell, "lpa" is Light's pass.
const CODES = { tavern: "ta", stable: "st", inn: "in", bridge: "br", square: "sq", manor: "ma", abbey: "ab", infirmary: "if", castle: "ca", tower: "to", academy: "ac", cathedral: "cd", pass: "pa" };
const PIECES = Object.fromEntries(Object.entries(CODES).map(([k, v]) => [v, k]));

export function encodeMove(move) {
  const player = playerOf(move);
  const piece = pieceOf(move);
  let text = (player ? player[0] : "") + CODES[piece];
  if (piece === "pass") return text;
  text += cellsOf(move).join("");
  const spare = move.split("/spare:")[1];
  if (spare) text += "-" + spare.split(",").join("");
  return text;
}

export function decodeMove(text) {
  const match = /^([ld])([a-z]{2})((?:[a-j](?:10|[1-9]))*)(?:-((?:[a-j](?:10|[1-9]))+))?$/.exec(text);
  if (!match || !PIECES[match[2]]) throw new Error(`"${text}" is not a move of this page's links`);
  const player = match[1] === "l" ? "light" : "dark";
  const piece = PIECES[match[2]];
  if (piece === "pass") return `${player}:pass`;
  const cells = match[3].match(/[a-j](10|[1-9])/g) || [];
  let move = `${player}:${piece}:${cells.join(",")}`;
  if (match[4]) move += "/spare:" + match[4].match(/[a-j](10|[1-9])/g).join(",");
  return move;
}

const toBase64 = text => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const fromBase64 = text => new TextDecoder().decode(Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), c => c.charCodeAt(0)));

/** The game and its current move as an address fragment (without "#"). */
export function encodeGame(game = S.game, ply = game.moves.length) {
  const parts = [game.start ? `start=${toBase64(game.start)}` : `rules=${encodeURIComponent(game.rules)}`];
  const moves = allMoves(game);
  if (moves.length) parts.push(`moves=${moves.map(encodeMove).join("_")}`);
  if (ply !== moves.length) parts.push(`ply=${ply}`);
  return parts.join("&");
}

/** The game of an address fragment: { rules, start, moves, ply }; throws with the reason. */
export function decodeGame(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  if (!params.has("rules") && !params.has("start")) throw new Error("the link names no game");
  let start = null;
  if (params.has("start")) {
    try { start = fromBase64(params.get("start")); } catch (_) { throw new Error("the link's start position is damaged"); }
  }
  const moves = params.get("moves") ? params.get("moves").split("_").map(decodeMove) : [];
  const ply = params.has("ply") ? parseInt(params.get("ply"), 10) : moves.length;
  if (!(ply >= 0 && ply <= moves.length)) throw new Error(`the link's move ${params.get("ply")} is not in its game of ${moves.length} moves`);
  return { rules: params.get("rules") || "classic", start, moves, ply };
}
