// @ts-check
// The state of the page, in one place: the game (its rules or start, the tree of its moves and
// variations, the path to the current node, the record's metadata), what the server said of the
// current position, what the player has chosen, and every panel's own state (its requests in
// flight, its tickets, what it shows). `update` is the one way to change it: it applies the
// change and asks for one `render` (render.js), however many changes come before it; every
// view is drawn from the state there, and nothing else keeps a copy of the game.
//
// The game is a tree (as on lichess's analysis board and in every SGF editor): each node is a
// move with the moves that may follow it; the first child is the main continuation, the others
// are variations. A move played in the middle of a game opens a variation: nothing is replaced,
// nothing is lost. `game.moves` is the path from the start to the current node; the line shown
// is that path and then, from each node, the child last visited there (the main one at first),
// so that Undo and Redo retrace the same line.
import { playerOf, pieceOf, cellsOf, count as counted } from "./words.js";
import { checkShapes } from "./shapes.js";

// ---- Types: the state and the server's answers as far as the page reads them -----------------

/**
 * @typedef {object} Judged the whole-game analysis of a move (/api/analyse/live's `ply`)
 * @property {number} [ply]
 * @property {string} mover
 * @property {number} after_value
 * @property {string} after_judgement "exact" or an estimate's word
 * @property {string|null} [mark] "inaccuracy", "mistake", "blunder" or none
 * @property {number} loss
 * @property {{ best: string|null }} [before]
 */
/**
 * @typedef {object} GameNode a node of the game tree
 * @property {string|null} move the move that reaches it (null at the start)
 * @property {GameNode[]} children the moves that may follow, the main one first
 * @property {string} comment
 * @property {string} mark the annotation glyph ("!", "?", ...) or ""
 * @property {string[]} shapes the circles and arrows drawn on its position (shapes.js)
 * @property {Judged|null} judged
 * @property {number} last the child last visited
 */
/** @typedef {{ light?: string, dark?: string, event?: string, round?: string, site?: string, date?: string, comment?: string }} Meta */
/**
 * @typedef {object} Game
 * @property {string} rules a preset's name
 * @property {string|null} start a position file's text, or null for the rules' empty board
 * @property {GameNode} root
 * @property {string[]} moves the path from the start to the current node
 * @property {Meta} meta
 */
/**
 * @typedef {object} SideOfPosition one player's part of a position
 * @property {Object<string, number>} hand
 * @property {{ piece: string, cells: string[] }[]} buildings
 * @property {number} unplaced_squares
 * @property {number} [territory_size]
 * @property {string[]} [territory]
 * @property {boolean} [first_move_made]
 */
/**
 * @typedef {object} Position /api/position's `position` (as `cathedral show --json`)
 * @property {string} to_move
 * @property {boolean} game_over
 * @property {string|null} [winner]
 * @property {{ cathedral?: string, preset?: string }} rules
 * @property {{ status: string, cells: string[] }} cathedral
 * @property {SideOfPosition} light
 * @property {SideOfPosition} dark
 */
/** @typedef {{ cells: string[], captured?: { player: string, piece: string }|null }} Claim */
/**
 * @typedef {object} View /api/position's answer
 * @property {Position} position
 * @property {{ moves: string[], per_piece: Object<string, number> }} moves
 * @property {{ text: string, report: { claims: Claim[] } }|null} last_move
 * @property {string} svg
 * @property {string} position_file
 */
/** @typedef {{ cells: string[], legal: boolean, reason?: string }} Placement */
/**
 * @typedef {object} OnlineGame a game on the play server (online.js)
 * @property {string} id
 * @property {any} view the server's last view of it
 * @property {string|null} sent the move or action sent, until the server answers
 * @property {boolean} connected
 * @property {string} error
 * @property {number} received when the view came (Date.now())
 */
/** @typedef {{ text: string, refused: boolean, ofCell: boolean, move: string, hint: string }} Message */
/** @typedef {{ from: string, to: string, colour: string, pointer?: number|string }} Drawing */
/**
 * @typedef {object} Puzzle the puzzle on the board (trainer.js)
 * @property {string} name
 * @property {string} set "shipped" or "game"
 * @property {string} question
 * @property {string[]} themes
 * @property {string[]} hints
 * @property {number} hinted
 * @property {boolean} answered
 * @property {{ rating: number, deviation: number }} rating
 * @property {string} start
 * @property {boolean} [busy] an answer or the solution is on its way
 * @property {boolean} [tried]
 * @property {boolean} [shown] the solution was shown
 * @property {any} [verdict]
 */
/**
 * @typedef {object} Study the study open (study.js)
 * @property {string} id
 * @property {string|null} name a lesson of the course, by name
 * @property {any} view /api/studies' study: title, chapters...
 * @property {string|null} encoded
 * @property {boolean} tooLong
 * @property {Set<number>} done
 * @property {number} chapter
 * @property {{ busy: boolean, shown: boolean, chapter: number, verdict?: any }|null} answer
 * @property {Set<string>} [marks]
 */
/**
 * @typedef {object} Lesson the teaching mode's judgement of a move (teach.js)
 * @property {string} key
 * @property {number} ply
 * @property {string} move
 * @property {string} mover
 * @property {string} best
 * @property {number} bestValue
 * @property {number} playedValue
 * @property {number} loss
 * @property {boolean} exact
 * @property {boolean} turned
 * @property {string|null} reply
 * @property {boolean} dismissed
 * @property {string} replyText
 */
/**
 * @typedef {object} Editor the position being set up (editor.js)
 * @property {{ owner: string, piece: string, cells: string[] }[]} buildings
 * @property {string[]|null} cathedral
 * @property {{ game: Game, puzzle: Puzzle|null }} saved
 */
/**
 * @typedef {object} Running a live solve or analysis (analysis.js)
 * @property {"solve"|"analyse"} kind
 * @property {string} key the position (a solve) or the whole game (an analysis) it is of
 * @property {AbortController} controller
 * @property {number|null} id
 * @property {string} [stopPath]
 * @property {boolean} [detached]
 * @property {string} [mover]
 */
/**
 * @typedef {object} EngineState what analysis.js has in flight and whose panels it shows
 * @property {Running|null} running
 * @property {AbortController|null} call the engine's reply for its side in flight
 * @property {AbortController|null} evaluating the live evaluation in flight
 * @property {AbortController|null} territoryCall
 * @property {{ kind: string, key: string, run: () => void }|null} outage a request that found no
 *   server, with the state it was asked for: asked again, or said not sent, when it answers
 * @property {string|null} panelKey the position the answer, line and tables beside the board are of
 */
/**
 * @typedef {object} Learner the trainer's learner, kept in the browser
 * @property {number} rating
 * @property {number} deviation
 * @property {number} volatility
 * @property {number} streak
 * @property {number} best_streak
 * @property {any[]} history
 * @property {string[]} solved
 * @property {Object<string, any>} [reviews]
 */
/**
 * @typedef {object} TrainerState trainer.js's lists, learner and tickets
 * @property {any[]} shipped /api/puzzles
 * @property {any[]} fromGame /api/puzzles/from-game's puzzles, named game-move-N
 * @property {Learner|null} learner (read from the browser when the trainer starts)
 * @property {number} loading which puzzle was asked for last: an older one's file is dropped
 * @property {number} playback the solution played out: a new one (or leaving) stops the last
 * @property {any} report the last report of Puzzles from this game
 * @property {number} reportTicket drops an older report's answer
 */

export const S = {
  /** @type {Game} */
  game: newGameState({ rules: "classic" }),
  /** @type {View|null} /api/position's answer for the current game */
  view: null,
  /** @type {string|null} the key of the game that `view` is of */
  viewKey: null,
  /** which refresh owns the page: an answer to an older one is dropped */
  asking: 0,
  /** the server went away: /api/health is asked until it answers */
  waitingForServer: false,
  /** @type {string|null} the building picked in the hand */
  chosen: null,
  /** @type {string|null} the key of the chosen building's shape (rotate and mirror turn it) */
  orientation: null,
  /** @type {string[]|null} the chosen building's shapes, from its placements */
  shapes: null,
  choice: 0,             // which of several moves on the same cells (capture or spare)
  /** @type {string|null} the cell under the pointer, the keyboard cursor or the last tap */
  cell: null,
  armed: false,          // a touch preview waiting for its confirming tap
  /** @type {{ key: string, piece: string, owner: string|null, list: Placement[] }|null} from /api/placements */
  placements: null,
  /** @type {any} the whole analysis: summaries, plot, complete or not */
  analysis: null,
  /** @type {Object<string, { value: number, exact: boolean, source: string }>} game key -> value (Light's view) */
  values: {},
  /** @type {{ key: string, moves: string[], title: string }|null} the engine's or the solver's line, drawn as ghosts */
  line: null,
  /** @type {{ key: string, list: any[] }|null} the engine's ranked moves */
  candidates: null,
  /** @type {string|null} a candidate move shown on the board */
  hovered: null,
  /** @type {{ key: string, cells: any, answer: any }|null} from /api/territory */
  territory: null,
  showTerritory: false,
  flipped: false,        // the board seen from Dark's side (turned half a turn)
  engineSide: "",        // "", "light" or "dark": the engine plays that side
  level: 5,
  engineSeed: randomSeed(), // seeds the weaker levels' choices: a new one for each game, so games differ
  autoplay: false,       // whether the engine may move now (after the player's move, not after Undo)
  theme: "classic",
  welcomed: false,       // the first screen's question answered for this game
  /** @type {Puzzle|null} */
  puzzle: null,
  /** @type {Study|null} the study open (study.js): its chapters, the chapter shown, the answer */
  study: null,
  /** @type {any[]} /api/studies: the lessons of the course in order */
  course: [],
  studyTicket: 0,        // which study was asked for last: an older one arriving later is dropped
  studyLoads: 0,         // studies being fetched
  /** @type {Editor|null} */
  editor: null,
  /** @type {OnlineGame|null} a game on the play server, opened by `?online=ID` (online.js) */
  online: null,
  /** @type {any} the games of an opened record file */
  record: null,
  dirty: false,          // moves played since the game was opened, loaded or saved
  /** @type {Lesson|null} the teaching mode's judgement of the move on the board, if flagged */
  lesson: null,
  /** @type {Lesson[]} every move the teaching mode found lost squares, for the summary */
  lessons: [],
  /** @type {AbortController|null} the teaching mode's judgement in flight */
  teaching: null,
  /** @type {Message} the status line: a message, or the hint of the moment it was said */
  message: { text: "", refused: false, ofCell: false, move: "", hint: "" },
  /** @type {Drawing|null} the shape being drawn (a right-drag, a long-press) */
  drawing: null,
  /** @type {EngineState} */
  engine: { running: null, call: null, evaluating: null, territoryCall: null, outage: null, panelKey: null },
  /** @type {{ call: AbortController|null, expanded: boolean, shownKey: string|null }} the opening explorer (book.js) */
  book: { call: null, expanded: false, shownKey: null },
  /** @type {TrainerState} */
  trainer: { shipped: [], fromGame: [], learner: null, loading: 0, playback: 0, report: null, reportTicket: 0 },
  /**
   * The game in the address (address.js): `fresh` when the next write is a new entry of the
   * browser's history (a game that replaces another), `seen` the address as the page last wrote
   * or read it.
   * @type {{ fresh: boolean, seen: string }}
   */
  address: { fresh: false, seen: location.hash },
};

/** @typedef {typeof S} State */

// ---- The one way to change it ---------------------------------------------------------------

// The store's own machinery, not the page's state: the function that draws (render.js registers
// it at the start: state.js imports no view), the animation frame asked for, if any, and
// whether a render is due at the end of the task (`soon`).
/** @type {(now: boolean) => void} */
let draw = () => {};
let frame = 0;

/**
 * Registers the function that draws every view from the state (render.js's `render`): `now` is
 * true when it is asked for at once (`renderNow`), false at an animation frame.
 * @param {(now: boolean) => void} render
 */
export function drawWith(render) { draw = render; }

let soon = false;

/**
 * Changes the state: `change` is an object of fields to set, or a function that changes the
 * state it is given (which may also return fields to set). One render follows, however many
 * changes come before it: at the next animation frame, or, for a change made while the page
 * handles the player's input (a click, a key, a pointer's move: `window.event` is set), at the
 * end of that event's task, so that the page answers an action before the next one comes (as it
 * did when each action drew the page itself). Pointer moves come once a frame, so either way
 * the page is drawn at most about once a frame.
 * @param {Partial<State> | ((s: State) => Partial<State> | void)} change
 */
export function update(change) {
  const fields = typeof change === "function" ? change(S) : change;
  if (fields) Object.assign(S, fields);
  if (window.event) {
    if (!soon) {
      soon = true;
      queueMicrotask(() => {
        soon = false;
        if (frame) { cancelAnimationFrame(frame); frame = 0; }
        draw(false);
      });
    }
  } else if (!frame && !soon) frame = requestAnimationFrame(() => { frame = 0; draw(false); });
}

/**
 * Draws now what is waiting for the next frame. Only where something must see the views drawn
 * before it goes on; each call says why.
 */
export function renderNow() {
  if (frame) { cancelAnimationFrame(frame); frame = 0; }
  draw(true);
}

/** A seed for the engine's weaker levels: any whole number below 2^32. */
export function randomSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/** A node of the game tree: a move (null at the start), what follows it, and what was said of it. */
export function newNode(move = null) {
  // `judged`: the whole-game analysis of this move; `last`: the child last visited; `shapes`:
  // the circles and arrows drawn on the position after it (shapes.js).
  return { move, children: [], comment: "", mark: "", shapes: [], judged: null, last: 0 };
}

/**
 * A line of moves (with its comments, marks and variations, as `/api/record/read` gives them)
 * added below `node`; the line's first move becomes the node's main continuation if it has none.
 * `plyOffset`: how many moves come before the line (variations' plies count from the start).
 */
export function addLine(node, line, plyOffset = 0) {
  const { moves = [], comments = [], marks = [], shapes = [], variations = [] } = line;
  const nodes = [node];
  let at = node;
  moves.forEach((move, i) => {
    at = childFor(at, move);
    if (comments[i]) at.comment = comments[i];
    if (marks[i]) at.mark = marks[i];
    if (shapes[i] && shapes[i].length) at.shapes = shapes[i].slice();
    nodes.push(at);
  });
  for (const v of variations) {
    const parent = nodes[v.ply - 1 - plyOffset];
    if (parent) addLine(parent, v, v.ply - 1);
  }
  return at;
}

/** The child of `node` for `move`, made if it is new. */
function childFor(node, move) {
  let child = node.children.find(c => c.move === move);
  if (!child) { child = newNode(move); node.children.push(child); }
  return child;
}

export function newGameState({ rules = "classic", start = null, moves = [], meta = {}, comments = [], marks = [], shapes = [], startShapes = [], variations = [] } = {}) {
  const root = newNode();
  root.shapes = startShapes.slice();
  addLine(root, { moves, comments, marks, shapes, variations });
  return { rules, start, root, moves: [], meta };
}

/** The node at the end of `path` (a list of moves from the start), or null. */
export function nodeAt(path, game = S.game) {
  let node = game.root;
  for (const move of path) {
    node = node.children.find(c => c.move === move);
    if (!node) return null;
  }
  return node;
}

/** The current node. */
export const current = (game = S.game) => nodeAt(game.moves, game) || game.root;

/** The moves after the current node on the line shown (each node's last visited child). */
export function continuation(game = S.game) {
  const moves = [];
  for (let node = current(game); node.children.length;) {
    node = node.children[Math.min(node.last, node.children.length - 1)];
    moves.push(node.move);
  }
  return moves;
}

/** Whether the current node ends its line: nothing follows it. */
export const atEnd = (game = S.game) => current(game).children.length === 0;

/** Every move of the line shown: the path to the current node, then its continuation. */
export const allMoves = (game = S.game) => [...game.moves, ...continuation(game)];

/** The nodes of the line shown, from the first move (index 0 is the first move's node). */
export function lineNodes(game = S.game) {
  const nodes = [];
  let node = game.root;
  for (const move of allMoves(game)) { node = node.children.find(c => c.move === move); nodes.push(node); }
  return nodes;
}

/** How many moves the tree holds, variations included. */
export function treeSize(game = S.game) {
  let count = 0;
  const walk = node => { for (const child of node.children) { count++; walk(child); } };
  walk(game.root);
  return count;
}

/**
 * The main line: the first child from each node.
 * @param {{ root: GameNode }} [game]
 */
export function mainLine(game = S.game) {
  const moves = [];
  for (let node = game.root; node.children.length;) { node = node.children[0]; moves.push(node.move); }
  return moves;
}

/** The game as the API takes it, up to the current move. */
export function request(extra = {}, game = S.game) {
  const body = game.start ? { start: game.start, moves: game.moves } : { rules: game.rules, moves: game.moves };
  return Object.assign(body, extra);
}

/** A key for the position the game has reached: equal keys, equal positions (and equal nodes). */
export const gameKey = (game = S.game) => JSON.stringify([game.rules, game.start, game.moves]);

/**
 * Plays `move` (with its player) from the current node: the existing child when there is one
 * (the next move of the line, or of a variation), else a new child, which opens a variation
 * when the node already had a continuation. Nothing is discarded.
 */
export function playMove(move, { byPlayer = true } = {}) {
  const game = S.game;
  const node = current(game);
  let index = node.children.findIndex(c => c.move === move);
  if (index < 0) {
    node.children.push(newNode(move));
    index = node.children.length - 1;
    update({ dirty: true });
  }
  node.last = index;
  game.moves.push(move);
  if (byPlayer) update({ autoplay: true });
  update({});
}

/** Goes to the node at the end of `path`, which becomes part of the line shown. */
export function goTo(path, game = S.game) {
  let node = game.root;
  const kept = [];
  for (const move of path) {
    const index = node.children.findIndex(c => c.move === move);
    if (index < 0) break;
    node.last = index;
    node = node.children[index];
    kept.push(move);
  }
  game.moves = kept;
  // Stepping through the moves is not a move: the engine waits for the player's next move (or
  // a choice of sides), even at the end of an opened record, which it never extends.
  update({ autoplay: false });
}

/**
 * Adds `line` after the node of `path` (as its continuation, or a variation when it has another)
 * and makes it the line shown from there, without moving.
 */
export function graft(path, line, game = S.game) {
  let node = nodeAt(path, game);
  if (!node) return;
  for (const move of line) {
    let index = node.children.findIndex(c => c.move === move);
    if (index < 0) { node.children.push(newNode(move)); index = node.children.length - 1; update({ dirty: true }); }
    node.last = index;
    node = node.children[index];
  }
}

/** Moves to the `step`-th other variation beside the current move (at the same ply). */
export function switchVariation(step, game = S.game) {
  if (!game.moves.length) return false;
  const path = game.moves.slice(0, -1);
  const parent = nodeAt(path, game);
  if (parent.children.length < 2) return false;
  const index = parent.children.findIndex(c => c.move === game.moves[game.moves.length - 1]);
  const next = parent.children[(index + step + parent.children.length) % parent.children.length];
  goTo([...path, next.move], game);
  return true;
}

/**
 * Makes the line through the current node the main line: at every branch on its path, its
 * child goes first. Returns whether anything changed.
 */
export function promote(game = S.game) {
  let node = game.root, changed = false;
  for (const move of game.moves) {
    const index = node.children.findIndex(c => c.move === move);
    if (index > 0) {
      const [child] = node.children.splice(index, 1);
      node.children.unshift(child);
      changed = true;
    }
    node.last = 0;
    node = node.children[0];
  }
  if (changed) update({ dirty: true });
  return changed;
}

/** Deletes the current move and everything after it; the page goes to the move before. */
export function deleteHere(game = S.game) {
  if (!game.moves.length) return false;
  const path = game.moves.slice(0, -1);
  const parent = nodeAt(path, game);
  parent.children = parent.children.filter(c => c.move !== game.moves[game.moves.length - 1]);
  parent.last = 0;
  game.moves = path;
  update({ dirty: true, autoplay: false });
  return true;
}

/**
 * Takes back the last move; with the engine playing a side, its move and the player's, so that
 * the player is to move again. The moves stay in the tree: Redo plays them again. Returns how
 * many moves were taken back.
 */
export function undo() {
  const game = S.game;
  if (!game.moves.length) return 0;
  let taken = 0;
  const first = game.moves[game.moves.length - 1];
  game.moves.pop();
  taken++;
  if (S.engineSide && !S.puzzle && playerOf(first) === S.engineSide) {
    // The engine's whole turn (under Lehmann-Woods Light's is the Cathedral and a building),
    // then the player's move before it.
    const last = () => game.moves[game.moves.length - 1];
    while (game.moves.length && playerOf(last()) === S.engineSide) { game.moves.pop(); taken++; }
    if (game.moves.length) { game.moves.pop(); taken++; }
  }
  update({ autoplay: false });
  return taken;
}

/** The tree below `node` as the API's record line: { moves, comments, marks, shapes, variations }. */
export function lineOf(node, plyOffset = 0) {
  const line = { moves: [], comments: [], marks: [], shapes: [], variations: [] };
  let ply = plyOffset;
  for (let at = node; at.children.length;) {
    ply++;
    for (const other of at.children.slice(1)) {
      const sub = lineOf(other, ply);
      line.variations.push({ ply, moves: [other.move, ...sub.moves], comments: [other.comment || null, ...sub.comments], marks: [other.mark || null, ...sub.marks], shapes: [other.shapes || [], ...sub.shapes], variations: sub.variations });
    }
    at = at.children[0];
    line.moves.push(at.move);
    line.comments.push(at.comment || null);
    line.marks.push(at.mark || null);
    line.shapes.push(at.shapes || []);
  }
  return line;
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

/**
 * The tree below `node` in the address: the main line's moves joined by "_", each followed by
 * its alternatives in parentheses (PGN's convention): "m1_m2(v2_v3)_m3" has the variation v2 v3
 * instead of m2. `order` collects the nodes in the order their moves are written.
 */
function encodeTree(node, order) {
  const parts = [];
  for (let at = node; at.children.length;) {
    const [main, ...others] = at.children;
    order.push(main);
    let text = encodeMove(main.move);
    for (const other of others) {
      order.push(other);
      const rest = encodeTree(other, order);
      text += `(${encodeMove(other.move)}${rest ? "_" + rest : ""})`;
    }
    parts.push(text);
    at = main;
  }
  return parts.join("_");
}

function decodeTree(text, root) {
  const tokens = text.match(/[()_]|[^()_]+/g) || [];
  const order = [];
  let pos = 0;
  const line = parent => {
    let at = parent;
    while (pos < tokens.length && tokens[pos] !== ")") {
      const token = tokens[pos++];
      if (token === "_") continue;
      if (token === "(") throw new Error("a variation of the link's moves comes before any move");
      const child = childFor(at, decodeMove(token));
      order.push(child);
      while (tokens[pos] === "(") {
        pos++;
        line(at);
        if (tokens[pos] !== ")") throw new Error("a variation of the link's moves is not closed");
        pos++;
      }
      at = child;
    }
  };
  line(root);
  if (pos < tokens.length) throw new Error("the link's moves close a variation that was not opened");
  return order;
}

/**
 * The game and its current node as an address fragment (without "#"): the tree of moves, where
 * the page stands ("ply=N" on the main line, "at=0.0.1" as the child taken at each move in a
 * variation), the shapes drawn ("shapes=0:e4;3:e4-g7,red:c3": the start is 0, then each move
 * by its place in "moves="), and the record's players, comments and marks ("notes=", base64
 * JSON), so that a link shares all of it.
 */
export function encodeGame(game = S.game) {
  const parts = [game.start ? `start=${toBase64(game.start)}` : `rules=${encodeURIComponent(game.rules)}`];
  const order = [];
  const tree = encodeTree(game.root, order);
  if (tree) parts.push(`moves=${tree}`);
  const indices = [];
  let node = game.root;
  for (const move of game.moves) {
    const index = node.children.findIndex(c => c.move === move);
    indices.push(index);
    node = node.children[index];
  }
  if (indices.some(i => i > 0)) parts.push(`at=${indices.join(".")}`);
  else if (game.moves.length !== mainLine(game).length) parts.push(`ply=${game.moves.length}`);
  const drawn = [game.root, ...order].map((n, i) => (n.shapes && n.shapes.length ? `${i}:${n.shapes.join(",")}` : null)).filter(Boolean);
  if (drawn.length) parts.push(`shapes=${drawn.join(";")}`);
  const notes = order.map((n, i) => (n.comment || n.mark ? [i, n.comment || "", n.mark || ""] : null)).filter(Boolean);
  const meta = Object.fromEntries(Object.entries(game.meta || {}).filter(([, v]) => v));
  if (notes.length || Object.keys(meta).length) parts.push(`notes=${toBase64(JSON.stringify({ meta, notes }))}`);
  return parts.join("&");
}

/** The game of an address fragment: { rules, start, root, path, meta }; throws with the reason. */
export function decodeGame(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  if (!params.has("rules") && !params.has("start")) throw new Error("the link names no game");
  let start = null;
  if (params.has("start")) {
    try { start = fromBase64(params.get("start")); } catch (_) { throw new Error("the link's start position is damaged"); }
  }
  const root = newNode();
  const order = params.get("moves") ? decodeTree(params.get("moves"), root) : [];
  const main = mainLine({ root });
  let path = main;
  if (params.has("at")) {
    path = [];
    let node = root;
    for (const text of params.get("at").split(".")) {
      const child = node.children[parseInt(text, 10)];
      if (!child) throw new Error("the link's current move is not in its game");
      path.push(child.move);
      node = child;
    }
  } else if (params.has("ply")) {
    const ply = parseInt(params.get("ply"), 10);
    if (!(ply >= 0 && ply <= main.length)) throw new Error(`the link's move ${params.get("ply")} is not in its game of ${counted(main.length, "move")}`);
    path = main.slice(0, ply);
  }
  let meta = {};
  if (params.has("notes")) {
    try {
      const notes = JSON.parse(fromBase64(params.get("notes")));
      meta = notes.meta && typeof notes.meta === "object" ? notes.meta : {};
      for (const [i, comment, mark] of notes.notes || []) {
        if (order[i]) { order[i].comment = String(comment || ""); order[i].mark = String(mark || ""); }
      }
    } catch (_) { throw new Error("the link's comments are damaged"); }
  }
  if (params.has("shapes")) {
    const nodes = [root, ...order];
    for (const group of params.get("shapes").split(";").filter(Boolean)) {
      const [, index, list] = /^(\d+):(.*)$/.exec(group) || [];
      const node = index !== undefined && nodes[parseInt(index, 10)];
      if (!node) throw new Error(`the link's shapes "${group}" are not on a move of its game`);
      try { node.shapes = checkShapes(list.split(",")); } catch (e) { throw new Error(`the link's shapes are damaged: ${e.message}`); }
    }
  }
  return { rules: params.get("rules") || "classic", start, root, path, meta };
}
