// @ts-check
// The puzzle trainer: the shipped collection (or `serve --puzzles DIR`), or the puzzles made
// from the game on the board; filtered by several themes at once and by level. A puzzle's first
// move is the answer, checked exactly by the server. The learner has a Glicko-2 rating kept in
// the browser: the first answer to a puzzle is rated against the puzzle's own rating (a wrong
// first answer is a loss even if corrected later); Next puzzle picks an unsolved one near the
// learner's rating. The history of attempts can be exported and imported as a file.
//
// After an answer, as on lichess: Retry (after a wrong one: the answer is taken back, the rating
// stays as the first answer made it), View the solution (the best move and the best line after
// it played out on the board move by move; before any answer it counts as a failed attempt),
// Next puzzle (after a right one, or by itself after a pause with "Next puzzle after a right
// answer"). "Your progress" draws the rating over the attempts and the results by theme.
//
// A puzzle answered wrong (or whose solution was viewed first) comes back for review after a
// growing interval (review.js, SuperMemo 2): Next puzzle gives a due review before a new puzzle,
// and the learner's line says how many are due.
import { S, update, newGameState, allMoves, lineNodes, graft, goTo, gameKey } from "./state.js";
import { reviewed, due, merged, valid as validReview } from "./review.js";
import { api } from "./api.js";
import { moveWords, nths, count } from "./words.js";
import { say } from "./status.js";
import { refresh, startGame, mayDiscard, goToPath } from "./actions.js";

/** An element of index.html by its id (its kind is the page's: an input, a select, a box...). */
const $ = /** @type {(id: string) => any} */ (id => document.getElementById(id));
const LEARNER = "cathedral-learner";
const PRIOR = { easy: 1200, medium: 1500, hard: 1800 };
const START = { rating: 1500, deviation: 350, volatility: 0.06 };
/** The pause before the next puzzle comes by itself, to read the verdict. */
const AUTO_NEXT_MS = 1500;
/** The pause between the moves of a solution played out on the board. */
const STEP_MS = 800;

// The lists, the learner, the tickets and the last report are state (`S.trainer`, state.js),
// changed through `update`; the learner is read from the browser when the trainer starts.
const T = () => S.trainer;
/** @param {Partial<import("./state.js").TrainerState>} fields */
const set = fields => update(s => ({ trainer: { ...s.trainer, ...fields } }));

function load() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem(LEARNER) || "null"); } catch (_) { saved = null; }
  const fresh = { ...START, streak: 0, best_streak: 0, history: [], solved: [] };
  // Solved puzzles from before the rated trainer.
  try { fresh.solved = JSON.parse(localStorage.getItem("cathedral-solved") || "[]"); } catch (_) { /* none */ }
  return valid(saved) ? saved : fresh;
}

function valid(l) {
  return l && typeof l === "object" && [l.rating, l.deviation, l.volatility].every(Number.isFinite) && Array.isArray(l.history) && Array.isArray(l.solved)
    && (l.reviews === undefined || (typeof l.reviews === "object" && l.reviews !== null));
}

/** The T().shipped puzzles due for review now, among `pool` (names). */
function dueNow(pool) {
  const names = new Set(pool.map(p => p.name));
  return due(T().learner.reviews, Date.now()).filter(name => names.has(name));
}

/** Files the visit's first answer to a T().shipped puzzle in the review schedule. */
function schedule(puzzle, correct) {
  if (puzzle.set !== "shipped") return;
  const entry = reviewed(validReview((T().learner.reviews || {})[puzzle.name]) ? T().learner.reviews[puzzle.name] : undefined, correct, Date.now());
  const reviews = { ...(T().learner.reviews || {}) };
  if (entry) reviews[puzzle.name] = entry;
  update(() => { T().learner.reviews = reviews; });
}

function store() {
  try {
    localStorage.setItem(LEARNER, JSON.stringify(T().learner));
    localStorage.setItem("cathedral-solved", JSON.stringify(T().learner.solved));
  } catch (_) { /* private mode: kept for this visit */ }
}

/** A puzzle's rating: its stored Glicko-2 rating, or the prior of its level. */
function ratingOf(p) {
  if (p.glicko && Number.isFinite(p.glicko.rating)) return { rating: p.glicko.rating, deviation: p.glicko.deviation || 350 };
  return { rating: PRIOR[p.difficulty] || 1500, deviation: 350 };
}

const puzzles = () => ($("puzzle-set").value === "game" ? T().fromGame : T().shipped);
const attempted = name => T().learner.history.some(h => h.puzzle === name);

function themesTicked() { return [.../** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll("#themes input:checked"))].map(i => i.value); }

function filtered() {
  const themes = themesTicked(), level = $("difficulty").value;
  return puzzles().filter(p => (!themes.length || p.themes.some(t => themes.includes(t))) && (!level || p.difficulty === level));
}

function list() {
  const select = $("puzzle");
  const keep = select.value;
  select.innerHTML = "";
  for (const p of filtered()) {
    const option = document.createElement("option");
    option.value = p.name;
    const r = ratingOf(p);
    option.textContent = `${T().learner.solved.includes(p.name) ? "\u2713 " : ""}${p.name}: ${p.question} (${p.difficulty}, ${Math.round(r.rating)})`;
    select.appendChild(option);
  }
  if ([...select.options].some(o => o.value === keep)) select.value = keep;
  showLearner();
}

function showLearner() {
  const set = puzzles();
  const solved = set.filter(p => T().learner.solved.includes(p.name)).length;
  const rating = T().learner.deviation > 110 ? `${Math.round(T().learner.rating)}? (provisional until more puzzles are rated)` : `${Math.round(T().learner.rating)} \u00b1 ${Math.round(T().learner.deviation * 2)}`;
  const reviews = $("puzzle-set").value === "game" ? [] : dueNow(set);
  const dueText = reviews.length ? ` \u00b7 ${reviews.length} review${reviews.length === 1 ? "" : "s"} due` : "";
  $("learner").textContent = `Your rating: ${rating} \u00b7 streak ${T().learner.streak} (best ${T().learner.best_streak}) \u00b7 ${solved} of ${set.length} solved \u00b7 ${T().learner.history.length} attempt${T().learner.history.length === 1 ? "" : "s"}${dueText}`;
  progress();
}

// ---- Your progress ---------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
const svgNode = (name, attributes = {}, text = null) => {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v));
  if (text !== null) node.textContent = text;
  return node;
};

/** The rating before the first attempt and after each: what the graph draws. */
function ratings() {
  const h = T().learner.history;
  const first = h.find(e => Number.isFinite(e.rating_before));
  let r = first ? first.rating_before : T().learner.rating;
  const series = [r];
  for (const e of h) { if (Number.isFinite(e.rating_after)) r = e.rating_after; series.push(r); }
  return series;
}

/** The rating over the attempts: an inline SVG line chart, attempts across, rating up. */
function ratingGraph() {
  const box = $("rating-graph");
  box.innerHTML = "";
  const series = ratings().map(Math.round);
  const n = series.length - 1;
  if (!n) { box.append(Object.assign(document.createElement("p"), { className: "note", textContent: "No attempt yet: the graph of your rating starts with your first answer." })); return; }
  const low = Math.min(...series), high = Math.max(...series);
  const bottom = Math.floor((low - 25) / 50) * 50, top = Math.ceil((high + 25) / 50) * 50;
  const W = 320, H = 170, L = 44, R = 10, T = 22, B = 40;
  const x = i => L + (W - L - R) * i / n;
  const y = v => T + (H - T - B) * (top - v) / (top - bottom);
  const svg = svgNode("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "graph",
    "aria-label": `Your rating over ${n} attempt${n === 1 ? "" : "s"}: from ${series[0]} to ${series[n]}, lowest ${low}, highest ${high}.` });
  svg.append(svgNode("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }), svgNode("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }));
  for (const v of [bottom, (bottom + top) / 2, top]) {
    svg.append(svgNode("line", { x1: L - 4, y1: y(v), x2: W - R, y2: y(v), class: v === bottom ? "tick" : "grid" }));
    svg.append(svgNode("text", { x: L - 7, y: y(v) + 4, "text-anchor": "end" }, String(Math.round(v))));
  }
  const ticks = [...new Set([0, Math.round(n / 2), n])];
  for (const i of ticks) {
    svg.append(svgNode("line", { x1: x(i), y1: H - B, x2: x(i), y2: H - B + 4, class: "tick" }));
    svg.append(svgNode("text", { x: x(i), y: H - B + 16, "text-anchor": "middle" }, String(i)));
  }
  svg.append(svgNode("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "title" }, "Attempts"));
  svg.append(svgNode("text", { x: 6, y: 13, class: "title" }, "Rating"));
  svg.append(svgNode("polyline", { points: series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "), class: "line" }));
  series.forEach((v, i) => svg.append(svgNode("circle", { cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: n > 60 ? 1.5 : 3, class: "point" })));
  box.append(svg);
}

/** A past attempt's themes: kept with it, or the puzzle's as listed. */
function themesOf(entry) {
  if (Array.isArray(entry.themes) && entry.themes.length) return entry.themes;
  const p = (entry.set === "game" ? T().fromGame : T().shipped).find(q => q.name === entry.puzzle);
  return p ? p.themes : [];
}

/** The first answers by theme: attempts, solved, the share right. */
function themeTable() {
  const box = $("theme-results");
  box.innerHTML = "";
  const counts = new Map();
  for (const e of T().learner.history) {
    for (const theme of themesOf(e)) {
      const c = counts.get(theme) || { attempts: 0, solved: 0 };
      c.attempts++;
      if (e.solved) c.solved++;
      counts.set(theme, c);
    }
  }
  if (!counts.size) return;
  const table = document.createElement("table");
  table.append(Object.assign(document.createElement("caption"), { textContent: "Results by theme (first answers)" }));
  const head = table.createTHead().insertRow();
  for (const title of ["Theme", "Attempts", "Solved", "% right"]) head.append(Object.assign(document.createElement("th"), { scope: "col", textContent: title }));
  const body = table.createTBody();
  for (const [theme, c] of [...counts].sort((a, b) => b[1].attempts - a[1].attempts || a[0].localeCompare(b[0]))) {
    const row = body.insertRow();
    row.append(Object.assign(document.createElement("th"), { scope: "row", textContent: theme }));
    for (const v of [c.attempts, c.solved, `${Math.round(100 * c.solved / c.attempts)}%`]) row.insertCell().textContent = String(v);
  }
  box.append(table);
}

function progress() {
  ratingGraph();
  themeTable();
}

function themes() {
  const box = $("themes");
  for (const old of box.querySelectorAll("label")) old.remove();
  for (const theme of [...new Set(puzzles().flatMap(p => p.themes))].sort()) {
    const label = document.createElement("label");
    const input = Object.assign(document.createElement("input"), { type: "checkbox", value: theme });
    input.onchange = list;
    label.append(input, " ", theme);
    box.appendChild(label);
  }
}

/** Whether the next move played is a puzzle's answer. */
export const takesAnswer = () => S.puzzle && !S.puzzle.answered && S.game.moves.length === 0;

export function onUndo() {
  if (S.puzzle && S.game.moves.length === 1) { update(s => ({ puzzle: { ...s.puzzle, answered: false } })); showActions(); }
}

export function leave() {
  update(s => ({ puzzle: null, trainer: { ...s.trainer, playback: s.trainer.playback + 1 } }));
  $("question").textContent = "";
  showActions();
}

/**
 * The buttons beside the verdict: View the solution before an answer; Retry and View the
 * solution after a wrong one; Next puzzle after a right one or the solution.
 */
function showActions() {
  const p = S.puzzle;
  const state = !p ? "none" : p.busy ? "busy" : !p.answered ? "open" : p.shown ? "shown" : p.verdict && p.verdict.correct ? "right" : "wrong";
  $("retry").hidden = state !== "wrong";
  $("solution").hidden = state !== "open" && state !== "wrong";
  $("verdict-next").hidden = state !== "right" && state !== "shown";
  $("puzzle-actions").hidden = state === "none" || state === "busy";
  // (on a phone the question and the verdict then sit by the board: style.css)
  document.body.classList.toggle("on-puzzle", !!p);
}

/** The board in view, from its top, where it is not all in view (on a phone after a tap far below). */
function showBoard() {
  const r = $("board-area").getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) $("board-area").scrollIntoView({ block: "start" });
}

/** The board and the verdict in view (on a phone the verdict is under the board), its buttons too. */
function reveal() {
  showBoard();
  $("puzzle-actions").scrollIntoView({ block: "nearest" });
  $("answer").scrollIntoView({ block: "nearest" });
}

/** The puzzle's best move, as its file (the `start` sent with it) stores it. */
function bestMoveOf(puzzle) {
  const m = /^solution:[^\n]*\n(?:[ \t].*\n|\n)*?[ \t]+best_move:[ \t]*["']?([^"'\s]+)/m.exec(puzzle.start || "");
  return m ? m[1] : null;
}

/** The line made the main line at the puzzle's start: the solution's, or the right answer's. */
function mainFirst(move) {
  const root = S.game.root;
  const i = root.children.findIndex(c => c.move === move);
  if (i > 0) update(() => { root.children.unshift(...root.children.splice(i, 1)); });
}

// Which puzzle was asked for last: a puzzle whose file comes after a later choice's is dropped.
// (`S.trainer.loading`: a puzzle whose file comes after a later choice's is dropped)
async function loadPuzzle(name) {
  if (!name) return;
  if (!mayDiscard("Loading a puzzle")) return;
  const ticket = T().loading + 1;
  set({ loading: ticket });
  const p = puzzles().find(q => q.name === name);
  try {
    const r = p && p.start ? p : await api(`/api/puzzles/${encodeURIComponent(name)}`);
    if (ticket !== T().loading) return;
    startGame(newGameState({ start: r.start }));
    update({ puzzle: { name, set: $("puzzle-set").value, question: r.question, themes: r.themes, hints: r.hints || [], hinted: 0, answered: false, rating: ratingOf(p || r), start: r.start }, engineSide: "" });
    $("opponent").value = "";
    $("puzzle").value = name;
    const entry = (T().learner.reviews || {})[name];
    const review = validReview(entry) && entry.due <= Date.now();
    $("question").textContent = `${r.title || name}: ${r.question}${review ? " (a review: missed before, not rated again)" : attempted(name) ? " (tried before: not rated again)" : ""}`;
    $("answer").textContent = "Place the building you would play.";
    showActions();
    await refresh();
    // Load and Next puzzle are far below the board on a phone: the board and the question come into view.
    if (ticket === T().loading && S.puzzle && S.puzzle.name === name) showBoard();
  } catch (e) { if (ticket === T().loading) say(e.message, true); }
}

/** An unsolved, untried puzzle near the learner's rating among the filters (the nearest first). */
function next() {
  const pool = filtered();
  // A puzzle due for review comes before a new one.
  const reviews = $("puzzle-set").value === "game" ? [] : dueNow(pool);
  if (reviews.length) { loadPuzzle(reviews[0]); return; }
  const fresh = pool.filter(p => !attempted(p.name) && !T().learner.solved.includes(p.name));
  const candidates = fresh.length ? fresh : pool.filter(p => !T().learner.solved.includes(p.name));
  if (!candidates.length) { $("answer").textContent = pool.length ? "Every puzzle of this choice is solved: tick other themes or another level." : "No puzzle has these themes and level."; return; }
  candidates.sort((a, b) => Math.abs(ratingOf(a).rating - T().learner.rating) - Math.abs(ratingOf(b).rating - T().learner.rating) || a.name.localeCompare(b.name));
  loadPuzzle(candidates[0].name);
}

/** Rates the first answer to a puzzle: a win if right, a loss if wrong (however it ends). */
async function rate(puzzle, solved) {
  const before = Math.round(T().learner.rating);
  const entry = { puzzle: puzzle.name, set: puzzle.set, themes: puzzle.themes || [], time: new Date().toISOString(), solved, rating_before: T().learner.rating, rated: false };
  if (puzzle.set === "shipped") {
    try {
      const r = await api("/api/rating", { learner: { rating: T().learner.rating, deviation: T().learner.deviation, volatility: T().learner.volatility }, puzzle: puzzle.rating, solved }, { retries: 3 });
      update(() => { Object.assign(T().learner, { rating: r.learner.rating, deviation: r.learner.deviation, volatility: r.learner.volatility }); });
      entry.rated = true;
    } catch (e) { entry.error = e.message; }
  }
  entry.rating_after = T().learner.rating;
  update(() => {
    const l = T().learner;
    l.streak = solved ? l.streak + 1 : 0;
    l.best_streak = Math.max(l.best_streak, l.streak);
    l.history.push(entry);
  });
  store();
  showLearner();
  if (!entry.rated) return puzzle.set === "shipped" ? ` (not rated: ${entry.error})` : " (practice: puzzles from a game are not rated)";
  const change = Math.round(T().learner.rating) - before;
  return ` Rating ${change >= 0 ? "+" : "\u2212"}${Math.abs(change)}: ${Math.round(T().learner.rating)}.`;
}

/** The server's verdict on `move` as the answer to `puzzle` (checked exactly). */
function check(puzzle, move) {
  return puzzle.set === "game"
    ? api("/api/puzzles/answer", { start: puzzle.start, move }, { retries: 3 })
    : api(`/api/puzzles/${encodeURIComponent(puzzle.name)}/answer`, { move }, { retries: 3 });
}

export async function answer(move) {
  const puzzle = S.puzzle;
  if (puzzle.busy) return; // an answer or the solution is on its way
  $("answer").textContent = "Checking the answer exactly...";
  update(() => { puzzle.busy = true; });
  showActions();
  const key = gameKey();
  const current = () => S.puzzle === puzzle && gameKey() === key;
  try {
    const r = await check(puzzle, move);
    if (!current()) return;
    const first = !attempted(puzzle.name) && !puzzle.tried;
    if (!puzzle.tried) schedule(puzzle, r.correct);
    update(() => {
      puzzle.tried = true;
      if (r.correct && !T().learner.solved.includes(puzzle.name)) T().learner.solved.push(puzzle.name);
    });
    const rating = first ? await rate(puzzle, r.correct) : " (already tried: not rated again)";
    store();
    list();
    // The attempt is counted; what it shows is for the puzzle and the moment it was asked at.
    if (!current()) return;
    const out = $("answer");
    out.innerHTML = "";
    const auto = r.correct && $("auto-next").checked;
    if (r.correct) {
      out.append(Object.assign(document.createElement("b"), { className: "right", textContent: "Right! " }), `${r.played}\nBest play goes on: ${r.reply_line.join("; ")}\n(Redo steps through it.)${rating}${auto ? "\nThe next puzzle comes in a moment." : ""}`);
    } else {
      out.append(Object.assign(document.createElement("b"), { className: "wrong", textContent: `Not the best: it gives up ${r.loss} square${r.loss === 1 ? "" : "s"}. ` }), `${r.played}\nThe refutation: ${r.reply_line.join("; ")}\n(Redo plays it out on the board; Retry to answer again.)${rating}`);
    }
    update(() => { puzzle.answered = true; puzzle.shown = false; puzzle.verdict = r; });
    graft([], [move, ...r.reply_moves]);
    if (r.correct) mainFirst(move);
    goTo([move]);
    update({ cell: null });
    say("");
    const after = gameKey();
    const still = () => S.puzzle === puzzle && gameKey() === after;
    update(() => { puzzle.busy = false; });
    showActions();
    refresh().then(() => {
      if (!still()) return;
      reveal();
      // Never after a wrong answer; the pause counts from when the board shows the answer, and
      // the next puzzle comes only if the T().learner is still on it.
      if (auto) setTimeout(() => { if (still() && $("auto-next").checked) next(); }, AUTO_NEXT_MS);
    });
  } catch (e) { if (S.puzzle === puzzle) $("answer").textContent = e.message; }
  finally {
    update(() => { puzzle.busy = false; });
    if (S.puzzle === puzzle) showActions();
  }
}

/** Retry after a wrong answer: back to the puzzle's start, to answer again (not rated again). */
function retry() {
  const puzzle = S.puzzle;
  if (!puzzle || puzzle.busy || !puzzle.answered || puzzle.shown || (puzzle.verdict && puzzle.verdict.correct)) return;
  update(s => { puzzle.answered = false; return { trainer: { ...s.trainer, playback: s.trainer.playback + 1 } }; });
  goToPath([]);
  $("answer").textContent = "Try again: place the building you would play (this puzzle is not rated again).";
  showActions();
}

// (`S.trainer.playback`: the solution played out on the board; a new one, or leaving, stops the last)

/**
 * View the solution: the best move and the best line after it, asked of the server (answering
 * with the best move), played out on the board move by move. Before any answer it counts as a
 * failed attempt (a loss, as on lichess).
 */
async function solution() {
  const puzzle = S.puzzle;
  if (!puzzle) { $("answer").textContent = "Load a puzzle first: the solution is a puzzle's."; return; }
  if (puzzle.busy) return;
  const best = bestMoveOf(puzzle);
  if (!best) { $("answer").textContent = "This puzzle's file stores no best move: place a building and the verdict names it."; return; }
  update(() => { puzzle.busy = true; });
  showActions();
  $("answer").textContent = "Looking up the solution...";
  const key = gameKey();
  const current = () => S.puzzle === puzzle && gameKey() === key;
  try {
    const r = await check(puzzle, best);
    if (!current()) return;
    const first = !attempted(puzzle.name) && !puzzle.tried;
    if (!puzzle.tried) schedule(puzzle, false);
    update(() => { puzzle.tried = true; });
    const rating = first ? ` Seen before an answer: a failed attempt.${await rate(puzzle, false)}` : "";
    store();
    list();
    if (!current()) return;
    const line = [best, ...r.reply_moves];
    const order = nths(line);
    const said = line.map((m, i) => moveWords(m, S.theme, null, order[i]));
    const out = $("answer");
    out.innerHTML = "";
    out.append(Object.assign(document.createElement("b"), { textContent: "The solution: " }),
      `${said[0]}${said.length > 1 ? `, then best play: ${said.slice(1).join("; ")}.` : "."}\n(Played out on the board move by move; the move list steps through it.)${rating}`);
    update(() => { puzzle.answered = true; puzzle.shown = true; puzzle.busy = false; });
    showActions();
    graft([], line);
    mainFirst(best);
    const ticket = T().playback + 1;
    set({ playback: ticket });
    $("board").scrollIntoView({ block: "nearest" });
    for (let i = 1; i <= line.length; i++) {
      if (i > 1) {
        const at = gameKey();
        await new Promise(resolve => setTimeout(resolve, STEP_MS));
        // Stopped by anything the T().learner does meanwhile (a move of the list, Undo, another puzzle).
        if (ticket !== T().playback || S.puzzle !== puzzle || gameKey() !== at) return;
      }
      goToPath(line.slice(0, i));
    }
  } catch (e) { if (S.puzzle === puzzle) $("answer").textContent = e.message; }
  finally {
    update(() => { puzzle.busy = false; });
    if (S.puzzle === puzzle) showActions();
  }
}

function hint() {
  const puzzle = S.puzzle;
  if (!puzzle || !puzzle.hints.length) { $("answer").textContent = "Load a puzzle first: hints are for puzzles."; return; }
  update(() => { puzzle.hinted = Math.min(puzzle.hinted + 1, puzzle.hints.length); });
  $("answer").textContent = "Hint: " + puzzle.hints.slice(0, puzzle.hinted).join(" ") + (puzzle.hinted < puzzle.hints.length ? " (Hint again for more.)" : "");
}

/**
 * The moves of the line shown marked as mistakes: by the analysis (? and ??, an estimate) or by
 * the player (the glyphs ? and ??), with their words, by move number.
 */
function markedMoves(moves) {
  const nodes = lineNodes(), order = nths(moves);
  const marks = { mistake: "?", blunder: "??" };
  const out = [];
  nodes.forEach((node, i) => {
    const analysis = node && node.judged && marks[node.judged.mark];
    const own = node && (node.mark === "?" || node.mark === "??") ? node.mark : null;
    if (analysis || own) out.push({ ply: i + 1, words: moveWords(moves[i], S.theme, null, order[i]), mark: analysis || own, by: analysis ? "the analysis" : "you" });
  });
  return out;
}

// The last T().report of Puzzles from this game: the game asked about (its request, sent again by
// Search longer), the marked moves, what became of each move; `ticket` drops an older answer.
// (`S.trainer.report` and `reportTicket`, state.js: an older report's answer is dropped)

/** The T().report under the trainer's buttons: each marked move that made no puzzle, and why. */
function showReport() {
  const box = $("from-game-report");
  box.hidden = !T().report;
  if (!T().report) return;
  const list = $("from-game-moves");
  list.innerHTML = "";
  const missed = T().report.marked.filter(m => !T().fromGame.some(p => p.ply === m.ply));
  const said = [];
  for (const m of missed) {
    const move = T().report.moves.get(m.ply);
    let why = move ? move.reason : "not looked at";
    // The analysis judges with 50,000 nodes a position: the solver may prove it wrong.
    if (move && move.verdict === "played-best" && m.by === "the analysis") why += " (the analysis's mark was an estimate)";
    if (move && move.longer) why += "; a longer search may prove it";
    const item = document.createElement("li");
    item.textContent = `Move ${m.ply}, ${m.words} (${m.mark}, marked by ${m.by}): ${why}.`;
    list.appendChild(item);
    said.push(m.ply);
  }
  $("from-game-missed").textContent = !T().report.marked.length
    ? "No move of this game is marked ? or ??: Analyse game marks its mistakes."
    : missed.length ? `${missed.length} of the ${T().report.marked.length} moves marked ? or ?? made no puzzle:` : `Every move marked ? or ?? made a puzzle.`;
  // A longer search: the marked moves it may still prove (or, with none marked, every such move).
  const open = [...T().report.moves.values()].filter(m => m.longer);
  const marked = open.filter(m => T().report.marked.some(k => k.ply === m.ply));
  update(() => { T().report.longerPlies = (T().report.marked.length ? marked : open).map(m => m.ply); });
  const button = $("from-game-longer");
  button.hidden = !T().report.longerPlies.length;
  button.disabled = !!T().report.busy;
  const n = T().report.longerPlies.length;
  button.textContent = T().report.busy ? "Searching longer..." : `Search longer (${n} move${n === 1 ? "" : "s"}, up to ${Math.round(T().report.seconds)} s)`;
}

/** Files the server's answer: its puzzles join the set (by move), its verdicts the T().report. */
function fileAnswer(r) {
  for (const p of r.puzzles) {
    const puzzle = Object.assign({ name: `game-move-${p.ply}`, difficulty: p.difficulty || "medium", themes: p.themes || [] }, p);
    set({ fromGame: [...T().fromGame.filter(q => q.ply !== p.ply), puzzle].sort((a, b) => a.ply - b.ply) });
  }
  update(() => {
    for (const m of r.moves || []) T().report.moves.set(m.ply, m);
    T().report.seconds = r.seconds || T().report.seconds;
  });
  const option = $("puzzle-set").querySelector('option[value="game"]');
  option.disabled = !T().fromGame.length;
  option.textContent = `from this game (${T().fromGame.length})`;
  if (T().fromGame.length) { $("puzzle-set").value = "game"; themes(); list(); }
}

/** The puzzles of the game on the board: every move that lost squares, where the solver proves it. */
async function fromThisGame() {
  const moves = allMoves();
  if (!moves.length) { $("answer").textContent = "No moves yet: play or open a game first."; return; }
  $("answer").textContent = `Looking for puzzles in the ${moves.length === 1 ? "move" : `${moves.length} moves`} of this game (exactly, where the solver can)...`;
  const body = S.game.start ? { start: S.game.start, moves } : { rules: S.game.rules, moves };
  const ticket = T().reportTicket + 1;
  set({ reportTicket: ticket, fromGame: [], report: null });
  showReport();
  try {
    const r = await api("/api/puzzles/from-game", body, { retries: 3 });
    if (ticket !== T().reportTicket) return;
    set({ report: { body, marked: markedMoves(moves), moves: new Map(), seconds: r.seconds || 30, busy: false } });
    fileAnswer(r);
    showReport();
    if (!T().fromGame.length) { $("answer").textContent = `No puzzle in this game: ${count(r.tried, "position")} tried, ${r.skipped} not proven in time; no other move lost squares where one move alone was best. Why each marked move made none: under the trainer's buttons.`; return; }
    $("answer").textContent = `${T().fromGame.length} puzzle${T().fromGame.length === 1 ? "" : "s"} from this game (${count(r.tried, "position")} tried, ${r.skipped} not proven): pick one, or Next puzzle.`;
  } catch (e) { if (ticket === T().reportTicket) $("answer").textContent = e.message; }
}

/** Search longer: the moves a quick search could not settle, with a larger (bounded) budget. */
async function searchLonger() {
  const mine = T().report;
  if (!mine || mine.busy || !mine.longerPlies.length) return;
  const ticket = T().reportTicket;
  update(() => { mine.busy = true; });
  showReport();
  $("from-game-said").textContent = `Searching ${mine.longerPlies.length} move${mine.longerPlies.length === 1 ? "" : "s"} longer (up to ${Math.round(mine.seconds)} s)...`;
  try {
    const r = await api("/api/puzzles/from-game", Object.assign({}, mine.body, { longer: true, plies: mine.longerPlies }), { retries: 3 });
    if (ticket !== T().reportTicket || T().report !== mine) return;
    const before = T().fromGame.length;
    fileAnswer(r);
    const found = T().fromGame.length - before;
    $("from-game-said").textContent = `The longer search: ${r.tried} position${r.tried === 1 ? "" : "s"} tried, ${r.skipped} still not proven, ${found} new puzzle${found === 1 ? "" : "s"}.`;
  } catch (e) { if (ticket === T().reportTicket && T().report === mine) $("from-game-said").textContent = e.message; }
  finally {
    update(() => { mine.busy = false; });
    if (T().report === mine) showReport();
  }
}

function exportHistory() {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([JSON.stringify({ format: "cathedral-trainer-history", version: 1, learner: T().learner }, null, 1)], { type: "application/json" }));
  link.download = "cathedral-trainer-history.json";
  document.body.appendChild(link);
  link.click();
  link.remove();
}

async function importHistory(file) {
  try {
    let data = null;
    // A file that is not JSON at all: said in the page's words, not the parser's.
    try { data = JSON.parse(await file.text()); } catch (_) { throw new Error("this is not a history saved by Export history (it is not a JSON file)"); }
    if (!data || data.format !== "cathedral-trainer-history" || !valid(data.learner)) throw new Error("expected a file saved by Export history");
    // Merged: attempts by time, each puzzle's first attempt kept; the rating is the newer one's.
    const seen = new Set();
    const history = [...T().learner.history, ...data.learner.history]
      .sort((a, b) => String(a.time).localeCompare(String(b.time)))
      .filter(h => { const k = `${h.puzzle}|${h.time}`; if (seen.has(k)) return false; seen.add(k); return true; });
    const newer = String((data.learner.history.at(-1) || {}).time || "") > String((T().learner.history.at(-1) || {}).time || "") ? data.learner : T().learner;
    set({ learner: { ...newer, history, solved: [...new Set([...T().learner.solved, ...data.learner.solved])], reviews: merged(T().learner.reviews, data.learner.reviews) } });
    store();
    list();
    $("answer").textContent = `Imported ${file.name}: ${count(history.length, "attempt")}, ${count(T().learner.solved.length, "puzzle")} solved.`;
  } catch (e) { $("answer").textContent = `${file.name}: ${e.message}`; }
}

export async function init() {
  set({ learner: load() });
  $("difficulty").onchange = list;
  $("puzzle-set").onchange = () => { themes(); list(); };
  $("load").onclick = () => loadPuzzle($("puzzle").value);
  $("next").onclick = () => next();
  $("verdict-next").onclick = () => next();
  $("retry").onclick = () => retry();
  $("solution").onclick = () => solution();
  $("hint").onclick = hint;
  $("from-game").onclick = () => { $("from-game-said").textContent = ""; fromThisGame(); };
  $("from-game-longer").onclick = searchLonger;
  $("history-export").onclick = exportHistory;
  $("history-import").onclick = () => $("history-file").click();
  $("history-file").onchange = async () => { const f = $("history-file").files[0]; $("history-file").value = ""; if (f) await importHistory(f); };
  showLearner();
  try {
    set({ shipped: await api("/api/puzzles") });
  } catch (e) { say(`The puzzles could not be listed: ${e.message}`, true); return; }
  themes();
  list();
  // A puzzle's link (`#puzzle=NAME`, from Copy link while it is on the board) opens it here.
  const linked = new URLSearchParams(location.hash.slice(1)).get("puzzle");
  if (linked) await loadPuzzle(linked);
}

/** The address of the T().shipped puzzle on the board, at its start; null for anything else. */
export function puzzleLink() {
  if (!S.puzzle || S.puzzle.set !== "shipped" || S.game.moves.length) return null;
  return `puzzle=${encodeURIComponent(S.puzzle.name)}`;
}
